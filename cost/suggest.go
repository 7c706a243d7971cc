package cost

import (
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/crdvalidation"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/limits"
)

// Bound keywords.
const (
	MaxItems      = "maxItems"
	MaxProperties = "maxProperties"
	MaxLength     = "maxLength"
)

const (
	// unboundedSearchMax is the upper end of the search for a bound on an
	// unbounded node: no array, map or string of a request is larger than
	// the request (limits.MaxRequestSizeBytes), so neither is any estimate.
	unboundedSearchMax = limits.MaxRequestSizeBytes
	// maxCandidates limits the nodes below a rule that are tried.
	maxCandidates = 64
	// searchProbes is the most probes one binary search makes
	// (2 + log2(unboundedSearchMax)).
	searchProbes = 25
)

// candidate is one bound to try on the node at steps.
type candidate struct {
	steps   []crdvalidation.CELStep
	keyword string
	current *int64
}

// suggest fills the Suggestions of every expression over its limit or
// contributing to a schema total over the limit.
func (a *analyzer) suggest(rep *Report) {
	for i := range rep.Rules {
		r := &rep.Rules[i]
		if r.CompileError != "" || (!r.OverBudget && !r.ContributesToTotalOverLimit) {
			continue
		}
		target, label := uint64(0), ""
		if r.OverBudget {
			target, label = PerExpressionLimit, "perExpression"
		}
		if r.ContributesToTotalOverLimit {
			total := rep.Schemas[r.schema].TotalEstimatedCost
			others := total - r.EstimatedCost
			if others < PerCRDLimit {
				if t := PerCRDLimit - others; label == "" || t < target {
					target, label = t, "perCRD"
				}
			}
		}
		if label == "" {
			r.SuggestionNote = othersExceed
			continue
		}
		r.Suggestions = a.suggestFor(r, target, label)
		if len(r.Suggestions) == 0 {
			r.SuggestionNote = "no single maxItems, maxProperties or maxLength brings it under: simplify the rule"
		}
	}
}

func (a *analyzer) probe(r *Rule, c candidate, v int64) (uint64, bool) {
	root := withBound(r.root, c.steps, c.keyword, v)
	e := a.estimate(root, r.steps, r.Index)
	if e.err != nil || e.res.Error != nil {
		return 0, false
	}
	if r.Field == FieldMessageExpression {
		return e.msg, true
	}
	return e.rule, true
}

func (a *analyzer) suggestFor(r *Rule, target uint64, label string) []Suggestion {
	var out []Suggestion
	for _, c := range candidates(r.root, r.steps) {
		if a.outOfProbes(searchProbes) {
			break
		}
		f := func(v int64) (uint64, bool) { return a.probe(r, c, v) }
		if s, ok := search(f, c, target); ok {
			s.Path, s.DataPath = pathsOf(r.Schema, c.steps)
			s.Target = label
			out = append(out, s)
		}
	}
	return out
}

// candidates lists the bounds that can change the expression's cost: the
// arrays and maps enclosing the node (its cardinality) and the arrays, maps
// and strings of the node's subtree (the sizes the expression iterates).
func candidates(root *crd.JSONSchemaProps, steps []crdvalidation.CELStep) []candidate {
	var out []candidate
	cur := root
	for i, st := range steps {
		switch st.Kind {
		case crdvalidation.CELStepItems:
			out = append(out, candidate{steps: steps[:i:i], keyword: MaxItems, current: cur.MaxItems})
		case crdvalidation.CELStepAdditionalProperties:
			out = append(out, candidate{steps: steps[:i:i], keyword: MaxProperties, current: cur.MaxProperties})
		}
		cur = crdvalidation.ChildSchema(cur, st)
		if cur == nil {
			return out
		}
	}
	var below []candidate
	var walk func(s *crd.JSONSchemaProps, st []crdvalidation.CELStep)
	walk = func(s *crd.JSONSchemaProps, st []crdvalidation.CELStep) {
		if len(below) >= maxCandidates {
			return
		}
		switch s.Type {
		case "array":
			below = append(below, candidate{steps: st, keyword: MaxItems, current: s.MaxItems})
		case "string":
			below = append(below, candidate{steps: st, keyword: MaxLength, current: s.MaxLength})
		case "object":
			if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
				below = append(below, candidate{steps: st, keyword: MaxProperties, current: s.MaxProperties})
			}
		}
		next := func(c *crd.JSONSchemaProps, step crdvalidation.CELStep) {
			ns := make([]crdvalidation.CELStep, len(st), len(st)+1)
			copy(ns, st)
			walk(c, append(ns, step))
		}
		for _, k := range keys.Sorted(s.Properties) {
			p := s.Properties[k]
			next(&p, crdvalidation.CELStep{Kind: crdvalidation.CELStepProperty, Property: k})
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			next(s.AdditionalProperties.Schema, crdvalidation.CELStep{Kind: crdvalidation.CELStepAdditionalProperties})
		}
		if s.Items != nil && s.Items.Schema != nil {
			next(s.Items.Schema, crdvalidation.CELStep{Kind: crdvalidation.CELStepItems})
		}
	}
	walk(cur, steps[:len(steps):len(steps)])
	return append(out, below...)
}

// withBound returns root with keyword set to v on the node at steps,
// copying only the nodes on the way (the rest is shared, never modified).
func withBound(root *crd.JSONSchemaProps, steps []crdvalidation.CELStep, keyword string, v int64) *crd.JSONSchemaProps {
	cp := *root
	if len(steps) == 0 {
		switch keyword {
		case MaxItems:
			cp.MaxItems = &v
		case MaxProperties:
			cp.MaxProperties = &v
		case MaxLength:
			cp.MaxLength = &v
		}
		return &cp
	}
	switch st := steps[0]; st.Kind {
	case crdvalidation.CELStepProperty:
		props := make(map[string]crd.JSONSchemaProps, len(cp.Properties))
		for k, p := range cp.Properties {
			props[k] = p
		}
		if p, ok := props[st.Property]; ok {
			props[st.Property] = *withBound(&p, steps[1:], keyword, v)
		}
		cp.Properties = props
	case crdvalidation.CELStepItems:
		if cp.Items != nil && cp.Items.Schema != nil {
			it := *cp.Items
			it.Schema = withBound(it.Schema, steps[1:], keyword, v)
			cp.Items = &it
		}
	case crdvalidation.CELStepAdditionalProperties:
		if cp.AdditionalProperties != nil && cp.AdditionalProperties.Schema != nil {
			ap := *cp.AdditionalProperties
			ap.Schema = withBound(ap.Schema, steps[1:], keyword, v)
			cp.AdditionalProperties = &ap
		}
	}
	return &cp
}

// pathsOf renders the schema path and the data path of the node at steps.
func pathsOf(schemaPath string, steps []crdvalidation.CELStep) (string, string) {
	p := field.NewPath(schemaPath)
	data := ""
	for _, st := range steps {
		switch st.Kind {
		case crdvalidation.CELStepProperty:
			p = p.Child("properties").Key(st.Property)
			data = joinData(data, st.Property)
		case crdvalidation.CELStepItems:
			p = p.Child("items")
			data += "[*]"
		case crdvalidation.CELStepAdditionalProperties:
			p = p.Child("additionalProperties")
			data += "[*]"
		}
	}
	if data == "" {
		data = "<root>"
	}
	return p.String(), data
}

const othersExceed = "the other expressions alone exceed the schema limit"

// suggestTotals fills SchemaTotal.Suggestions for the schemas over the
// limit: bounds on the nodes of the contributing expressions, each
// re-estimating every expression whose node encloses or lies under the
// bounded node.
func (a *analyzer) suggestTotals(rep *Report) {
	for si := range rep.Schemas {
		st := &rep.Schemas[si]
		if !st.OverLimit {
			continue
		}
		var rules []*Rule
		for i := range rep.Rules {
			if rep.Rules[i].schema == si {
				rules = append(rules, &rep.Rules[i])
			}
		}
		seen := map[string]bool{}
		var cands []candidate
		for _, r := range rules {
			if !r.ContributesToTotalOverLimit {
				continue
			}
			for _, c := range candidates(st.root, r.steps) {
				k := c.keyword + " " + stepsKey(c.steps)
				if !seen[k] {
					seen[k] = true
					cands = append(cands, c)
				}
			}
		}
		for _, c := range cands {
			if a.outOfProbes(searchProbes) {
				break
			}
			var affected []*Rule
			var base uint64
			for _, r := range rules {
				if isPrefix(c.steps, r.steps) || isPrefix(r.steps, c.steps) {
					affected = append(affected, r)
					base = addSaturating(base, r.EstimatedCost)
				}
			}
			rest := st.TotalEstimatedCost - base
			total := func(v int64) (uint64, bool) {
				root := withBound(st.root, c.steps, c.keyword, v)
				t := rest
				for _, r := range affected {
					if r.CompileError != "" {
						continue
					}
					e := a.estimate(root, r.steps, r.Index)
					if e.err != nil {
						return 0, false
					}
					if r.Field == FieldMessageExpression {
						t = addSaturating(t, e.msg)
					} else {
						t = addSaturating(t, e.rule)
					}
				}
				return t, true
			}
			if s, ok := search(total, c, PerCRDLimit); ok {
				s.Path, s.DataPath = pathsOf(st.Schema, c.steps)
				s.Target = "schemaTotal"
				st.Suggestions = append(st.Suggestions, s)
			}
		}
		if len(st.Suggestions) == 0 {
			st.SuggestionNote = "no single maxItems, maxProperties or maxLength brings the total under: simplify the most expensive expressions"
			continue
		}
		for _, r := range rules {
			if r.SuggestionNote == othersExceed {
				r.SuggestionNote += ": see the bounds for the schema total"
			}
		}
	}
}

// search finds the largest bound v of c with f(v) <= target; ok is false
// when even 0 does not fit.
func search(f func(int64) (uint64, bool), c candidate, target uint64) (Suggestion, bool) {
	low, ok := f(0)
	if !ok || low > target {
		return Suggestion{}, false
	}
	hi := int64(unboundedSearchMax)
	if c.current != nil {
		hi = *c.current
	}
	lo, best := int64(0), low
	if hc, ok := f(hi); ok && hc <= target {
		lo, best = hi, hc
	} else {
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if mc, ok := f(mid); ok && mc <= target {
				lo, best = mid, mc
			} else {
				hi = mid
			}
		}
	}
	return Suggestion{Keyword: c.keyword, Max: lo, Current: c.current, EstimatedCost: best}, true
}

func isPrefix(p, s []crdvalidation.CELStep) bool {
	if len(p) > len(s) {
		return false
	}
	for i := range p {
		if p[i] != s[i] {
			return false
		}
	}
	return true
}

func stepsKey(steps []crdvalidation.CELStep) string {
	var b []byte
	for _, s := range steps {
		b = append(b, byte('0'+s.Kind), '/')
		b = append(b, s.Property...)
		b = append(b, 0)
	}
	return string(b)
}

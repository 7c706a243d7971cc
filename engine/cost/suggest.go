package cost

import (
	"github.com/crdlab/crdlab/engine/cel"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/crd/validation"
	"github.com/crdlab/crdlab/engine/field"
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
	// the request (cel.MaxRequestSizeBytes), so neither is any estimate.
	unboundedSearchMax = cel.MaxRequestSizeBytes
	// maxCandidates limits the nodes below a rule that are tried.
	maxCandidates = 64
)

// candidate is one bound to try on the node at steps.
type candidate struct {
	steps   []validation.CELStep
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
			continue
		}
		r.Suggestions = a.suggestFor(r, target, label)
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
		low, ok := a.probe(r, c, 0)
		if !ok || low > target {
			continue // this bound alone cannot bring it under
		}
		hi := int64(unboundedSearchMax)
		if c.current != nil {
			hi = *c.current
		}
		// largest v in [0, hi] with cost(v) <= target; cost(0) fits.
		lo, best := int64(0), low
		if hc, ok := a.probe(r, c, hi); ok && hc <= target {
			lo, best = hi, hc
		} else {
			for hi-lo > 1 {
				mid := lo + (hi-lo)/2
				mc, ok := a.probe(r, c, mid)
				if ok && mc <= target {
					lo, best = mid, mc
				} else {
					hi = mid
				}
			}
		}
		sp, dp := pathsOf(r.Schema, c.steps)
		out = append(out, Suggestion{Keyword: c.keyword, Path: sp, DataPath: dp, Max: lo, Current: c.current, Target: label, EstimatedCost: best})
	}
	return out
}

// candidates lists the bounds that can change the expression's cost: the
// arrays and maps enclosing the node (its cardinality) and the arrays, maps
// and strings of the node's subtree (the sizes the expression iterates).
func candidates(root *crd.JSONSchemaProps, steps []validation.CELStep) []candidate {
	var out []candidate
	cur := root
	for i, st := range steps {
		switch st.Kind {
		case validation.CELStepItems:
			out = append(out, candidate{steps: steps[:i:i], keyword: MaxItems, current: cur.MaxItems})
		case validation.CELStepAdditionalProperties:
			out = append(out, candidate{steps: steps[:i:i], keyword: MaxProperties, current: cur.MaxProperties})
		}
		cur = stepChild(cur, st)
		if cur == nil {
			return out
		}
	}
	var below []candidate
	var walk func(s *crd.JSONSchemaProps, st []validation.CELStep)
	walk = func(s *crd.JSONSchemaProps, st []validation.CELStep) {
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
		next := func(c *crd.JSONSchemaProps, step validation.CELStep) {
			ns := make([]validation.CELStep, len(st), len(st)+1)
			copy(ns, st)
			walk(c, append(ns, step))
		}
		for _, k := range sortedKeys(s.Properties) {
			p := s.Properties[k]
			next(&p, validation.CELStep{Kind: validation.CELStepProperty, Property: k})
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			next(s.AdditionalProperties.Schema, validation.CELStep{Kind: validation.CELStepAdditionalProperties})
		}
		if s.Items != nil && s.Items.Schema != nil {
			next(s.Items.Schema, validation.CELStep{Kind: validation.CELStepItems})
		}
	}
	walk(cur, steps[:len(steps):len(steps)])
	return append(out, below...)
}

// withBound returns root with keyword set to v on the node at steps,
// copying only the nodes on the way (the rest is shared, never modified).
func withBound(root *crd.JSONSchemaProps, steps []validation.CELStep, keyword string, v int64) *crd.JSONSchemaProps {
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
	case validation.CELStepProperty:
		props := make(map[string]crd.JSONSchemaProps, len(cp.Properties))
		for k, p := range cp.Properties {
			props[k] = p
		}
		if p, ok := props[st.Property]; ok {
			props[st.Property] = *withBound(&p, steps[1:], keyword, v)
		}
		cp.Properties = props
	case validation.CELStepItems:
		if cp.Items != nil && cp.Items.Schema != nil {
			it := *cp.Items
			it.Schema = withBound(it.Schema, steps[1:], keyword, v)
			cp.Items = &it
		}
	case validation.CELStepAdditionalProperties:
		if cp.AdditionalProperties != nil && cp.AdditionalProperties.Schema != nil {
			ap := *cp.AdditionalProperties
			ap.Schema = withBound(ap.Schema, steps[1:], keyword, v)
			cp.AdditionalProperties = &ap
		}
	}
	return &cp
}

// pathsOf renders the schema path and the data path of the node at steps.
func pathsOf(schemaPath string, steps []validation.CELStep) (string, string) {
	p := field.NewPath(schemaPath)
	data := ""
	for _, st := range steps {
		switch st.Kind {
		case validation.CELStepProperty:
			p = p.Child("properties").Key(st.Property)
			data = joinData(data, st.Property)
		case validation.CELStepItems:
			p = p.Child("items")
			data += "[*]"
		case validation.CELStepAdditionalProperties:
			p = p.Child("additionalProperties")
			data += "[*]"
		}
	}
	if data == "" {
		data = "<root>"
	}
	return p.String(), data
}

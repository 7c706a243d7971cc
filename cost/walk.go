package cost

import (
	"math"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/crdvalidation"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

type analyzer struct {
	// rel is the Kubernetes release whose CRD checks are reproduced;
	// cache compiles the rules as rel does (nil at the newest release:
	// every rule compiled afresh, as before releases were selectable).
	rel   kubeversion.Release
	cache *cel.CompileCache
	// probes counts the re-estimations made for suggestions.
	probes int
	// truncated is set when the suggestion search ran out of probes.
	truncated bool
}

// maxProbes bounds the re-estimations of one Analyze call (each compiles
// one expression), so that huge schemas over their limits stay fast.
const maxProbes = 2000

// outOfProbes reports whether n more probes exceed the budget, and
// records it.
func (a *analyzer) outOfProbes(n int) bool {
	if a.probes+n > maxProbes {
		a.truncated = true
		return true
	}
	return false
}

// node is a schema node within validation rule scope.
type node struct {
	schema   *crd.JSONSchemaProps
	steps    []crdvalidation.CELStep
	path     *field.Path
	dataPath string
	card     *uint64 // nil: unbounded
}

// walkNodes visits the nodes that upstream's CRD validation gives a CEL
// context (properties, items and additionalProperties, never allOf & co.),
// in document order: the node, then its properties sorted by name, then
// additionalProperties, then items.
func walkNodes(root *crd.JSONSchemaProps, rootPath *field.Path, visit func(n *node)) {
	one := uint64(1)
	var walk func(n *node)
	walk = func(n *node) {
		visit(n)
		s := n.schema
		childCard := crdvalidation.ChildCardinality(n.card, s)
		child := func(c *crd.JSONSchemaProps, step crdvalidation.CELStep, p *field.Path, dp string) {
			steps := make([]crdvalidation.CELStep, len(n.steps), len(n.steps)+1)
			copy(steps, n.steps)
			walk(&node{schema: c, steps: append(steps, step), path: p, dataPath: dp, card: childCard})
		}
		names := keys.Sorted(s.Properties)
		for _, k := range names {
			p := s.Properties[k]
			child(&p, crdvalidation.CELStep{Kind: crdvalidation.CELStepProperty, Property: k},
				n.path.Child("properties").Key(k), joinData(n.dataPath, k))
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			child(s.AdditionalProperties.Schema, crdvalidation.CELStep{Kind: crdvalidation.CELStepAdditionalProperties},
				n.path.Child("additionalProperties"), n.dataPath+"[*]")
		}
		if s.Items != nil && s.Items.Schema != nil {
			child(s.Items.Schema, crdvalidation.CELStep{Kind: crdvalidation.CELStepItems},
				n.path.Child("items"), n.dataPath+"[*]")
		}
	}
	walk(&node{schema: root, path: rootPath, card: &one})
}

func joinData(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func addSaturating(a, b uint64) uint64 {
	if math.MaxUint64-a < b {
		return math.MaxUint64
	}
	return a + b
}

// nodeAt follows steps from root; nil when a step is missing.
func nodeAt(root *crd.JSONSchemaProps, steps []crdvalidation.CELStep) *crd.JSONSchemaProps {
	cur := root
	for _, st := range steps {
		cur = crdvalidation.ChildSchema(cur, st)
		if cur == nil {
			return nil
		}
	}
	return cur
}

// cardinalityAt is the context cardinality of the node at steps.
func cardinalityAt(root *crd.JSONSchemaProps, steps []crdvalidation.CELStep) *uint64 {
	one := uint64(1)
	card := &one
	cur := root
	for _, st := range steps {
		card = crdvalidation.ChildCardinality(card, cur)
		cur = crdvalidation.ChildSchema(cur, st)
		if cur == nil {
			return nil
		}
	}
	return card
}

// exprCost is one probe: the cost upstream charges for rule i of the node
// at steps (rule: max × cardinality; msg: the messageExpression's max).
type exprCost struct {
	rule, msg uint64
	card      uint64
	bounded   bool
	res       crdvalidation.CELRuleResult
	err       error
}

// estimate compiles rule i alone on the node at steps of root.
func (a *analyzer) estimate(root *crd.JSONSchemaProps, steps []crdvalidation.CELStep, i int) exprCost {
	a.probes++
	n := nodeAt(root, steps)
	if n == nil || i >= len(n.XValidations) {
		return exprCost{err: errNoNode}
	}
	// The rule alone, on the node inside root: CompileRules derives the
	// node's type from its topmost ancestor with rules, whose own subtree
	// (not an override of the node) says which rules the node has.
	rule := n.XValidations[i]
	root = withNode(root, steps, func(s *crd.JSONSchemaProps) { s.XValidations = crd.ValidationRules{rule} })
	single := nodeAt(root, steps)
	res, err := crdvalidation.CompileRules(crdvalidation.CELNode{Root: root, Steps: steps, Schema: single}, a.cache)
	if err != nil || len(res) != 1 {
		if err == nil {
			err = errNoNode
		}
		return exprCost{err: err}
	}
	return costOf(res[0], cardinalityAt(root, steps))
}

func costOf(r crdvalidation.CELRuleResult, card *uint64) exprCost {
	c := exprCost{res: r, msg: r.MessageExpressionMaxCost}
	if card != nil {
		c.card, c.bounded = *card, true
	} else {
		c.card = r.MaxCardinality
	}
	c.rule = crdvalidation.MultiplyWithOverflowGuard(r.MaxCost, c.card)
	return c
}

type analyzeError string

func (e analyzeError) Error() string { return string(e) }

const errNoNode = analyzeError("schema node not found")

// analyzeSchema lists the rules of one openAPIV3Schema and its total, as
// upstream's TotalCost sums them.
func (a *analyzer) analyzeSchema(rep *Report, idx int, sr schemaRoot) {
	var total uint64
	first := len(rep.Rules)
	walkNodes(sr.schema, field.NewPath(sr.path), func(n *node) {
		if len(n.schema.XValidations) == 0 {
			return
		}
		res, err := crdvalidation.CompileRules(crdvalidation.CELNode{Root: sr.schema, Steps: n.steps, Schema: n.schema}, a.cache)
		mins := a.minCosts(sr.schema, n)
		vpath := n.path.Child("x-kubernetes-validations")
		for i, xv := range n.schema.XValidations {
			r := Rule{
				Schema: sr.path, Path: n.path.String(), DataPath: displayData(n.dataPath), Index: i, Field: FieldRule,
				ErrorPath: vpath.Index(i).Child("rule").String(), Expression: xv.Rule,
				steps: n.steps, root: sr.schema, schema: idx,
			}
			if err != nil {
				r.CompileError = err.Error()
				rep.Rules = append(rep.Rules, r)
				continue
			}
			if i >= len(res) {
				continue
			}
			c := costOf(res[i], n.card)
			r.Cardinality, r.CardinalityBounded = c.card, c.bounded
			r.Estimate.Max = res[i].MaxCost
			// the min comes from a second compilation: only trust it when
			// that compilation agrees with crdvalidation.CompileRules on the max.
			if i < len(mins) && mins[i].ok && mins[i].max == res[i].MaxCost {
				v := mins[i].min
				r.Estimate.Min = &v
			}
			r.EstimatedCost = c.rule
			if res[i].Error != nil {
				r.CompileError = res[i].Error.Detail
			}
			rep.Rules = append(rep.Rules, r)
			total = addSaturating(total, c.rule)
			if xv.MessageExpression == "" {
				continue
			}
			m := r
			m.Field, m.Expression = FieldMessageExpression, xv.MessageExpression
			m.ErrorPath = vpath.Index(i).Child("messageExpression").String()
			m.Estimate = Estimate{Max: res[i].MessageExpressionMaxCost}
			m.EstimatedCost = res[i].MessageExpressionMaxCost
			m.CompileError = res[i].MessageExpressionError
			if m.CompileError == "" && !res[i].HasMessageExpression {
				// the rule failed to compile: upstream never gets to the
				// messageExpression, which adds nothing to the total.
				m.Estimate, m.EstimatedCost = Estimate{}, 0
			}
			rep.Rules = append(rep.Rules, m)
			if res[i].HasMessageExpression {
				total = addSaturating(total, m.EstimatedCost)
			}
		}
	})
	over := total > PerCRDLimit
	for i := first; i < len(rep.Rules); i++ {
		r := &rep.Rules[i]
		r.LimitShare = float64(r.EstimatedCost) / PerExpressionLimit
		r.OverBudget = r.EstimatedCost > PerExpressionLimit
	}
	rep.Schemas = append(rep.Schemas, SchemaTotal{
		Schema: sr.path, TotalEstimatedCost: total,
		LimitShare: float64(total) / PerCRDLimit, OverLimit: over, root: sr.schema,
	})
}

// minCosts compiles the rules of n with internal/cel directly, for the
// minimum estimates that crdvalidation.CompileRules does not return. The
// type of self is derived as CompileRules derives it.
func (a *analyzer) minCosts(root *crd.JSONSchemaProps, n *node) []minMax {
	st, dt := typeInfo(root, n, a.rel)
	if st == nil || dt == nil {
		return nil
	}
	res, err := a.cache.Compile(st, dt, limits.PerCallLimit, cel.NewExpressions)
	if err != nil {
		return nil
	}
	out := make([]minMax, len(res))
	for i, r := range res {
		out[i] = minMax{min: r.MinCost, max: r.MaxCost, ok: r.Error == nil}
	}
	return out
}

type minMax struct {
	min, max uint64
	ok       bool
}

// typeInfo mirrors upstream's CELSchemaContext.TypeInfo: the type of the
// topmost ancestor with rules, accessed down along the steps, falling back
// to converting a node on its own.
func typeInfo(root *crd.JSONSchemaProps, n *node, rel kubeversion.Release) (*schema.Structural, *cel.DeclType) {
	nodes := []*crd.JSONSchemaProps{root}
	for i, st := range n.steps {
		if i == len(n.steps)-1 {
			nodes = append(nodes, n.schema)
			continue
		}
		nodes = append(nodes, crdvalidation.ChildSchema(nodes[len(nodes)-1], st))
	}
	if len(n.steps) == 0 {
		nodes[0] = n.schema
	}
	start := -1
	for i, x := range nodes {
		if x != nil && len(x.XValidations) > 0 {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, nil
	}
	var st *schema.Structural
	var dt *cel.DeclType
	for i := start; i < len(nodes); i++ {
		if i > start && st != nil && dt != nil {
			if s2, d2 := accessType(st, dt, n.steps[i-1]); s2 != nil && d2 != nil {
				st, dt = s2, d2
				continue
			}
		}
		if nodes[i] == nil {
			return nil, nil
		}
		s, err := schema.NewStructural(nodes[i])
		if err != nil {
			return nil, nil
		}
		st, dt = s, cel.SchemaDeclTypeAt(s, i == 0 || nodes[i].XEmbeddedResource, rel)
		if dt == nil {
			return nil, nil
		}
	}
	return st, dt
}

func accessType(st *schema.Structural, dt *cel.DeclType, step crdvalidation.CELStep) (*schema.Structural, *cel.DeclType) {
	switch step.Kind {
	case crdvalidation.CELStepProperty:
		if st.Properties != nil {
			ps := st.Properties[step.Property]
			if esc, ok := cel.Escape(step.Property); ok {
				if f, ok := dt.Fields[esc]; ok {
					return &ps, f.Type
				}
			}
		}
	case crdvalidation.CELStepItems:
		if st.Items != nil {
			return st.Items, dt.ElemType
		}
	case crdvalidation.CELStepAdditionalProperties:
		if st.AdditionalProperties != nil {
			return st.AdditionalProperties.Structural, dt.ElemType
		}
	}
	return nil, nil
}

func displayData(p string) string {
	if p == "" {
		return "<root>"
	}
	return p
}

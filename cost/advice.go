package cost

import (
	"fmt"
	"strings"

	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/parser"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/crdvalidation"
)

// Advice kinds (Advice.Kind).
const (
	// AdviceStringConversion: a string() conversion, which the estimator
	// gives no size limit, makes the estimate unbounded.
	AdviceStringConversion = "stringConversion"
	// AdviceConcatenationInLoop: a string concatenation inside a macro
	// (all, exists, map, ...) is charged for every element.
	AdviceConcatenationInLoop = "concatenationInLoop"
	// AdviceNestedComprehension: a macro inside another multiplies the
	// sizes of both lists or maps.
	AdviceNestedComprehension = "nestedComprehension"
	// AdviceMatches: matches() is charged by the length of the string it
	// runs on.
	AdviceMatches = "matches"
	// AdviceBoundInComposition: a bound written only inside allOf, anyOf
	// or oneOf, which the estimator ignores (kubernetes#139523).
	AdviceBoundInComposition = "boundInComposition"
)

// Advice explains what makes an expression's estimate large, each figure
// re-estimated with the change it describes.
type Advice struct {
	Kind string `json:"kind"`
	// SubExpression is the part of the expression found responsible (as
	// cel-go's unparser prints it); EstimatedCostWithout the expression's
	// cost with it replaced by a constant of its type.
	SubExpression        string  `json:"subExpression,omitempty"`
	EstimatedCostWithout *uint64 `json:"estimatedCostWithout,omitempty"`
	// Move, for AdviceBoundInComposition: the bound to write on the node
	// itself, with the expression's cost once it is there.
	Move    *Suggestion `json:"move,omitempty"`
	Message string      `json:"message"`
}

// advise fills the Advice of every expression over its limit.
func (a *analyzer) advise(rep *Report) {
	for i := range rep.Rules {
		r := &rep.Rules[i]
		if r.CompileError != "" || !r.OverBudget {
			continue
		}
		r.Advice = append(r.Advice, a.culprits(r)...)
		r.Advice = append(r.Advice, a.compositionBounds(r)...)
	}
}

// estimateWith re-estimates r with its expression replaced by expr.
func (a *analyzer) estimateWith(r *Rule, expr string) (uint64, bool) {
	root := withNode(r.root, r.steps, func(n *crd.JSONSchemaProps) {
		xv := make(crd.ValidationRules, len(n.XValidations))
		copy(xv, n.XValidations)
		if r.Field == FieldMessageExpression {
			xv[r.Index].MessageExpression = expr
		} else {
			xv[r.Index].Rule = expr
		}
		n.XValidations = xv
	})
	e := a.estimate(root, r.steps, r.Index)
	if e.err != nil || e.res.Error != nil {
		return 0, false
	}
	if r.Field == FieldMessageExpression {
		if e.res.MessageExpressionError != "" {
			return 0, false
		}
		return e.msg, true
	}
	return e.rule, true
}

// culprit is one sub-expression to try without.
type culprit struct {
	kind, text, replacement string
}

// culprits parses the expression, lists the sub-expressions that often make
// estimates huge, and keeps those whose replacement by a constant brings
// the expression under its limit (or, when none does, divides its cost by
// 100 or more).
func (a *analyzer) culprits(r *Rule) []Advice {
	p, err := parser.NewParser(parser.Macros(parser.AllMacros...), parser.PopulateMacroCalls(true))
	if err != nil {
		return nil
	}
	tree, iss := p.Parse(common.NewTextSource(r.Expression))
	if iss != nil && len(iss.GetErrors()) > 0 {
		return nil
	}
	info := tree.SourceInfo()
	canonical, err := parser.Unparse(tree.Expr(), info)
	if err != nil {
		return nil
	}
	var found []culprit
	seen := map[string]bool{}
	add := func(kind string, e ast.Expr, repl string) {
		text, err := parser.Unparse(e, info)
		if err != nil || seen[kind+text] || !strings.Contains(canonical, text) || text == canonical {
			return
		}
		seen[kind+text] = true
		found = append(found, culprit{kind, text, repl})
	}
	var walk func(e ast.Expr, loops int)
	walk = func(e ast.Expr, loops int) {
		if e == nil {
			return
		}
		if mc, ok := info.GetMacroCall(e.ID()); ok && e.Kind() == ast.ComprehensionKind {
			if loops > 0 {
				repl := "true"
				if fn := mc.AsCall().FunctionName(); fn == "map" || fn == "filter" {
					repl = "[]"
				}
				add(AdviceNestedComprehension, e, repl)
			}
		}
		switch e.Kind() {
		case ast.CallKind:
			c := e.AsCall()
			switch {
			case c.FunctionName() == "string" && !c.IsMemberFunction() && len(c.Args()) == 1:
				add(AdviceStringConversion, e, "''")
			case c.FunctionName() == "matches":
				add(AdviceMatches, e, "true")
			case c.FunctionName() == "_+_" && loops > 0 && (isStringLit(c.Args()[0]) || isStringLit(c.Args()[1])):
				add(AdviceConcatenationInLoop, e, "''")
			}
			if c.IsMemberFunction() {
				walk(c.Target(), loops)
			}
			for _, arg := range c.Args() {
				walk(arg, loops)
			}
		case ast.ComprehensionKind:
			c := e.AsComprehension()
			walk(c.IterRange(), loops)
			walk(c.AccuInit(), loops)
			walk(c.LoopCondition(), loops+1)
			walk(c.LoopStep(), loops+1)
			walk(c.Result(), loops)
		case ast.SelectKind:
			walk(e.AsSelect().Operand(), loops)
		case ast.ListKind:
			for _, x := range e.AsList().Elements() {
				walk(x, loops)
			}
		case ast.MapKind:
			for _, x := range e.AsMap().Entries() {
				walk(x.AsMapEntry().Key(), loops)
				walk(x.AsMapEntry().Value(), loops)
			}
		case ast.StructKind:
			for _, x := range e.AsStruct().Fields() {
				walk(x.AsStructField().Value(), loops)
			}
		}
	}
	walk(tree.Expr(), 0)

	type tried struct {
		c    culprit
		cost uint64
	}
	var under, reduced []tried
	for _, c := range found {
		if a.outOfProbes(1) {
			break
		}
		cost, ok := a.estimateWith(r, strings.Replace(canonical, c.text, c.replacement, 1))
		if !ok {
			continue
		}
		switch {
		case cost <= PerExpressionLimit:
			under = append(under, tried{c, cost})
		case cost <= r.EstimatedCost/100:
			reduced = append(reduced, tried{c, cost})
		}
	}
	if len(under) == 0 {
		under = reduced
	}
	var out []Advice
	for _, t := range under {
		cost := t.cost
		out = append(out, Advice{Kind: t.c.kind, SubExpression: t.c.text, EstimatedCostWithout: &cost, Message: adviceMessage(t.c, cost)})
	}
	return out
}

func isStringLit(e ast.Expr) bool {
	if e.Kind() != ast.LiteralKind {
		return false
	}
	_, ok := e.AsLiteral().Value().(string)
	return ok
}

func adviceMessage(c culprit, cost uint64) string {
	without := fmt.Sprintf("without it (replaced by %s) the expression is re-estimated at %s", c.replacement, group(cost))
	switch c.kind {
	case AdviceStringConversion:
		return fmt.Sprintf("%s makes the estimate unbounded: the estimator gives the result of a string() conversion no size limit and charges what uses it as for the largest string; %s. Write the message or rule without the converted value", c.text, without)
	case AdviceConcatenationInLoop:
		return fmt.Sprintf("%s concatenates strings inside a macro, charged for every element and growing with each; %s", c.text, without)
	case AdviceNestedComprehension:
		return fmt.Sprintf("%s is a macro inside another: the costs of both lists or maps multiply; %s. Bound both (maxItems, maxProperties) or use a single pass (e.g. a set-like x-kubernetes-list-type)", c.text, without)
	case AdviceMatches:
		return fmt.Sprintf("%s runs a regular expression charged by the length of its string; %s. Set maxLength on that string", c.text, without)
	}
	return without
}

// compositionBounds finds the nodes the expression depends on that are
// unbounded but carry a bound inside allOf, anyOf or oneOf, which the
// estimator ignores (kubernetes#139523), and re-estimates the expression
// with the bound moved onto the node.
func (a *analyzer) compositionBounds(r *Rule) []Advice {
	var out []Advice
	for _, c := range candidates(r.root, r.steps) {
		if c.current != nil {
			continue
		}
		n := nodeAt(r.root, c.steps)
		if n == nil {
			continue
		}
		v, where, ok := composedBound(n, c.keyword)
		if !ok || a.outOfProbes(1) {
			continue
		}
		cost, ok := a.probe(r, c, v)
		if !ok {
			continue
		}
		s := Suggestion{Keyword: c.keyword, Max: v, Target: "perExpression", EstimatedCost: cost}
		s.Path, s.DataPath = pathsOf(r.Schema, c.steps)
		verdict := "which brings it under the limit"
		if cost > PerExpressionLimit {
			verdict = "still over the limit"
		}
		out = append(out, Advice{
			Kind: AdviceBoundInComposition, Move: &s,
			Message: fmt.Sprintf("%s: %d on %s is written only inside %s, which the cost estimator ignores (kubernetes#139523): write it on %s itself; re-estimated with it there, the expression costs %s, %s",
				c.keyword, v, s.DataPath, where, s.DataPath, group(cost), verdict),
		})
	}
	return out
}

// composedBound returns the smallest keyword bound in n's allOf (any
// entry) or, when every entry of anyOf or oneOf has one, the largest of
// those; where names the keyword.
func composedBound(n *crd.JSONSchemaProps, keyword string) (int64, string, bool) {
	get := func(s *crd.JSONSchemaProps) *int64 {
		switch keyword {
		case MaxItems:
			return s.MaxItems
		case MaxProperties:
			return s.MaxProperties
		case MaxLength:
			return s.MaxLength
		}
		return nil
	}
	best, found := int64(0), false
	for i := range n.AllOf {
		if v := get(&n.AllOf[i]); v != nil && (!found || *v < best) {
			best, found = *v, true
		}
	}
	if found {
		return best, "allOf", true
	}
	for _, alt := range []struct {
		name string
		list []crd.JSONSchemaProps
	}{{"anyOf", n.AnyOf}, {"oneOf", n.OneOf}} {
		if len(alt.list) == 0 {
			continue
		}
		maxV, all := int64(0), true
		for i := range alt.list {
			v := get(&alt.list[i])
			if v == nil {
				all = false
				break
			}
			if *v > maxV {
				maxV = *v
			}
		}
		if all {
			return maxV, alt.name + " (every entry)", true
		}
	}
	return 0, "", false
}

// withNode returns root with f applied to a copy of the node at steps,
// copying only the nodes on the way.
func withNode(root *crd.JSONSchemaProps, steps []crdvalidation.CELStep, f func(*crd.JSONSchemaProps)) *crd.JSONSchemaProps {
	cp := *root
	if len(steps) == 0 {
		f(&cp)
		return &cp
	}
	switch st := steps[0]; st.Kind {
	case crdvalidation.CELStepProperty:
		props := make(map[string]crd.JSONSchemaProps, len(cp.Properties))
		for k, p := range cp.Properties {
			props[k] = p
		}
		if p, ok := props[st.Property]; ok {
			props[st.Property] = *withNode(&p, steps[1:], f)
		}
		cp.Properties = props
	case crdvalidation.CELStepItems:
		if cp.Items != nil && cp.Items.Schema != nil {
			it := *cp.Items
			it.Schema = withNode(it.Schema, steps[1:], f)
			cp.Items = &it
		}
	case crdvalidation.CELStepAdditionalProperties:
		if cp.AdditionalProperties != nil && cp.AdditionalProperties.Schema != nil {
			ap := *cp.AdditionalProperties
			ap.Schema = withNode(ap.Schema, steps[1:], f)
			cp.AdditionalProperties = &ap
		}
	}
	return &cp
}

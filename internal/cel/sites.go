package cel

// Evaluation sites, for benchmarks (package cost's Benchmark): the
// (node, rule) pairs Validate evaluates on an object, each evaluable on its
// own and repeatedly.

import (
	"context"
	"fmt"

	"github.com/crdlab/crdlab/internal/keys"

	"github.com/google/cel-go/cel"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/schema"
)

// Site is one evaluation of a compiled rule, or of its messageExpression,
// at one node of an object.
type Site struct {
	// Path is the field path of the node (as RuleCost.Path).
	Path string
	// Rule is the index of the rule in x-kubernetes-validations.
	Rule int
	// MessageExpression is true for the rule's messageExpression (which
	// the validator evaluates only when the rule fails; a Site has one for
	// every node where the rule runs, so that it can be timed).
	MessageExpression bool

	prog     cel.Program
	v        *Validator
	sts      *schema.Structural
	obj      interface{}
	optional bool
}

// Sites lists, in Validate's order, every evaluation a create of obj runs
// (transition rules are skipped, as without an old object), plus the
// messageExpression of each rule that has one. Rules that failed to
// compile are left out. Budgets are ignored: every site is listed.
func (v *Validator) Sites(fldPath *field.Path, obj interface{}) []Site {
	var out []Site
	v.sites(fldPath, obj, &out)
	return out
}

func (v *Validator) sites(fldPath *field.Path, obj interface{}, out *[]Site) {
	if v == nil || obj == nil {
		return
	}
	if v.compilationErr == nil && len(v.compiledRules) > 0 {
		sts := v.Schema
		if v.isResourceRoot {
			sts = v.evalSchema
		}
		path := fldPath.String()
		for i, c := range v.compiledRules {
			if c.Error != nil || c.Program == nil {
				continue
			}
			rule := v.uncompiledRules[i]
			optional := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
			if c.UsesOldSelf && !optional {
				continue
			}
			*out = append(*out, Site{Path: path, Rule: i, prog: c.Program, v: v, sts: sts, obj: obj, optional: optional})
			if c.MessageExpression != nil {
				*out = append(*out, Site{Path: path, Rule: i, MessageExpression: true, prog: c.MessageExpression, v: v, sts: sts, obj: obj})
			}
		}
	}
	for _, a := range v.AllOfValidators {
		a.sites(fldPath, obj, out)
	}
	switch x := obj.(type) {
	case []interface{}:
		if v.Items != nil {
			for i := range x {
				v.Items.sites(fldPath.Index(i), x[i], out)
			}
		}
	case map[string]interface{}:
		if v.AdditionalProperties != nil {
			for _, k := range keys.Sorted(x) {
				v.AdditionalProperties.sites(fldPath.Key(k), x[k], out)
			}
		}
		if v.Properties != nil {
			for _, k := range keys.Sorted(x) {
				if sub, ok := v.Properties[k]; ok {
					sub.sites(fldPath.Child(k), x[k], out)
				}
			}
		}
	}
}

// Eval evaluates the site once, as Validate does: self (and oldSelf, absent)
// bound afresh to the node, so that lazily converted values are converted
// again on every call, as on every request. It returns the runtime cost and
// the evaluation error (a rule that evaluates to false is no error).
func (s *Site) Eval() (uint64, error) {
	act, optAct := s.v.activations(s.sts, s.obj, nil)
	if s.optional {
		act = optAct
	}
	_, det, err := evalProgram(context.Background(), s.prog, act)
	if det == nil || det.ActualCost() == nil {
		return 0, fmt.Errorf("runtime cost could not be calculated")
	}
	return *det.ActualCost(), err
}

package crdvalidation

import (
	"fmt"
	"math"
	"sort"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
)

// Cost limits of upstream's pkg/apis/apiextensions/validation.
const (
	// StaticEstimatedCostLimit is the largest allowed static CEL cost of one
	// expression (upstream StaticEstimatedCostLimit).
	StaticEstimatedCostLimit = 10000000
	// StaticEstimatedCRDCostLimit is the largest allowed total static cost of
	// the x-kubernetes-validations rules of one schema (upstream
	// StaticEstimatedCRDCostLimit).
	StaticEstimatedCRDCostLimit = 100000000
)

// CELStepKind says how a CELStep descends from a schema node to a child.
type CELStepKind int

const (
	// CELStepProperty descends into properties[Property].
	CELStepProperty CELStepKind = iota
	// CELStepItems descends into items.
	CELStepItems
	// CELStepAdditionalProperties descends into additionalProperties.
	CELStepAdditionalProperties
)

// CELStep is one step from the root schema towards a node.
type CELStep struct {
	Kind     CELStepKind
	Property string // for CELStepProperty
}

// CELNode is a schema node whose x-kubernetes-validations must be compiled.
type CELNode struct {
	// Root is the whole openAPIV3Schema the node belongs to.
	Root *crd.JSONSchemaProps
	// Steps lead from Root to Schema (empty for the root itself). Only
	// property, items and additionalProperties steps occur: rules under
	// allOf/anyOf/oneOf/not are never compiled, as upstream.
	Steps []CELStep
	// Schema is the node itself; len(Schema.XValidations) > 0.
	Schema *crd.JSONSchemaProps
}

// CELRuleError is a compilation error of one rule.
type CELRuleError struct {
	// Required is true for upstream's cel.ErrorTypeRequired (reported as
	// field.Required at ...x-kubernetes-validations[i].rule); otherwise the
	// error is reported as field.Invalid with the rule as bad value.
	Required bool
	// Detail is the message (upstream's cel.Error.Detail), e.g.
	// "compilation failed: ERROR: <input>:1:6: undeclared reference to 'foo' ...".
	Detail string
}

// CELRuleResult is the compilation result of one rule, in the order of
// Schema.XValidations (upstream's cel.CompilationResult).
type CELRuleResult struct {
	// MaxCost is the static cost estimate of the rule (CompilationResult.MaxCost).
	MaxCost uint64
	// MaxCardinality is the estimated number of times the rule runs per
	// object (CompilationResult.MaxCardinality); used when the node's
	// cardinality cannot be bounded from maxItems/maxProperties.
	MaxCardinality uint64
	// Error is the compile error of the rule, nil when it compiled.
	Error *CELRuleError
	// MessageExpressionError is the detail of the messageExpression's
	// compile error, "" when none.
	MessageExpressionError string
	// HasMessageExpression is true when the rule has a compiled
	// messageExpression (CompilationResult.MessageExpression != nil).
	HasMessageExpression bool
	// MessageExpressionMaxCost is the static cost of the messageExpression.
	MessageExpressionMaxCost uint64
	// UsesOldSelf is true when the rule references oldSelf.
	UsesOldSelf bool
}

// CELChecker compiles CEL rules for CRD validation. It slots into the
// recursive schema validation exactly where upstream's
// ValidateCustomResourceDefinitionOpenAPISchema calls cel.Compile.
//
// CompileRules is called once per schema node that has
// x-kubernetes-validations, after all the non-CEL checks of that node and of
// its whole subtree (properties, items, additionalProperties, ...) found no
// error, and only when the schema is structural and its defaults are valid
// (upstream's non-nil CELSchemaContext). It is never called for nodes below
// allOf, anyOf, oneOf, not, definitions or dependencies. Nodes are visited
// children first (additionalProperties, then properties in sorted key
// order, then items), so the call order is deterministic. The checker must
// not modify the schemas it is given.
//
// It must return one CELRuleResult per rule of node.Schema.XValidations, in
// order, compiling each rule and messageExpression against the type of self
// that upstream derives for that node (model.SchemaDeclType of the root,
// walked along node.Steps, with upstream's fallback of converting the node
// itself when a property has no declared type) in the CEL environment of
// compatibility version 1.36 (NewExpressionsEnv; on create no expression is
// pre-existing), with per-call limit celconfig.PerCallLimit.
//
// A non-nil error is reported as field.InternalError at
// <node>.x-kubernetes-validations with err as is; return upstream's texts:
// "internal error: failed to construct type information for
// x-kubernetes-validations rules: <err>", "internal error: failed to retrieve
// type information for x-kubernetes-validations", or cel.Compile's error.
//
// The caller (this package) turns the results into errors: cost limits
// (StaticEstimatedCostLimit per expression, multiplied by the node's
// cardinality), the per-schema total (StaticEstimatedCRDCostLimit), compile
// errors, messageExpression errors, oldSelf on uncorrelatable paths and
// optionalOldSelf without oldSelf.
type CELChecker interface {
	CompileRules(node CELNode) ([]CELRuleResult, error)
}

// celContext mirrors upstream's CELSchemaContext without the type
// information, which the CELChecker derives from Root and Steps.
type celContext struct {
	root           *crd.JSONSchemaProps
	steps          []CELStep
	maxCardinality *uint64 // nil: unbounded
	totalCost      *totalCost
	schema         *crd.JSONSchemaProps
}

func rootCELContext(s *crd.JSONSchemaProps) *celContext {
	one := uint64(1)
	return &celContext{root: s, maxCardinality: &one, totalCost: &totalCost{}, schema: s}
}

func (c *celContext) child(s *crd.JSONSchemaProps, step CELStep) *celContext {
	if c == nil {
		return nil
	}
	steps := make([]CELStep, len(c.steps), len(c.steps)+1)
	copy(steps, c.steps)
	r := &celContext{root: c.root, steps: append(steps, step), totalCost: c.totalCost, schema: s}
	if c.schema == nil || c.maxCardinality == nil {
		return r
	}
	maxElements := extractMaxElements(c.schema)
	if maxElements == nil {
		return r
	}
	v := multiplyWithOverflowGuard(*c.maxCardinality, *maxElements)
	r.maxCardinality = &v
	return r
}

func extractMaxElements(s *crd.JSONSchemaProps) *uint64 {
	one := uint64(1)
	switch s.Type {
	case "object":
		if s.AdditionalProperties != nil {
			if s.MaxProperties != nil {
				v := uint64(zeroIfNegative(*s.MaxProperties))
				return &v
			}
			return nil
		}
		return &one
	case "array":
		if s.MaxItems != nil {
			v := uint64(zeroIfNegative(*s.MaxItems))
			return &v
		}
		return nil
	default:
		return &one
	}
}

func zeroIfNegative(v int64) int64 {
	if v < 0 {
		return 0
	}
	return v
}

func multiplyWithOverflowGuard(base, cardinality uint64) uint64 {
	if base == 0 {
		return 0
	} else if math.MaxUint64/base < cardinality {
		return math.MaxUint64
	}
	return base * cardinality
}

type ruleCost struct {
	path *field.Path
	cost uint64
}

type totalCost struct {
	total         uint64
	mostExpensive []ruleCost
}

func (c *totalCost) observe(path *field.Path, cost uint64) {
	if math.MaxUint64-c.total < cost {
		c.total = math.MaxUint64
	} else {
		c.total += cost
	}
	if cost < StaticEstimatedCRDCostLimit/100 {
		return
	}
	c.mostExpensive = append(c.mostExpensive, ruleCost{path: path, cost: cost})
	sort.Slice(c.mostExpensive, func(i, j int) bool { return c.mostExpensive[i].cost > c.mostExpensive[j].cost })
	if len(c.mostExpensive) > 4 {
		c.mostExpensive = c.mostExpensive[:4]
	}
}

func expressionCost(r CELRuleResult, c *celContext) uint64 {
	if c.maxCardinality != nil {
		return multiplyWithOverflowGuard(r.MaxCost, *c.maxCardinality)
	}
	return multiplyWithOverflowGuard(r.MaxCost, r.MaxCardinality)
}

func costErrorMessage(costName string, cost, limit uint64) string {
	f := float64(cost) / float64(limit)
	var factor string
	switch {
	case f > 100.0:
		factor = "more than 100x"
	case f < 1.5:
		factor = fmt.Sprintf("%fx", f)
	default:
		factor = fmt.Sprintf("%.1fx", f)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", costName, factor)
}

// celRuleErrors turns compile results into errors, as upstream does after
// cel.Compile.
func (w *schemaWalker) celRuleErrors(s *crd.JSONSchemaProps, fldPath *field.Path, ctx *celContext, forbidOldSelf *field.Path) field.ErrorList {
	var errs field.ErrorList
	vpath := fldPath.Child("x-kubernetes-validations")
	results, err := w.opts.CEL.CompileRules(CELNode{Root: ctx.root, Steps: ctx.steps, Schema: s})
	if err != nil {
		return field.ErrorList{field.InternalError(vpath, err)}
	}
	for i, cr := range results {
		if i >= len(s.XValidations) {
			break
		}
		rulePath := vpath.Index(i).Child("rule")
		cost := expressionCost(cr, ctx)
		if cost > StaticEstimatedCostLimit {
			errs = append(errs, field.Forbidden(rulePath, costErrorMessage("estimated rule cost", cost, StaticEstimatedCostLimit)))
		}
		ctx.totalCost.observe(rulePath, cost)
		if cr.Error != nil {
			if cr.Error.Required {
				errs = append(errs, field.Required(rulePath, cr.Error.Detail))
			} else {
				errs = append(errs, field.Invalid(rulePath, internalRule(s.XValidations[i]), cr.Error.Detail))
			}
		}
		if cr.MessageExpressionError != "" {
			errs = append(errs, field.Invalid(vpath.Index(i).Child("messageExpression"), internalRule(s.XValidations[i]), cr.MessageExpressionError))
		} else if cr.HasMessageExpression {
			mp := vpath.Index(i).Child("messageExpression")
			if cr.MessageExpressionMaxCost > StaticEstimatedCostLimit {
				errs = append(errs, field.Forbidden(mp, costErrorMessage("estimated messageExpression cost", cr.MessageExpressionMaxCost, StaticEstimatedCostLimit)))
			}
			ctx.totalCost.observe(mp, cr.MessageExpressionMaxCost)
		}
		if cr.UsesOldSelf {
			if forbidOldSelf != nil {
				errs = append(errs, field.Invalid(rulePath, s.XValidations[i].Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", forbidOldSelf)))
			}
		} else if s.XValidations[i].OptionalOldSelf != nil {
			errs = append(errs, field.Invalid(vpath.Index(i).Child("optionalOldSelf"), *s.XValidations[i].OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
	return errs
}

package crdvalidation

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"math"
	"sort"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

// This file is upstream's cel_validation.go (CELSchemaContext, TypeInfo,
// the cost bookkeeping) and the part of validation.go that compiles the
// x-kubernetes-validations of a schema node with cel.Compile and turns the
// results into errors.

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
	// StoredRules and StoredMessageExpressions are the expressions of the
	// old CRD on an update (upstream's preexistingExpressions): they are
	// compiled in the StoredExpressions environment, every other expression
	// in NewExpressions. Both are nil on create.
	StoredRules, StoredMessageExpressions map[string]bool
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

// CompileRules compiles the rules of node.Schema as CRD validation does, at
// upstream's position in ValidateCustomResourceDefinitionOpenAPISchema (its
// cel.Compile call); cache memoizes the compilations (nil: none).
//
// CRD validation calls it once per schema node that has
// x-kubernetes-validations, after all the non-CEL checks of that node and of
// its whole subtree (properties, items, additionalProperties, ...) found no
// error, and only when the schema is structural and its defaults are valid
// (upstream's non-nil CELSchemaContext). It is never called for nodes below
// allOf, anyOf, oneOf, not, definitions or dependencies. Nodes are visited
// children first (additionalProperties, then properties in sorted key
// order, then items), so the call order is deterministic. The schemas are
// not modified.
//
// It returns one CELRuleResult per rule of node.Schema.XValidations, in
// order, compiling each rule and messageExpression against the type of self
// that upstream derives for that node (CELSchemaContext.TypeInfo:
// model.SchemaDeclType of the topmost ancestor with rules, walked along
// node.Steps, with upstream's fallback of converting the node itself when a
// property has no declared type) in the CEL environment of compatibility
// version 1.36 (NewExpressions; on create no expression is pre-existing),
// with per-call limit limits.PerCallLimit.
//
// A non-nil error is reported as field.InternalError at
// <node>.x-kubernetes-validations with err as is; its texts are upstream's:
// "internal error: failed to construct type information for
// x-kubernetes-validations rules: <err>", "internal error: failed to retrieve
// type information for x-kubernetes-validations", or cel.Compile's error.
//
// The caller (celRuleErrors) turns the results into errors: cost limits
// (StaticEstimatedCostLimit per expression, multiplied by the node's
// cardinality), the per-schema total (StaticEstimatedCRDCostLimit), compile
// errors, messageExpression errors, oldSelf on uncorrelatable paths and
// optionalOldSelf without oldSelf.
func CompileRules(node CELNode, cache *cel.CompileCache) ([]CELRuleResult, error) {
	ti, err := nodeTypeInfo(node, cache.Release())
	if err != nil {
		return nil, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err)
	}
	if ti == nil {
		return nil, fmt.Errorf("internal error: failed to retrieve type information for x-kubernetes-validations")
	}
	results, err := cache.CompileWithLoader(ti.schema, ti.declType, limits.PerCallLimit, func(expr string, message bool) cel.EnvKind {
		stored := node.StoredRules
		if message {
			stored = node.StoredMessageExpressions
		}
		if stored[expr] {
			return cel.StoredExpressions
		}
		return cel.NewExpressions
	})
	if err != nil {
		return nil, err
	}
	out := make([]CELRuleResult, len(results))
	for i, r := range results {
		out[i] = CELRuleResult{
			MaxCost:                  r.MaxCost,
			MaxCardinality:           r.MaxCardinality,
			UsesOldSelf:              r.UsesOldSelf,
			HasMessageExpression:     r.MessageExpression != nil,
			MessageExpressionMaxCost: r.MessageExpressionMaxCost,
		}
		if r.Error != nil {
			out[i].Error = &CELRuleError{Required: r.Error.Type == cel.ErrorTypeRequired, Detail: r.Error.Detail}
		}
		if r.MessageExpressionError != nil {
			out[i].MessageExpressionError = r.MessageExpressionError.Detail
		}
	}
	return out, nil
}

// typeInfo is a structural schema node with its DeclType (upstream's
// TypeInfo).
type typeInfo struct {
	schema   *schema.Structural
	declType *cel.DeclType
}

func convertTypeInfo(s *crd.JSONSchemaProps, isRoot bool, rel kubeversion.Release) (*typeInfo, error) {
	st, err := schema.NewStructural(s)
	if err != nil {
		return nil, err
	}
	dt := cel.SchemaDeclTypeAt(st, isRoot, rel)
	if dt == nil {
		return nil, fmt.Errorf("unable to convert structural schema to CEL declarations")
	}
	return &typeInfo{schema: st, declType: dt}, nil
}

func accessTypeInfo(parent *typeInfo, step CELStep) *typeInfo {
	switch step.Kind {
	case CELStepProperty:
		if parent.schema.Properties != nil {
			ps := parent.schema.Properties[step.Property]
			if esc, ok := cel.Escape(step.Property); ok {
				if f, ok := parent.declType.Fields[esc]; ok {
					return &typeInfo{schema: &ps, declType: f.Type}
				}
			}
		}
	case CELStepItems:
		if parent.schema.Items != nil {
			return &typeInfo{schema: parent.schema.Items, declType: parent.declType.ElemType}
		}
	case CELStepAdditionalProperties:
		if parent.schema.AdditionalProperties != nil {
			return &typeInfo{schema: parent.schema.AdditionalProperties.Structural, declType: parent.declType.ElemType}
		}
	}
	return nil
}

// ChildSchema is the child of s that step descends to, nil when s has
// none.
func ChildSchema(s *crd.JSONSchemaProps, step CELStep) *crd.JSONSchemaProps {
	if s == nil {
		return nil
	}
	switch step.Kind {
	case CELStepProperty:
		if p, ok := s.Properties[step.Property]; ok {
			return &p
		}
	case CELStepItems:
		if s.Items != nil {
			return s.Items.Schema
		}
	case CELStepAdditionalProperties:
		if s.AdditionalProperties != nil {
			return s.AdditionalProperties.Schema
		}
	}
	return nil
}

// nodeTypeInfo derives the type of the node at the end of steps: from the
// topmost ancestor within validation rule scope down along the steps, falling
// back to converting a node on its own where the parent's type has no entry.
func nodeTypeInfo(node CELNode, rel kubeversion.Release) (*typeInfo, error) {
	nodes := []*crd.JSONSchemaProps{node.Root}
	for i, st := range node.Steps {
		if i == len(node.Steps)-1 && node.Schema != nil {
			nodes = append(nodes, node.Schema)
			continue
		}
		nodes = append(nodes, ChildSchema(nodes[len(nodes)-1], st))
	}
	if len(node.Steps) == 0 && node.Schema != nil {
		nodes[0] = node.Schema
	}
	start := -1
	for i, n := range nodes {
		if n != nil && len(n.XValidations) > 0 {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, nil
	}
	var ti *typeInfo
	for i := start; i < len(nodes); i++ {
		var acc *typeInfo
		if i > start && ti != nil {
			acc = accessTypeInfo(ti, node.Steps[i-1])
		}
		if acc != nil {
			ti = acc
			continue
		}
		if nodes[i] == nil {
			return nil, nil
		}
		var err error
		ti, err = convertTypeInfo(nodes[i], i == 0 || nodes[i].XEmbeddedResource, rel)
		if err != nil {
			return nil, err
		}
	}
	return ti, nil
}

// celContext mirrors upstream's CELSchemaContext without the type
// information, which CompileRules derives from Root and Steps.
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
	return &celContext{root: c.root, steps: append(steps, step), totalCost: c.totalCost, schema: s,
		maxCardinality: ChildCardinality(c.maxCardinality, c.schema)}
}

// ChildCardinality is the cardinality of the children of a node whose
// cardinality is parent (nil: unbounded) and whose schema is s: parent
// times the most children a value of s may have (maxItems,
// maxProperties; 1 for a struct or a scalar), nil when either is
// unbounded. It is upstream's CELSchemaContext.childContext; package cost
// walks the same cardinalities through it.
func ChildCardinality(parent *uint64, s *crd.JSONSchemaProps) *uint64 {
	if s == nil || parent == nil {
		return nil
	}
	maxElements := extractMaxElements(s)
	if maxElements == nil {
		return nil
	}
	v := MultiplyWithOverflowGuard(*parent, *maxElements)
	return &v
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

// MultiplyWithOverflowGuard is base × cardinality, saturating at
// math.MaxUint64 (upstream's multiplyWithOverflowGuard).
func MultiplyWithOverflowGuard(base, cardinality uint64) uint64 {
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
	if cost < limits.StaticEstimatedCRDCostLimit/100 {
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
		return MultiplyWithOverflowGuard(r.MaxCost, *c.maxCardinality)
	}
	return MultiplyWithOverflowGuard(r.MaxCost, r.MaxCardinality)
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
	node := CELNode{Root: ctx.root, Steps: ctx.steps, Schema: s}
	if pe := w.flags.preexisting; pe != nil {
		node.StoredRules, node.StoredMessageExpressions = pe.rules, pe.messageExpressions
	}
	results, err := w.opts.compileRules(node)
	if err != nil {
		return field.ErrorList{field.InternalError(vpath, err)}
	}
	for i, cr := range results {
		if i >= len(s.XValidations) {
			break
		}
		rulePath := vpath.Index(i).Child("rule")
		cost := expressionCost(cr, ctx)
		if !w.flags.suppressPerExpressionCost && cost > limits.StaticEstimatedCostLimit {
			errs = append(errs, field.Forbidden(rulePath, costErrorMessage("estimated rule cost", cost, limits.StaticEstimatedCostLimit)))
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
			if !w.flags.suppressPerExpressionCost && cr.MessageExpressionMaxCost > limits.StaticEstimatedCostLimit {
				errs = append(errs, field.Forbidden(mp, costErrorMessage("estimated messageExpression cost", cr.MessageExpressionMaxCost, limits.StaticEstimatedCostLimit)))
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

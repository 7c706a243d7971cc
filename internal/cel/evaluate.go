package cel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/crdlab/crdlab/internal/keys"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

// Validator holds the compiled x-kubernetes-validations rules of a schema
// node and validators for its items, properties, additionalProperties and
// allOf entries that (transitively) have rules. It mirrors upstream's
// schema/cel.Validator. A Validator is immutable and safe for concurrent use.
type Validator struct {
	Items                *Validator
	Properties           map[string]Validator
	AllOfValidators      []*Validator
	AdditionalProperties *Validator

	Schema *schema.Structural

	// evalSchema is the schema self is bound to: Schema, with the implicit
	// apiVersion, kind and metadata at a resource root (computed once
	// instead of on every evaluation).
	evalSchema      *schema.Structural
	uncompiledRules []crd.ValidationRule
	compiledRules   []CompilationResult
	compilationErr  error
	isResourceRoot  bool
	usesOldSelf     bool
	release         kubeversion.Release // the release whose rendering the errors follow
}

// NewValidator compiles every rule of s and returns a Validator, or nil when
// s has no x-kubernetes-validations anywhere. isResourceRoot is true for the
// root of a custom resource (apiVersion, kind and metadata are implicit).
// Compilation errors do not fail construction: they are reported when
// objects are validated, as upstream does.
func NewValidator(s *schema.Structural, isResourceRoot bool, perCallLimit uint64) *Validator {
	return NewValidatorWithCache(s, isResourceRoot, perCallLimit, nil)
}

// NewValidatorWithCache is NewValidator compiling through cache (nil: no
// memoization).
func NewValidatorWithCache(s *schema.Structural, isResourceRoot bool, perCallLimit uint64, cache *CompileCache) *Validator {
	if !hasXValidations(s) {
		return nil
	}
	return cache.newValidator(s, s, isResourceRoot, SchemaDeclTypeAt(s, isResourceRoot, cache.Release()), perCallLimit)
}

func (cache *CompileCache) newValidator(validationSchema, nodeSchema *schema.Structural, isResourceRoot bool, declType *DeclType, perCallLimit uint64) *Validator {
	compSchema := *nodeSchema
	compSchema.XValidations = validationSchema.XValidations
	compiled, err := cache.Compile(&compSchema, declType, perCallLimit, StoredExpressions)

	var items, additional *Validator
	var props map[string]Validator
	var allOf []*Validator
	var elemType *DeclType
	if declType != nil {
		elemType = declType.ElemType
	}
	if validationSchema.Items != nil && nodeSchema.Items != nil {
		items = cache.newValidator(validationSchema.Items, nodeSchema.Items, nodeSchema.Items.XEmbeddedResource, elemType, perCallLimit)
	}
	if len(validationSchema.Properties) > 0 {
		props = make(map[string]Validator, len(validationSchema.Properties))
		for k := range validationSchema.Properties {
			vp := validationSchema.Properties[k]
			np, ok := nodeSchema.Properties[k]
			if !ok {
				continue
			}
			var ft *DeclType
			if esc, ok := Escape(k); ok {
				if declType == nil {
					continue
				}
				f, ok := declType.Fields[esc]
				if !ok {
					continue
				}
				ft = f.Type
			} else {
				ft = SchemaDeclTypeAt(&np, np.XEmbeddedResource, cache.Release())
				if ft == nil {
					continue
				}
			}
			if p := cache.newValidator(&vp, &np, np.XEmbeddedResource, ft, perCallLimit); p != nil {
				props[k] = *p
			}
		}
	}
	if validationSchema.AdditionalProperties != nil && validationSchema.AdditionalProperties.Structural != nil &&
		nodeSchema.AdditionalProperties != nil && nodeSchema.AdditionalProperties.Structural != nil {
		additional = cache.newValidator(validationSchema.AdditionalProperties.Structural, nodeSchema.AdditionalProperties.Structural,
			nodeSchema.AdditionalProperties.Structural.XEmbeddedResource, elemType, perCallLimit)
	}
	if validationSchema.ValueValidation != nil && len(validationSchema.ValueValidation.AllOf) > 0 {
		for i := range validationSchema.ValueValidation.AllOf {
			if v := cache.newValidator(nestedToStructural(&validationSchema.ValueValidation.AllOf[i]), nodeSchema, isResourceRoot, declType, perCallLimit); v != nil {
				allOf = append(allOf, v)
			}
		}
	}
	if len(compiled) == 0 && err == nil && items == nil && additional == nil && len(props) == 0 && len(allOf) == 0 {
		return nil
	}
	usesOld := false
	for _, c := range compiled {
		if c.UsesOldSelf {
			usesOld = true
			break
		}
	}
	evalSchema := nodeSchema
	if isResourceRoot && len(compiled) > 0 {
		evalSchema = WithTypeAndObjectMeta(nodeSchema)
	}
	return &Validator{
		Items: items, Properties: props, AllOfValidators: allOf, AdditionalProperties: additional,
		Schema:          nodeSchema,
		evalSchema:      evalSchema,
		uncompiledRules: validationSchema.XValidations,
		compiledRules:   compiled,
		compilationErr:  err,
		isResourceRoot:  isResourceRoot,
		usesOldSelf:     usesOld,
		release:         cache.Release(),
	}
}

func nestedToStructural(n *schema.NestedValueValidation) *schema.Structural {
	if n == nil {
		return nil
	}
	out := &schema.Structural{
		ValueValidation:      &n.ValueValidation,
		ValidationExtensions: n.ValidationExtensions,
		Generic:              n.ForbiddenGenerics,
		Extensions:           n.ForbiddenExtensions,
		Items:                nestedToStructural(n.Items),
	}
	if len(n.Properties) > 0 {
		out.Properties = make(map[string]schema.Structural, len(n.Properties))
		for k := range n.Properties {
			p := n.Properties[k]
			out.Properties[k] = *nestedToStructural(&p)
		}
	}
	if n.AdditionalProperties != nil {
		out.AdditionalProperties = &schema.StructuralOrBool{Structural: nestedToStructural(n.AdditionalProperties)}
	}
	return out
}

func hasXValidations(s *schema.Structural) bool {
	return s != nil && nodeHasXValidations(s.XValidations, s.Items, s.AdditionalProperties, s.Properties)
}

// nodeHasXValidations is hasXValidations on a node's parts: a property's
// node is read from its map without taking the address of a copy (which
// would allocate the copy at every level of the recursion).
func nodeHasXValidations(rules crd.ValidationRules, items *schema.Structural, ap *schema.StructuralOrBool, props map[string]schema.Structural) bool {
	if len(rules) > 0 || hasXValidations(items) {
		return true
	}
	if ap != nil && hasXValidations(ap.Structural) {
		return true
	}
	for _, p := range props {
		if nodeHasXValidations(p.XValidations, p.Items, p.AdditionalProperties, p.Properties) {
			return true
		}
	}
	return false
}

// RuleCost is the runtime cost of one evaluation of a rule or of its
// messageExpression at one position of the object.
type RuleCost struct {
	// Path is the field path of the node the rule is declared on.
	Path string
	// Rule is the index of the rule in x-kubernetes-validations.
	Rule int
	// MessageExpression is true for the cost of the rule's messageExpression.
	MessageExpression bool
	Cost              uint64
}

// Evaluation carries what evaluating the rules produced besides errors:
// ratcheted errors (upstream emits them as warnings) and per-rule runtime
// costs.
type Evaluation struct {
	Warnings []string
	Costs    []RuleCost
	// Interrupted is set when the context ended during the evaluation: the
	// rule that saw it has an error naming it, and no further rule ran.
	Interrupted bool
}

// Option configures Validate.
type Option func(*options)

type options struct {
	ctx         context.Context
	correlation *CorrelatedObject
}

// WithRatcheting enables ratcheting on update with the correlation of the new
// and old objects (upstream passes NewCorrelatedObject(new, old, rootSchema)).
func WithRatcheting(c *CorrelatedObject) Option { return func(o *options) { o.correlation = c } }

// WithContext makes evaluations cancellable.
func WithContext(ctx context.Context) Option { return func(o *options) { o.ctx = ctx } }

// ratcheting tracks the current correlation and the nearest correlatable parent.
type ratcheting struct {
	current *CorrelatedObject
	parent  *CorrelatedObject
}

func (r ratcheting) shouldRatchet() bool {
	if r.current != nil {
		return r.current.CachedDeepEqual()
	}
	return r.parent.CachedDeepEqual()
}

func (r ratcheting) key(f string) ratcheting {
	if r.current == nil {
		return r
	}
	if r.parent == nil && (f == "apiVersion" || f == "kind") {
		return ratcheting{}
	}
	return ratcheting{current: r.current.Key(f), parent: r.current}
}

func (r ratcheting) index(i int) ratcheting {
	if r.current == nil {
		return r
	}
	return ratcheting{current: r.current.Index(i), parent: r.current}
}

type run struct {
	ctx context.Context
	// cancellable is set when ctx can end (its Done channel is not nil):
	// only then are interrupts checked.
	cancellable bool
	eval        *Evaluation
}

// interrupted reports whether the evaluation must stop because the context
// ended; the first rule to see it (rule i at fldPath) gets an error naming
// it, returned as e.
func (r *run) interrupted(fldPath *field.Path, typ string, i int, rule crd.ValidationRule, cause error) (e *field.Error, stop bool) {
	if r.eval.Interrupted {
		return nil, true
	}
	if cause == nil {
		if !r.cancellable {
			return nil, false
		}
		if cause = r.ctx.Err(); cause == nil {
			return nil, false
		}
	}
	r.eval.Interrupted = true
	return field.Invalid(fldPath, typ, fmt.Sprintf("x-kubernetes-validations[%d]: operation interrupted: %v, no further validation rules will be run for rule: %v", i, cause, ruleErrorString(rule))), true
}

// Validate evaluates every rule at every node obj reaches, in upstream's
// order, against obj (and oldObj on update, for transition rules), within
// costBudget (limits.RuntimeCELCostBudget for a request). It returns the errors,
// the remaining budget (negative when exhausted) and the Evaluation (warnings
// and per-rule runtime costs). A nil Validator validates nothing.
func (v *Validator) Validate(fldPath *field.Path, obj, oldObj interface{}, costBudget int64, opts ...Option) (field.ErrorList, int64, *Evaluation) {
	o := options{ctx: context.Background()}
	for _, f := range opts {
		f(&o)
	}
	if o.ctx == nil {
		o.ctx = context.Background()
	}
	r := &run{ctx: o.ctx, cancellable: o.ctx.Done() != nil, eval: &Evaluation{}}
	errs, rem := v.validate(r, fldPath, obj, oldObj, ratcheting{current: o.correlation}, costBudget)
	return errs, rem, r.eval
}

func (v *Validator) validate(r *run, fldPath *field.Path, obj, oldObj interface{}, corr ratcheting, budget int64) (field.ErrorList, int64) {
	if v == nil || obj == nil {
		return nil, budget
	}
	errs, budget := v.validateExpressions(r, fldPath, obj, oldObj, corr, budget)
	if budget < 0 {
		return errs, budget
	}
	for _, a := range v.AllOfValidators {
		var ae field.ErrorList
		ae, budget = a.validate(r, fldPath, obj, oldObj, ratcheting{parent: corr.parent}, budget)
		errs = append(errs, ae...)
		if budget < 0 {
			return errs, budget
		}
	}
	switch x := obj.(type) {
	case []interface{}:
		old, _ := oldObj.([]interface{})
		var e field.ErrorList
		e, budget = v.validateArray(r, fldPath, x, old, corr, budget)
		return append(errs, e...), budget
	case map[string]interface{}:
		old, _ := oldObj.(map[string]interface{})
		var e field.ErrorList
		e, budget = v.validateMap(r, fldPath, x, old, corr, budget)
		return append(errs, e...), budget
	}
	return errs, budget
}

func (v *Validator) validateMap(r *run, fldPath *field.Path, obj, oldObj map[string]interface{}, corr ratcheting, budget int64) (errs field.ErrorList, rem int64) {
	rem = budget
	if rem < 0 || obj == nil {
		return nil, rem
	}
	correlatable := MapIsCorrelatable(v.Schema.XMapType)
	if v.AdditionalProperties != nil {
		for _, k := range keys.Sorted(obj) {
			var oldV interface{}
			if correlatable {
				oldV = oldObj[k]
			}
			var e field.ErrorList
			e, rem = v.AdditionalProperties.validate(r, fldPath.Key(k), obj[k], oldV, corr.key(k), rem)
			errs = append(errs, e...)
			if rem < 0 {
				return errs, rem
			}
		}
	}
	if v.Properties != nil {
		for _, k := range keys.Sorted(obj) {
			sub, ok := v.Properties[k]
			if !ok {
				continue
			}
			var oldV interface{}
			if correlatable {
				oldV = oldObj[k]
			}
			var e field.ErrorList
			e, rem = sub.validate(r, fldPath.Child(k), obj[k], oldV, corr.key(k), rem)
			errs = append(errs, e...)
			if rem < 0 {
				return errs, rem
			}
		}
	}
	return errs, rem
}

func (v *Validator) validateArray(r *run, fldPath *field.Path, obj, oldObj []interface{}, corr ratcheting, budget int64) (errs field.ErrorList, rem int64) {
	rem = budget
	if rem < 0 {
		return nil, rem
	}
	if v.Items != nil {
		oldItems := MakeMapList(v.Schema, oldObj)
		for i := range obj {
			var e field.ErrorList
			e, rem = v.Items.validate(r, fldPath.Index(i), obj[i], oldItems.Get(obj[i]), corr.index(i), rem)
			errs = append(errs, e...)
			if rem < 0 {
				return errs, rem
			}
		}
	}
	return errs, rem
}

// MapIsCorrelatable reports whether entries of a map with this
// x-kubernetes-map-type correlate with their old values (granular and atomic do).
func MapIsCorrelatable(mapType *string) bool {
	return mapType == nil || *mapType == "granular" || *mapType == "atomic"
}

// activation resolves self and oldSelf.
type activation struct {
	self, oldSelf ref.Val
	hasOldSelf    bool
}

func (a *activation) ResolveName(name string) (interface{}, bool) {
	switch name {
	case ScopedVarName:
		return a.self, true
	case OldScopedVarName:
		return a.oldSelf, a.hasOldSelf
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

func (v *Validator) activations(sts *schema.Structural, obj, oldObj interface{}) (interpreter.Activation, interpreter.Activation) {
	self := UnstructuredToVal(obj, sts)
	if !v.usesOldSelf {
		a := &activation{self: self}
		return a, a
	}
	a := &activation{self: self}
	opt := &activation{self: self, hasOldSelf: true, oldSelf: types.OptionalNone}
	if oldObj != nil {
		a.oldSelf = UnstructuredToVal(oldObj, sts)
		a.hasOldSelf = true
		opt.oldSelf = types.OptionalOf(a.oldSelf)
	}
	return a, opt
}

func isNilValue(v interface{}) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Interface, reflect.Slice:
		return rv.IsNil()
	}
	return false
}

const outOfBudget = "validation failed due to running out of cost budget, no further validation rules will be run"

func (v *Validator) validateExpressions(r *run, fldPath *field.Path, obj, oldObj interface{}, corr ratcheting, budget int64) (errs field.ErrorList, rem int64) {
	sts := v.Schema
	if isNilValue(oldObj) {
		oldObj = nil
	}
	rem = budget
	if obj == nil {
		return nil, rem
	}
	if v.compilationErr != nil {
		return field.ErrorList{field.Invalid(fldPath, sts.Type, fmt.Sprintf("rule compiler initialization error: %v", v.compilationErr))}, rem
	}
	if len(v.compiledRules) == 0 || r.eval.Interrupted {
		return nil, rem
	}
	if rem <= 0 {
		return field.ErrorList{field.Invalid(fldPath, sts.Type, outOfBudget)}, -1
	}
	if v.isResourceRoot {
		sts = v.evalSchema
	}
	// The path string is rendered at most once per node (for cost records).
	pathString := ""
	pathStr := func() string {
		if pathString == "" {
			pathString = fldPath.String()
		}
		return pathString
	}
	act, optAct := v.activations(sts, obj, oldObj)
	for i, compiled := range v.compiledRules {
		rule := v.uncompiledRules[i]
		if compiled.Error != nil {
			errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("rule compile error: %v", compiled.Error)))
			continue
		}
		if compiled.Program == nil {
			continue
		}
		optionalOld := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		if compiled.UsesOldSelf && oldObj == nil && !optionalOld {
			continue
		}
		ruleAct := act
		if optionalOld {
			ruleAct = optAct
		}
		if e, stop := r.interrupted(fldPath, sts.Type, i, rule, nil); stop {
			if e != nil {
				errs = append(errs, e)
			}
			return errs, rem
		}
		result, details, err := evalProgram(r.ctx, compiled.Program, ruleAct)
		if err != nil && r.cancellable && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) {
			e, _ := r.interrupted(fldPath, sts.Type, i, rule, r.ctx.Err())
			if e != nil {
				errs = append(errs, e)
			}
			return errs, rem
		}
		if details == nil {
			errs = append(errs, field.InternalError(fldPath, fmt.Errorf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleErrorString(rule))))
			return errs, -1
		}
		cost := details.ActualCost()
		if cost == nil {
			errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleErrorString(rule))))
			return errs, -1
		}
		r.eval.Costs = append(r.eval.Costs, RuleCost{Path: pathStr(), Rule: i, Cost: *cost})
		if *cost > math.MaxInt64 || int64(*cost) > rem {
			errs = append(errs, field.Invalid(fldPath, sts.Type, outOfBudget))
			return errs, -1
		}
		rem -= int64(*cost)
		if err != nil {
			msg := err.Error()
			switch {
			case strings.HasPrefix(msg, "no such overload"):
				errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", err, ruleErrorString(rule))))
			case strings.HasPrefix(msg, "operation cancelled: actual cost limit exceeded"):
				errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", err, ruleErrorString(rule))))
				return errs, -1
			default:
				errs = append(errs, field.Invalid(fldPath, sts.Type, fmt.Sprintf("%v evaluating rule: %v", err, ruleErrorString(rule))))
			}
			continue
		}
		if result == types.True {
			continue
		}
		cur := fldPath
		if compiled.NormalizedRuleFieldPath != "" {
			cur = cur.Child(compiled.NormalizedRuleFieldPath)
		}
		addErr := func(e *field.Error) {
			if !compiled.UsesOldSelf && corr.shouldRatchet() {
				r.eval.Warnings = append(r.eval.Warnings, e.Error())
			} else {
				errs = append(errs, e)
			}
		}
		detail, ok := "", false
		if compiled.MessageExpression != nil {
			msg, newRem, cost, msgErr := evalMessageExpression(r.ctx, compiled.MessageExpression, rule.MessageExpression, act, rem)
			if cost != nil {
				r.eval.Costs = append(r.eval.Costs, RuleCost{Path: pathStr(), Rule: i, MessageExpression: true, Cost: *cost})
			}
			switch {
			case msgErr == nil:
				detail, ok = msg, true
				rem = newRem
			case msgErr.Type == ErrorTypeInternal:
				addErr(field.InternalError(cur, msgErr))
				return errs, -1
			case msgErr.Type == ErrorTypeInvalid:
				addErr(field.Invalid(cur, sts.Type, msgErr.Error()))
				return errs, -1
			default:
				rem = newRem
			}
		}
		if !ok {
			detail = ruleMessageOrDefault(rule)
		}
		var value interface{} = obj
		switch {
		case !v.release.Has(kubeversion.CELRuleValueOmitted):
			value = sts.Type
		case sts.Type == "object" || sts.Type == "array":
			value = field.OmitValueType{}
		}
		addErr(fieldErrorForReason(cur, value, detail, rule.Reason))
	}
	return errs, rem
}

// evalProgram evaluates p, turning a panic into an error instead of crashing.
func evalProgram(ctx context.Context, p cel.Program, act interpreter.Activation) (val ref.Val, det *cel.EvalDetails, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			val, err = nil, fmt.Errorf("internal error: %v", rec)
		}
	}()
	if ctx != nil && ctx.Done() == nil {
		// The context can never be cancelled: skip ContextEval's per-call
		// context.WithCancel (same result and costs; interrupts cannot occur).
		return p.Eval(act)
	}
	return p.ContextEval(ctx, act)
}

func evalMessageExpression(ctx context.Context, p cel.Program, src string, act interpreter.Activation, rem int64) (string, int64, *uint64, *Error) {
	result, details, err := evalProgram(ctx, p, act)
	if details == nil {
		return "", -1, nil, &Error{Type: ErrorTypeInternal, Detail: fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", src)}
	}
	cost := details.ActualCost()
	if cost == nil {
		return "", -1, nil, &Error{Type: ErrorTypeInternal, Detail: fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", src)}
	}
	if *cost > math.MaxInt64 || int64(*cost) > rem {
		return "", -1, cost, &Error{Type: ErrorTypeInvalid, Detail: "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"}
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			return "", -1, cost, &Error{Type: ErrorTypeInvalid, Detail: fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", src)}
		}
		return "", rem - int64(*cost), cost, &Error{Detail: fmt.Sprintf("messageExpression evaluation failed due to: %v", err.Error())}
	}
	s, ok := result.Value().(string)
	if !ok {
		return "", rem - int64(*cost), cost, &Error{Detail: "messageExpression failed to convert to string"}
	}
	s = strings.TrimSpace(s)
	switch {
	case len(s) > limits.MaxEvaluatedMessageExpressionSizeBytes:
		return "", rem - int64(*cost), cost, &Error{Detail: fmt.Sprintf("messageExpression beyond allowable length of %d", limits.MaxEvaluatedMessageExpressionSizeBytes)}
	case hasNewlines(s):
		return "", rem - int64(*cost), cost, &Error{Detail: "messageExpression should not contain line breaks"}
	case len(s) == 0:
		return "", rem - int64(*cost), cost, &Error{Detail: "messageExpression should evaluate to a non-empty string"}
	}
	return s, rem - int64(*cost), cost, nil
}

func ruleMessageOrDefault(rule crd.ValidationRule) string {
	if len(rule.Message) == 0 {
		return fmt.Sprintf("failed rule: %s", ruleErrorString(rule))
	}
	return strings.TrimSpace(rule.Message)
}

func ruleErrorString(rule crd.ValidationRule) string {
	if len(rule.Message) > 0 {
		return strings.TrimSpace(rule.Message)
	}
	return strings.TrimSpace(rule.Rule)
}

func fieldErrorForReason(p *field.Path, value interface{}, detail string, reason *crd.FieldValueErrorReason) *field.Error {
	if reason == nil {
		return field.Invalid(p, value, detail)
	}
	switch *reason {
	case crd.FieldValueForbidden:
		return field.Forbidden(p, detail)
	case crd.FieldValueRequired:
		return field.Required(p, detail)
	case crd.FieldValueDuplicate:
		return field.Duplicate(p, value)
	}
	return field.Invalid(p, value, detail)
}

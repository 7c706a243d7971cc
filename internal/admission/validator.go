package admission

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	fieldpath "github.com/crdlab/crdlab/engine/field"
	kcel "github.com/crdlab/crdlab/internal/cel"
)

// The evaluation of one policy: validating/plugin.go compilePolicy,
// validating/validator.go Validate, webhook/matchconditions Matcher.Match and
// plugin/cel (condition.go ForInput, activation.go Evaluate, composition.go
// for variables).

// Cost budgets (k8s.io/apiserver/pkg/apis/cel/config.go).
const (
	runtimeCELCostBudget                = 10000000
	runtimeCELCostBudgetMatchConditions = 2500000
	maxEvaluatedMessageExpressionSize   = 5 * 1024
)

const outOfBudget = "validation failed due to running out of cost budget, no further validation rules will be run"

type condition struct {
	compiled
	present bool // false for the placeholders of absent messageExpressions
	// the validation or audit annotation it stands for
	index int
	// name of a match condition
	name string
}

type validator struct {
	policy          *Policy
	failurePolicy   string
	variables       []variable
	matchConditions []condition
	validations     []condition
	messages        []condition
	audits          []condition
}

type variable struct {
	name string
	c    compiled
}

var (
	boolTypes    = []*cel.Type{cel.BoolType}
	stringTypes  = []*cel.Type{cel.StringType}
	auditTypes   = []*cel.Type{cel.StringType, cel.NullType}
	anyTypes     = []*cel.Type{cel.AnyType}
	errNoProgram = errors.New("unexpected internal error compiling expression")
)

// compilePolicy is validating/plugin.go compilePolicy.
func compilePolicy(p *Policy) (*validator, error) {
	return compilePolicyObserved(p, nil)
}

// compilePolicyObserved is compilePolicy calling observe, when set, with
// each expression's field path and compilation, in compilation order.
func compilePolicyObserved(p *Policy, observe func(path *fieldpath.Path, c compiled)) (*validator, error) {
	pe, err := newPolicyEnvs()
	if err != nil {
		return nil, err
	}
	seen := func(*fieldpath.Path, compiled) {}
	if observe != nil {
		seen = observe
	}
	spec := fieldpath.NewPath("spec")
	hasParams := p.Spec.ParamKind != nil
	opts := envOpts{params: hasParams, authorizer: true}
	msgOpts := envOpts{params: hasParams}
	v := &validator{policy: p, failurePolicy: failurePolicy(p)}
	// CompileAndStoreVariables: later definitions of a name replace earlier ones.
	byName := map[string]int{}
	for i, vr := range p.Spec.Variables {
		c := pe.compile(vr.Expression, opts, anyTypes)
		seen(spec.Child("variables").Index(i).Child("expression"), c)
		pe.addVariable(vr.Name, c.outputType)
		if j, ok := byName[vr.Name]; ok {
			v.variables[j].c = c
			continue
		}
		byName[vr.Name] = len(v.variables)
		v.variables = append(v.variables, variable{name: vr.Name, c: c})
	}
	for i, m := range p.Spec.MatchConditions {
		c := pe.compile(m.Expression, opts, boolTypes)
		seen(spec.Child("matchConditions").Index(i).Child("expression"), c)
		v.matchConditions = append(v.matchConditions, condition{compiled: c, present: true})
	}
	for i, val := range p.Spec.Validations {
		c := pe.compile(val.Expression, opts, boolTypes)
		seen(spec.Child("validations").Index(i).Child("expression"), c)
		v.validations = append(v.validations, condition{compiled: c, present: true, index: i})
	}
	for i, a := range p.Spec.AuditAnnotations {
		c := pe.compile(a.ValueExpression, opts, auditTypes)
		seen(spec.Child("auditAnnotations").Index(i).Child("valueExpression"), c)
		v.audits = append(v.audits, condition{compiled: c, present: true, index: i})
	}
	for i, val := range p.Spec.Validations {
		if val.MessageExpression == "" {
			v.messages = append(v.messages, condition{index: i})
			continue
		}
		c := pe.compile(val.MessageExpression, msgOpts, stringTypes)
		seen(spec.Child("validations").Index(i).Child("messageExpression"), c)
		v.messages = append(v.messages, condition{compiled: c, present: true, index: i})
	}
	return v, nil
}

// CompileErrors are the compilation errors of a policy's expressions
// (variables, matchConditions, validations, auditAnnotations,
// messageExpressions, in the order the policy plugin compiles them), each
// an Invalid field error on the expression's path whose detail is the
// compiler's (plugin/cel CompileCELExpression: "compilation failed:
// ERROR: <input>:1:8: ...", "must evaluate to bool but got int"), as the
// API server's admissionregistration validation renders a CEL error of
// type Invalid (convertCELErrorToValidationError).
func CompileErrors(p *Policy) (fieldpath.ErrorList, error) {
	var out fieldpath.ErrorList
	_, err := compilePolicyObserved(p, func(path *fieldpath.Path, c compiled) {
		if c.err != nil {
			out = append(out, fieldpath.Invalid(path, c.expression, c.err.Error()))
		}
	})
	return out, err
}

type policyDecision struct {
	deny    bool
	isError bool
	message string
	reason  string
}

const (
	annotationPublish = iota + 1
	annotationError
	annotationExclude
)

type auditResult struct {
	key, value, err string
	action          int
}

type validateResult struct {
	decisions   []policyDecision
	annotations []auditResult
	notes       []string
}

// evalResult is plugin/cel EvaluationResult.
type evalResult struct {
	value ref.Val
	err   error
	c     *condition
}

// activation is plugin/cel evaluationActivation.
type activation struct {
	object, oldObject, params, request, namespace ref.Val
	variables                                     *lazyVariables
	authz                                         *authzVars
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case varObject:
		return a.object, true
	case varOldObject:
		return a.oldObject, true
	case varParams:
		return a.params, true
	case varRequest:
		return a.request, true
	case varNamespace:
		return a.namespace, true
	case varVariables:
		return a.variables, true
	case varAuthorizer:
		if a.authz != nil {
			return a.authz.authorizer, true
		}
	case varRequestResource:
		if a.authz != nil {
			return a.authz.requestResource, true
		}
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

func toVal(o map[string]interface{}) ref.Val {
	if o == nil {
		return types.NullValue
	}
	return types.DefaultTypeAdapter.NativeToValue(o)
}

type evalInput struct {
	va        versionedAttributes
	request   map[string]interface{}
	params    map[string]interface{}
	namespace map[string]interface{} // nil: null
	notes     *[]string
	// authz: the authorizer variables (nil: unbound, "no such attribute").
	authz *authzVars
}

// forInput is plugin/cel condition.ForInput with the composition context.
func (v *validator) forInput(in evalInput, conds []condition, budget int64) ([]evalResult, int64, error) {
	results := make([]evalResult, len(conds))
	if len(conds) == 0 {
		return results, budget, nil
	}
	act := &activation{
		object:    toVal(in.va.object),
		oldObject: toVal(in.va.oldObject),
		request:   toVal(in.request),
		namespace: toVal(in.namespace),
		authz:     in.authz,
	}
	act.params = toVal(in.params)
	act.variables = newLazyVariables(v.variables, act)
	remaining := budget
	for i := range conds {
		c := &conds[i]
		if !c.present {
			continue
		}
		results[i].c = c
		if c.err != nil {
			results[i].err = &celError{detail: fmt.Sprintf("compilation error: %v", c.err)}
			continue
		}
		if c.program == nil {
			results[i].err = &celError{detail: errNoProgram.Error()}
			continue
		}
		if c.usesAuthorizer && in.notes != nil {
			switch {
			case in.authz == nil:
				*in.notes = append(*in.notes, fmt.Sprintf("expression %q uses the authorizer, which the API server does not bind in audit annotations: its evaluation fails with \"no such attribute(s): authorizer\"", c.expression))
			case !in.authz.configured:
				*in.notes = append(*in.notes, fmt.Sprintf("expression %q uses the authorizer and no RBAC objects (Role, ClusterRole, RoleBinding, ClusterRoleBinding) are among the inputs: every check is answered not allowed, except for group system:masters", c.expression))
			}
		}
		val, details, err := c.program.Eval(act)
		comp := act.variables.takeCost()
		if comp > remaining {
			return nil, -1, &celError{detail: outOfBudget, budget: true}
		}
		remaining -= comp
		if details == nil {
			return nil, -1, &celError{detail: fmt.Sprintf("runtime cost could not be calculated for expression: %v, no further expression will be run", c.expression)}
		}
		rt := details.ActualCost()
		if rt == nil {
			return nil, -1, &celError{detail: fmt.Sprintf("runtime cost could not be calculated for expression: %v, no further expression will be run", c.expression), budget: true}
		}
		if *rt > math.MaxInt64 || int64(*rt) > remaining {
			return nil, -1, &celError{detail: outOfBudget, budget: true}
		}
		remaining -= int64(*rt)
		if err != nil {
			results[i].err = &celError{detail: fmt.Sprintf("expression '%v' resulted in error: %v", c.expression, err)}
		} else {
			results[i].value = val
		}
	}
	return results, remaining, nil
}

func (v *validator) errorDecision(msg string) validateResult {
	return validateResult{decisions: []policyDecision{{deny: v.failurePolicy != "Ignore", isError: true, message: msg}}}
}

// validate is validator.Validate for one binding and param.
func (v *validator) validate(req *Request, va versionedAttributes, matchRes GVR, matchKind GVK, params, ns map[string]interface{}, az *authzVars) validateResult {
	var notes []string
	if len(v.matchConditions) > 0 {
		in := evalInput{va: va, request: requestValue(req, req.Resource, matchKind), params: params, notes: &notes, authz: az}
		ok, err := v.match(in)
		if err != nil {
			r := v.errorDecision(err.Error())
			r.notes = notes
			return r
		}
		if !ok {
			return validateResult{notes: notes}
		}
	}
	request := requestValue(req, matchRes, matchKind)
	in := evalInput{va: va, request: request, params: params, namespace: namespaceValue(ns, false), notes: &notes, authz: az}
	results, remaining, err := v.forInput(in, v.validations, runtimeCELCostBudget)
	if err != nil {
		r := v.errorDecision(err.Error())
		r.notes = notes
		return r
	}
	decisions := make([]policyDecision, len(results))
	msgIn := in
	msgIn.notes = nil
	// messageExpressions are evaluated without the authorizer (upstream's
	// expressionOptionalVars): a variable that asks it fails there
	msgIn.authz = nil
	msgResults, _, msgErr := v.forInput(msgIn, v.messages, remaining)
	for i, r := range results {
		d := &decisions[i]
		val := v.policy.Spec.Validations[r.c.index]
		var mr *evalResult
		if len(msgResults) > i {
			mr = &msgResults[i]
		}
		var ce *celError
		switch {
		case r.err != nil:
			d.deny, d.isError, d.message = v.failurePolicy != "Ignore", true, r.err.Error()
		case msgErr != nil && errors.As(msgErr, &ce) && ce.budget:
			d.deny, d.isError, d.message = v.failurePolicy != "Ignore", true, fmt.Sprintf("failed messageExpression: %s", msgErr)
		case r.value != types.True:
			d.deny = true
			d.reason = "Invalid"
			if val.Reason != nil {
				d.reason = *val.Reason
			}
			var message string
			if mr != nil && mr.err == nil && mr.value != nil {
				if s, ok := mr.value.Value().(string); ok {
					message = strings.TrimSpace(s)
					if len(message) > maxEvaluatedMessageExpressionSize || strings.ContainsAny(message, "\n") {
						message = ""
					}
				}
			}
			if message == "" && len(val.Message) > 0 {
				message = strings.TrimSpace(val.Message)
			}
			if message == "" {
				message = fmt.Sprintf("failed expression: %v", strings.TrimSpace(val.Expression))
			}
			d.message = message
		}
	}
	// the API server declares the authorizer to audit annotations but binds
	// none to them (validator.go: its bindings have only the params)
	auditIn := evalInput{va: va, request: request, params: params, namespace: namespaceValue(ns, true), notes: &notes}
	auditResults, _, err := v.forInput(auditIn, v.audits, runtimeCELCostBudget)
	if err != nil {
		r := v.errorDecision(err.Error())
		r.notes = notes
		return r
	}
	annotations := make([]auditResult, len(auditResults))
	for i, r := range auditResults {
		if r.c == nil {
			continue
		}
		a := &annotations[i]
		ann := v.policy.Spec.AuditAnnotations[r.c.index]
		a.key = ann.Key
		if r.err != nil {
			if v.failurePolicy == "Ignore" {
				a.action = annotationExclude
			} else {
				a.action = annotationError
			}
			a.err = r.err.Error()
			continue
		}
		switch r.value.Type() {
		case types.StringType:
			s := strings.TrimSpace(r.value.Value().(string))
			if s == "" {
				a.action = annotationExclude
			} else {
				a.action, a.value = annotationPublish, s
			}
		case types.NullType:
			a.action = annotationExclude
		default:
			a.action = annotationError
			a.err = fmt.Sprintf("valueExpression '%v' resulted in unsupported return type: %v. Return type must be either string or null.", ann.ValueExpression, r.value.Type())
		}
	}
	return validateResult{decisions: decisions, annotations: annotations, notes: notes}
}

// match is matchconditions Matcher.Match.
func (v *validator) match(in evalInput) (bool, error) {
	ok, _, err := v.matchNamed(in)
	return ok, err
}

// matchNamed is match, with the name of the condition that was false.
func (v *validator) matchNamed(in evalInput) (bool, string, error) {
	results, _, err := v.forInput(in, v.matchConditions, runtimeCELCostBudgetMatchConditions)
	if err != nil {
		if v.failurePolicy == "Ignore" {
			return false, "", nil
		}
		return false, "", err
	}
	var errs []string
	for _, r := range results {
		if r.err != nil {
			errs = append(errs, r.err.Error())
		}
		if r.value == types.False {
			return false, r.c.name, nil
		}
	}
	if len(errs) > 0 {
		if v.failurePolicy == "Ignore" {
			return false, "", nil
		}
		return false, "", errors.New(aggregate(errs))
	}
	return true, "", nil
}

// aggregate is utilerrors.NewAggregate(errs).Error().
func aggregate(msgs []string) string {
	if len(msgs) == 1 {
		return msgs[0]
	}
	seen := map[string]bool{}
	var out []string
	for _, m := range msgs {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// requestValue is plugin/cel CreateAdmissionRequest as the policy
// environment sees it: admission/v1 AdmissionRequest with its JSON field
// names, empty omitempty fields absent.
func requestValue(req *Request, res GVR, kind GVK) map[string]interface{} {
	gvk := func(k GVK) map[string]interface{} {
		return map[string]interface{}{"group": k.Group, "version": k.Version, "kind": k.Kind}
	}
	gvr := func(r GVR) map[string]interface{} {
		return map[string]interface{}{"group": r.Group, "version": r.Version, "resource": r.Resource}
	}
	user := map[string]interface{}{}
	if req.UserInfo.Username != "" {
		user["username"] = req.UserInfo.Username
	}
	if req.UserInfo.UID != "" {
		user["uid"] = req.UserInfo.UID
	}
	if len(req.UserInfo.Groups) > 0 {
		gs := make([]interface{}, len(req.UserInfo.Groups))
		for i, g := range req.UserInfo.Groups {
			gs[i] = g
		}
		user["groups"] = gs
	}
	if len(req.UserInfo.Extra) > 0 {
		ex := map[string]interface{}{}
		for k, vs := range req.UserInfo.Extra {
			l := make([]interface{}, len(vs))
			for i, s := range vs {
				l[i] = s
			}
			ex[k] = l
		}
		user["extra"] = ex
	}
	m := map[string]interface{}{
		"uid":             "",
		"kind":            gvk(kind),
		"resource":        gvr(res),
		"requestKind":     gvk(req.Kind),
		"requestResource": gvr(req.Resource),
		"operation":       req.Operation,
		"userInfo":        user,
		"object":          nil,
		"oldObject":       nil,
		"dryRun":          req.DryRun,
	}
	opts := req.Options
	if opts == nil {
		opts = DefaultOptions(req.Operation)
	}
	if opts != nil {
		m["options"] = opts
	} else {
		m["options"] = nil
	}
	if req.SubResource != "" {
		m["subResource"] = req.SubResource
		m["requestSubResource"] = req.SubResource
	}
	if req.Name != "" {
		m["name"] = req.Name
	}
	if req.Namespace != "" {
		m["namespace"] = req.Namespace
	}
	return m
}

// namespaceValue is the Namespace as the policy sees it: CreateNamespaceObject
// (a subset of its metadata) for validations, the whole object for audit
// annotations; as a typed v1.Namespace, apiVersion and kind are absent, and
// so is an unset creationTimestamp (a zero metav1.Time is omitted).
func namespaceValue(ns map[string]interface{}, full bool) map[string]interface{} {
	if ns == nil {
		return nil
	}
	md, _ := ns["metadata"].(map[string]interface{})
	outMD := map[string]interface{}{}
	if full {
		for k, v := range md {
			outMD[k] = v
		}
	} else {
		for _, k := range []string{"name", "generateName", "namespace", "uid", "resourceVersion", "generation",
			"deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "finalizers"} {
			if v, ok := md[k]; ok && !emptyJSON(v) {
				outMD[k] = v
			}
		}
		if v, ok := md["creationTimestamp"]; ok {
			outMD["creationTimestamp"] = v
		}
	}
	spec, _ := ns["spec"].(map[string]interface{})
	status, _ := ns["status"].(map[string]interface{})
	if spec == nil {
		spec = map[string]interface{}{}
	}
	if status == nil {
		status = map[string]interface{}{}
	}
	return map[string]interface{}{"metadata": outMD, "spec": spec, "status": status}
}

func emptyJSON(v interface{}) bool {
	switch t := v.(type) {
	case nil:
		return true
	case string:
		return t == ""
	case map[string]interface{}:
		return len(t) == 0
	case []interface{}:
		return len(t) == 0
	case int64:
		return t == 0
	case float64:
		return t == 0
	}
	return false
}

// lazyVariables is upstream's lazy.MapValue over the policy's variables.
type lazyVariables struct {
	vars   []variable
	act    *activation
	values map[string]ref.Val
	cost   int64
}

var variablesType = types.NewTypeValue("kubernetes.variables", traits.IndexerType|traits.FieldTesterType|traits.IterableType)

func newLazyVariables(vars []variable, act *activation) *lazyVariables {
	return &lazyVariables{vars: vars, act: act, values: map[string]ref.Val{}}
}

func (m *lazyVariables) takeCost() int64 {
	c := m.cost
	m.cost = 0
	return c
}

func (m *lazyVariables) lookup(name string) (*variable, bool) {
	for i := range m.vars {
		if m.vars[i].name == name {
			return &m.vars[i], true
		}
	}
	return nil, false
}

func (m *lazyVariables) resolve(v *variable) ref.Val {
	if val, ok := m.values[v.name]; ok {
		return val
	}
	val := m.evaluate(v)
	m.values[v.name] = val
	return val
}

func (m *lazyVariables) evaluate(v *variable) ref.Val {
	if v.c.err != nil {
		return types.NewErr("composited variable %q fails to compile: %v", v.name, v.c.err)
	}
	val, details, err := v.c.program.Eval(m.act)
	if details == nil {
		return types.NewErr("unable to get evaluation details of variable %q", v.name)
	}
	cp := details.ActualCost()
	if cp == nil {
		return types.NewErr("unable to calculate cost of variable %q", v.name)
	}
	c := int64(*cp)
	if *cp > math.MaxInt64 {
		c = math.MaxInt64
	}
	m.cost += c
	if err != nil {
		return types.NewErr("composited variable %q fails to evaluate: %v", v.name, err)
	}
	return val
}

func (m *lazyVariables) Find(key ref.Val) (ref.Val, bool) {
	n, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(n), true
	}
	name, ok := kcel.Unescape(string(n))
	if !ok {
		return nil, false
	}
	v, ok := m.lookup(name)
	if !ok {
		return nil, false
	}
	return m.resolve(v), true
}

func (m *lazyVariables) Get(key ref.Val) ref.Val {
	if v, found := m.Find(key); found {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

func (m *lazyVariables) Contains(key ref.Val) ref.Val {
	v, found := m.Find(key)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

func (m *lazyVariables) Size() ref.Val { return types.Int(len(m.vars)) }

func (m *lazyVariables) Iterator() traits.Iterator { return &varIterator{m: m} }

func (m *lazyVariables) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("disallowed conversion from %q to %q", variablesType.TypeName(), t.Name())
}

func (m *lazyVariables) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case variablesType:
		return m
	case types.TypeType:
		return variablesType
	}
	return types.NewErr("disallowed conversion from %q to %q", variablesType.TypeName(), t.TypeName())
}

func (m *lazyVariables) Equal(other ref.Val) ref.Val {
	o, ok := other.(*lazyVariables)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(m == o)
}

func (m *lazyVariables) Type() ref.Type { return variablesType }

func (m *lazyVariables) Value() any { return types.NoSuchOverloadErr() }

type varIterator struct {
	m *lazyVariables
	i int
}

func (it *varIterator) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("disallowed conversion to %q", t.Name())
}
func (it *varIterator) ConvertToType(t ref.Type) ref.Val {
	return types.NewErr("disallowed conversion o %q", t.TypeName())
}
func (it *varIterator) Equal(other ref.Val) ref.Val {
	o, ok := other.(*varIterator)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(o == it)
}
func (it *varIterator) Type() ref.Type { return types.IteratorType }
func (it *varIterator) Value() any     { return nil }
func (it *varIterator) HasNext() ref.Val {
	return types.Bool(it.i < len(it.m.vars))
}
func (it *varIterator) Next() ref.Val {
	r := it.m.Get(types.String(it.m.vars[it.i].name))
	it.i++
	return r
}

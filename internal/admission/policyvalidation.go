package admission

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"

	fieldpath "github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel/library"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// The validation kube-apiserver 1.37 runs when a ValidatingAdmissionPolicy,
// a MutatingAdmissionPolicy or one of their bindings is created: the
// registry strategies' Validate (pkg/registry/admissionregistration/*:
// pkg/apis/admissionregistration/validation ValidateValidatingAdmissionPolicy
// and its siblings, then the reserved ".static.k8s.io" name suffix of
// ManifestBasedAdmissionControlConfig, beta and on by default) and the
// declarative validation that takes over the bindings' required
// policyName and validationActions (their errors move to the end of the
// list). The objects are those decode.go returns: the v1 defaults
// (defaults.go) are applied, as the API server's decoder applies them
// before validation. Expressions compile in the NewExpressions
// environment, as on create.

// CreateError is an admission policy or binding the API server refuses to
// create: errors.NewInvalid's message.
type CreateError struct {
	// Source is where the object was read ("file:line"), empty when unknown.
	Source string
	// Kind is the object's kind (ValidatingAdmissionPolicy, ...).
	Kind string
	// Name is metadata.name.
	Name string
	// Errors are the field errors, in the API server's order.
	Errors fieldpath.ErrorList
}

// Message is the API server's text: `<Kind>.admissionregistration.k8s.io
// "<name>" is invalid: <errors>`, the errors aggregated ("[a, b]" for more
// than one, repeated texts once).
func (e *CreateError) Message() string {
	return fmt.Sprintf("%s.%s %q is invalid: %v", e.Kind, APIGroup, e.Name, e.Errors.ToAggregate())
}

// Error is Message prefixed with Source.
func (e *CreateError) Error() string {
	if e.Source == "" {
		return e.Message()
	}
	return e.Source + ": " + e.Message()
}

// CreateErrors validates every policy and binding of in as the API server
// does on create; it returns one CreateError per object it would refuse
// (validating policies, their bindings, mutating policies, their bindings,
// each in input order). Webhook configurations are not checked.
func (in *Inputs) CreateErrors() []*CreateError {
	var out []*CreateError
	add := func(src, kind, name string, errs fieldpath.ErrorList) {
		if len(errs) > 0 {
			out = append(out, &CreateError{Source: src, Kind: kind, Name: name, Errors: errs})
		}
	}
	for _, p := range in.Policies {
		add(p.Source, KindPolicy, p.Metadata.Name, ValidatePolicy(p))
	}
	for _, b := range in.Bindings {
		add(b.Source, KindBinding, b.Metadata.Name, ValidateBinding(b))
	}
	for _, p := range in.MutatingPolicies {
		add(p.Source, KindMutatingPolicy, p.Metadata.Name, ValidateMutatingPolicy(p))
	}
	for _, b := range in.MutatingBindings {
		add(b.Source, KindMutatingBinding, b.Metadata.Name, ValidateMutatingBinding(b))
	}
	return out
}

// CheckCreate is the first of CreateErrors, nil when the API server
// would create every policy and binding of in.
func (in *Inputs) CheckCreate() error {
	if errs := in.CreateErrors(); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// contentLine is the line of the first line of raw (which starts at line
// firstLine) that is neither blank nor a comment: where a document's
// object starts. firstLine 0 (no line: a kind: List item) stays 0.
func contentLine(raw []byte, firstLine int) int {
	if firstLine == 0 {
		return 0
	}
	for i, l := range strings.Split(string(raw), "\n") {
		if t := strings.TrimSpace(l); t != "" && t != "---" && !strings.HasPrefix(t, "#") {
			return firstLine + i
		}
	}
	return firstLine
}

// enumValue is a value of one of the API's string types (FailurePolicyType,
// OperationType, ...): upstream's field errors render those as JSON, not
// as a quoted Go string (field.Error's type switch matches only string).
type enumValue string

// Supported values, sorted as sets.String.List gives them.
var (
	failurePolicies      = []string{"Fail", "Ignore"}
	matchPolicies        = []string{"Equivalent", "Exact"}
	operations           = []string{"*", "CONNECT", "CREATE", "DELETE", "UPDATE"}
	mutatingOperations   = []string{"*", "CONNECT", "CREATE", "UPDATE"}
	ruleScopes           = []string{"*", "Cluster", "Namespaced"}
	validationReasons    = []string{"Forbidden", "Invalid", "RequestEntityTooLarge"}
	validationActions    = []string{"Audit", "Deny", "Warn"}
	reinvocationPolicies = []string{"IfNeeded", "Never"}
	patchTypes           = []string{PatchTypeApplyConfiguration, PatchTypeJSONPatch}
)

const (
	maxAuditAnnotations                     = 20
	maxAuditAnnotationValueExpressionLength = 5 * 1024
	maxMatchConditions                      = 64
	staticConfigSuffix                      = ".static.k8s.io"
)

// validateMeta is genericvalidation.ValidateObjectMeta with NameIsDNSSubdomain
// on a cluster-scoped object (the API server clears a namespace given).
func validateMeta(m *ObjectMeta) fieldpath.ErrorList {
	meta := &objectmeta.ObjectMeta{Name: m.Name, Labels: m.Labels, Annotations: m.Annotations}
	return objectmeta.ValidateObjectMetaAt(kubeversion.Of(kubeversion.Newest), meta, false, names.NameIsDNSSubdomain, fieldpath.NewPath("metadata"))
}

// validateStaticSuffix is the strategies' ValidateStaticSuffix.
func validateStaticSuffix(name string) fieldpath.ErrorList {
	if strings.HasSuffix(name, staticConfigSuffix) {
		return fieldpath.ErrorList{fieldpath.Invalid(fieldpath.NewPath("metadata", "name"), name,
			fmt.Sprintf("names ending with %q are reserved for static manifest-based configurations and cannot be managed via the API", staticConfigSuffix))}
	}
	return nil
}

// ValidatePolicy is the API server's validation of a
// ValidatingAdmissionPolicy on create, nil when it is valid.
func ValidatePolicy(p *Policy) fieldpath.ErrorList {
	errs := validateMeta(&p.Metadata)
	spec := &p.Spec
	path := fieldpath.NewPath("spec")
	errs = append(errs, validateFailurePolicy(spec.FailurePolicy, path)...)
	errs = append(errs, validateParamKindField(spec.ParamKind, path)...)
	errs = append(errs, validateMatchConstraints(spec.MatchConstraints, path, false)...)
	errs = append(errs, validateMatchConditions(spec.MatchConditions, spec.ParamKind != nil, path.Child("matchConditions"))...)
	pc := newPolicyCompiler(len(spec.Variables) > 0)
	for i := range spec.Variables {
		errs = append(errs, pc.variable(&spec.Variables[i], spec.ParamKind != nil, path.Child("variables").Index(i))...)
	}
	if len(spec.Validations) == 0 && len(spec.AuditAnnotations) == 0 {
		const msg = "validations or auditAnnotations must contain at least one item"
		errs = append(errs, fieldpath.Required(path.Child("validations"), msg), fieldpath.Required(path.Child("auditAnnotations"), msg))
		return append(errs, validateStaticSuffix(p.Metadata.Name)...)
	}
	for i := range spec.Validations {
		errs = append(errs, pc.validation(&spec.Validations[i], spec.ParamKind != nil, path.Child("validations").Index(i))...)
	}
	if spec.AuditAnnotations != nil {
		if len(spec.AuditAnnotations) > maxAuditAnnotations {
			errs = append(errs, fieldpath.Invalid(path.Child("auditAnnotations"), auditAnnotationsValue(spec.AuditAnnotations),
				fmt.Sprintf("must not have more than %d auditAnnotations", maxAuditAnnotations)))
		}
		keys := map[string]bool{}
		for i := range spec.AuditAnnotations {
			a := &spec.AuditAnnotations[i]
			at := path.Child("auditAnnotations").Index(i)
			errs = append(errs, pc.auditAnnotation(p.Metadata.Name, a, spec.ParamKind != nil, at)...)
			if keys[a.Key] {
				errs = append(errs, fieldpath.Duplicate(at.Child("key"), a.Key))
			}
			keys[a.Key] = true
		}
	}
	return append(errs, validateStaticSuffix(p.Metadata.Name)...)
}

// auditAnnotationsValue renders the list as upstream's internal type does
// (no JSON tags: Go field names).
func auditAnnotationsValue(list []AuditAnnotation) interface{} {
	type internal struct {
		Key             string
		ValueExpression string
	}
	out := make([]internal, len(list))
	for i, a := range list {
		out[i] = internal{a.Key, a.ValueExpression}
	}
	return out
}

// ValidateMutatingPolicy is the API server's validation of a
// MutatingAdmissionPolicy on create, nil when it is valid.
func ValidateMutatingPolicy(p *MutatingPolicy) fieldpath.ErrorList {
	errs := validateMeta(&p.Metadata)
	spec := &p.Spec
	path := fieldpath.NewPath("spec")
	errs = append(errs, validateFailurePolicy(spec.FailurePolicy, path)...)
	errs = append(errs, validateParamKindField(spec.ParamKind, path)...)
	errs = append(errs, validateMatchConstraints(spec.MatchConstraints, path, true)...)
	errs = append(errs, validateMatchConditions(spec.MatchConditions, spec.ParamKind != nil, path.Child("matchConditions"))...)
	pc := newPolicyCompiler(true)
	for i := range spec.Variables {
		errs = append(errs, pc.variable(&spec.Variables[i], spec.ParamKind != nil, path.Child("variables").Index(i))...)
	}
	if len(spec.Mutations) == 0 {
		errs = append(errs, fieldpath.Required(path.Child("mutations"), "mutations must contain at least one item"))
	} else {
		for i := range spec.Mutations {
			errs = append(errs, pc.mutation(&spec.Mutations[i], spec.ParamKind != nil, path.Child("mutations").Index(i))...)
		}
	}
	if spec.ReinvocationPolicy == "" {
		errs = append(errs, fieldpath.Required(path.Child("reinvocationPolicy"), ""))
	} else if !slices.Contains(reinvocationPolicies, spec.ReinvocationPolicy) {
		errs = append(errs, fieldpath.NotSupported(path.Child("reinvocationPolicy"), enumValue(spec.ReinvocationPolicy), reinvocationPolicies))
	}
	return append(errs, validateStaticSuffix(p.Metadata.Name)...)
}

func validateFailurePolicy(fp *string, path *fieldpath.Path) fieldpath.ErrorList {
	if fp == nil {
		return fieldpath.ErrorList{fieldpath.Required(path.Child("failurePolicy"), "")}
	}
	if !slices.Contains(failurePolicies, *fp) {
		return fieldpath.ErrorList{fieldpath.NotSupported(path.Child("failurePolicy"), enumValue(*fp), failurePolicies)}
	}
	return nil
}

func validateParamKindField(pk *ParamKind, path *fieldpath.Path) fieldpath.ErrorList {
	if pk == nil {
		return nil
	}
	return validateParamKind(pk, path.Child("paramKind"))
}

// validateMatchConstraints checks a policy's matchConstraints: required,
// valid, with at least one resource rule; mutating policies' rules may
// not name DELETE (the error's path has no index, as upstream's).
func validateMatchConstraints(mc *MatchResources, path *fieldpath.Path, mutating bool) fieldpath.ErrorList {
	if mc == nil {
		return fieldpath.ErrorList{fieldpath.Required(path.Child("matchConstraints"), "")}
	}
	errs := validateMatchResources(mc, path.Child("matchConstraints"))
	if len(mc.ResourceRules) == 0 {
		errs = append(errs, fieldpath.Required(path.Child("matchConstraints", "resourceRules"), ""))
	}
	if mutating {
		errs = append(errs, mutatingOperationErrors(mc, path.Child("matchConstraints", "resourceRules", "operations"))...)
	}
	return errs
}

func mutatingOperationErrors(mc *MatchResources, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	for _, r := range mc.ResourceRules {
		for _, op := range r.Operations {
			if !slices.Contains(mutatingOperations, op) {
				errs = append(errs, fieldpath.NotSupported(path, enumValue(op), mutatingOperations))
			}
		}
	}
	return errs
}

// validateParamKind checks the apiVersion (group a DNS subdomain, version
// a DNS-1035 label) and the kind (a DNS-1035 label in lower case).
func validateParamKind(pk *ParamKind, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	av := path.Child("apiVersion")
	switch {
	case pk.APIVersion == "":
		errs = append(errs, fieldpath.Required(av, ""))
	case strings.Count(pk.APIVersion, "/") > 1:
		errs = append(errs, fieldpath.Invalid(av, pk.APIVersion, "unexpected GroupVersion string: "+pk.APIVersion))
	default:
		group, version := "", pk.APIVersion
		if pk.APIVersion == "/" {
			version = ""
		} else if g, v, ok := strings.Cut(pk.APIVersion, "/"); ok {
			group, version = g, v
		}
		if group != "" {
			if msgs := names.IsDNS1123Subdomain(group); len(msgs) > 0 {
				errs = append(errs, fieldpath.Invalid(av, group, strings.Join(msgs, ",")))
			}
		}
		if version == "" {
			errs = append(errs, fieldpath.Invalid(av, pk.APIVersion, "version must be specified"))
		} else if msgs := names.IsDNS1035Label(version); len(msgs) > 0 {
			errs = append(errs, fieldpath.Invalid(av, version, strings.Join(msgs, ",")))
		}
	}
	if pk.Kind == "" {
		errs = append(errs, fieldpath.Required(path.Child("kind"), ""))
	} else if msgs := names.IsDNS1035Label(strings.ToLower(pk.Kind)); len(msgs) > 0 {
		errs = append(errs, fieldpath.Invalid(path.Child("kind"), pk.Kind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
	}
	return errs
}

// validateMatchResources checks matchPolicy, the selectors (strictly) and
// the rules; nil is valid (a binding without matchResources).
func validateMatchResources(mc *MatchResources, path *fieldpath.Path) fieldpath.ErrorList {
	if mc == nil {
		return nil
	}
	var errs fieldpath.ErrorList
	if mc.MatchPolicy == nil {
		errs = append(errs, fieldpath.Required(path.Child("matchPolicy"), ""))
	} else if !slices.Contains(matchPolicies, *mc.MatchPolicy) {
		errs = append(errs, fieldpath.NotSupported(path.Child("matchPolicy"), enumValue(*mc.MatchPolicy), matchPolicies))
	}
	for _, s := range []struct {
		name string
		sel  *LabelSelector
	}{{"namespaceSelector", mc.NamespaceSelector}, {"objectSelector", mc.ObjectSelector}} {
		if s.sel == nil {
			errs = append(errs, fieldpath.Required(path.Child(s.name), ""))
		} else {
			errs = append(errs, validateLabelSelector(s.sel, path.Child(s.name))...)
		}
	}
	for i := range mc.ResourceRules {
		errs = append(errs, validateNamedRule(&mc.ResourceRules[i], path.Child("resourceRules").Index(i))...)
	}
	for i := range mc.ExcludeResourceRules {
		errs = append(errs, validateNamedRule(&mc.ExcludeResourceRules[i], path.Child("excludeResourceRules").Index(i))...)
	}
	return errs
}

// validateLabelSelector is metav1validation.ValidateLabelSelector with
// the strict options (no unknown operator, valid label values).
func validateLabelSelector(ls *LabelSelector, path *fieldpath.Path) fieldpath.ErrorList {
	rel := kubeversion.Of(kubeversion.Newest)
	errs := objectmeta.ValidateLabels(rel, ls.MatchLabels, path.Child("matchLabels"))
	for i, r := range ls.MatchExpressions {
		at := path.Child("matchExpressions").Index(i)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				errs = append(errs, fieldpath.Required(at.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				errs = append(errs, fieldpath.Forbidden(at.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, fieldpath.Invalid(at.Child("operator"), enumValue(r.Operator), "not a valid selector operator"))
		}
		errs = append(errs, objectmeta.ValidateLabelName(rel, r.Key, at.Child("key"))...)
		for j, v := range r.Values {
			for _, msg := range names.IsValidLabelValueAt(rel, v) {
				errs = append(errs, fieldpath.Invalid(at.Child("values").Index(j), v, msg))
			}
		}
	}
	return errs
}

func hasStar(list []string) bool { return slices.Contains(list, "*") }

// validateNamedRule checks resourceNames (path segments, unique), then
// the rule with its operations.
func validateNamedRule(r *NamedRuleWithOperations, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	seen := map[string]bool{}
	for i, n := range r.ResourceNames {
		for _, msg := range names.IsPathSegmentName(n) {
			errs = append(errs, fieldpath.Invalid(path.Child("resourceNames").Index(i), n, msg))
		}
		if seen[n] {
			errs = append(errs, fieldpath.Duplicate(path.Child("resourceNames").Index(i), n))
		}
		seen[n] = true
	}
	ops := path.Child("operations")
	if len(r.Operations) == 0 {
		errs = append(errs, fieldpath.Required(ops, ""))
	}
	if len(r.Operations) > 1 && hasStar(r.Operations) {
		errs = append(errs, fieldpath.Invalid(ops, enumList(r.Operations), "if '*' is present, must not specify other operations"))
	}
	for i, op := range r.Operations {
		if !slices.Contains(operations, op) {
			errs = append(errs, fieldpath.NotSupported(ops.Index(i), enumValue(op), operations))
		}
	}
	return append(errs, validateRule(r, path)...)
}

// enumList is a list of enumValues (rendered as JSON, as a string list is).
func enumList(list []string) []enumValue {
	out := make([]enumValue, len(list))
	for i, s := range list {
		out[i] = enumValue(s)
	}
	return out
}

// validateRule is upstream's validateRule with subresources allowed.
func validateRule(r *NamedRuleWithOperations, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	groups, versions := path.Child("apiGroups"), path.Child("apiVersions")
	if len(r.APIGroups) == 0 {
		errs = append(errs, fieldpath.Required(groups, ""))
	}
	if len(r.APIGroups) > 1 && hasStar(r.APIGroups) {
		errs = append(errs, fieldpath.Invalid(groups, r.APIGroups, "if '*' is present, must not specify other API groups"))
	}
	if len(r.APIVersions) == 0 {
		errs = append(errs, fieldpath.Required(versions, ""))
	}
	if len(r.APIVersions) > 1 && hasStar(r.APIVersions) {
		errs = append(errs, fieldpath.Invalid(versions, r.APIVersions, "if '*' is present, must not specify other API versions"))
	}
	for i, v := range r.APIVersions {
		if v == "" {
			errs = append(errs, fieldpath.Required(versions.Index(i), ""))
		}
	}
	errs = append(errs, validateRuleResources(r.Resources, path.Child("resources"))...)
	if r.Scope != nil && !slices.Contains(ruleScopes, *r.Scope) {
		errs = append(errs, fieldpath.NotSupported(path.Child("scope"), enumValue(*r.Scope), ruleScopes))
	}
	return errs
}

// validateRuleResources is upstream's validateResources: resources and
// subresources, with the wildcard combinations it refuses.
func validateRuleResources(resources []string, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	if len(resources) == 0 {
		errs = append(errs, fieldpath.Required(path, ""))
	}
	wildSub := map[string]bool{} // x/*
	wildRes := map[string]bool{} // */x
	doubleWild, singleWild, plain := false, false, false
	for i, rs := range resources {
		if rs == "" {
			errs = append(errs, fieldpath.Required(path.Index(i), ""))
			continue
		}
		if rs == "*/*" {
			doubleWild = true
		}
		if rs == "*" {
			singleWild = true
		}
		res, sub, ok := strings.Cut(rs, "/")
		if !ok {
			plain = rs != "*"
			continue
		}
		if wildSub[res] {
			errs = append(errs, fieldpath.Invalid(path.Index(i), rs, fmt.Sprintf("if '%s/*' is present, must not specify %s", res, rs)))
		}
		if wildRes[sub] {
			errs = append(errs, fieldpath.Invalid(path.Index(i), rs, fmt.Sprintf("if '*/%s' is present, must not specify %s", sub, rs)))
		}
		if sub == "*" {
			wildSub[res] = true
		}
		if res == "*" {
			wildRes[sub] = true
		}
	}
	if len(resources) > 1 && doubleWild {
		errs = append(errs, fieldpath.Invalid(path, resources, "if '*/*' is present, must not specify other resources"))
	}
	if singleWild && plain {
		errs = append(errs, fieldpath.Invalid(path, resources, "if '*' is present, must not specify other resources without subresources"))
	}
	return errs
}

// validateMatchConditions checks at most 64 conditions, each with a
// qualified name, unique, and an expression that compiles in the
// environment without variables (upstream's stateless compiler).
func validateMatchConditions(mcs []MatchCondition, hasParams bool, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	if len(mcs) > maxMatchConditions {
		errs = append(errs, fieldpath.TooMany(path, len(mcs), maxMatchConditions))
	}
	seen := map[string]bool{}
	for i, mc := range mcs {
		at := path.Index(i)
		if expr := strings.TrimSpace(mc.Expression); expr == "" {
			errs = append(errs, fieldpath.Required(at.Child("expression"), ""))
		} else if env, err := statelessEnvs(); err != nil {
			errs = append(errs, fieldpath.InternalError(at.Child("expression"), err))
		} else {
			errs = append(errs, compileError(env.compile(expr, envOpts{params: hasParams, authorizer: true}, boolTypes), expr, at.Child("expression"))...)
		}
		if mc.Name == "" {
			errs = append(errs, fieldpath.Required(at.Child("name"), ""))
		} else {
			for _, msg := range names.IsQualifiedName(mc.Name) {
				errs = append(errs, fieldpath.Invalid(at.Child("name"), mc.Name, msg))
			}
		}
		if mc.Name != "" {
			if seen[mc.Name] {
				errs = append(errs, fieldpath.Duplicate(at.Child("name"), mc.Name))
			}
			seen[mc.Name] = true
		}
	}
	return errs
}

// newExpressionsBase is the base environment of new expressions
// (compatibility version 1.36 at 1.37).
var newExpressionsBase = sync.OnceValues(func() (*cel.Env, error) {
	if _, err := base(); err != nil { // the request and namespace types
		return nil, err
	}
	return cel.NewEnv(library.EnvOptions()...)
})

// statelessEnvs are the environments without variables of upstream's
// strict stateless compiler; they do not change once built.
var statelessEnvs = sync.OnceValues(func() (*policyEnvs, error) {
	b, err := newExpressionsBase()
	if err != nil {
		return nil, err
	}
	return newEnvsOn(b, false)
})

// policyCompiler is the compiler of one policy's validation: a
// composited one (variables declared, growing as each compiles) when the
// policy has variables, else the stateless one.
type policyCompiler struct {
	pe  *policyEnvs
	err error
	// patch: pe has the patch-type environments
	patch bool
}

func newPolicyCompiler(composited bool) *policyCompiler {
	if !composited {
		pe, err := statelessEnvs()
		return &policyCompiler{pe: pe, err: err}
	}
	b, err := newExpressionsBase()
	if err != nil {
		return &policyCompiler{err: err}
	}
	pe, err := newEnvsOn(b, true)
	return &policyCompiler{pe: pe, err: err}
}

func (pc *policyCompiler) compile(expr string, opts envOpts, returnTypes []*cel.Type) compiled {
	if pc.err != nil {
		return compiled{expression: expr, err: pc.err}
	}
	if opts.patch && !pc.patch {
		if pc.pe == nil {
			return compiled{expression: expr, err: errNoProgram}
		}
		// a private copy: statelessEnvs is shared
		cp := &policyEnvs{variables: pc.pe.variables, envs: map[envOpts]*cel.Env{}, prog: pc.pe.prog}
		for k, v := range pc.pe.envs {
			cp.envs[k] = v
		}
		if err := cp.addPatchEnvs(); err != nil {
			pc.err = err
			return compiled{expression: expr, err: err}
		}
		pc.pe, pc.patch = cp, true
	}
	return pc.pe.compile(expr, opts, returnTypes)
}

// compileError is convertCELErrorToValidationError: an Invalid error on
// the expression (shown as value) with the compiler's detail, an internal
// error for the compiler's own failures.
func compileError(c compiled, value string, path *fieldpath.Path) fieldpath.ErrorList {
	if c.err == nil {
		return nil
	}
	var ce *celError
	if !errors.As(c.err, &ce) || strings.HasPrefix(ce.detail, "unexpected compilation error: ") || strings.HasPrefix(ce.detail, "program instantiation failed: ") {
		return fieldpath.ErrorList{fieldpath.InternalError(path, c.err)}
	}
	return fieldpath.ErrorList{fieldpath.Invalid(path, value, ce.detail)}
}

var celIdent = regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*$`)

var celReserved = map[string]bool{
	"true": true, "false": true, "null": true, "in": true, "as": true, "break": true, "const": true,
	"continue": true, "else": true, "for": true, "function": true, "if": true, "import": true,
	"let": true, "loop": true, "package": true, "namespace": true, "return": true, "var": true,
	"void": true, "while": true,
}

// variable checks a variable's name (a CEL identifier) and compiles its
// expression, which declares the variable for the expressions after it.
func (pc *policyCompiler) variable(v *Variable, hasParams bool, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	if strings.TrimSpace(v.Name) == "" {
		errs = append(errs, fieldpath.Required(path.Child("name"), "name is not specified"))
	} else if !celIdent.MatchString(v.Name) || celReserved[v.Name] {
		errs = append(errs, fieldpath.Invalid(path.Child("name"), v.Name, "must be a valid CEL identifier"))
	}
	if strings.TrimSpace(v.Expression) == "" {
		return append(errs, fieldpath.Required(path.Child("expression"), "expression is not specified"))
	}
	c := pc.compile(v.Expression, envOpts{params: hasParams, authorizer: true}, anyTypes)
	if pc.pe != nil {
		pc.pe.addVariable(v.Name, c.outputType)
	}
	return append(errs, compileError(c, v.Expression, path.Child("expression"))...)
}

var lineBreaks = regexp.MustCompile(`[\n\r]+`)

// validation checks a validation: its expression, messageExpression,
// message and reason.
func (pc *policyCompiler) validation(v *Validation, hasParams bool, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	if strings.TrimSpace(v.Expression) == "" {
		errs = append(errs, fieldpath.Required(path.Child("expression"), "expression is not specified"))
	} else {
		c := pc.compile(v.Expression, envOpts{params: hasParams, authorizer: true}, boolTypes)
		errs = append(errs, compileError(c, v.Expression, path.Child("expression"))...)
	}
	if v.MessageExpression != "" && strings.TrimSpace(v.MessageExpression) == "" {
		errs = append(errs, fieldpath.Invalid(path.Child("messageExpression"), v.MessageExpression, "must be non-empty if specified"))
	} else if strings.TrimSpace(v.MessageExpression) != "" {
		c := pc.compile(v.MessageExpression, envOpts{params: hasParams}, stringTypes)
		errs = append(errs, compileError(c, v.MessageExpression, path.Child("messageExpression"))...)
	}
	msg := strings.TrimSpace(v.Message)
	if v.Message != "" && msg == "" {
		errs = append(errs, fieldpath.Invalid(path.Child("message"), v.Message, "must be non-empty if specified"))
	} else if lineBreaks.MatchString(msg) {
		errs = append(errs, fieldpath.Invalid(path.Child("message"), v.Message, "must not contain line breaks"))
	}
	if v.Reason != nil && !slices.Contains(validationReasons, *v.Reason) {
		errs = append(errs, fieldpath.NotSupported(path.Child("reason"), enumValue(*v.Reason), validationReasons))
	}
	return errs
}

// auditAnnotation checks the key (policy name "/" key a qualified name)
// and the value expression (at most 5 KiB, compiled trimmed).
func (pc *policyCompiler) auditAnnotation(policyName string, a *AuditAnnotation, hasParams bool, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	if policyName != "" {
		qn := policyName + "/" + a.Key
		for _, msg := range names.IsQualifiedName(qn) {
			errs = append(errs, fieldpath.Invalid(path.Child("key"), qn, msg))
		}
	} else {
		errs = append(errs, fieldpath.Invalid(path.Child("key"), a.Key, "requires metadata.name be non-empty"))
	}
	expr := strings.TrimSpace(a.ValueExpression)
	switch {
	case expr == "":
		errs = append(errs, fieldpath.Required(path.Child("valueExpression"), "valueExpression is not specified"))
	case len(expr) > maxAuditAnnotationValueExpressionLength:
		errs = append(errs, fieldpath.Required(path.Child("valueExpression"), fmt.Sprintf("must not exceed %d bytes in length", maxAuditAnnotationValueExpressionLength)))
	default:
		c := pc.compile(expr, envOpts{params: hasParams, authorizer: true}, auditTypes)
		errs = append(errs, compileError(c, a.ValueExpression, path.Child("valueExpression"))...)
	}
	return errs
}

// mutation checks a mutation's patch type and the expression of its
// patch, compiled trimmed in the environment with the patch types.
func (pc *policyCompiler) mutation(m *Mutation, hasParams bool, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	compilePatch := func(expr string, at *fieldpath.Path, returnTypes []*cel.Type) {
		expr = strings.TrimSpace(expr)
		if expr == "" {
			errs = append(errs, fieldpath.Required(at.Child("expression"), ""))
			return
		}
		c := pc.compile(expr, envOpts{params: hasParams, authorizer: true, patch: true}, returnTypes)
		errs = append(errs, compileError(c, expr, at.Child("expression"))...)
	}
	switch m.PatchType {
	case "":
		errs = append(errs, fieldpath.Required(path.Child("patchType"), ""))
	case PatchTypeJSONPatch:
		if m.JSONPatch == nil {
			errs = append(errs, fieldpath.Required(path.Child("jsonPatch"), "must be specified when patchType is JSONPatch"))
		} else {
			compilePatch(m.JSONPatch.Expression, path.Child("jsonPatch"), jsonPatchReturnTypes)
		}
		if m.ApplyConfiguration != nil {
			errs = append(errs, fieldpath.Invalid(path.Child("applyConfiguration"), "{applyConfiguration}", "must not be specified when patchType is JSONPatch"))
		}
	case PatchTypeApplyConfiguration:
		if m.ApplyConfiguration == nil {
			errs = append(errs, fieldpath.Required(path.Child("applyConfiguration"), "must be specified when patchType is ApplyConfiguration"))
		} else {
			compilePatch(m.ApplyConfiguration.Expression, path.Child("applyConfiguration"), applyConfigReturnTypes)
		}
		if m.JSONPatch != nil {
			errs = append(errs, fieldpath.Invalid(path.Child("jsonPatch"), "{jsonPatch}", "must not be specified when patchType is ApplyConfiguration"))
		}
	default:
		errs = append(errs, fieldpath.NotSupported(path.Child("patchType"), enumValue(m.PatchType), patchTypes))
	}
	return errs
}

// ValidateBinding is the API server's validation of a
// ValidatingAdmissionPolicyBinding on create, nil when it is valid. A
// missing policyName or validationActions is reported last, by the
// declarative validation that covers the handwritten checks.
func ValidateBinding(b *Binding) fieldpath.ErrorList {
	errs := validateMeta(&b.Metadata)
	path := fieldpath.NewPath("spec")
	if b.Spec.PolicyName != "" {
		errs = append(errs, validatePolicyName(b.Spec.PolicyName, path)...)
	}
	errs = append(errs, validateParamRef(b.Spec.ParamRef, path.Child("paramRef"))...)
	errs = append(errs, validateMatchResources(b.Spec.MatchResources, path.Child("matchResources"))...)
	errs = append(errs, validateValidationActions(b.Spec.ValidationActions, path.Child("validationActions"))...)
	errs = append(errs, validateStaticSuffix(b.Metadata.Name)...)
	if b.Spec.PolicyName == "" {
		errs = append(errs, fieldpath.Required(path.Child("policyName"), ""))
	}
	if len(b.Spec.ValidationActions) == 0 {
		errs = append(errs, fieldpath.Required(path.Child("validationActions"), ""))
	}
	return errs
}

// ValidateMutatingBinding is the API server's validation of a
// MutatingAdmissionPolicyBinding on create, nil when it is valid.
func ValidateMutatingBinding(b *MutatingBinding) fieldpath.ErrorList {
	errs := validateMeta(&b.Metadata)
	path := fieldpath.NewPath("spec")
	if b.Spec.PolicyName == "" {
		errs = append(errs, fieldpath.Required(path.Child("policyName"), ""))
	} else {
		errs = append(errs, validatePolicyName(b.Spec.PolicyName, path)...)
	}
	errs = append(errs, validateParamRef(b.Spec.ParamRef, path.Child("paramRef"))...)
	errs = append(errs, validateMatchResources(b.Spec.MatchResources, path.Child("matchResources"))...)
	if b.Spec.MatchResources != nil {
		errs = append(errs, mutatingOperationErrors(b.Spec.MatchResources, path.Child("matchResources", "resourceRules", "operations"))...)
	}
	return append(errs, validateStaticSuffix(b.Metadata.Name)...)
}

func validatePolicyName(name string, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	for _, msg := range names.NameIsDNSSubdomain(name, false) {
		errs = append(errs, fieldpath.Invalid(path.Child("policyName"), name, msg))
	}
	return errs
}

// validateParamRef checks a paramRef: a name (a path segment) or a
// selector, not both, and parameterNotFoundAction Allow or Deny.
func validateParamRef(pr *ParamRef, path *fieldpath.Path) fieldpath.ErrorList {
	if pr == nil {
		return nil
	}
	var errs fieldpath.ErrorList
	const exclusive = "name and selector are mutually exclusive"
	if pr.Name != "" {
		for _, msg := range names.IsPathSegmentName(pr.Name) {
			errs = append(errs, fieldpath.Invalid(path.Child("name"), pr.Name, msg))
		}
		if pr.Selector != nil {
			errs = append(errs, fieldpath.Forbidden(path.Child("name"), exclusive))
		}
	}
	if pr.Selector != nil {
		errs = append(errs, validateLabelSelector(pr.Selector, path.Child("selector"))...)
		if pr.Name != "" {
			errs = append(errs, fieldpath.Forbidden(path.Child("selector"), exclusive))
		}
	}
	if pr.Name == "" && pr.Selector == nil {
		errs = append(errs, fieldpath.Required(path, "one of name or selector must be specified"))
	}
	switch a := pr.ParameterNotFoundAction; {
	case a == nil || *a == "":
		errs = append(errs, fieldpath.Required(path.Child("parameterNotFoundAction"), ""))
	case *a != "Deny" && *a != "Allow":
		v := enumValue(*a)
		errs = append(errs, fieldpath.NotSupported(path.Child("parameterNotFoundAction"), &v, []string{"Deny", "Allow"}))
	}
	return errs
}

// validateValidationActions checks each action (supported, once) and the
// combination (not Deny with Warn); an empty list is reported by the
// caller (declarative validation).
func validateValidationActions(actions []string, path *fieldpath.Path) fieldpath.ErrorList {
	var errs fieldpath.ErrorList
	seen := map[string]bool{}
	for i, a := range actions {
		if !slices.Contains(validationActions, a) {
			errs = append(errs, fieldpath.NotSupported(path.Index(i), enumValue(a), validationActions))
		}
		if seen[a] {
			errs = append(errs, fieldpath.Duplicate(path.Index(i), enumValue(a)))
		}
		seen[a] = true
	}
	if seen["Deny"] && seen["Warn"] {
		errs = append(errs, fieldpath.Invalid(path, enumList(actions), "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"))
	}
	return errs
}

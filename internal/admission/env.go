package admission

import (
	"fmt"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/traits"

	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/cel/library"
	"github.com/crdlab/crdlab/internal/limits"
)

// The policy CEL environment: k8s.io/apiserver/pkg/admission/plugin/cel
// (compile.go BuildRequestType, BuildNamespaceType, createEnvForOpts;
// composition.go NewCompositedCompiler) over the base environment of
// pkg/cel/environment in its StoredExpressions flavour (validating/plugin.go
// compiles every expression with environment.StoredExpressions), with
// StrictCostOpt (library.ProgramOptions carries its cost tracker).

// Variable names of the policy environment.
const (
	varObject          = "object"
	varOldObject       = "oldObject"
	varParams          = "params"
	varRequest         = "request"
	varNamespace       = "namespaceObject"
	varAuthorizer      = "authorizer"
	varRequestResource = "authorizer.requestResource"
	varVariables       = "variables"
)

func field(name string, t *kcel.DeclType, required bool) *kcel.DeclField {
	return &kcel.DeclField{Name: name, Type: t, Required: required}
}

func fields(fs ...*kcel.DeclField) map[string]*kcel.DeclField {
	m := make(map[string]*kcel.DeclField, len(fs))
	for _, f := range fs {
		m[f.Name] = f
	}
	return m
}

// requestDeclType is upstream's BuildRequestType.
func requestDeclType() *kcel.DeclType {
	str := kcel.StringDeclType
	gvk := kcel.NewObjectDeclType("kubernetes.GroupVersionKind", fields(
		field("group", str, true), field("version", str, true), field("kind", str, true)))
	gvr := kcel.NewObjectDeclType("kubernetes.GroupVersionResource", fields(
		field("group", str, true), field("version", str, true), field("resource", str, true)))
	user := kcel.NewObjectDeclType("kubernetes.UserInfo", fields(
		field("username", str, false),
		field("uid", str, false),
		field("groups", kcel.NewListDeclType(str), false),
		field("extra", kcel.NewMapDeclType(str, kcel.NewListDeclType(str)), false)))
	return kcel.NewObjectDeclType("kubernetes.AdmissionRequest", fields(
		field("kind", gvk, true),
		field("resource", gvr, true),
		field("subResource", str, false),
		field("requestKind", gvk, true),
		field("requestResource", gvr, true),
		field("requestSubResource", str, false),
		field("name", str, true),
		field("namespace", str, false),
		field("operation", str, true),
		field("userInfo", user, true),
		field("dryRun", kcel.BoolDeclType, false),
		field("options", kcel.DynDeclType, false)))
}

// namespaceDeclType is upstream's BuildNamespaceType.
func namespaceDeclType() *kcel.DeclType {
	str := kcel.StringDeclType
	strs := kcel.NewListDeclType(str)
	strMap := kcel.NewMapDeclType(str, str)
	spec := kcel.NewObjectDeclType("kubernetes.NamespaceSpec", fields(field("finalizers", strs, true)))
	cond := kcel.NewObjectDeclType("kubernetes.NamespaceCondition", fields(
		field("status", str, true), field("type", str, true),
		field("lastTransitionTime", kcel.TimestampDeclType, true),
		field("message", str, true), field("reason", str, true)))
	status := kcel.NewObjectDeclType("kubernetes.NamespaceStatus", fields(
		field("conditions", kcel.NewListDeclType(cond), true), field("phase", str, true)))
	meta := kcel.NewObjectDeclType("kubernetes.NamespaceMetadata", fields(
		field("name", str, true), field("generateName", str, true), field("namespace", str, true),
		field("labels", strMap, true), field("annotations", strMap, true),
		field("UID", str, true), field("creationTimestamp", kcel.TimestampDeclType, true),
		field("deletionGracePeriodSeconds", kcel.IntDeclType, true),
		field("deletionTimestamp", kcel.TimestampDeclType, true),
		field("generation", kcel.IntDeclType, true), field("resourceVersion", str, true),
		field("finalizers", strs, true)))
	return kcel.NewObjectDeclType("kubernetes.Namespace", fields(
		field("metadata", meta, true), field("spec", spec, true), field("status", status, true)))
}

// envOpts selects one of the four environments of a policy (upstream's
// OptionalVariableDeclarations without patch types).
type envOpts struct {
	params, authorizer bool
	// patch: the Object and JSONPatch types (mutating_env.go)
	patch bool
}

// policyEnvs are the environments of one policy: they share the policy's
// kubernetes.variables type, which grows as each variable compiles.
type policyEnvs struct {
	variables *kcel.DeclType
	envs      map[envOpts]*cel.Env
	prog      []cel.ProgramOption
}

var (
	baseOnce sync.Once
	baseEnv  *cel.Env
	baseErr  error
	reqType  *kcel.DeclType
	nsType   *kcel.DeclType
)

func base() (*cel.Env, error) {
	baseOnce.Do(func() {
		baseEnv, baseErr = cel.NewEnv(library.StoredEnvOptions()...)
		reqType = requestDeclType()
		nsType = namespaceDeclType()
	})
	return baseEnv, baseErr
}

var sharedProgramOptions = sync.OnceValue(func() []cel.ProgramOption {
	return append(library.ProgramOptions(), cel.InterruptCheckFrequency(limits.CheckFrequency))
})

func newPolicyEnvs() (*policyEnvs, error) { return newEnvs(true) }

// newEnvs builds the environments, with the variables of a composited
// compiler (policies) or without them (webhooks' match conditions: upstream's
// plain ConditionCompiler declares no variables).
func newEnvs(variables bool) (*policyEnvs, error) {
	b, err := base()
	if err != nil {
		return nil, err
	}
	return newEnvsOn(b, variables)
}

// newEnvsOn is newEnvs over the base environment b (the StoredExpressions
// one at run time, the NewExpressions one on create: policyvalidation.go).
func newEnvsOn(b *cel.Env, variables bool) (*policyEnvs, error) {
	var err error
	vars := kcel.NewObjectDeclType("kubernetes.variables", nil)
	withVars := b
	if variables {
		withVars, err = b.Extend(append(kcel.TypeProviderOptions(b, vars),
			cel.Variable(varVariables, vars.CelType()))...)
		if err != nil {
			return nil, err
		}
	}
	pe := &policyEnvs{variables: vars, envs: map[envOpts]*cel.Env{}, prog: sharedProgramOptions()}
	for _, params := range []bool{false, true} {
		for _, authz := range []bool{false, true} {
			opts := append(kcel.TypeProviderOptions(withVars, nsType, reqType),
				cel.Variable(varObject, cel.DynType),
				cel.Variable(varOldObject, cel.DynType),
				cel.Variable(varNamespace, nsType.CelType()),
				cel.Variable(varRequest, reqType.CelType()))
			if params {
				opts = append(opts, cel.Variable(varParams, cel.DynType))
			}
			if authz {
				opts = append(opts,
					cel.Variable(varAuthorizer, library.AuthorizerType),
					cel.Variable(varRequestResource, library.ResourceCheckType))
			}
			env, err := withVars.Extend(opts...)
			if err != nil {
				return nil, fmt.Errorf("environment misconfigured: %w", err)
			}
			pe.envs[envOpts{params: params, authorizer: authz}] = env
		}
	}
	return pe, nil
}

// compiled is upstream's CompilationResult.
type compiled struct {
	expression string
	program    cel.Program
	err        error // *celError
	outputType *cel.Type
	// usesAuthorizer: the expression refers to the authorizer variables.
	usesAuthorizer bool
}

// celError is apiservercel.Error: its text is Detail.
type celError struct {
	detail string
	budget bool // Cause is ErrOutOfBudget
}

func (e *celError) Error() string { return e.detail }

// compile is upstream's compiler.CompileCELExpression.
func (pe *policyEnvs) compile(expr string, opts envOpts, returnTypes []*cel.Type) compiled {
	r := compiled{expression: expr}
	env := pe.envs[opts]
	ast, issues := env.Compile(expr)
	if issues != nil {
		r.err = &celError{detail: "compilation failed: " + issues.String()}
		return r
	}
	found := false
	for _, rt := range returnTypes {
		if ast.OutputType().IsExactType(rt) || cel.AnyType.IsExactType(rt) {
			found = true
			break
		}
	}
	if !found {
		var reason string
		if len(returnTypes) == 1 {
			reason = fmt.Sprintf("must evaluate to %v but got %v", returnTypes[0].String(), ast.OutputType().String())
		} else {
			reason = fmt.Sprintf("must evaluate to one of %v but got %v", returnTypes, ast.OutputType().String())
		}
		r.err = &celError{detail: reason}
		return r
	}
	if _, err := cel.AstToCheckedExpr(ast); err != nil {
		r.err = &celError{detail: "unexpected compilation error: " + err.Error()}
		return r
	}
	prog, err := env.Program(ast, pe.prog...)
	if err != nil {
		r.err = &celError{detail: "program instantiation failed: " + err.Error()}
		return r
	}
	r.program = prog
	r.outputType = ast.OutputType()
	if opts.authorizer {
		r.usesAuthorizer = refersTo(ast, varAuthorizer)
	}
	return r
}

// addVariable is upstream's compositionState.AddField: the variable's type
// from its output type (convertCelTypeToDeclType).
func (pe *policyEnvs) addVariable(name string, t *cel.Type) {
	pe.variables.Fields[name] = &kcel.DeclField{Name: name, Type: declTypeOf(t), Required: true}
}

func declTypeOf(t *cel.Type) *kcel.DeclType {
	if t == nil {
		return kcel.DynDeclType
	}
	switch {
	case t == cel.AnyType:
		return kcel.AnyDeclType
	case t == cel.BoolType:
		return kcel.BoolDeclType
	case t == cel.BytesType:
		return kcel.BytesDeclType
	case t == cel.DoubleType:
		return kcel.DoubleDeclType
	case t == cel.DurationType:
		return kcel.DurationDeclType
	case t == cel.IntType:
		return kcel.IntDeclType
	case t == cel.NullType:
		return kcel.NullDeclType
	case t == cel.StringType:
		return kcel.StringDeclType
	case t == cel.TimestampType:
		return kcel.TimestampDeclType
	case t == cel.UintType:
		return kcel.UintDeclType
	}
	if t.HasTrait(traits.ContainerType) && t.HasTrait(traits.IndexerType) {
		ps := t.Parameters()
		switch len(ps) {
		case 1:
			return kcel.NewListDeclType(declTypeOf(ps[0]))
		case 2:
			return kcel.NewMapDeclType(declTypeOf(ps[0]), declTypeOf(ps[1]))
		}
	}
	return kcel.DynDeclType
}

// refersTo reports whether the checked expression refers to the variable
// name (or a qualified name below it, such as authorizer.requestResource).
func refersTo(ast *cel.Ast, name string) bool {
	for _, ref := range ast.NativeRep().ReferenceMap() {
		if ref.Name == name || strings.HasPrefix(ref.Name, name+".") {
			return true
		}
	}
	return false
}

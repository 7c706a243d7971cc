//go:build !versions_oracle

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/cel/environment"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// MutateOutput is the outcome of the mutating policy plugin on a request:
// the object after the admission chain's reinvoker ran the plugin (once,
// then again when asked), or the status error.
type MutateOutput struct {
	Object         map[string]interface{}
	Denied         bool
	Message, Cause string
	Reason         string
	Code           int
	Reinvoked      bool
}

// compileMutatingPolicy builds the policy's evaluator from the plugin's
// exported parts, as mutating/compilation.go compilePolicy (unexported)
// does.
func compileMutatingPolicy(policy *admissionregistrationv1.MutatingAdmissionPolicy) mutating.PolicyEvaluator {
	opts := plugincel.OptionalVariableDeclarations{HasParams: policy.Spec.ParamKind != nil, HasAuthorizer: true}
	compiler, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return mutating.PolicyEvaluator{Error: err}
	}
	vars := make([]plugincel.NamedExpressionAccessor, len(policy.Spec.Variables))
	for i, v := range policy.Spec.Variables {
		vars[i] = &validating.Variable{Name: v.Name, Expression: v.Expression}
	}
	compiler.CompileAndStoreVariables(vars, opts, environment.StoredExpressions)
	var matcher matchconditions.Matcher
	if mcs := policy.Spec.MatchConditions; len(mcs) > 0 {
		acc := make([]plugincel.ExpressionAccessor, len(mcs))
		for i := range mcs {
			acc[i] = (*matchconditions.MatchCondition)(&mcs[i])
		}
		matcher = matchconditions.NewMatcher(compiler.CompileCondition(acc, opts, environment.StoredExpressions), policy.Spec.FailurePolicy, "policy", "validate", policy.Name)
	}
	var patchers []patch.Patcher
	patchOpts := opts
	patchOpts.HasPatchTypes = true
	for _, m := range policy.Spec.Mutations {
		switch m.PatchType {
		case admissionregistrationv1.PatchTypeJSONPatch:
			if m.JSONPatch != nil {
				patchers = append(patchers, patch.NewJSONPatcher(compiler.CompileMutatingEvaluator(&patch.JSONPatchCondition{Expression: m.JSONPatch.Expression}, patchOpts, environment.StoredExpressions)))
			}
		case admissionregistrationv1.PatchTypeApplyConfiguration:
			if m.ApplyConfiguration != nil {
				patchers = append(patchers, patch.NewApplyConfigurationPatcher(compiler.CompileMutatingEvaluator(&patch.ApplyConfigurationCondition{Expression: m.ApplyConfiguration.Expression}, patchOpts, environment.StoredExpressions)))
			}
		}
	}
	return mutating.PolicyEvaluator{Matcher: matcher, Mutators: patchers, CompositedCompiler: compiler}
}

type typeConverterManager struct{ tc managedfields.TypeConverter }

func (m typeConverterManager) GetTypeConverter(schema.GroupVersionKind) managedfields.TypeConverter {
	return m.tc
}
func (m typeConverterManager) Run(context.Context) {}

// Mutate runs k8s.io/apiserver's mutating admission policy dispatcher
// (mutating.NewDispatcher over matching.NewMatcher) on in, with the type
// converter of crd (nil: none), as the admission chain's reinvoker does.
// Policies, bindings and params are ordered as in Admit. After each patch
// the CRD's structural defaults are applied (the CRD handler's
// unstructuredDefaulter).
func Mutate(in *AdmissionInput, crd *apiextensionsv1.CustomResourceDefinition) (*MutateOutput, error) {
	var policies []*admissionregistrationv1.MutatingAdmissionPolicy
	for _, b := range in.Policies {
		p := &admissionregistrationv1.MutatingAdmissionPolicy{}
		if err := json.Unmarshal(b, p); err != nil {
			return nil, err
		}
		policies = append(policies, p)
	}
	sort.SliceStable(policies, func(i, j int) bool { return policies[i].Name < policies[j].Name })
	byPolicy := map[string][]*admissionregistrationv1.MutatingAdmissionPolicyBinding{}
	for _, b := range in.Bindings {
		mb := &admissionregistrationv1.MutatingAdmissionPolicyBinding{}
		if err := json.Unmarshal(b, mb); err != nil {
			return nil, err
		}
		byPolicy[mb.Spec.PolicyName] = append(byPolicy[mb.Spec.PolicyName], mb)
	}
	nsIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, o := range in.Objects {
		if o["apiVersion"] == "v1" && o["kind"] == "Namespace" {
			ns := &corev1.Namespace{}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o, ns); err != nil {
				return nil, err
			}
			ns.TypeMeta = metav1.TypeMeta{}
			if err := nsIndexer.Add(ns); err != nil {
				return nil, err
			}
		}
	}
	var tcm typeConverterManager
	var defaulter runtime.ObjectDefaulter
	sd := &structuralDefaulter{schemas: map[string]*structuralschema.Structural{}}
	defaulter = sd
	if _, ok := builtinKinds[in.Kind]; ok && crd == nil {
		// A built-in kind: its published schema, the scheme's defaults.
		tcm.tc, defaulter = builtinTypeConverter(), builtinDefaulter{in.Kind}
	}
	if crd != nil {
		tc, err := TypeConverter(crd)
		if err != nil {
			return nil, err
		}
		tcm.tc = tc
		sd.gk = schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
		for _, v := range crd.Spec.Versions {
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			internal := &apiextensions.CustomResourceValidation{}
			if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, internal, nil); err != nil {
				return nil, err
			}
			s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
			if err != nil {
				return nil, err
			}
			sd.schemas[v.Name] = s
		}
	}
	matcher := matching.NewMatcher(corelisters.NewNamespaceLister(nsIndexer), nil)
	authz, err := Authorizer(in.Objects)
	if err != nil {
		return nil, err
	}
	dispatcher := mutating.NewDispatcher(authz, matcher, tcm)

	scope := meta.RESTScopeRoot
	if in.ParamNamespaced {
		scope = meta.RESTScopeNamespace
	}
	var hooks []mutating.PolicyHook
	for _, p := range policies {
		bs := byPolicy[p.Name]
		if len(bs) == 0 {
			continue
		}
		sort.SliceStable(bs, func(i, j int) bool { return bs[i].Name < bs[j].Name })
		h := mutating.PolicyHook{Policy: p, Bindings: bs, Evaluator: compileMutatingPolicy(p), ParamScope: scope}
		if pk := p.Spec.ParamKind; pk != nil {
			h.ParamInformer = newParamInformer(in.Objects, pk.APIVersion, pk.Kind)
		}
		hooks = append(hooks, h)
	}

	var obj, old runtime.Object
	if in.Object != nil {
		obj = &unstructured.Unstructured{Object: runtime.DeepCopyJSON(in.Object)}
	}
	if in.OldObject != nil {
		old = &unstructured.Unstructured{Object: runtime.DeepCopyJSON(in.OldObject)}
	}
	attrs := admission.NewAttributesRecord(obj, old, in.Kind, in.Namespace, in.Name, in.Resource,
		in.SubResource, admission.Operation(in.Operation), in.Options, in.DryRun, in.User)
	oi := &mutatingObjectInterfaces{objectInterfaces: objectInterfaces{equivalents: in.Equivalents}, defaulter: defaulter}
	out := &MutateOutput{}
	err = dispatcher.Dispatch(context.Background(), attrs, oi, hooks)
	if err == nil && attrs.GetReinvocationContext().ShouldReinvoke() {
		attrs.GetReinvocationContext().SetIsReinvoke()
		out.Reinvoked = true
		err = dispatcher.Dispatch(context.Background(), attrs, oi, hooks)
	}
	if err != nil {
		var se *apierrors.StatusError
		if !errors.As(err, &se) {
			return nil, fmt.Errorf("dispatch: %w", err)
		}
		out.Denied = true
		out.Message = se.ErrStatus.Message
		out.Reason = string(se.ErrStatus.Reason)
		out.Code = int(se.ErrStatus.Code)
		if se.ErrStatus.Details != nil && len(se.ErrStatus.Details.Causes) > 0 {
			out.Cause = se.ErrStatus.Details.Causes[0].Message
		}
	}
	if u, ok := attrs.GetObject().(*unstructured.Unstructured); ok && u != nil {
		out.Object = u.Object
	}
	return out, nil
}

// mutatingObjectInterfaces adds what the patchers use: a typer (the JSON
// serializer's) and the CRD handler's defaulter.
type mutatingObjectInterfaces struct {
	objectInterfaces
	defaulter runtime.ObjectDefaulter
}

func (o *mutatingObjectInterfaces) GetObjectTyper() runtime.ObjectTyper         { return unstructuredTyper{} }
func (o *mutatingObjectInterfaces) GetObjectDefaulter() runtime.ObjectDefaulter { return o.defaulter }

type unstructuredTyper struct{}

func (unstructuredTyper) ObjectKinds(obj runtime.Object) ([]schema.GroupVersionKind, bool, error) {
	return nil, false, runtime.NewNotRegisteredErrForType("crdlab", reflect.TypeOf(obj))
}
func (unstructuredTyper) Recognizes(schema.GroupVersionKind) bool { return false }

// structuralDefaulter is the CRD handler's unstructuredDefaulter.
type structuralDefaulter struct {
	gk      schema.GroupKind
	schemas map[string]*structuralschema.Structural
}

func (d *structuralDefaulter) Default(in runtime.Object) {
	u, ok := in.(*unstructured.Unstructured)
	if !ok || u.GroupVersionKind().GroupKind() != d.gk {
		return
	}
	if s := d.schemas[u.GroupVersionKind().Version]; s != nil {
		structuraldefaulting.Default(u.UnstructuredContent(), s)
	}
}

//go:build !versions_oracle

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/warning"
	"k8s.io/client-go/informers"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// AdmissionInput is one validating-admission request and the cluster state
// it meets: policies and bindings (JSON of admissionregistration/v1 objects,
// defaults applied), objects (params and Namespaces, unstructured), and the
// request's attributes.
type AdmissionInput struct {
	Policies, Bindings [][]byte
	Objects            []map[string]interface{}
	// ParamNamespaced says whether param kinds are namespaced.
	ParamNamespaced bool
	// Equivalents: resource → kind of every version of the request's
	// group/resource (a CRD's served versions).
	Equivalents map[schema.GroupVersionResource]schema.GroupVersionKind

	Operation         string
	Kind              schema.GroupVersionKind
	Resource          schema.GroupVersionResource
	SubResource       string
	Name, Namespace   string
	Object, OldObject map[string]interface{}
	User              user.Info
	DryRun            bool
	Options           runtime.Object
}

// AdmissionOutput is what the API server answers.
type AdmissionOutput struct {
	Denied           bool
	Message, Cause   string
	Reason           string
	Code             int
	Warnings         []string
	AuditAnnotations map[string]string
}

// compileValidatingPolicy builds the policy's Validator from the plugin's
// exported parts, as validating/plugin.go compilePolicy (unexported) does.
func compileValidatingPolicy(policy *admissionregistrationv1.ValidatingAdmissionPolicy) validating.Validator {
	hasParam := policy.Spec.ParamKind != nil
	optionalVars := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: true}
	expressionOptionalVars := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: false}
	failurePolicy := policy.Spec.FailurePolicy
	filterCompiler, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return validating.NewValidator(nil, nil, nil, nil, failurePolicy, err)
	}
	vars := make([]plugincel.NamedExpressionAccessor, len(policy.Spec.Variables))
	for i, v := range policy.Spec.Variables {
		vars[i] = &validating.Variable{Name: v.Name, Expression: v.Expression}
	}
	filterCompiler.CompileAndStoreVariables(vars, optionalVars, environment.StoredExpressions)
	var matcher matchconditions.Matcher
	if mcs := policy.Spec.MatchConditions; len(mcs) > 0 {
		acc := make([]plugincel.ExpressionAccessor, len(mcs))
		for i := range mcs {
			acc[i] = (*matchconditions.MatchCondition)(&mcs[i])
		}
		matcher = matchconditions.NewMatcher(filterCompiler.CompileCondition(acc, optionalVars, environment.StoredExpressions), failurePolicy, "policy", "validate", policy.Name)
	}
	validations := make([]plugincel.ExpressionAccessor, len(policy.Spec.Validations))
	messages := make([]plugincel.ExpressionAccessor, len(policy.Spec.Validations))
	for i, v := range policy.Spec.Validations {
		validations[i] = &validating.ValidationCondition{Expression: v.Expression, Message: v.Message, Reason: v.Reason}
		if v.MessageExpression != "" {
			messages[i] = &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
		}
	}
	audits := make([]plugincel.ExpressionAccessor, len(policy.Spec.AuditAnnotations))
	for i, a := range policy.Spec.AuditAnnotations {
		audits[i] = &validating.AuditAnnotationCondition{Key: a.Key, ValueExpression: a.ValueExpression}
	}
	return validating.NewValidator(
		filterCompiler.CompileCondition(validations, optionalVars, environment.StoredExpressions),
		matcher,
		filterCompiler.CompileCondition(audits, optionalVars, environment.StoredExpressions),
		filterCompiler.CompileCondition(messages, expressionOptionalVars, environment.StoredExpressions),
		failurePolicy, nil)
}

// Admit runs k8s.io/apiserver's validating admission policy dispatcher
// (validating.NewDispatcher over generic.NewPolicyMatcher and
// matching.NewMatcher) on in. Hooks are in policy-name order, bindings in
// name order, params listed in namespace/name order.
func Admit(in *AdmissionInput) (*AdmissionOutput, error) {
	var policies []*admissionregistrationv1.ValidatingAdmissionPolicy
	for _, b := range in.Policies {
		p := &admissionregistrationv1.ValidatingAdmissionPolicy{}
		if err := json.Unmarshal(b, p); err != nil {
			return nil, err
		}
		policies = append(policies, p)
	}
	sort.SliceStable(policies, func(i, j int) bool { return policies[i].Name < policies[j].Name })
	byPolicy := map[string][]*admissionregistrationv1.ValidatingAdmissionPolicyBinding{}
	for _, b := range in.Bindings {
		vb := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{}
		if err := json.Unmarshal(b, vb); err != nil {
			return nil, err
		}
		byPolicy[vb.Spec.PolicyName] = append(byPolicy[vb.Spec.PolicyName], vb)
	}

	nsIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, o := range in.Objects {
		if o["apiVersion"] == "v1" && o["kind"] == "Namespace" {
			ns := &corev1.Namespace{}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o, ns); err != nil {
				return nil, err
			}
			ns.TypeMeta = metav1.TypeMeta{} // as an informer holds it
			if err := nsIndexer.Add(ns); err != nil {
				return nil, err
			}
		}
	}
	matcher := matching.NewMatcher(corelisters.NewNamespaceLister(nsIndexer), nil)
	authz, err := Authorizer(in.Objects)
	if err != nil {
		return nil, err
	}
	dispatcher := validating.NewDispatcher(authz, generic.NewPolicyMatcher(matcher))

	scope := meta.RESTScopeRoot
	if in.ParamNamespaced {
		scope = meta.RESTScopeNamespace
	}
	var hooks []validating.PolicyHook
	for _, p := range policies {
		bs := byPolicy[p.Name]
		if len(bs) == 0 {
			continue
		}
		sort.SliceStable(bs, func(i, j int) bool { return bs[i].Name < bs[j].Name })
		h := validating.PolicyHook{Policy: p, Bindings: bs, Evaluator: compileValidatingPolicy(p), ParamScope: scope}
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
	attrs := &annotatedAttributes{Attributes: admission.NewAttributesRecord(obj, old, in.Kind, in.Namespace, in.Name, in.Resource,
		in.SubResource, admission.Operation(in.Operation), in.Options, in.DryRun, in.User)}
	rec := &warnings{}
	ctx := warning.WithWarningRecorder(context.Background(), rec)
	err = dispatcher.Dispatch(ctx, attrs, &objectInterfaces{equivalents: in.Equivalents}, hooks)
	out := &AdmissionOutput{Warnings: rec.list, AuditAnnotations: attrs.annotations}
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
	return out, nil
}

// annotatedAttributes records the audit annotations as the attributes
// record does (an existing key is not overwritten with another value).
type annotatedAttributes struct {
	admission.Attributes
	mu          sync.Mutex
	annotations map[string]string
}

func (a *annotatedAttributes) AddAnnotation(key, value string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.annotations == nil {
		a.annotations = map[string]string{}
	}
	if v, ok := a.annotations[key]; ok && v != value {
		return fmt.Errorf("admission annotations are not allowd to be overwritten, key:%q", key)
	}
	a.annotations[key] = value
	return nil
}

// warnings is the handler's recorder: de-duplicated, in order.
type warnings struct {
	list []string
	seen map[string]bool
}

func (w *warnings) AddWarning(_, text string) {
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	if !w.seen[text] {
		w.seen[text] = true
		w.list = append(w.list, text)
	}
}

// objectInterfaces converts custom resources between versions as a CRD
// with conversion strategy None does (apiVersion only).
type objectInterfaces struct {
	equivalents map[schema.GroupVersionResource]schema.GroupVersionKind
	// subresource, when set, is registered too (with subKinds' kind when
	// there is one: a CRD's scale is autoscaling/v1 Scale at every version).
	subresource string
	subKind     schema.GroupVersionKind
}

func (o *objectInterfaces) GetObjectCreater() runtime.ObjectCreater     { return creater{} }
func (o *objectInterfaces) GetObjectTyper() runtime.ObjectTyper         { return nil }
func (o *objectInterfaces) GetObjectDefaulter() runtime.ObjectDefaulter { return nil }
func (o *objectInterfaces) GetObjectConvertor() runtime.ObjectConvertor { return convertor{} }
func (o *objectInterfaces) GetEquivalentResourceMapper() runtime.EquivalentResourceMapper {
	reg := runtime.NewEquivalentResourceRegistry()
	for r, k := range o.equivalents {
		reg.RegisterKindFor(r, "", k)
		if o.subresource != "" {
			if !o.subKind.Empty() {
				k = o.subKind
			}
			reg.RegisterKindFor(r, o.subresource, k)
		}
	}
	return reg
}

type creater struct{}

func (creater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

type convertor struct{}

func (convertor) Convert(in, out, _ interface{}) error {
	u, ok1 := in.(*unstructured.Unstructured)
	o, ok2 := out.(*unstructured.Unstructured)
	if !ok1 || !ok2 {
		return fmt.Errorf("unsupported conversion %T to %T", in, out)
	}
	apiVersion := o.GetAPIVersion()
	o.Object = runtime.DeepCopyJSON(u.Object)
	o.SetAPIVersion(apiVersion)
	return nil
}

func (convertor) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	return nil, errors.New("ConvertToVersion: not used")
}

func (convertor) ConvertFieldLabel(gvk schema.GroupVersionKind, label, value string) (string, string, error) {
	return label, value, nil
}

// paramInformer is an informer over fixed objects, always synced; lists are
// in namespace/name order.
type paramInformer struct {
	objs []*unstructured.Unstructured
	// configMaps: the informer holds typed ConfigMaps (TypeMeta empty), as
	// the API server's shared informer factory does.
	configMaps bool
}

func newParamInformer(objects []map[string]interface{}, apiVersion, kind string) informers.GenericInformer {
	p := &paramInformer{}
	for _, o := range objects {
		if o["apiVersion"] == apiVersion && o["kind"] == kind {
			p.objs = append(p.objs, &unstructured.Unstructured{Object: runtime.DeepCopyJSON(o)})
		}
	}
	p.configMaps = apiVersion == "v1" && kind == "ConfigMap"
	sort.SliceStable(p.objs, func(i, j int) bool {
		if p.objs[i].GetNamespace() != p.objs[j].GetNamespace() {
			return p.objs[i].GetNamespace() < p.objs[j].GetNamespace()
		}
		return p.objs[i].GetName() < p.objs[j].GetName()
	})
	return p
}

func (p *paramInformer) Informer() cache.SharedIndexInformer { return syncedInformer{} }
func (p *paramInformer) Lister() cache.GenericLister {
	return paramLister{objs: p.objs, all: true, typed: p.configMaps}
}

type syncedInformer struct{ cache.SharedIndexInformer }

func (syncedInformer) HasSynced() bool { return true }

type paramLister struct {
	objs  []*unstructured.Unstructured
	ns    string
	all   bool
	typed bool
}

// out is the object as the informer holds it.
func (l paramLister) out(o *unstructured.Unstructured) runtime.Object {
	if !l.typed {
		return o
	}
	cm := &corev1.ConfigMap{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, cm); err != nil {
		panic(err)
	}
	cm.TypeMeta = metav1.TypeMeta{}
	return cm
}

func (l paramLister) List(sel labels.Selector) ([]runtime.Object, error) {
	var out []runtime.Object
	for _, o := range l.objs {
		if (l.all || o.GetNamespace() == l.ns) && sel.Matches(labels.Set(o.GetLabels())) {
			out = append(out, l.out(o))
		}
	}
	return out, nil
}

func (l paramLister) Get(name string) (runtime.Object, error) {
	for _, o := range l.objs {
		if (l.all || o.GetNamespace() == l.ns) && o.GetName() == name {
			return l.out(o), nil
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "params"}, name)
}

func (l paramLister) ByNamespace(ns string) cache.GenericNamespaceLister {
	return paramLister{objs: l.objs, ns: ns, typed: l.typed}
}

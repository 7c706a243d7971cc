//go:build !versions_oracle

package upstream

import (
	"context"
	"encoding/json"
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/webhook"
	webhookgeneric "k8s.io/apiserver/pkg/admission/plugin/webhook/generic"
	webhookutil "k8s.io/apiserver/pkg/util/webhook"
	"k8s.io/client-go/informers"
)

// WebhookHook is one webhook of a configuration: Hook is the JSON of an
// admissionregistration/v1 ValidatingWebhook or MutatingWebhook (defaults
// applied).
type WebhookHook struct {
	Configuration string
	Mutating      bool
	Hook          []byte
}

// WebhookDecision is ShouldCallHook's answer for one webhook: called (with
// the resource, subresource and kind of the invocation), not called, or
// the status error that ends the dispatch.
type WebhookDecision struct {
	Called      bool
	Resource    schema.GroupVersionResource
	SubResource string
	Kind        schema.GroupVersionKind
	Error       string
	Code        int
}

// ShouldCallHooks runs k8s.io/apiserver's generic webhook plugin's
// ShouldCallHook (built by generic.NewWebhook, its namespace lister fed the
// input Namespaces) on every hook of in.Hooks, in order, for the request of
// in (its policies and bindings are not used). Every hook is asked, also
// after an error.
func ShouldCallHooks(in *AdmissionInput, hooks []WebhookHook) ([]WebhookDecision, error) {
	sf := func(informers.SharedInformerFactory, sets.Set[schema.GroupResource]) webhookgeneric.Source {
		return nil
	}
	df := func(*webhookutil.ClientManager) webhookgeneric.Dispatcher { return nil }
	wh, err := webhookgeneric.NewWebhook(admission.NewHandler(admission.Create, admission.Update, admission.Delete, admission.Connect), nil, sf, df)
	if err != nil {
		return nil, err
	}
	factory := informers.NewSharedInformerFactory(nil, 0)
	nsInformer := factory.Core().V1().Namespaces()
	for _, o := range in.Objects {
		if o["apiVersion"] == "v1" && o["kind"] == "Namespace" {
			ns := &corev1.Namespace{}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o, ns); err != nil {
				return nil, err
			}
			if err := nsInformer.Informer().GetIndexer().Add(ns); err != nil {
				return nil, err
			}
		}
	}
	wh.SetExternalKubeInformerFactory(factory)
	authz, err := Authorizer(in.Objects)
	if err != nil {
		return nil, err
	}
	wh.SetUnconditionalAuthorizer(authz)

	var obj, old runtime.Object
	if in.Object != nil {
		obj = &unstructured.Unstructured{Object: runtime.DeepCopyJSON(in.Object)}
	}
	if in.OldObject != nil {
		old = &unstructured.Unstructured{Object: runtime.DeepCopyJSON(in.OldObject)}
	}
	attr := admission.NewAttributesRecord(obj, old, in.Kind, in.Namespace, in.Name, in.Resource,
		in.SubResource, admission.Operation(in.Operation), in.Options, in.DryRun, in.User)
	o := &objectInterfaces{equivalents: in.Equivalents, subresource: in.SubResource}
	if in.SubResource == "scale" {
		o.subKind = schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}
	}
	va := &versionedAccessor{attr: attr, o: o}

	var out []WebhookDecision
	for i, h := range hooks {
		var acc webhook.WebhookAccessor
		uid := fmt.Sprintf("%s/%d", h.Configuration, i)
		if h.Mutating {
			mh := &admissionregistrationv1.MutatingWebhook{}
			if err := json.Unmarshal(h.Hook, mh); err != nil {
				return nil, err
			}
			acc = webhook.NewMutatingWebhookAccessor(uid, h.Configuration, mh)
		} else {
			vh := &admissionregistrationv1.ValidatingWebhook{}
			if err := json.Unmarshal(h.Hook, vh); err != nil {
				return nil, err
			}
			acc = webhook.NewValidatingWebhookAccessor(uid, h.Configuration, vh)
		}
		inv, serr := wh.ShouldCallHook(context.Background(), acc, attr, o, va)
		var d WebhookDecision
		switch {
		case serr != nil:
			d.Error, d.Code = serr.ErrStatus.Message, int(serr.ErrStatus.Code)
		case inv != nil:
			d.Called, d.Resource, d.SubResource, d.Kind = true, inv.Resource, inv.Subresource, inv.Kind
		}
		out = append(out, d)
	}
	return out, nil
}

// versionedAccessor converts the request's objects to a kind, as the
// dispatchers' versionedAttributeAccessor does.
type versionedAccessor struct {
	attr admission.Attributes
	o    admission.ObjectInterfaces
}

func (v *versionedAccessor) VersionedAttribute(gvk schema.GroupVersionKind) (*admission.VersionedAttributes, error) {
	return admission.NewVersionedAttributes(v.attr, gvk, v.o)
}

//go:build !versions_oracle

package upstream

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/admissionregistration"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/resolver"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"
	"sigs.k8s.io/yaml"
)

// ValidateAdmissionCreate is kube-apiserver's create of one
// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy,
// MutatingAdmissionPolicy or binding given as YAML or JSON: the decoder's
// defaulting and conversion to the internal type (legacyscheme, as the
// API server decodes a request body), the registry strategy's
// PrepareForCreate, then rest.ValidateCreate (the strategy's Validate, the
// common metadata checks and the declarative validation with its
// migration rules, under the default feature gates). It returns
// errors.NewInvalid's message, "" when the object would be created.
func ValidateAdmissionCreate(doc []byte) (string, error) {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return "", err
	}
	obj, gvk, err := legacyscheme.Codecs.UniversalDecoder().Decode(js, nil, nil)
	if err != nil {
		return "", err
	}
	anyResource := resolver.ResourceResolverFunc(func(gvk schema.GroupVersionKind) (schema.GroupVersionResource, error) {
		return schema.GroupVersionResource{Group: gvk.Group, Version: gvk.Version, Resource: "things"}, nil
	})
	var strategy rest.RESTCreateStrategy
	var resource string
	switch obj.(type) {
	case *admissionregistration.ValidatingAdmissionPolicy:
		strategy, resource = validatingadmissionpolicy.NewStrategy(nil, anyResource), "validatingadmissionpolicies"
	case *admissionregistration.ValidatingAdmissionPolicyBinding:
		strategy, resource = validatingadmissionpolicybinding.NewStrategy(nil, nil, anyResource), "validatingadmissionpolicybindings"
	case *admissionregistration.MutatingAdmissionPolicy:
		strategy, resource = mutatingadmissionpolicy.NewStrategy(nil, anyResource), "mutatingadmissionpolicies"
	case *admissionregistration.MutatingAdmissionPolicyBinding:
		strategy, resource = mutatingadmissionpolicybinding.NewStrategy(nil, nil, anyResource), "mutatingadmissionpolicybindings"
	default:
		return "", fmt.Errorf("not an admission policy or binding: %s", gvk)
	}
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return "", err
	}
	// A cluster-scoped object: the request has no namespace, the API server
	// clears the object's (rest.EnsureObjectNamespaceMatchesRequestNamespace).
	accessor.SetNamespace("")
	ctx := genericapirequest.WithNamespace(context.Background(), "")
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIPrefix: "apis",
		APIGroup: gvk.Group, APIVersion: gvk.Version, Resource: resource, Name: accessor.GetName(),
	})
	strategy.PrepareForCreate(ctx, obj)
	if errs := rest.ValidateCreate(ctx, obj, strategy); len(errs) > 0 {
		return errors.NewInvalid(gvk.GroupKind(), accessor.GetName(), errs).Error(), nil
	}
	return "", nil
}

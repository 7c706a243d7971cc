//go:build !versions_oracle

package upstream

import (
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

// builtinKinds are the built-in kinds the mutating oracle types with
// their published schemas, as kube-apiserver's MutatingAdmissionPolicy
// plugin types them (patch.NewTypeConverterManager over the OpenAPI v3 it
// publishes).
var builtinKinds = map[schema.GroupVersionKind]bool{
	{Version: "v1", Kind: "ConfigMap"}: true, {Version: "v1", Kind: "Secret"}: true,
	{Version: "v1", Kind: "Namespace"}: true, {Version: "v1", Kind: "ServiceAccount"}: true,
	{Version: "v1", Kind: "Pod"}: true, {Version: "v1", Kind: "Service"}: true,
	{Group: "apps", Version: "v1", Kind: "Deployment"}:                 true,
	{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass"}: true,
	{Group: "networking.k8s.io", Version: "v1", Kind: "IngressClass"}:  true,
}

// builtinTypeConverter types the built-in kinds with the structured-merge-diff
// schema client-go generates from the same published OpenAPI
// (applyconfigurations.NewTypeConverter), each kind found by its OpenAPI
// model name through client-go's scheme.
var builtinTypeConverter = sync.OnceValue(func() managedfields.TypeConverter {
	return applyconfigurations.NewTypeConverter(clientgoscheme.Scheme)
})

// builtinDefaulter is what the dispatcher does to a patched object of a
// built-in kind: converted to its Go type and defaulted by the scheme
// (here on the unstructured object, read into the typed one and back).
type builtinDefaulter struct{ gvk schema.GroupVersionKind }

func (d builtinDefaulter) Default(in runtime.Object) {
	u, ok := in.(*unstructured.Unstructured)
	if !ok || u.GroupVersionKind() != d.gvk {
		return
	}
	typed, err := clientgoscheme.Scheme.New(d.gvk)
	if err != nil {
		return
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed); err != nil {
		return
	}
	legacyscheme.Scheme.Default(typed)
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return
	}
	m["apiVersion"], m["kind"] = u.Object["apiVersion"], u.Object["kind"]
	u.Object = m
}

//go:build !versions_oracle

package upstream

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	"k8s.io/kubernetes/pkg/capabilities"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/coordination/lease"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrole"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrolebinding"
	"k8s.io/kubernetes/pkg/registry/rbac/role"
	"k8s.io/kubernetes/pkg/registry/rbac/rolebinding"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/storage/storageclass"
)

// The API server crdlab answers for runs with --allow-privileged=true (as
// kubeadm, kind and the managed offerings configure it): a privileged
// container is allowed.
func init() { capabilities.Setup(true, 0) }

// BuiltinOutcome is what kube-apiserver answers to a create or update of a
// built-in object (`kubectl create --dry-run=server -o json`): the decode
// error (400), the Invalid error's message (422), the warnings, and the
// object it would store (v1 JSON without the uid and creationTimestamp it
// generates).
type BuiltinOutcome struct {
	// UID is the uid the create generated (random): a Job's generated
	// selector and labels carry it.
	UID         string
	DecodeError string
	Invalid     string
	Warnings    []string
	Object      map[string]interface{}
}

// builtinStrategy is the registry strategy of a built-in kind crdlab
// models exactly, with its resource name.
func builtinStrategy(obj runtime.Object) (rest.RESTCreateUpdateStrategy, string, error) {
	switch k := obj.GetObjectKind().GroupVersionKind().Kind; k {
	case "ConfigMap":
		return configmap.Strategy, "configmaps", nil
	case "Secret":
		return secret.Strategy, "secrets", nil
	case "Namespace":
		return namespace.Strategy, "namespaces", nil
	case "ServiceAccount":
		return serviceaccount.Strategy, "serviceaccounts", nil
	case "PriorityClass":
		return priorityclass.Strategy, "priorityclasses", nil
	case "IngressClass":
		return ingressclass.Strategy, "ingressclasses", nil
	// resource.k8s.io (crdlab validates their CEL selectors only): no
	// namespace client or authorizer, used only for admin access.
	case "DeviceClass":
		return deviceclass.Strategy, "deviceclasses", nil
	case "ResourceClaim":
		return resourceclaim.NewStrategy(nil, nil), "resourceclaims", nil
	case "ResourceClaimTemplate":
		return resourceclaimtemplate.NewStrategy(nil), "resourceclaimtemplates", nil
	case "Lease":
		return lease.Strategy, "leases", nil
	case "PodDisruptionBudget":
		return poddisruptionbudget.Strategy, "poddisruptionbudgets", nil
	case "NetworkPolicy":
		return networkpolicy.Strategy, "networkpolicies", nil
	case "StorageClass":
		return storageclass.Strategy, "storageclasses", nil
	case "Role":
		return role.Strategy, "roles", nil
	case "ClusterRole":
		return clusterrole.Strategy, "clusterroles", nil
	case "RoleBinding":
		return rolebinding.Strategy, "rolebindings", nil
	case "ClusterRoleBinding":
		return clusterrolebinding.Strategy, "clusterrolebindings", nil
	case "Deployment":
		return deployment.Strategy, "deployments", nil
	case "ReplicaSet":
		return replicaset.Strategy, "replicasets", nil
	case "DaemonSet":
		return daemonset.Strategy, "daemonsets", nil
	case "Job":
		return job.Strategy, "jobs", nil
	default:
		return nil, "", fmt.Errorf("not a modelled built-in kind: %q", k)
	}
}

// decodeBuiltin decodes a request body as the create and update handlers
// do (legacyscheme's codecs, the strict serializer for Strict and Warn,
// conversion to the internal version with the v1 defaults), returning the
// handler's transformDecodeError text on failure.
func decodeBuiltin(body []byte, defaultGVK schema.GroupVersionKind, fieldValidation string, w *warnings) (runtime.Object, *schema.GroupVersionKind, string, error) {
	info, ok := runtime.SerializerInfoForMediaType(legacyscheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok {
		return nil, nil, "", fmt.Errorf("no JSON serializer")
	}
	s := info.Serializer
	if fieldValidation != metav1.FieldValidationIgnore {
		s = info.StrictSerializer
	}
	original, err := legacyscheme.Scheme.New(schema.GroupVersionKind{Group: defaultGVK.Group, Version: runtime.APIVersionInternal, Kind: defaultGVK.Kind})
	if err != nil {
		return nil, nil, "", err
	}
	decoder := legacyscheme.Codecs.DecoderToVersion(s, schema.GroupVersion{Group: defaultGVK.Group, Version: runtime.APIVersionInternal})
	obj, gvk, err := decoder.Decode(body, &defaultGVK, original)
	if err != nil {
		strictError, isStrict := runtime.AsStrictDecodingError(err)
		if isStrict && obj != nil && fieldValidation == metav1.FieldValidationWarn {
			for _, e := range strictError.Errors() {
				w.AddWarning("", e.Error())
			}
		} else {
			kinds, _, kerr := legacyscheme.Scheme.ObjectKinds(original)
			if kerr != nil {
				return nil, nil, "", kerr
			}
			if gvk != nil && len(gvk.Kind) > 0 {
				return nil, gvk, fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, kinds[0].Kind, err), nil
			}
			return nil, gvk, fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v", kinds[0].Kind, err), nil
		}
	}
	if gvk.GroupVersion() != defaultGVK.GroupVersion() {
		return nil, gvk, fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%v)", gvk.GroupVersion(), defaultGVK.GroupVersion()), nil
	}
	obj.GetObjectKind().SetGroupVersionKind(*gvk)
	return obj, gvk, "", nil
}

// encodeBuiltin is the object as the API server answers it: converted to
// v1 and encoded as JSON; on create, without the uid and creationTimestamp
// it generates.
func encodeBuiltin(obj runtime.Object, gvk schema.GroupVersionKind, created bool) (map[string]interface{}, error) {
	codec := legacyscheme.Codecs.LegacyCodec(gvk.GroupVersion())
	data, err := runtime.Encode(codec, obj)
	if err != nil {
		return nil, err
	}
	var out map[string]interface{}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	if m, ok := out["metadata"].(map[string]interface{}); ok && created {
		delete(m, "uid")
		delete(m, "creationTimestamp")
	}
	return out, nil
}

// BuiltinRequest is one create (Old nil) or update of a built-in object.
type BuiltinRequest struct {
	Object, Old     []byte // JSON
	FieldValidation string // Strict (default), Warn or Ignore
}

// ValidateBuiltin runs a create or update of a kind builtinStrategy names
// through kube-apiserver 1.37's handler steps
// (decoding, WipeObjectMetaSystemFields, the request namespace, the
// owner-reference deduplication), the generic store's name generation and
// rest.BeforeCreate / rest.BeforeUpdate with the kind's registry strategy.
func ValidateBuiltin(req BuiltinRequest) (*BuiltinOutcome, error) {
	fv := req.FieldValidation
	if fv == "" {
		fv = metav1.FieldValidationStrict
	}
	var tm metav1.TypeMeta
	if err := json.Unmarshal(req.Object, &tm); err != nil {
		return nil, err
	}
	defaultGVK := schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind)
	w := &warnings{}
	out := &BuiltinOutcome{}
	obj, gvk, msg, err := decodeBuiltin(req.Object, defaultGVK, fv, w)
	if err != nil {
		return nil, err
	}
	if msg != "" {
		out.DecodeError = msg
		return out, nil
	}
	strategy, resource, err := builtinStrategy(obj)
	if err != nil {
		return nil, err
	}
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	ns := ""
	if strategy.NamespaceScoped() {
		ns = accessor.GetNamespace()
		if ns == "" {
			ns = metav1.NamespaceDefault
		}
	}
	ctx := genericapirequest.WithNamespace(context.Background(), ns)
	ctx = warning.WithWarningRecorder(ctx, w)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIPrefix: "api",
		APIGroup: gvk.Group, APIVersion: gvk.Version, Resource: resource, Name: accessor.GetName(), Namespace: ns,
	})
	if req.Old == nil {
		rest.WipeObjectMetaSystemFields(accessor)
	}
	if accessor.GetNamespace() == "" || !strategy.NamespaceScoped() {
		// EnsureObjectNamespaceMatchesRequestNamespace with the request
		// kubectl sends (the object's namespace, "default", or none).
		accessor.SetNamespace(ns)
	}
	for _, d := range dedupOwnerReferences(accessor) {
		w.AddWarning("", d)
	}

	if req.Old == nil {
		if accessor.GetGenerateName() != "" && accessor.GetName() == "" {
			gen := accessor.GetGenerateName()
			if len(gen) > 58 {
				gen = gen[:58]
			}
			accessor.SetName(gen + "xxxxx")
		}
		rest.FillObjectMetaSystemFields(accessor)
		out.UID = string(accessor.GetUID())
		if err := rest.BeforeCreate(strategy, ctx, obj); err != nil {
			if apierrors.IsInvalid(err) {
				out.Invalid = err.Error()
				out.Warnings = w.list
				return out, nil
			}
			return nil, err
		}
	} else {
		old, _, msg, err := decodeBuiltin(req.Old, defaultGVK, metav1.FieldValidationIgnore, &warnings{})
		if err != nil {
			return nil, err
		}
		if msg != "" {
			return nil, fmt.Errorf("old object: %s", msg)
		}
		oldAccessor, err := meta.Accessor(old)
		if err != nil {
			return nil, err
		}
		if !strategy.NamespaceScoped() {
			oldAccessor.SetNamespace("")
		} else if oldAccessor.GetNamespace() == "" {
			oldAccessor.SetNamespace(ns)
		}
		if oldAccessor.GetResourceVersion() == "" {
			oldAccessor.SetResourceVersion("1")
		}
		// The store's GuaranteedUpdate: a resourceVersion other than the
		// stored one is a conflict (configmaps etc. allow unconditional
		// updates, without one).
		if rv := accessor.GetResourceVersion(); rv != "" && rv != oldAccessor.GetResourceVersion() {
			out.DecodeError = apierrors.NewConflict(schema.GroupResource{Group: gvk.Group, Resource: resource}, accessor.GetName(), fmt.Errorf(genericregistry.OptimisticLockErrorMsg)).Error()
			return out, nil
		}
		if accessor.GetResourceVersion() == "" {
			accessor.SetResourceVersion(oldAccessor.GetResourceVersion())
		}
		if err := rest.BeforeUpdate(strategy, ctx, obj, old); err != nil {
			if apierrors.IsInvalid(err) {
				out.Invalid = err.Error()
				out.Warnings = w.list
				return out, nil
			}
			return nil, err
		}
	}
	out.Warnings = w.list
	out.Object, err = encodeBuiltin(obj, *gvk, req.Old == nil)
	return out, err
}

package builtin

import (
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// Object is a decoded built-in object: a pointer to one of corev1's types.
type Object interface {
	Meta() *objectmeta.ObjectMeta
}

// Strategy is a built-in resource's registry strategy (upstream's
// rest.RESTCreateStrategy and rest.RESTUpdateStrategy, one per resource
// under pkg/registry), plus what the resource's codec does on decoding:
// New gives the typed object the body decodes into, Decoded applies the
// scheme's defaults and the conversion to the internal version (for the
// kinds modelled, the internal type is the v1 type but for a Secret's
// stringData, merged into data).
//
// The request path (Serve) calls them in upstream's order: decoding,
// Decoded, then rest.BeforeCreate (PrepareForCreate, Validate, the
// metadata checks, WarningsOnCreate, Canonicalize) or rest.BeforeUpdate
// (PrepareForUpdate, the metadata checks, ValidateUpdate,
// WarningsOnUpdate, Canonicalize).
type Strategy interface {
	NamespaceScoped() bool
	New() Object
	Decoded(obj Object)
	PrepareForCreate(obj Object)
	PrepareForUpdate(obj, old Object)
	Validate(rel kubeversion.Release, obj Object) field.ErrorList
	ValidateUpdate(rel kubeversion.Release, obj, old Object) field.ErrorList
	WarningsOnCreate(rel kubeversion.Release, obj Object) []string
	WarningsOnUpdate(rel kubeversion.Release, obj, old Object) []string
	Canonicalize(obj Object)
}

// partialStrategy is a Strategy whose validation models part of
// upstream's: Unmodelled lists the fields set in an object whose
// validation it does not reproduce (field paths), so that the answer says
// what was not checked.
type partialStrategy interface {
	Unmodelled(obj Object) []string
}

// partialUpdateStrategy is a partialStrategy whose update validation
// models part of upstream's: UnmodelledUpdate lists what of an update it
// does not check.
type partialUpdateStrategy interface {
	UnmodelledUpdate(obj, old Object) []string
}

// strategies are the resources validated natively, by group/version/kind.
var strategies = map[gvk]Strategy{
	{"", "v1", "ConfigMap"}:      configMapStrategy{},
	{"", "v1", "Secret"}:         secretStrategy{},
	{"", "v1", "Namespace"}:      namespaceStrategy{},
	{"", "v1", "ServiceAccount"}: serviceAccountStrategy{},

	{"scheduling.k8s.io", "v1", "PriorityClass"}: priorityClassStrategy{},
	{"networking.k8s.io", "v1", "IngressClass"}:  ingressClassStrategy{},

	{"rbac.authorization.k8s.io", "v1", "Role"}:               roleStrategy{},
	{"rbac.authorization.k8s.io", "v1", "ClusterRole"}:        clusterRoleStrategy{},
	{"rbac.authorization.k8s.io", "v1", "RoleBinding"}:        roleBindingStrategy{},
	{"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"}: clusterRoleBindingStrategy{},

	{"coordination.k8s.io", "v1", "Lease"}:       leaseStrategy{},
	{"policy", "v1", "PodDisruptionBudget"}:      pdbStrategy{},
	{"storage.k8s.io", "v1", "StorageClass"}:     storageClassStrategy{},
	{"networking.k8s.io", "v1", "NetworkPolicy"}: networkPolicyStrategy{},

	{"apps", "v1", "Deployment"}: deploymentStrategy{},
	{"apps", "v1", "ReplicaSet"}: replicaSetStrategy{},
	{"apps", "v1", "DaemonSet"}:  daemonSetStrategy{},

	{"batch", "v1", "Job"}: jobStrategy{},
}

// StrategyFor returns the strategy of a resource crdlab validates
// natively (the strategies table), nil for the others (Serve decodes them by
// the release's schema only).
func StrategyFor(r *Resource) Strategy {
	if r == nil {
		return nil
	}
	return strategies[gvk{r.Group, r.Version, r.Kind}]
}

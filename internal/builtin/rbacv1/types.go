// Package v1 holds rbac.authorization.k8s.io/v1's kinds (Role,
// ClusterRole, RoleBinding, ClusterRoleBinding) as Go types with
// k8s.io/api/rbac/v1's JSON shape, Go field types and type names, so that
// decoding them with sigs.k8s.io/json gives the API server's texts ("json:
// cannot unmarshal string into Go struct field Role.rules of type
// []v1.PolicyRule"). Metadata is objectmeta.ObjectMeta (metav1's shape);
// a selector is corev1's LabelSelector (metav1's).
//
// The package is named v1, as k8s.io/api/rbac/v1 is, for those texts.
package v1

import (
	corev1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// GroupName is the API group of the package's kinds.
const GroupName = "rbac.authorization.k8s.io"

// The kinds of subject.
const (
	GroupKind          = "Group"
	ServiceAccountKind = "ServiceAccount"
	UserKind           = "User"
)

// PolicyRule mirrors rbac/v1 PolicyRule.
type PolicyRule struct {
	Verbs           []string `json:"verbs"`
	APIGroups       []string `json:"apiGroups,omitempty"`
	Resources       []string `json:"resources,omitempty"`
	ResourceNames   []string `json:"resourceNames,omitempty"`
	NonResourceURLs []string `json:"nonResourceURLs,omitempty"`
}

// Subject mirrors rbac/v1 Subject.
type Subject struct {
	Kind      string `json:"kind"`
	APIGroup  string `json:"apiGroup,omitempty"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// RoleRef mirrors rbac/v1 RoleRef.
type RoleRef struct {
	APIGroup string `json:"apiGroup"`
	Kind     string `json:"kind"`
	Name     string `json:"name"`
}

// Role mirrors rbac/v1 Role.
type Role struct {
	corev1.TypeMeta `json:",inline"`
	ObjectMeta      objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Rules           []PolicyRule          `json:"rules"`
}

// RoleBinding mirrors rbac/v1 RoleBinding.
type RoleBinding struct {
	corev1.TypeMeta `json:",inline"`
	ObjectMeta      objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Subjects        []Subject             `json:"subjects,omitempty"`
	RoleRef         RoleRef               `json:"roleRef"`
}

// AggregationRule mirrors rbac/v1 AggregationRule.
type AggregationRule struct {
	ClusterRoleSelectors []corev1.LabelSelector `json:"clusterRoleSelectors,omitempty"`
}

// ClusterRole mirrors rbac/v1 ClusterRole.
type ClusterRole struct {
	corev1.TypeMeta `json:",inline"`
	ObjectMeta      objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Rules           []PolicyRule          `json:"rules"`
	AggregationRule *AggregationRule      `json:"aggregationRule,omitempty"`
}

// ClusterRoleBinding mirrors rbac/v1 ClusterRoleBinding.
type ClusterRoleBinding struct {
	corev1.TypeMeta `json:",inline"`
	ObjectMeta      objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Subjects        []Subject             `json:"subjects,omitempty"`
	RoleRef         RoleRef               `json:"roleRef"`
}

// Meta returns the object's metadata.
func (o *Role) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// Meta returns the object's metadata.
func (o *RoleBinding) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// Meta returns the object's metadata.
func (o *ClusterRole) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// Meta returns the object's metadata.
func (o *ClusterRoleBinding) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// Package v1 holds the v1 kinds crdlab validates natively (core/v1
// ConfigMap, Secret, Namespace, ServiceAccount; scheduling.k8s.io/v1
// PriorityClass; networking.k8s.io/v1 IngressClass; coordination.k8s.io/v1
// Lease; policy/v1 PodDisruptionBudget; storage.k8s.io/v1 StorageClass;
// networking.k8s.io/v1 NetworkPolicy; the pod spec and the workloads
// embedding it, apps/v1 and batch/v1, generated into pod.go by
// tools/builtintypes from k8s.io/api's declarations),
// with metav1's LabelSelector, Condition and MicroTime and intstr's
// IntOrString, as Go types with k8s.io/api's JSON
// shape, Go field types and type names: the API server decodes a request
// body into its typed struct with sigs.k8s.io/json, and a decoding error
// names the struct, the field path and the Go type ("json: cannot unmarshal
// number into Go struct field Secret.type of type v1.SecretType"), so
// decoding into structs of the same shape, in a package of the same name,
// gives the same texts. Metadata is objectmeta.ObjectMeta (metav1's shape).
//
// The package is named v1, as k8s.io/api/core/v1 is, for those texts.
package v1

import "github.com/crdlab/crdlab/internal/objectmeta"

// TypeMeta mirrors metav1.TypeMeta (embedded, as upstream's inline field).
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// ConfigMap mirrors core/v1 ConfigMap.
type ConfigMap struct {
	TypeMeta   `json:",inline"`
	ObjectMeta objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Immutable  *bool                 `json:"immutable,omitempty"`
	Data       map[string]string     `json:"data,omitempty"`
	BinaryData map[string][]byte     `json:"binaryData,omitempty"`
}

// SecretType mirrors core/v1 SecretType.
type SecretType string

// The secret types with their required keys (core/v1).
const (
	SecretTypeOpaque              SecretType = "Opaque"
	SecretTypeServiceAccountToken SecretType = "kubernetes.io/service-account-token"
	SecretTypeDockercfg           SecretType = "kubernetes.io/dockercfg"
	SecretTypeDockerConfigJSON    SecretType = "kubernetes.io/dockerconfigjson"
	SecretTypeBasicAuth           SecretType = "kubernetes.io/basic-auth"
	SecretTypeSSHAuth             SecretType = "kubernetes.io/ssh-auth"
	SecretTypeTLS                 SecretType = "kubernetes.io/tls"

	ServiceAccountNameKey = "kubernetes.io/service-account.name"
	DockerConfigKey       = ".dockercfg"
	DockerConfigJSONKey   = ".dockerconfigjson"
	BasicAuthUsernameKey  = "username"
	BasicAuthPasswordKey  = "password"
	SSHAuthPrivateKey     = "ssh-privatekey"
	TLSCertKey            = "tls.crt"
	TLSPrivateKeyKey      = "tls.key"

	// MaxSecretSize mirrors core.MaxSecretSize (1 MiB), the bound on a
	// Secret's and a ConfigMap's data.
	MaxSecretSize = 1 * 1024 * 1024
)

// Secret mirrors core/v1 Secret.
type Secret struct {
	TypeMeta   `json:",inline"`
	ObjectMeta objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Immutable  *bool                 `json:"immutable,omitempty"`
	Data       map[string][]byte     `json:"data,omitempty"`
	StringData map[string]string     `json:"stringData,omitempty"`
	Type       SecretType            `json:"type,omitempty"`
}

// FinalizerName mirrors core/v1 FinalizerName.
type FinalizerName string

// FinalizerKubernetes is the finalizer the namespace controller removes.
const FinalizerKubernetes FinalizerName = "kubernetes"

// NamespacePhase mirrors core/v1 NamespacePhase.
type NamespacePhase string

// NamespaceActive is the phase of a namespace not being deleted.
const NamespaceActive NamespacePhase = "Active"

// LabelMetadataName is the label the API server sets to a namespace's name.
const LabelMetadataName = "kubernetes.io/metadata.name"

// NamespaceConditionType mirrors core/v1 NamespaceConditionType.
type NamespaceConditionType string

// ConditionStatus mirrors core/v1 ConditionStatus.
type ConditionStatus string

// NamespaceCondition mirrors core/v1 NamespaceCondition.
type NamespaceCondition struct {
	Type               NamespaceConditionType `json:"type"`
	Status             ConditionStatus        `json:"status"`
	LastTransitionTime objectmeta.Time        `json:"lastTransitionTime,omitempty"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
}

// NamespaceSpec mirrors core/v1 NamespaceSpec.
type NamespaceSpec struct {
	Finalizers []FinalizerName `json:"finalizers,omitempty"`
}

// NamespaceStatus mirrors core/v1 NamespaceStatus.
type NamespaceStatus struct {
	Phase      NamespacePhase       `json:"phase,omitempty"`
	Conditions []NamespaceCondition `json:"conditions,omitempty"`
}

// Namespace mirrors core/v1 Namespace.
type Namespace struct {
	TypeMeta   `json:",inline"`
	ObjectMeta objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Spec       NamespaceSpec         `json:"spec,omitempty"`
	Status     NamespaceStatus       `json:"status,omitempty"`
}

// ObjectReference mirrors core/v1 ObjectReference.
type ObjectReference struct {
	Kind            string         `json:"kind,omitempty"`
	Namespace       string         `json:"namespace,omitempty"`
	Name            string         `json:"name,omitempty"`
	UID             objectmeta.UID `json:"uid,omitempty"`
	APIVersion      string         `json:"apiVersion,omitempty"`
	ResourceVersion string         `json:"resourceVersion,omitempty"`
	FieldPath       string         `json:"fieldPath,omitempty"`
}

// LocalObjectReference mirrors core/v1 LocalObjectReference.
type LocalObjectReference struct {
	Name string `json:"name,omitempty"`
}

// ServiceAccount mirrors core/v1 ServiceAccount.
type ServiceAccount struct {
	TypeMeta                     `json:",inline"`
	ObjectMeta                   objectmeta.ObjectMeta  `json:"metadata,omitempty"`
	Secrets                      []ObjectReference      `json:"secrets,omitempty"`
	ImagePullSecrets             []LocalObjectReference `json:"imagePullSecrets,omitempty"`
	AutomountServiceAccountToken *bool                  `json:"automountServiceAccountToken,omitempty"`
}

// Meta returns the object's metadata (each kind's accessor).
func (o *ConfigMap) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// Meta returns the object's metadata.
func (o *Secret) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// Meta returns the object's metadata.
func (o *Namespace) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// Meta returns the object's metadata.
func (o *ServiceAccount) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// PreemptionPolicy mirrors core/v1 PreemptionPolicy.
type PreemptionPolicy string

// The preemption policies.
const (
	PreemptLowerPriority PreemptionPolicy = "PreemptLowerPriority"
	PreemptNever         PreemptionPolicy = "Never"
)

// PriorityClass mirrors scheduling.k8s.io/v1 PriorityClass (its package is
// named v1 too).
type PriorityClass struct {
	TypeMeta         `json:",inline"`
	ObjectMeta       objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Value            int32                 `json:"value"`
	GlobalDefault    bool                  `json:"globalDefault,omitempty"`
	Description      string                `json:"description,omitempty"`
	PreemptionPolicy *PreemptionPolicy     `json:"preemptionPolicy,omitempty"`
}

// Meta returns the object's metadata.
func (o *PriorityClass) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// IngressClassParametersReference mirrors networking.k8s.io/v1
// IngressClassParametersReference.
type IngressClassParametersReference struct {
	APIGroup  *string `json:"apiGroup,omitempty"`
	Kind      string  `json:"kind"`
	Name      string  `json:"name"`
	Scope     *string `json:"scope"`
	Namespace *string `json:"namespace,omitempty"`
}

// IngressClassSpec mirrors networking.k8s.io/v1 IngressClassSpec.
type IngressClassSpec struct {
	Controller string                           `json:"controller,omitempty"`
	Parameters *IngressClassParametersReference `json:"parameters,omitempty"`
}

// IngressClass mirrors networking.k8s.io/v1 IngressClass (its package is
// named v1 too).
type IngressClass struct {
	TypeMeta   `json:",inline"`
	ObjectMeta objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Spec       IngressClassSpec      `json:"spec,omitempty"`
}

// Meta returns the object's metadata.
func (o *IngressClass) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

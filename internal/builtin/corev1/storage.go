package v1

import "github.com/crdlab/crdlab/internal/objectmeta"

// PersistentVolumeReclaimPolicy mirrors core/v1's.
type PersistentVolumeReclaimPolicy string

// The reclaim policies a StorageClass may name.
const (
	PersistentVolumeReclaimDelete PersistentVolumeReclaimPolicy = "Delete"
	PersistentVolumeReclaimRetain PersistentVolumeReclaimPolicy = "Retain"
)

// VolumeBindingMode mirrors storage/v1's.
type VolumeBindingMode string

// The volume binding modes.
const (
	VolumeBindingImmediate            VolumeBindingMode = "Immediate"
	VolumeBindingWaitForFirstConsumer VolumeBindingMode = "WaitForFirstConsumer"
)

// TopologySelectorLabelRequirement mirrors core/v1's.
type TopologySelectorLabelRequirement struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// TopologySelectorTerm mirrors core/v1's.
type TopologySelectorTerm struct {
	MatchLabelExpressions []TopologySelectorLabelRequirement `json:"matchLabelExpressions,omitempty"`
}

// StorageClass mirrors storage.k8s.io/v1 StorageClass.
type StorageClass struct {
	TypeMeta             `json:",inline"`
	ObjectMeta           objectmeta.ObjectMeta          `json:"metadata,omitempty"`
	Provisioner          string                         `json:"provisioner"`
	Parameters           map[string]string              `json:"parameters,omitempty"`
	ReclaimPolicy        *PersistentVolumeReclaimPolicy `json:"reclaimPolicy,omitempty"`
	MountOptions         []string                       `json:"mountOptions,omitempty"`
	AllowVolumeExpansion *bool                          `json:"allowVolumeExpansion,omitempty"`
	VolumeBindingMode    *VolumeBindingMode             `json:"volumeBindingMode,omitempty"`
	AllowedTopologies    []TopologySelectorTerm         `json:"allowedTopologies,omitempty"`
}

// Meta returns the object's metadata.
func (o *StorageClass) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

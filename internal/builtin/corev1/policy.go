package v1

import (
	"encoding/json"
	"time"

	"github.com/crdlab/crdlab/internal/objectmeta"
)

// UnhealthyPodEvictionPolicyType mirrors policy/v1's.
type UnhealthyPodEvictionPolicyType string

// The unhealthy pod eviction policies.
const (
	IfHealthyBudget UnhealthyPodEvictionPolicyType = "IfHealthyBudget"
	AlwaysAllow     UnhealthyPodEvictionPolicyType = "AlwaysAllow"
)

// PodDisruptionBudgetSpec mirrors policy/v1 PodDisruptionBudgetSpec.
type PodDisruptionBudgetSpec struct {
	MinAvailable               *IntOrString                    `json:"minAvailable,omitempty"`
	Selector                   *LabelSelector                  `json:"selector,omitempty"`
	MaxUnavailable             *IntOrString                    `json:"maxUnavailable,omitempty"`
	UnhealthyPodEvictionPolicy *UnhealthyPodEvictionPolicyType `json:"unhealthyPodEvictionPolicy,omitempty"`
}

// Condition mirrors metav1.Condition.
type Condition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
	LastTransitionTime objectmeta.Time `json:"lastTransitionTime"`
	Reason             string          `json:"reason"`
	Message            string          `json:"message"`
}

// PodDisruptionBudgetStatus mirrors policy/v1 PodDisruptionBudgetStatus
// (a create or update of the main resource keeps none of it).
type PodDisruptionBudgetStatus struct {
	ObservedGeneration int64                      `json:"observedGeneration,omitempty"`
	DisruptedPods      map[string]objectmeta.Time `json:"disruptedPods,omitempty"`
	DisruptionsAllowed int32                      `json:"disruptionsAllowed"`
	CurrentHealthy     int32                      `json:"currentHealthy"`
	DesiredHealthy     int32                      `json:"desiredHealthy"`
	ExpectedPods       int32                      `json:"expectedPods"`
	Conditions         []Condition                `json:"conditions,omitempty"`
}

// PodDisruptionBudget mirrors policy/v1 PodDisruptionBudget.
type PodDisruptionBudget struct {
	TypeMeta   `json:",inline"`
	ObjectMeta objectmeta.ObjectMeta     `json:"metadata,omitempty"`
	Spec       PodDisruptionBudgetSpec   `json:"spec,omitempty"`
	Status     PodDisruptionBudgetStatus `json:"status,omitempty"`
}

// Meta returns the object's metadata.
func (o *PodDisruptionBudget) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// RFC3339Micro is metav1.MicroTime's format.
const RFC3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// MicroTime mirrors metav1.MicroTime: RFC 3339 with microseconds in JSON,
// null when zero.
type MicroTime struct {
	time.Time
}

// MarshalJSON mirrors metav1.MicroTime's.
func (t MicroTime) MarshalJSON() ([]byte, error) {
	if t.Time.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(RFC3339Micro))
}

// UnmarshalJSON mirrors metav1.MicroTime's.
func (t *MicroTime) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(RFC3339Micro, s)
	if err != nil {
		return err
	}
	t.Time = pt.Local()
	return nil
}

// CoordinatedLeaseStrategy mirrors coordination/v1's.
type CoordinatedLeaseStrategy string

// OldestEmulationVersion is the one coordinated lease strategy without a
// domain.
const OldestEmulationVersion CoordinatedLeaseStrategy = "OldestEmulationVersion"

// LeaseSpec mirrors coordination.k8s.io/v1 LeaseSpec.
type LeaseSpec struct {
	HolderIdentity       *string                   `json:"holderIdentity,omitempty"`
	LeaseDurationSeconds *int32                    `json:"leaseDurationSeconds,omitempty"`
	AcquireTime          *MicroTime                `json:"acquireTime,omitempty"`
	RenewTime            *MicroTime                `json:"renewTime,omitempty"`
	LeaseTransitions     *int32                    `json:"leaseTransitions,omitempty"`
	Strategy             *CoordinatedLeaseStrategy `json:"strategy,omitempty"`
	PreferredHolder      *string                   `json:"preferredHolder,omitempty"`
}

// Lease mirrors coordination.k8s.io/v1 Lease.
type Lease struct {
	TypeMeta   `json:",inline"`
	ObjectMeta objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Spec       LeaseSpec             `json:"spec,omitempty"`
}

// Meta returns the object's metadata.
func (o *Lease) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

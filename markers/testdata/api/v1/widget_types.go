package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// WidgetSpec is the desired state of a Widget.
// +kubebuilder:validation:XValidation:rule="self.minReplicas <= self.maxReplicas",message="minReplicas must not exceed maxReplicas"
// +kubebuilder:validation:XValidation:rule="self.replicas > 0",message="no such field"
type WidgetSpec struct {
	// +kubebuilder:validation:Minimum=0
	MinReplicas int32 `json:"minReplicas"`
	MaxReplicas int32 `json:"maxReplicas"`

	// name starts with a letter (a valid rule).
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z]')",message="must start with a letter"
	Name string `json:"name"`

	// tags are unbounded: the rule over every triple is over the cost budget.
	// +kubebuilder:validation:XValidation:rule="self.all(x, self.all(y, self.all(z, x + y + z != '')))"
	Tags []string `json:"tags,omitempty"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	Ready bool `json:"ready,omitempty"`
}

// Widget is the test kind.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// SprocketSpec is the desired state of a Sprocket: a valid schema whose
// format is unknown to the API server (a warning).
type SprocketSpec struct {
	// +kubebuilder:validation:Format=nosuchformat
	Owner string `json:"owner,omitempty"`

	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=16
	// +kubebuilder:validation:XValidation:rule="self.all(t, t.size() > 0)",message="tags are not empty"
	Tags []string `json:"tags,omitempty"`
}

// Sprocket is the test kind that the API server accepts with a warning.
// +kubebuilder:object:root=true
type Sprocket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec SprocketSpec `json:"spec,omitempty"`
}

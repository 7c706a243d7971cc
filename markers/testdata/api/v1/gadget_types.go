package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	// zone's pattern is not a regular expression.
	// +kubebuilder:validation:Pattern=`^[a-z(+$`
	Zone string `json:"zone,omitempty"`

	// each name's pattern is not a regular expression either.
	// +kubebuilder:validation:items:Pattern=`^[a-z(+$`
	Names []string `json:"names,omitempty"`
}

// Gadget is the test kind whose schema is invalid.
// +kubebuilder:object:root=true
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec,omitempty"`
}

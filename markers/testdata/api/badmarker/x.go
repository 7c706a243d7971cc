// +groupName=example.crdlab.dev
package badmarker

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// XSpec has a marker whose value does not parse.
type XSpec struct {
	// +kubebuilder:validation:MaxLength="x
	Other string `json:"other,omitempty"`
}

// X is the kind.
// +kubebuilder:object:root=true
type X struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              XSpec `json:"spec,omitempty"`
}

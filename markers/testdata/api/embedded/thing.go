// +groupName=example.crdlab.dev
package embedded

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Common is embedded.
type Common struct {
	// +kubebuilder:validation:XValidation:rule="self.nosuch"
	Label string `json:"label,omitempty"`
}

// ThingSpec embeds Common.
type ThingSpec struct {
	Common `json:",inline"`
}

// +kubebuilder:object:root=true
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ThingSpec `json:"spec,omitempty"`
}

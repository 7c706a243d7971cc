package v1

import "github.com/crdlab/crdlab/internal/objectmeta"

// PolicyType mirrors networking/v1 PolicyType.
type PolicyType string

// The policy types.
const (
	PolicyTypeIngress PolicyType = "Ingress"
	PolicyTypeEgress  PolicyType = "Egress"
)

// NetworkPolicyPort mirrors networking/v1 NetworkPolicyPort.
type NetworkPolicyPort struct {
	Protocol *Protocol    `json:"protocol,omitempty"`
	Port     *IntOrString `json:"port,omitempty"`
	EndPort  *int32       `json:"endPort,omitempty"`
}

// IPBlock mirrors networking/v1 IPBlock.
type IPBlock struct {
	CIDR   string   `json:"cidr"`
	Except []string `json:"except,omitempty"`
}

// NetworkPolicyPeer mirrors networking/v1 NetworkPolicyPeer.
type NetworkPolicyPeer struct {
	PodSelector       *LabelSelector `json:"podSelector,omitempty"`
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty"`
	IPBlock           *IPBlock       `json:"ipBlock,omitempty"`
}

// NetworkPolicyIngressRule mirrors networking/v1 NetworkPolicyIngressRule.
type NetworkPolicyIngressRule struct {
	Ports []NetworkPolicyPort `json:"ports,omitempty"`
	From  []NetworkPolicyPeer `json:"from,omitempty"`
}

// NetworkPolicyEgressRule mirrors networking/v1 NetworkPolicyEgressRule.
type NetworkPolicyEgressRule struct {
	Ports []NetworkPolicyPort `json:"ports,omitempty"`
	To    []NetworkPolicyPeer `json:"to,omitempty"`
}

// NetworkPolicySpec mirrors networking/v1 NetworkPolicySpec.
type NetworkPolicySpec struct {
	PodSelector LabelSelector              `json:"podSelector"`
	Ingress     []NetworkPolicyIngressRule `json:"ingress,omitempty"`
	Egress      []NetworkPolicyEgressRule  `json:"egress,omitempty"`
	PolicyTypes []PolicyType               `json:"policyTypes,omitempty"`
}

// NetworkPolicy mirrors networking.k8s.io/v1 NetworkPolicy.
type NetworkPolicy struct {
	TypeMeta   `json:",inline"`
	ObjectMeta objectmeta.ObjectMeta `json:"metadata,omitempty"`
	Spec       NetworkPolicySpec     `json:"spec,omitempty"`
}

// Meta returns the object's metadata.
func (o *NetworkPolicy) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// GoTypeName is the internal type's name in Go syntax (errors before 1.34).
func (PolicyType) GoTypeName() string { return "networking.PolicyType" }

package v1

// LabelSelectorOperator mirrors metav1.LabelSelectorOperator.
type LabelSelectorOperator string

// The label selector operators (metav1).
const (
	LabelSelectorOpIn           LabelSelectorOperator = "In"
	LabelSelectorOpNotIn        LabelSelectorOperator = "NotIn"
	LabelSelectorOpExists       LabelSelectorOperator = "Exists"
	LabelSelectorOpDoesNotExist LabelSelectorOperator = "DoesNotExist"
)

// LabelSelector mirrors metav1.LabelSelector. It lives in this package
// (named v1, as k8s.io/apimachinery's meta/v1 is) so that a decoding error
// names its type as upstream's does ("of type v1.LabelSelector").
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement mirrors metav1.LabelSelectorRequirement.
type LabelSelectorRequirement struct {
	Key      string                `json:"key"`
	Operator LabelSelectorOperator `json:"operator"`
	Values   []string              `json:"values,omitempty"`
}

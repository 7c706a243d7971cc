package admission

// The admissionregistration.k8s.io/v1 types of ValidatingAdmissionPolicy and
// ValidatingAdmissionPolicyBinding (k8s.io/api/admissionregistration/v1
// types.go, v0.37.2), with their JSON names. Decoding is strict (decode.go).

// APIGroup is the group of the policy kinds.
const APIGroup = "admissionregistration.k8s.io"

// Kinds decoded by this package.
const (
	KindPolicy  = "ValidatingAdmissionPolicy"
	KindBinding = "ValidatingAdmissionPolicyBinding"
)

// ObjectMeta holds the metadata fields a policy or binding uses.
type ObjectMeta struct {
	Name        string            `json:"name,omitempty"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Policy is a ValidatingAdmissionPolicy.
type Policy struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   ObjectMeta `json:"metadata"`
	Spec       PolicySpec `json:"spec"`

	// Source is where the policy was read ("file:line"), empty when unknown.
	Source string `json:"-"`
}

// PolicySpec is ValidatingAdmissionPolicySpec.
type PolicySpec struct {
	ParamKind        *ParamKind        `json:"paramKind,omitempty"`
	MatchConstraints *MatchResources   `json:"matchConstraints,omitempty"`
	Validations      []Validation      `json:"validations,omitempty"`
	FailurePolicy    *string           `json:"failurePolicy,omitempty"`
	AuditAnnotations []AuditAnnotation `json:"auditAnnotations,omitempty"`
	MatchConditions  []MatchCondition  `json:"matchConditions,omitempty"`
	Variables        []Variable        `json:"variables,omitempty"`
}

// ParamKind names the kind of a policy's parameters.
type ParamKind struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

// Validation is one validation expression.
type Validation struct {
	Expression        string  `json:"expression"`
	Message           string  `json:"message,omitempty"`
	Reason            *string `json:"reason,omitempty"`
	MessageExpression string  `json:"messageExpression,omitempty"`
}

// Variable is a named, lazily evaluated expression.
type Variable struct {
	Name       string `json:"name"`
	Expression string `json:"expression"`
}

// AuditAnnotation is an audit annotation expression.
type AuditAnnotation struct {
	Key             string `json:"key"`
	ValueExpression string `json:"valueExpression"`
}

// MatchCondition is a named CEL precondition.
type MatchCondition struct {
	Name       string `json:"name"`
	Expression string `json:"expression"`
}

// MatchResources selects requests by resource, namespace and object labels.
type MatchResources struct {
	NamespaceSelector    *LabelSelector            `json:"namespaceSelector,omitempty"`
	ObjectSelector       *LabelSelector            `json:"objectSelector,omitempty"`
	ResourceRules        []NamedRuleWithOperations `json:"resourceRules,omitempty"`
	ExcludeResourceRules []NamedRuleWithOperations `json:"excludeResourceRules,omitempty"`
	MatchPolicy          *string                   `json:"matchPolicy,omitempty"`
}

// NamedRuleWithOperations is a rule with operations and optional resource names.
type NamedRuleWithOperations struct {
	ResourceNames []string `json:"resourceNames,omitempty"`
	Operations    []string `json:"operations,omitempty"`
	APIGroups     []string `json:"apiGroups,omitempty"`
	APIVersions   []string `json:"apiVersions,omitempty"`
	Resources     []string `json:"resources,omitempty"`
	Scope         *string  `json:"scope,omitempty"`
}

// LabelSelector is metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is metav1.LabelSelectorRequirement.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Binding is a ValidatingAdmissionPolicyBinding.
type Binding struct {
	APIVersion string      `json:"apiVersion"`
	Kind       string      `json:"kind"`
	Metadata   ObjectMeta  `json:"metadata"`
	Spec       BindingSpec `json:"spec"`

	// Source is where the binding was read ("file:line"), empty when unknown.
	Source string `json:"-"`
}

// BindingSpec is ValidatingAdmissionPolicyBindingSpec.
type BindingSpec struct {
	PolicyName        string          `json:"policyName,omitempty"`
	ParamRef          *ParamRef       `json:"paramRef,omitempty"`
	MatchResources    *MatchResources `json:"matchResources,omitempty"`
	ValidationActions []string        `json:"validationActions,omitempty"`
}

// ParamRef selects a binding's parameter objects.
type ParamRef struct {
	Name                    string         `json:"name,omitempty"`
	Namespace               string         `json:"namespace,omitempty"`
	Selector                *LabelSelector `json:"selector,omitempty"`
	ParameterNotFoundAction *string        `json:"parameterNotFoundAction,omitempty"`
}

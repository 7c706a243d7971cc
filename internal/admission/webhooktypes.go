package admission

// The admissionregistration.k8s.io/v1 types of ValidatingWebhookConfiguration
// and MutatingWebhookConfiguration (k8s.io/api/admissionregistration/v1
// types.go, v0.37.2), with their JSON names. Decoding is strict (decode.go).

// Kinds of the webhook configurations.
const (
	KindValidatingWebhooks = "ValidatingWebhookConfiguration"
	KindMutatingWebhooks   = "MutatingWebhookConfiguration"
)

// WebhookConfiguration is a ValidatingWebhookConfiguration or a
// MutatingWebhookConfiguration (Kind tells which).
type WebhookConfiguration struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   ObjectMeta `json:"metadata"`
	Webhooks   []Webhook  `json:"webhooks,omitempty"`

	// Source is where the configuration was read ("file:line"), empty when unknown.
	Source string `json:"-"`
}

// Mutating reports whether c is a MutatingWebhookConfiguration.
func (c *WebhookConfiguration) Mutating() bool { return c.Kind == KindMutatingWebhooks }

// Webhook is a ValidatingWebhook or a MutatingWebhook (ReinvocationPolicy
// is the mutating one's only).
type Webhook struct {
	Name                    string               `json:"name"`
	ClientConfig            WebhookClientConfig  `json:"clientConfig"`
	Rules                   []RuleWithOperations `json:"rules,omitempty"`
	FailurePolicy           *string              `json:"failurePolicy,omitempty"`
	MatchPolicy             *string              `json:"matchPolicy,omitempty"`
	NamespaceSelector       *LabelSelector       `json:"namespaceSelector,omitempty"`
	ObjectSelector          *LabelSelector       `json:"objectSelector,omitempty"`
	SideEffects             *string              `json:"sideEffects,omitempty"`
	TimeoutSeconds          *int64               `json:"timeoutSeconds,omitempty"`
	AdmissionReviewVersions []string             `json:"admissionReviewVersions,omitempty"`
	ReinvocationPolicy      *string              `json:"reinvocationPolicy,omitempty"`
	MatchConditions         []MatchCondition     `json:"matchConditions,omitempty"`
}

// WebhookClientConfig is where the webhook would be called (never called
// by crdlab).
type WebhookClientConfig struct {
	URL      *string           `json:"url,omitempty"`
	Service  *ServiceReference `json:"service,omitempty"`
	CABundle string            `json:"caBundle,omitempty"`
}

// ServiceReference is a webhook's in-cluster service.
type ServiceReference struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Path      *string `json:"path,omitempty"`
	Port      *int64  `json:"port,omitempty"`
}

// RuleWithOperations is a webhook rule: operations and resources, without
// the resource names of a policy's rules.
type RuleWithOperations struct {
	Operations  []string `json:"operations,omitempty"`
	APIGroups   []string `json:"apiGroups,omitempty"`
	APIVersions []string `json:"apiVersions,omitempty"`
	Resources   []string `json:"resources,omitempty"`
	Scope       *string  `json:"scope,omitempty"`
}

package admission

import "reflect"

// The admissionregistration.k8s.io/v1 types of MutatingAdmissionPolicy and
// MutatingAdmissionPolicyBinding (k8s.io/api/admissionregistration/v1
// types.go, v0.37.2), with their JSON names. Decoding is strict (decode.go);
// the defaults are those of pkg/apis/admissionregistration/v1 defaults.go.

// Kinds of the mutating policies.
const (
	KindMutatingPolicy  = "MutatingAdmissionPolicy"
	KindMutatingBinding = "MutatingAdmissionPolicyBinding"
)

// Patch types of a Mutation.
const (
	PatchTypeApplyConfiguration = "ApplyConfiguration"
	PatchTypeJSONPatch          = "JSONPatch"
)

// MutatingPolicy is a MutatingAdmissionPolicy.
type MutatingPolicy struct {
	APIVersion string             `json:"apiVersion"`
	Kind       string             `json:"kind"`
	Metadata   ObjectMeta         `json:"metadata"`
	Spec       MutatingPolicySpec `json:"spec"`

	// Source is where the policy was read ("file:line"), empty when unknown.
	Source string `json:"-"`
}

// MutatingPolicySpec is MutatingAdmissionPolicySpec.
type MutatingPolicySpec struct {
	ParamKind          *ParamKind       `json:"paramKind,omitempty"`
	MatchConstraints   *MatchResources  `json:"matchConstraints,omitempty"`
	Variables          []Variable       `json:"variables,omitempty"`
	Mutations          []Mutation       `json:"mutations,omitempty"`
	FailurePolicy      *string          `json:"failurePolicy,omitempty"`
	MatchConditions    []MatchCondition `json:"matchConditions,omitempty"`
	ReinvocationPolicy string           `json:"reinvocationPolicy,omitempty"`
}

// Mutation is one mutation of a policy: a patch type and its expression.
type Mutation struct {
	PatchType          string              `json:"patchType"`
	ApplyConfiguration *ApplyConfiguration `json:"applyConfiguration,omitempty"`
	JSONPatch          *JSONPatch          `json:"jsonPatch,omitempty"`
}

// ApplyConfiguration is a CEL expression evaluating to an Object{...} that
// is merged into the object with server-side apply semantics.
type ApplyConfiguration struct {
	Expression string `json:"expression,omitempty"`
}

// JSONPatch is a CEL expression evaluating to a list of JSONPatch{...}
// operations (RFC 6902).
type JSONPatch struct {
	Expression string `json:"expression,omitempty"`
}

// MutatingBinding is a MutatingAdmissionPolicyBinding.
type MutatingBinding struct {
	APIVersion string              `json:"apiVersion"`
	Kind       string              `json:"kind"`
	Metadata   ObjectMeta          `json:"metadata"`
	Spec       MutatingBindingSpec `json:"spec"`

	// Source is where the binding was read ("file:line"), empty when unknown.
	Source string `json:"-"`
}

// MutatingBindingSpec is MutatingAdmissionPolicyBindingSpec.
type MutatingBindingSpec struct {
	PolicyName     string          `json:"policyName,omitempty"`
	ParamRef       *ParamRef       `json:"paramRef,omitempty"`
	MatchResources *MatchResources `json:"matchResources,omitempty"`
}

// defaultMutatingPolicy applies the API server's defaults: failurePolicy
// Fail and matchConstraints' as for validating policies. reinvocationPolicy
// has no default in v1 (it is required on create); an empty one runs as
// Never.
func defaultMutatingPolicy(p *MutatingPolicy) {
	if p.Spec.FailurePolicy == nil {
		p.Spec.FailurePolicy = strPtr("Fail")
	}
	defaultMatchResources(p.Spec.MatchConstraints)
}

func defaultMutatingBinding(b *MutatingBinding) {
	defaultMatchResources(b.Spec.MatchResources)
}

// decodeMutating decodes a MutatingAdmissionPolicy or its binding strictly
// and applies the defaults.
func decodeMutating(in *Inputs, obj map[string]interface{}, kind, version, where string, locate func(path, msg string) error) error {
	if kind == KindMutatingPolicy {
		p := &MutatingPolicy{Source: where}
		if err := strictFill(obj, reflect.ValueOf(p).Elem(), "", locate); err != nil {
			return err
		}
		if p.Metadata.Name == "" {
			return locate("metadata", "metadata.name: Required value: name is required")
		}
		defaultMutatingPolicy(p)
		in.MutatingPolicies = append(in.MutatingPolicies, p)
		return nil
	}
	b := &MutatingBinding{Source: where}
	if err := strictFill(obj, reflect.ValueOf(b).Elem(), "", locate); err != nil {
		return err
	}
	if b.Metadata.Name == "" {
		return locate("metadata", "metadata.name: Required value: name is required")
	}
	if version == "v1alpha1" {
		defaultAlphaParamRef(b.Spec.ParamRef)
	}
	defaultMutatingBinding(b)
	in.MutatingBindings = append(in.MutatingBindings, b)
	return nil
}

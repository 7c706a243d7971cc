package admission_test

import (
	"fmt"

	"github.com/crdlab/crdlab/admission"
)

// A policy and a binding the API server would refuse to create: each
// CreateError has the object's file:line and the API server's text.
func ExampleInputs_CreateErrors() {
	in, err := admission.DecodeFile([]byte(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas}
spec:
  validations:
  - expression: "object.spec.replicas <= 5"
    reason: TooMany
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replicas-binding}
spec:
  policyName: replicas
  validationActions: [Deny, Warn]
`), "policy.yaml")
	if err != nil {
		panic(err)
	}
	for _, e := range in.CreateErrors() {
		fmt.Println(e)
	}
	// Output:
	// policy.yaml:1: ValidatingAdmissionPolicy.admissionregistration.k8s.io "replicas" is invalid: [spec.matchConstraints: Required value, spec.validations[0].reason: Unsupported value: "TooMany": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"]
	// policy.yaml:9: ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "replicas-binding" is invalid: spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)
}

// CheckCreate is nil when the API server would create every policy and
// binding.
func ExampleInputs_CheckCreate() {
	in, err := admission.DecodeFile([]byte(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replicas-binding}
spec:
  policyName: replicas
  validationActions: [Deny]
`), "binding.yaml")
	if err != nil {
		panic(err)
	}
	fmt.Println(in.CheckCreate())
	// Output:
	// <nil>
}

package admission_test

import (
	"fmt"

	"github.com/crdlab/crdlab/admission"
)

// New compiles policies and bindings; Validate answers one request as
// kube-apiserver's ValidatingAdmissionPolicy plugin would.
func ExampleNew() {
	in, err := admission.DecodeFile([]byte(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: max-replicas}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: [CREATE, UPDATE], resources: [crontabs]}
  validations:
  - expression: "object.spec.replicas <= 5"
    messageExpression: "'at most 5 replicas, not ' + string(object.spec.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: max-replicas}
spec:
  policyName: max-replicas
  validationActions: [Deny, Audit]
`), "policy.yaml")
	if err != nil {
		panic(err)
	}
	a, err := admission.New(admission.Config{Policies: in.Policies, Bindings: in.Bindings})
	if err != nil {
		panic(err)
	}
	d := a.Validate(&admission.Request{
		Operation: "CREATE",
		Kind:      admission.GVK{Group: "stable.example.com", Version: "v1", Kind: "CronTab"},
		Resource:  admission.GVR{Group: "stable.example.com", Version: "v1", Resource: "crontabs"},
		Name:      "c", Namespace: "default",
		Object: map[string]interface{}{
			"apiVersion": "stable.example.com/v1", "kind": "CronTab",
			"metadata": map[string]interface{}{"name": "c", "namespace": "default"},
			"spec":     map[string]interface{}{"replicas": int64(7)},
		},
		UserInfo: admission.UserInfo{Username: "jane"},
	})
	fmt.Println(d.Denied.Message)
	fmt.Println(d.Denied.Reason, d.Denied.Code)
	fmt.Println(d.AuditAnnotations["validation.policy.admission.k8s.io/validation_failure"])
	// Output:
	// crontabs.stable.example.com "c" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: at most 5 replicas, not 7
	// Invalid 422
	// [{"message":"at most 5 replicas, not 7","policy":"max-replicas","binding":"max-replicas","expressionIndex":0,"validationActions":["Deny","Audit"]}]
}

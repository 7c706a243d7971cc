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

// Admitter.Webhooks says which webhooks of the webhook configurations a
// request would be sent to, as kube-apiserver decides it, and why the
// others are skipped. The webhooks are not called.
func ExampleAdmitter_Webhooks() {
	in, err := admission.DecodeFile([]byte(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: checks}
webhooks:
- name: v1-crontabs.example.com
  clientConfig: {url: "https://checks.example.com"}
  sideEffects: None
  admissionReviewVersions: [v1]
  rules:
  - {apiGroups: [stable.example.com], apiVersions: [v1], operations: [CREATE], resources: [crontabs]}
- name: prod-only.example.com
  clientConfig: {url: "https://checks.example.com"}
  sideEffects: None
  admissionReviewVersions: [v1]
  namespaceSelector: {matchLabels: {env: prod}}
  rules:
  - {apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}
`), "webhooks.yaml")
	if err != nil {
		panic(err)
	}
	a, err := admission.New(admission.Config{Webhooks: in.Webhooks, Resources: crontabVersions{}})
	if err != nil {
		panic(err)
	}
	// A v2 CronTab: the v1 rule matches it as v1 (matchPolicy Equivalent).
	calls := a.Webhooks(&admission.Request{
		Operation: "CREATE",
		Kind:      admission.GVK{Group: "stable.example.com", Version: "v2", Kind: "CronTab"},
		Resource:  admission.GVR{Group: "stable.example.com", Version: "v2", Resource: "crontabs"},
		Name:      "c", Namespace: "default",
		Object: map[string]interface{}{"apiVersion": "stable.example.com/v2", "kind": "CronTab",
			"metadata": map[string]interface{}{"name": "c", "namespace": "default"}},
	})
	for _, c := range calls {
		if c.Called {
			fmt.Printf("%s: called as %s %s\n", c.Webhook, c.CalledWith.APIVersion, c.CalledWith.Kind)
		} else {
			fmt.Printf("%s: skipped: %s\n", c.Webhook, c.Skipped)
		}
	}
	// Output:
	// v1-crontabs.example.com: called as stable.example.com/v1 CronTab
	// prod-only.example.com: skipped: namespaceSelector does not match the labels of Namespace "default"
}

// crontabVersions: the CronTab CRD serves v1 and v2.
type crontabVersions struct{}

func (crontabVersions) Equivalents(r admission.GVR, _ string) []admission.Equivalent {
	var out []admission.Equivalent
	for _, v := range []string{"v1", "v2"} {
		out = append(out, admission.Equivalent{Resource: admission.GVR{Group: r.Group, Version: v, Resource: r.Resource},
			Kind: admission.GVK{Group: r.Group, Version: v, Kind: "CronTab"}})
	}
	return out
}

func (crontabVersions) ParamScope(string, string) bool { return true }

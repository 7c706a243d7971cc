package admission_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/admission"
)

// A mutating webhook's recorded answer patches the object; a validating
// webhook's refuses the patched object.
func ExampleAdmitter_DispatchWebhooks() {
	in, err := admission.DecodeFile([]byte(`
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: defaults}
webhooks:
- name: labels.example.com
  clientConfig: {url: "https://hooks.example.com/labels"}
  sideEffects: None
  admissionReviewVersions: [v1]
  rules:
  - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: [CREATE], resources: [crontabs]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: checks}
webhooks:
- name: teams.example.com
  clientConfig: {url: "https://hooks.example.com/teams"}
  sideEffects: None
  admissionReviewVersions: [v1]
  objectSelector: {matchLabels: {team: a}}
  rules:
  - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: [CREATE], resources: [crontabs]}
`), "webhooks.yaml")
	if err != nil {
		panic(err)
	}
	a, err := admission.New(admission.Config{Webhooks: in.Webhooks, Resources: crontabVersions{}})
	if err != nil {
		panic(err)
	}
	answers := map[string]*admission.WebhookResponse{}
	for key, review := range map[string]string{
		// patch: [{"op": "add", "path": "/metadata/labels", "value": {"team": "a"}}]
		admission.WebhookKey("defaults", "labels.example.com"): `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
			"response": {"uid": "1", "allowed": true, "patchType": "JSONPatch",
			"patch": "W3sib3AiOiAiYWRkIiwgInBhdGgiOiAiL21ldGFkYXRhL2xhYmVscyIsICJ2YWx1ZSI6IHsidGVhbSI6ICJhIn19XQ=="}}`,
		admission.WebhookKey("checks", "teams.example.com"): `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
			"response": {"uid": "1", "allowed": false, "warnings": ["quota checked"], "status": {"code": 403, "reason": "Forbidden", "message": "team a is over quota"}}}`,
	} {
		if answers[key], err = admission.DecodeWebhookResponse([]byte(review)); err != nil {
			panic(err)
		}
	}
	req := &admission.Request{
		Operation: "CREATE",
		Kind:      admission.GVK{Group: "stable.example.com", Version: "v1", Kind: "CronTab"},
		Resource:  admission.GVR{Group: "stable.example.com", Version: "v1", Resource: "crontabs"},
		Name:      "c", Namespace: "default",
		Object: map[string]interface{}{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
			"metadata": map[string]interface{}{"name": "c", "namespace": "default"}},
	}
	m := a.DispatchWebhooks(req, true, answers)
	labels, _ := json.Marshal(m.Object["metadata"].(map[string]interface{})["labels"])
	fmt.Printf("mutating: %s, labels %s\n", m.Calls[0].Answer.Outcome, labels)
	req.Object = m.Object
	v := a.DispatchWebhooks(req, false, answers)
	fmt.Printf("validating: allowed %v, %d %s: %s\n", v.Allowed, v.Code, v.Reason, v.Message)
	fmt.Println("warnings:", v.Warnings)
	// Output:
	// mutating: patched, labels {"team":"a"}
	// validating: allowed false, 403 Forbidden: admission webhook "teams.example.com" denied the request: team a is over quota
	// warnings: [quota checked]
}

package admission

import (
	"testing"
)

// FuzzDecodeAndValidate decodes arbitrary policy files and, when they
// decode, validates them as on create and evaluates them on a CronTab
// request: errors, never panics.
func FuzzDecodeAndValidate(f *testing.F) {
	f.Add([]byte(replicasPolicy))
	f.Add([]byte("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec: {policyName: p, validationActions: [Deny], paramRef: {selector: {matchExpressions: [{key: a, operator: In}]}}}\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicy, metadata: {name: x}, spec: {validations: [{expression: '1'}]}}]\n"))
	f.Add([]byte("apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: m}\nspec: {mutations: [{patchType: JSONPatch}, {patchType: ApplyConfiguration, applyConfiguration: {expression: ' '}}], matchConstraints: {resourceRules: [{}]}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := DecodeFile(data, "fuzz.yaml")
		if err != nil {
			return
		}
		for _, ce := range in.CreateErrors() {
			if len(ce.Errors) == 0 || ce.Error() == "" {
				t.Fatalf("an empty create error: %#v", ce)
			}
		}
		a, err := New(Config{Policies: in.Policies, Bindings: in.Bindings, Objects: in.Objects})
		if err != nil {
			return
		}
		a.Validate(crontabRequest(crontab(7)))
		del := crontabRequest(nil)
		del.Operation, del.OldObject = "DELETE", crontab(3)
		a.Validate(del)
	})
}

// FuzzWebhookAnswer decodes arbitrary recorded answers and, when they
// decode, applies them to a mutating and a validating webhook: errors and
// failures, never panics.
func FuzzWebhookAnswer(f *testing.F) {
	f.Add([]byte(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {"uid": "1", "allowed": true, "patchType": "JSONPatch", "patch": "W3sib3AiOiAiYWRkIiwgInBhdGgiOiAiL3giLCAidmFsdWUiOiAxfV0="}}`))
	f.Add([]byte(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "a"}, "response": {"uid": "b", "allowed": false, "status": {"code": 1}}}`))
	f.Add([]byte(`{"kind": "AdmissionReview", "response": {"allowed": "x", "warnings": ["\u0000"], "auditAnnotations": {"/": "v"}}}`))
	in, err := DecodeFile([]byte(answerConfigs), "hooks.yaml")
	if err != nil {
		f.Fatal(err)
	}
	a, err := New(Config{Webhooks: in.Webhooks})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeWebhookResponse(data)
		if err != nil {
			return
		}
		answers := map[string]*WebhookResponse{}
		for _, k := range a.WebhookNames() {
			answers[k] = r
		}
		req := &Request{Operation: "CREATE", Kind: GVK{Group: "g.example.com", Version: "v1", Kind: "W"},
			Resource: GVR{Group: "g.example.com", Version: "v1", Resource: "ws"}, Name: "w",
			Object: map[string]interface{}{"apiVersion": "g.example.com/v1", "kind": "W", "metadata": map[string]interface{}{"name": "w"}}}
		m := a.DispatchWebhooks(req, true, answers)
		req.Object = m.Object
		a.DispatchWebhooks(req, false, answers)
	})
}

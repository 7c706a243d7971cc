package admission

import (
	"strings"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
)

func TestDecodeWebhookResponseRefusesWhatIsNotAnAdmissionReview(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"a list", `[1]`, "expected an admission.k8s.io/v1 AdmissionReview object with a response"},
		{"not JSON", `{`, "expected an admission.k8s.io/v1 AdmissionReview object with a response"},
		{"another kind without response", `{"apiVersion": "v1", "kind": "ConfigMap"}`, `found kind "ConfigMap" and no response`},
		{"nothing", `{}`, "found no kind and no response"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeWebhookResponse([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
	// A wrong apiVersion or kind with a response, no response, a field the
	// API server's client cannot decode are the webhook's failure at call
	// time, not a decoding error.
	for _, tc := range []struct{ in, decodeError string }{
		{`{"apiVersion": "admission.k8s.io/v1beta1", "kind": "AdmissionReview", "response": {"allowed": true}}`, ""},
		{`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}`, ""},
		{`{"kind": "Other", "response": {}}`, ""},
		{`{"kind": "AdmissionReview", "response": {"allowed": "yes"}}`, "json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool"},
		{`{"kind": "AdmissionReview", "response": {"uid": 1}}`, "json: cannot unmarshal number into Go struct field AdmissionResponse.response.uid of type types.UID"},
		{`{"kind": "AdmissionReview", "response": {"patch": "%%"}}`, "illegal base64 data at input byte 0"},
	} {
		r, err := DecodeWebhookResponse([]byte(tc.in))
		if err != nil || r.DecodeError != tc.decodeError {
			t.Errorf("%s: %v, decode error %q, want %q", tc.in, err, r.DecodeError, tc.decodeError)
		}
	}
	// Field names are case-sensitive: "Allowed" is not "allowed".
	r, err := DecodeWebhookResponse([]byte(`{"kind": "AdmissionReview", "response": {"Allowed": true, "UID": "x"}}`))
	if err != nil || r.Response.Allowed || r.Response.UID != "" {
		t.Errorf("%+v %v", r.Response, err)
	}
}

const answerConfigs = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: b-checks}
webhooks:
- name: images.example.com
  clientConfig: {url: "https://x"}
  rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}]
- name: shared.example.com
  clientConfig: {url: "https://x"}
  rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: z-defaults}
webhooks:
- name: shared.example.com
  clientConfig: {url: "https://x"}
  failurePolicy: Ignore
  rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}]
`

func answerAdmitter(t *testing.T) *Admitter {
	t.Helper()
	in, err := DecodeFile([]byte(answerConfigs), "hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Webhooks: in.Webhooks})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestResolveWebhookByNameOrConfigurationAndName(t *testing.T) {
	a := answerAdmitter(t)
	for _, tc := range []struct{ name, want, err string }{
		{"images.example.com", "b-checks/images.example.com", ""},
		{"b-checks/shared.example.com", "b-checks/shared.example.com", ""},
		{"z-defaults/shared.example.com", "z-defaults/shared.example.com", ""},
		{"shared.example.com", "", `webhook name "shared.example.com" is ambiguous: name one of z-defaults/shared.example.com, b-checks/shared.example.com`},
		{"nope", "", `no webhook named "nope"; the webhooks are z-defaults/shared.example.com, b-checks/images.example.com, b-checks/shared.example.com`},
	} {
		got, err := a.ResolveWebhook(tc.name)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) {
			t.Errorf("%s: %q, %v; want %q, %q", tc.name, got, err, tc.want, tc.err)
		}
	}
}

func TestWebhookAnswersApplied(t *testing.T) {
	a := answerAdmitter(t)
	req := func() *Request {
		return &Request{Operation: "CREATE", Kind: GVK{Group: "g.example.com", Version: "v1", Kind: "W"},
			Resource: GVR{Group: "g.example.com", Version: "v1", Resource: "ws"}, Name: "w",
			Object: map[string]interface{}{"apiVersion": "g.example.com/v1", "kind": "W", "metadata": map[string]interface{}{"name": "w"}}}
	}
	decode := func(s string) *WebhookResponse {
		r, err := DecodeWebhookResponse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Run("an unusable mutating answer under Ignore is let through with the failed-open annotation", func(t *testing.T) {
		d := a.DispatchWebhooks(req(), true, map[string]*WebhookResponse{
			"z-defaults/shared.example.com": decode(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}`)})
		ans := d.Calls[0].Answer
		if !d.Allowed || ans.Outcome != AnswerIgnored || d.AuditAnnotations["failed-open.mutation.webhook.admission.k8s.io/round_0_index_0"] != "shared.example.com" ||
			ans.Message != `failed calling webhook "shared.example.com": received invalid webhook response: webhook response was absent` {
			t.Errorf("%+v %+v", d, ans)
		}
	})
	t.Run("a validating denial is the first failing webhook's, every answer's warnings and annotations count", func(t *testing.T) {
		d := a.DispatchWebhooks(req(), false, map[string]*WebhookResponse{
			"b-checks/images.example.com": decode(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {"uid": "1", "allowed": false, "warnings": ["one", "", "bad\u0007bell"]}}`),
			"b-checks/shared.example.com": decode(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {"uid": "1", "allowed": false, "status": {"message": "second"}, "warnings": ["one", "two"], "auditAnnotations": {"k": "v", "a/b": "dropped"}}}`)})
		if d.Allowed || d.Code != 400 || d.Message != `admission webhook "images.example.com" denied the request without explanation` {
			t.Errorf("%+v", d)
		}
		if strings.Join(d.Warnings, "|") != "one|two" {
			t.Errorf("warnings %q", d.Warnings)
		}
		if len(d.AuditAnnotations) != 1 || d.AuditAnnotations["shared.example.com/k"] != "v" {
			t.Errorf("annotations %v", d.AuditAnnotations)
		}
	})
	t.Run("a called webhook without an answer stays called", func(t *testing.T) {
		d := a.DispatchWebhooks(req(), false, nil)
		if !d.Allowed || len(d.Calls) != 2 || !d.Calls[0].Called || d.Calls[0].Answer != nil {
			t.Errorf("%+v", d)
		}
	})
}

func TestWebhookPatchCopiesAreBounded(t *testing.T) {
	// Each copy doubles the list: 40 of them would add terabytes.
	ops := `[{"op": "add", "path": "/l", "value": ["` + strings.Repeat("x", 1000) + `"]}`
	for i := 0; i < 40; i++ {
		ops += `, {"op": "copy", "from": "/l", "path": "/l/-"}`
	}
	ops += "]"
	p, err := jsonpatch.DecodePatch([]byte(ops))
	if err != nil {
		t.Fatal(err)
	}
	_, err = applyBounded(p, []byte(`{"kind": "W"}`))
	if err == nil || !strings.Contains(err.Error(), "Unable to complete the copy, the accumulated size increase of copy is") {
		t.Fatalf("error %v", err)
	}
	// Without copies the patch applies whole.
	p, _ = jsonpatch.DecodePatch([]byte(`[{"op": "add", "path": "/a", "value": 1}, {"op": "copy", "from": "/a", "path": "/b"}, {"op": "remove", "path": "/a"}]`))
	out, err := applyBounded(p, []byte(`{"kind": "W"}`))
	if err != nil || string(out) != `{"b":1,"kind":"W"}` {
		t.Fatalf("%s %v", out, err)
	}
}

package admission

import (
	"strings"
	"testing"
)

const testWebhooks = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: all.example.com
  clientConfig: {service: {namespace: x, name: svc}}
  sideEffects: None
  admissionReviewVersions: [v1]
  rules:
  - {operations: [CREATE], apiGroups: [stable.example.com], apiVersions: [v2], resources: [crontabs]}
- name: prod.example.com
  clientConfig: {url: "https://example.com"}
  sideEffects: None
  admissionReviewVersions: [v1]
  matchPolicy: Exact
  namespaceSelector: {matchLabels: {env: prod}}
  rules:
  - {operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"], scope: Namespaced}
  matchConditions:
  - {name: not-admin, expression: "request.userInfo.username != 'admin'"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: m}
webhooks:
- name: m.example.com
  clientConfig: {url: "https://example.com"}
  sideEffects: None
  admissionReviewVersions: [v1]
  rules:
  - {operations: [CREATE], apiGroups: [stable.example.com], apiVersions: [v1], resources: [crontabs]}
  matchConditions:
  - {name: broken, expression: "object.nope == 1"}
`

type equivResources struct{}

func (equivResources) Equivalents(r GVR, _ string) []Equivalent {
	var out []Equivalent
	for _, v := range []string{"v1", "v2"} {
		out = append(out, Equivalent{Resource: GVR{r.Group, v, r.Resource}, Kind: GVK{r.Group, v, "CronTab"}})
	}
	return out
}
func (equivResources) ParamScope(string, string) bool { return true }

func TestDecodeWebhooksAppliesDefaults(t *testing.T) {
	in, err := DecodeFile([]byte(testWebhooks), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Webhooks) != 2 || len(in.Webhooks[0].Webhooks) != 2 {
		t.Fatalf("decoded %+v", in.Webhooks)
	}
	w := in.Webhooks[0].Webhooks[0]
	if *w.FailurePolicy != "Fail" || *w.MatchPolicy != "Equivalent" || *w.TimeoutSeconds != 10 || w.NamespaceSelector == nil ||
		w.ObjectSelector == nil || *w.Rules[0].Scope != "*" || w.ReinvocationPolicy != nil || *w.ClientConfig.Service.Port != 443 {
		t.Errorf("defaults not applied: %+v", w)
	}
	if m := in.Webhooks[1].Webhooks[0]; m.ReinvocationPolicy == nil || *m.ReinvocationPolicy != "Never" {
		t.Errorf("mutating reinvocationPolicy default: %+v", m.ReinvocationPolicy)
	}
}

func TestDecodeWebhooksRejectsBadFields(t *testing.T) {
	for _, tt := range []struct{ name, from, to, want string }{
		{"unknown field", "  sideEffects: None\n  admissionReviewVersions: [v1]\n  rules:", "  sideEffects: None\n  admissionReviewVersions: [v1]\n  rule:", `w.yaml:9:3: unknown field "webhooks[0].rule"`},
		{"resourceNames", "resources: [crontabs]}", "resources: [crontabs], resourceNames: [a]}", `unknown field "webhooks[0].rules[0].resourceNames"`},
		{"timeout type", "  sideEffects: None\n  admissionReviewVersions: [v1]\n  rules:", "  timeoutSeconds: ten\n  sideEffects: None\n  admissionReviewVersions: [v1]\n  rules:", "webhooks[0].timeoutSeconds: expected an integer, got a string"},
		{"reinvocation on validating", "  matchPolicy: Exact", "  matchPolicy: Exact\n  reinvocationPolicy: Never", `unknown field "webhooks[1].reinvocationPolicy"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeFile([]byte(strings.Replace(testWebhooks, tt.from, tt.to, 1)), "w.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestWebhooksCalledSkippedAndFailed(t *testing.T) {
	in, err := DecodeFile([]byte(testWebhooks), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Webhooks: in.Webhooks, Resources: equivResources{}})
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]interface{}{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": map[string]interface{}{"name": "c"}}
	req := &Request{Operation: "UPDATE", Kind: GVK{"stable.example.com", "v1", "CronTab"}, Resource: GVR{"stable.example.com", "v1", "crontabs"},
		Name: "c", Namespace: "default", Object: obj, OldObject: obj, UserInfo: UserInfo{Username: "admin"}}
	got := a.Webhooks(req)
	want := []string{
		"m/m.example.com: no rule matches UPDATE stable.example.com/v1 crontabs (namespaced)",
		"v/all.example.com: no rule matches UPDATE stable.example.com/v1 crontabs (namespaced)",
		`v/prod.example.com: namespaceSelector does not match the labels of Namespace "default"`,
	}
	check := func(got []WebhookCall, want []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("got %+v", got)
		}
		for i, c := range got {
			s := c.Configuration + "/" + c.Webhook + ": "
			switch {
			case c.Called:
				s += "called " + c.CalledWith.Version + " " + c.CalledWith.Kind
			case c.Error != "":
				s += "error " + c.Error
			default:
				s += c.Skipped
			}
			if s != want[i] {
				t.Errorf("webhook %d:\n got %s\nwant %s", i, s, want[i])
			}
		}
	}
	check(got, want)
	req.Operation, req.OldObject = "CREATE", nil
	check(a.Webhooks(req), []string{
		`m/m.example.com: error crontabs.stable.example.com "c" is forbidden: expression 'object.nope == 1' resulted in error: no such key: nope`,
		`v/all.example.com: not reached: the request failed at webhook "m.example.com" of MutatingWebhookConfiguration "m"`,
		`v/prod.example.com: not reached: the request failed at webhook "m.example.com" of MutatingWebhookConfiguration "m"`,
	})
	// A v2 request: the mutating webhook's v1 rule matches it as v1 (its
	// match condition now holds), the first validating webhook's as v2.
	obj["nope"] = int64(1)
	req.Resource, req.Kind = GVR{"stable.example.com", "v2", "crontabs"}, GVK{"stable.example.com", "v2", "CronTab"}
	check(a.Webhooks(req), []string{
		"m/m.example.com: called v1 CronTab",
		"v/all.example.com: called v2 CronTab",
		`v/prod.example.com: namespaceSelector does not match the labels of Namespace "default"`,
	})
}

func TestWebhooksSkipAdmissionConfigurationKinds(t *testing.T) {
	in, err := DecodeFile([]byte(testWebhooks), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Webhooks: in.Webhooks})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{KindValidatingWebhooks, KindMutatingWebhooks, KindPolicy, KindBinding} {
		calls := a.Webhooks(&Request{Operation: "CREATE", Kind: GVK{APIGroup, "v1", kind}, Resource: GVR{APIGroup, "v1", "x"}, Name: "x",
			Object: map[string]interface{}{}})
		for _, c := range calls {
			if c.Called || c.Skipped != kind+" objects are not sent to webhooks" {
				t.Errorf("%s: %+v", kind, c)
			}
		}
	}
}

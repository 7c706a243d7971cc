package conformance

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/conformance/upstream"
)

// The differential suite of webhooks' recorded answers: each case's
// webhook configurations run in k8s.io/apiserver's real
// MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins, which
// call an HTTPS server answering with the recorded AdmissionReviews
// (conformance/upstream.DispatchWebhooks), and in crdlab's
// Admitter.DispatchWebhooks with the same answers; the mutating stage's
// object goes on to the validating stage in both. Compared: the verdict,
// the error's message, reason and code, the warnings, the audit
// annotations and the patched object.

// answerHook renders a webhook for CronTabs (all operations).
func answerHook(name, extra string) string {
	return fmt.Sprintf(`- name: %s.example.com
  clientConfig: {url: "https://unused.example.com/"}
  sideEffects: None
  admissionReviewVersions: [v1]
  rules:
  - {operations: ["*"], apiGroups: [stable.example.com], apiVersions: ["*"], resources: [crontabs]}
%s`, name, extra)
}

func answerConfig(kind, name string, hooks ...string) string {
	return fmt.Sprintf("apiVersion: admissionregistration.k8s.io/v1\nkind: %s\nmetadata: {name: %s}\nwebhooks:\n%s---\n", kind, name, strings.Join(hooks, ""))
}

func vconf(name string, hooks ...string) string {
	return answerConfig("ValidatingWebhookConfiguration", name, hooks...)
}

func mconf(name string, hooks ...string) string {
	return answerConfig("MutatingWebhookConfiguration", name, hooks...)
}

// answer is a recorded AdmissionReview v1 whose request uid is "u" and
// whose response is resp (JSON fields) with uid "u".
func answer(resp string) string {
	if resp != "" {
		resp = ", " + resp
	}
	return `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "u"` + resp + `}}`
}

// b64 is a patch as the response carries it.
func b64(patch string) string { return base64.StdEncoding.EncodeToString([]byte(patch)) }

const ignore = "  failurePolicy: Ignore\n"

type answerCase struct {
	name    string
	configs string
	answers map[string]string // "configuration/webhook.example.com" → AdmissionReview
	op      string            // CREATE by default
	obj     string            // the small CronTab of prod by default
	old     string
	dryRun  bool
}

var answerCases = []answerCase{
	{name: "validating-allowed", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": true`)}},
	{name: "validating-denied-without-status", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": false`)}},
	{name: "validating-denied-with-message", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": false, "status": {"message": "replicas must be even", "code": 403, "reason": "Forbidden"}`)}},
	{name: "validating-denied-reason-only", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": false, "status": {"reason": "Conflict", "code": 409}`)}},
	{name: "validating-denied-code-below-400", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": false, "status": {"code": 200, "message": "no", "status": "Success"}`)}},
	{name: "validating-denied-code-422", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": false, "status": {"code": 422, "reason": "Invalid", "message": "spec.image: not from our registry"}`)}},
	{name: "validating-warnings", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": true, "warnings": ["image is old", "", "image is old", "bad\ncontrol", "tab\there", "ünïcode ok"]`)}},
	{name: "validating-audit-annotations", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": true, "auditAnnotations": {"decision": "ok", "nested/key": "x", "Bad Key": "y", "reason.1": "z"}`)}},
	{name: "validating-denied-with-warnings-and-audit", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": false, "warnings": ["w1"], "auditAnnotations": {"why": "image"}, "status": {"message": "denied by image rule"}`)}},
	{name: "validating-uid-mismatch-fail", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "other", "allowed": true}}`}},
	{name: "validating-uid-mismatch-ignore", configs: vconf("v", answerHook("a", ignore)),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "other", "allowed": true}}`}},
	{name: "validating-missing-response-fail", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}}`}},
	{name: "validating-missing-response-ignore", configs: vconf("v", answerHook("a", ignore)),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}}`}},
	{name: "validating-wrong-kind", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionResponse", "response": {"allowed": true}}`}},
	{name: "validating-v1beta1", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1beta1", "kind": "AdmissionReview", "response": {"uid": "u", "allowed": true}}`}},
	{name: "validating-other-group", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "example.com/v1", "kind": "AdmissionReview", "response": {"uid": "u", "allowed": true}}`}},
	{name: "validating-no-api-version", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"kind": "AdmissionReview", "response": {"uid": "u", "allowed": true}}`}},
	{name: "validating-v1beta1-other-kind", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1beta1", "kind": "AdmissionResponse", "response": {"uid": "u", "allowed": true}}`}},
	{name: "validating-v2", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v2", "kind": "AdmissionReview", "response": {"uid": "u", "allowed": true}}`}},
	{name: "undecodable-allowed-string", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "u", "allowed": "yes"}}`}},
	{name: "undecodable-patch-base64", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "u", "allowed": true, "patchType": "JSONPatch", "patch": "%%"}}`}},
	{name: "field-names-are-case-sensitive", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "u", "Allowed": true}}`}},
	{name: "undecodable-warning", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "u", "allowed": true, "warnings": [1]}}`}},
	{name: "undecodable-audit-annotation", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "u", "allowed": true, "auditAnnotations": {"a": 1}}}`}},
	{name: "undecodable-status-code", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "u", "allowed": false, "status": {"code": "x"}}}`}},
	{name: "undecodable-status", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "u", "allowed": false, "status": 3}}`}},
	{name: "undecodable-response", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": 3}`}},
	{name: "undecodable-uid", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": 3, "allowed": true}}`}},
	{name: "undecodable-patch-type", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "u", "allowed": true, "patchType": 3}}`}},
	{name: "undecodable-patch-number", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u"}, "response": {"uid": "u", "allowed": true, "patch": 3}}`}},
	{name: "validating-no-kind", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "response": {"uid": "u", "allowed": true}}`}},
	{name: "validating-patch-fail", configs: vconf("v", answerHook("a", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[]`) + `"`)}},
	{name: "validating-patch-type-ignore", configs: vconf("v", answerHook("a", ignore)),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch"`)}},
	{name: "validating-one-denies-one-warns", configs: vconf("v", answerHook("a", ""), answerHook("b", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": false, "status": {"message": "no"}`), "v/b.example.com": answer(`"allowed": true, "warnings": ["from b"], "auditAnnotations": {"k": "v"}`)}},
	{name: "validating-ignored-then-denied-failed-open-index", configs: vconf("v", answerHook("a", ""), answerHook("b", ignore), answerHook("c", "")),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": true`), "v/b.example.com": answer(`"allowed": true, "patch": "` + b64(`[]`) + `"`), "v/c.example.com": answer(`"allowed": false`)}},
	{name: "validating-skipped-hooks-do-not-count", configs: vconf("v", answerHook("a", "  objectSelector: {matchLabels: {env: nowhere}}\n"), answerHook("b", ignore)),
		answers: map[string]string{"v/a.example.com": answer(`"allowed": false`), "v/b.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}`}},
	{name: "validating-dry-run-side-effects-some", configs: vconf("v", answerHook("a", "  sideEffects: Some\n")), dryRun: true,
		answers: map[string]string{"v/a.example.com": answer(`"allowed": true`)}},
	{name: "validating-dry-run-none", configs: vconf("v", answerHook("a", "")), dryRun: true,
		answers: map[string]string{"v/a.example.com": answer(`"allowed": false, "status": {"message": "even in dry run"}`)}},
	{name: "validating-two-configurations", configs: vconf("z-last", answerHook("a", "")) + vconf("a-first", answerHook("a", "")),
		answers: map[string]string{"z-last/a.example.com": answer(`"allowed": false, "status": {"message": "from z"}`), "a-first/a.example.com": answer(`"allowed": true, "warnings": ["from a"]`)}},

	{name: "mutating-allowed-without-patch", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true`)}},
	{name: "mutating-patch-adds-label", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[{"op": "add", "path": "/metadata/labels/team", "value": "a"}]`) + `"`)}},
	{name: "mutating-patch-reaches-validating-match-condition", configs: mconf("m", answerHook("a", "")) +
		vconf("v", answerHook("big", "  matchConditions:\n  - {name: big, expression: \"object.spec.replicas > 5\"}\n")),
		answers: map[string]string{
			"m/a.example.com":   answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[{"op": "replace", "path": "/spec/replicas", "value": 8}]`) + `"`),
			"v/big.example.com": answer(`"allowed": false, "status": {"message": "too many replicas"}`)}},
	{name: "mutating-patch-without-change", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[{"op": "test", "path": "/spec/replicas", "value": 3}]`) + `"`)}},
	{name: "mutating-patch-without-patch-type-fail", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patch": "` + b64(`[]`) + `"`)}},
	{name: "mutating-patch-type-without-patch-ignore", configs: mconf("m", answerHook("a", ignore)),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch"`)}},
	{name: "mutating-empty-patch-type", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "", "patch": "` + b64(`[]`) + `"`)}},
	{name: "mutating-unsupported-patch-type", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "MergePatch", "patch": "` + b64(`[{"op": "remove", "path": "/spec/image"}]`) + `"`)}},
	{name: "mutating-undecodable-patch-fail", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`{"spec": {}}`) + `"`)}},
	{name: "mutating-undecodable-patch-ignore", configs: mconf("m", answerHook("a", ignore)),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`{"spec": {}}`) + `"`)}},
	{name: "mutating-patch-that-fails-to-apply-ignores-failure-policy", configs: mconf("m", answerHook("a", ignore)),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[{"op": "remove", "path": "/spec/missing"}]`) + `"`)}},
	{name: "mutating-patch-test-fails", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[{"op": "test", "path": "/spec/replicas", "value": 4}]`) + `"`)}},
	{name: "mutating-denied", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": false, "status": {"message": "no mutation for you", "reason": "Forbidden", "code": 403}, "warnings": ["m warns"], "auditAnnotations": {"k": "v"}}`)}},
	{name: "mutating-sequence-second-selects-first-label", configs: mconf("m",
		answerHook("a", ""), answerHook("b", "  objectSelector: {matchLabels: {team: a}}\n")),
		answers: map[string]string{
			"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[{"op": "add", "path": "/metadata/labels/team", "value": "a"}]`) + `", "warnings": ["a patched"]`),
			"m/b.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[{"op": "replace", "path": "/spec/image", "value": "mirror/nginx:1.25"}]`) + `", "auditAnnotations": {"mirror": "yes"}`)}},
	{name: "mutating-first-fails-second-not-reached", configs: mconf("m", answerHook("a", ""), answerHook("b", "")),
		answers: map[string]string{"m/a.example.com": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}`, "m/b.example.com": answer(`"allowed": true, "warnings": ["b ran"]`)}},
	{name: "mutating-patch-removes-kind", configs: mconf("m", answerHook("a", "")),
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[{"op": "remove", "path": "/kind"}]`) + `"`)}},
	{name: "mutating-delete-with-patch", configs: mconf("m", answerHook("a", "")), op: "DELETE",
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[{"op": "add", "path": "/metadata/labels/x", "value": "y"}]`) + `"`)}},
	{name: "mutating-ignored-failed-open-index", configs: mconf("m", answerHook("a", "  objectSelector: {matchLabels: {env: nowhere}}\n"), answerHook("b", ignore)),
		answers: map[string]string{"m/b.example.com": answer(`"allowed": true, "patchType": "JSONPatch"`)}},
	{name: "mutating-update-patch", configs: mconf("m", answerHook("a", "")), op: "UPDATE",
		answers: map[string]string{"m/a.example.com": answer(`"allowed": true, "patchType": "JSONPatch", "patch": "` + b64(`[{"op": "add", "path": "/spec/note", "value": "updated"}]`) + `"`)}},
}

func TestWebhookAnswers(t *testing.T) {
	srv := upstream.NewWebhookServer()
	defer srv.Close()
	ns, err := admission.DecodeFile([]byte(admissionNamespaces), "namespaces.yaml")
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, tc := range answerCases {
		t.Run(tc.name, func(t *testing.T) {
			in, err := admission.DecodeFile([]byte(tc.configs), tc.name+".yaml")
			if err != nil {
				t.Fatal(err)
			}
			answers := map[string]*admission.WebhookResponse{}
			raw := map[string][]byte{}
			for k, v := range tc.answers {
				js, err := yaml.YAMLToJSON([]byte(v))
				if err != nil {
					t.Fatal(err)
				}
				raw[k] = js
				r, err := admission.DecodeWebhookResponse(js)
				if err != nil {
					t.Fatalf("%s: %v", k, err)
				}
				answers[k] = r
			}
			srv.SetAnswers(raw)
			op := tc.op
			if op == "" {
				op = "CREATE"
			}
			objYAML, oldYAML := tc.obj, tc.old
			if objYAML == "" {
				objYAML = crontabYAML("small", "prod", 3, "prod")
			}
			if op == "UPDATE" && oldYAML == "" {
				oldYAML = crontabYAML("small", "prod", 2, "prod")
			}
			obj, old := mustJSON(t, objYAML), mustJSON(t, oldYAML)
			if op == "DELETE" {
				obj, old = nil, obj
			}
			objects := withNamespace(ns.Objects, "prod")
			a, err := admission.New(admission.Config{Webhooks: in.Webhooks, Objects: objects, Resources: webhookResources{}})
			if err != nil {
				t.Fatal(err)
			}
			usr := admission.UserInfo{Username: "admin", Groups: []string{"system:masters", "system:authenticated"}}
			req := &admission.Request{Operation: op, Kind: admission.GVK{Group: "stable.example.com", Version: "v1", Kind: "CronTab"},
				Resource: admission.GVR{Group: "stable.example.com", Version: "v1", Resource: "crontabs"},
				Name:     "small", Namespace: "prod", Object: obj, OldObject: old, UserInfo: usr, DryRun: tc.dryRun}
			equivalents := map[schema.GroupVersionResource]schema.GroupVersionKind{}
			for _, e := range (testResources{}).Equivalents(req.Resource, "") {
				equivalents[schema.GroupVersionResource{Group: e.Resource.Group, Version: e.Resource.Version, Resource: e.Resource.Resource}] =
					schema.GroupVersionKind{Group: e.Kind.Group, Version: e.Kind.Version, Kind: e.Kind.Kind}
			}
			for _, mutating := range []bool{true, false} {
				stage := "validating"
				if mutating {
					stage = "mutating"
				}
				var configs [][]byte
				for _, c := range in.Webhooks {
					if c.Mutating() != mutating {
						continue
					}
					// The configuration with crdlab's defaults, its clientConfigs
					// pointing at the server.
					var cc map[string]interface{}
					if err := json.Unmarshal([]byte(jsonOf(t, c)), &cc); err != nil {
						t.Fatal(err)
					}
					for _, h := range cc["webhooks"].([]interface{}) {
						hm := h.(map[string]interface{})
						hm["clientConfig"] = map[string]interface{}{"url": srv.URL(admission.WebhookKey(c.Metadata.Name, hm["name"].(string))),
							"caBundle": base64.StdEncoding.EncodeToString(srv.CA)}
					}
					configs = append(configs, []byte(jsonOf(t, cc)))
				}
				up, err := upstream.DispatchWebhooks(&upstream.AdmissionInput{
					Objects: objects, Equivalents: equivalents,
					Operation: op, Kind: schema.GroupVersionKind{Group: req.Kind.Group, Version: req.Kind.Version, Kind: req.Kind.Kind},
					Resource: schema.GroupVersionResource{Group: req.Resource.Group, Version: req.Resource.Version, Resource: req.Resource.Resource},
					Name:     req.Name, Namespace: req.Namespace, Object: req.Object, OldObject: req.OldObject,
					User: &user.DefaultInfo{Name: usr.Username, Groups: usr.Groups}, DryRun: tc.dryRun, Options: upstreamOptions(op),
				}, configs, mutating)
				if err != nil {
					t.Fatalf("upstream %s: %v", stage, err)
				}
				got := a.DispatchWebhooks(req, mutating, answers)
				g := upstream.WebhookDispatchOutput{Denied: !got.Allowed, Message: got.Message, Reason: got.Reason, Code: got.Code,
					Warnings: got.Warnings, AuditAnnotations: got.AuditAnnotations, Object: got.Object}
				if !mutating {
					// The API server calls validating webhooks in parallel:
					// their warnings come in any order.
					sort.Strings(g.Warnings)
					sort.Strings(up.Warnings)
				}
				if len(up.AuditAnnotations) == 0 {
					up.AuditAnnotations = nil
				}
				if !mutating || g.Denied {
					// Validating webhooks and failed requests leave the
					// object as it was.
					g.Object, up.Object = nil, nil
				}
				// The API server's request uid is random: crdlab's is the
				// recorded request's.
				up.Message = apiUID.ReplaceAllString(up.Message, `expected response.uid="u"`)
				if !reflect.DeepEqual(jsonOf(t, g), jsonOf(t, *up)) {
					t.Errorf("%s:\n crdlab   %s\n upstream %s", stage, jsonOf(t, g), jsonOf(t, *up))
				}
				compared++
				if g.Denied {
					break
				}
				if mutating && got.Object != nil {
					req.Object = got.Object
				}
			}
		})
	}
	t.Logf("%d cases, %d dispatches compared", len(answerCases), compared)
	if len(answerCases) < 30 {
		t.Errorf("%d cases: want at least 30", len(answerCases))
	}
}

var apiUID = regexp.MustCompile(`expected response\.uid="[0-9a-f-]{36}"`)

func jsonOf(t *testing.T, v interface{}) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

package main

import (
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/wire"
)

const answerHooks = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: defaults}
webhooks:
- name: replicas.example.com
  clientConfig: {url: "https://hooks.example.com/replicas"}
  sideEffects: None
  admissionReviewVersions: [v1]
  rules:
  - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: [CREATE], resources: [crontabs]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: checks}
webhooks:
- name: checks.example.com
  clientConfig: {url: "https://hooks.example.com/checks"}
  sideEffects: None
  admissionReviewVersions: [v1]
  failurePolicy: Ignore
  rules:
  - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: [CREATE], resources: [crontabs]}
`

const oneCronTab = `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: c, namespace: default}
spec: {replicas: 2}
`

func patchAnswer(patch string) string {
	return `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {"uid": "1", "allowed": true, "patchType": "JSONPatch", "patch": "` +
		base64.StdEncoding.EncodeToString([]byte(patch)) + `", "warnings": ["patched by replicas"]}}`
}

func TestValidateWebhookResponses(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"crd.yaml": admissionCRD, "hooks.yaml": answerHooks, "policy.yaml": admissionPolicy, "obj.yaml": oneCronTab,
		"nine.json":        patchAnswer(`[{"op": "replace", "path": "/spec/replicas", "value": 9}]`),
		"string.json":      patchAnswer(`[{"op": "replace", "path": "/spec/replicas", "value": "many"}]`),
		"denied.json":      `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {"uid": "1", "allowed": false, "status": {"message": "no", "code": 403, "reason": "Forbidden"}}}`,
		"absent.json":      `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}`,
		"bare-denial.json": `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {"uid": "1", "allowed": false}}`,
		"notreview.yaml":   admissionCRD,
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	base := []string{"validate", "--crd", p("crd.yaml"), "--policy", p("hooks.yaml")}
	t.Run("a mutating webhook's patch goes on to the policies", func(t *testing.T) {
		args := append(append([]string{}, base...), "--policy", p("policy.yaml"), "--webhook-response", "replicas.example.com="+p("nine.json"), p("obj.yaml"))
		code, stdout, stderr := runCLI(args...)
		if code != exitInvalid || !strings.Contains(stderr, "at most 5 replicas, not 9") || !strings.Contains(stderr, "Warning: patched by replicas") ||
			!strings.Contains(stdout, "defaults/replicas.example.com called (stable.example.com/v1 crontabs): patched") {
			t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
	})
	t.Run("a mutating webhook's patch is validated against the schema", func(t *testing.T) {
		args := append(append([]string{}, base...), "--webhook-response", "defaults/replicas.example.com="+p("string.json"), "-o", "json", p("obj.yaml"))
		code, stdout, stderr := runCLI(args...)
		var rep wire.RunReport
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Results) != 1 {
			t.Fatalf("exit %d, %v\n%s\n%s", code, err, stdout, stderr)
		}
		e := rep.Results[0]
		if code != exitInvalid || e.Status != wire.StatusInvalid || len(e.Errors) == 0 || !strings.Contains(e.Errors[0].Message, `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer`) {
			t.Errorf("exit %d: %+v", code, e)
		}
		if a := e.Webhooks[0].Answer; a == nil || a.Outcome != "patched" || a.AuditAnnotations["mutation.webhook.admission.k8s.io/round_0_index_0"] == "" {
			t.Errorf("answer %+v", e.Webhooks[0].Answer)
		}
	})
	t.Run("a mutating webhook's denial refuses the object, the validating webhooks are not reached", func(t *testing.T) {
		args := append(append([]string{}, base...), "--webhook-response", "replicas.example.com="+p("denied.json"), p("obj.yaml"))
		code, stdout, stderr := runCLI(args...)
		if code != exitInvalid || !strings.Contains(stderr, `Error from server (Forbidden): error when creating`) || !strings.Contains(stderr, `admission webhook "replicas.example.com" denied the request: no`) ||
			!strings.Contains(stdout, `checks/checks.example.com skipped: not reached: the request failed at webhook "replicas.example.com" of MutatingWebhookConfiguration "defaults"`) {
			t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
	})
	t.Run("a denial without a status: no reason, kubectl's plain 'Error from server'", func(t *testing.T) {
		args := append(append([]string{}, base...), "--webhook-response", "checks.example.com="+p("bare-denial.json"), p("obj.yaml"))
		code, _, stderr := runCLI(args...)
		want := `: Error from server: error when creating "` + p("obj.yaml") + `": admission webhook "checks.example.com" denied the request without explanation`
		if code != exitInvalid || !strings.Contains(stderr, want) {
			t.Errorf("exit %d\nstderr:\n%s\nwant %q", code, stderr, want)
		}
	})
	t.Run("an unusable validating answer under Ignore lets the request through", func(t *testing.T) {
		args := append(append([]string{}, base...), "--webhook-response", "checks.example.com="+p("absent.json"), p("obj.yaml"))
		code, stdout, stderr := runCLI(args...)
		want := `checks/checks.example.com called (stable.example.com/v1 crontabs): ignored: failed calling webhook "checks.example.com": received invalid webhook response: webhook response was absent`
		if code != exitValid || !strings.Contains(stdout, want) {
			t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
	})
	for _, tc := range []struct{ name, arg, want string }{
		{"no such webhook", "nope=" + p("absent.json"), `--webhook-response nope=` + p("absent.json") + `: no webhook named "nope"; the webhooks are defaults/replicas.example.com, checks/checks.example.com`},
		{"not WEBHOOK=FILE", "checks.example.com", `--webhook-response "checks.example.com": expected WEBHOOK=FILE`},
		{"not an AdmissionReview", "checks.example.com=" + p("notreview.yaml"), p("notreview.yaml") + `: expected an admission.k8s.io/v1 AdmissionReview with a response, found kind "CustomResourceDefinition" and no response`},
		{"missing file", "checks.example.com=" + p("missing.json"), p("missing.json") + ": no such file or directory"},
	} {
		t.Run("usage error: "+tc.name, func(t *testing.T) {
			args := append(append([]string{}, base...), "--webhook-response", tc.arg, p("obj.yaml"))
			code, _, stderr := runCLI(args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d\nstderr:\n%s\nwant %q", code, stderr, tc.want)
			}
		})
	}
}

func TestWebhookResponseWithoutWebhookConfigurationsIsAUsageError(t *testing.T) {
	dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD, "obj.yaml": oneCronTab})
	code, _, stderr := runCLI("validate", "--crd", filepath.Join(dir, "crd.yaml"), "--webhook-response", "a.example.com=answer.yaml", filepath.Join(dir, "obj.yaml"))
	if code != exitUsage || !strings.Contains(stderr, "--webhook-response a.example.com=answer.yaml: no webhook configuration is given (--policy or among the inputs)") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

func TestWebhookResponsesOnCRDUpdates(t *testing.T) {
	dir := writeFiles(t, map[string]string{"hooks.yaml": crdWebhooks,
		"denied.yaml": "apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nresponse: {uid: x, allowed: false, status: {message: frozen, reason: Forbidden, code: 403}}\n"})
	old, updated := "../../examples/crd-update/old.yaml", "../../examples/crd-update/new-v1.yaml"
	code, stdout, stderr := runCLI("lint", "--old", old, "--policy", filepath.Join(dir, "hooks.yaml"), "--webhook-response", "crds.guard.example.com="+filepath.Join(dir, "denied.yaml"), updated)
	if code != exitInvalid || !strings.Contains(stderr, `Error from server (Forbidden)`) || !strings.Contains(stderr, `admission webhook "crds.guard.example.com" denied the request: frozen`) ||
		!strings.Contains(stdout, "crd-guard/crds.guard.example.com called (apiextensions.k8s.io/v1 customresourcedefinitions): denied: ") {
		t.Errorf("lint: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI("upgrade", "--policy", filepath.Join(dir, "hooks.yaml"), "--webhook-response", "crds.guard.example.com="+filepath.Join(dir, "denied.yaml"), old, updated)
	if code != exitInvalid || !strings.Contains(stdout, "frozen") {
		t.Errorf("upgrade: exit %d\n%s", code, stdout)
	}
	code, _, stderr = runCLI("lint", "--webhook-response", "crds.guard.example.com="+filepath.Join(dir, "denied.yaml"), updated)
	if code != exitUsage || !strings.Contains(stderr, "--webhook-response need --old") {
		t.Errorf("lint without --old: exit %d\n%s", code, stderr)
	}
}

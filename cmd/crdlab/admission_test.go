package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/wire"
)

const admissionCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, default: 1}
`

const admissionPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: max-replicas}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: ["*"], resources: [crontabs]}
  validations:
  - expression: "object == null || object.spec.replicas <= 5"
    messageExpression: "'at most 5 replicas, not ' + string(object.spec.replicas)"
  - expression: "request.userInfo.username != 'jane'"
    message: jane may not
  - expression: "request.operation != 'DELETE'"
    messageExpression: "'no deleting ' + oldObject.metadata.name"
  auditAnnotations:
  - key: replicas
    valueExpression: "object == null ? '' : string(object.spec.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: max-replicas-binding}
spec:
  policyName: max-replicas
  validationActions: [Deny]
`

const admissionObjects = `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: ok, namespace: prod}
spec: {replicas: 3}
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: big, namespace: prod}
spec: {replicas: 9}
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: defaulted, namespace: prod}
spec: {}
`

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestValidatePolicyDeniesWithTheAPIServersMessage(t *testing.T) {
	dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD, "policy.yaml": admissionPolicy, "objs.yaml": admissionObjects})
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "--crd", filepath.Join(dir, "crd.yaml"), "--policy", filepath.Join(dir, "policy.yaml"), filepath.Join(dir, "objs.yaml")}, strings.NewReader(""), &stdout, &stderr)
	if code != exitInvalid {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	objs := filepath.Join(dir, "objs.yaml")
	wantErr := objs + `:6: Error from server (Invalid): error when creating "` + objs + `": crontabs.stable.example.com "big" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: at most 5 replicas, not 9` + "\n"
	if stderr.String() != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), wantErr)
	}
	wantOut := "crontab.stable.example.com/ok created (server dry run)\ncrontab.stable.example.com/defaulted created (server dry run)\n"
	if stdout.String() != wantOut {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout.String(), wantOut)
	}
}

func TestValidatePoliciesAmongTheInputsAndJSONOutcome(t *testing.T) {
	// The policy is one of the inputs; the user comes from --user.
	dir := writeFiles(t, map[string]string{"all.yaml": admissionCRD + "---\n" + admissionPolicy + "---\n" + admissionObjects})
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "--user", "jane", "-o", "json", filepath.Join(dir, "all.yaml")}, strings.NewReader(""), &stdout, &stderr)
	if code != exitInvalid {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	var rep wire.RunReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rep.Results {
		if e.Kind != "CronTab" {
			continue
		}
		if e.Admission == nil {
			t.Fatalf("%s: no admission outcome", e.Name)
		}
		got = append(got, e.Name+" "+e.Admission.Binding+" "+e.Admission.Message+" "+e.Admission.AuditAnnotations["max-replicas/replicas"])
		if e.Result == nil {
			t.Errorf("%s: -o json lost the stored object", e.Name)
		}
	}
	want := []string{
		`ok max-replicas-binding crontabs.stable.example.com "ok" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: jane may not 3`,
		`big max-replicas-binding crontabs.stable.example.com "big" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: at most 5 replicas, not 9 9`,
		`defaulted max-replicas-binding crontabs.stable.example.com "defaulted" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: jane may not 1`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestValidatePolicyRequestFileSetsTheOperation(t *testing.T) {
	review := `apiVersion: admission.k8s.io/v1
kind: AdmissionReview
request:
  uid: 705ab4f5-6393-11e8-b7cc-42010a800002
  operation: DELETE
  userInfo: {username: admin, groups: [system:masters]}
  dryRun: true
`
	dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD, "policy.yaml": admissionPolicy, "review.yaml": review,
		"ok.yaml": strings.Split(admissionObjects, "---\n")[0]})
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "--crd", filepath.Join(dir, "crd.yaml"), "--policy", filepath.Join(dir, "policy.yaml"),
		"--request", filepath.Join(dir, "review.yaml"), "-o", "json", filepath.Join(dir, "ok.yaml")}, strings.NewReader(""), &stdout, &stderr)
	if code != exitInvalid {
		t.Fatalf("exit %d, stderr:\n%s\nstdout:\n%s", code, stderr.String(), stdout.String())
	}
	if !strings.Contains(stdout.String(), `denied request: no deleting ok`) {
		t.Errorf("stdout:\n%s", stdout.String())
	}
}

func TestValidatePolicyDecodeErrorsAreLocated(t *testing.T) {
	bad := strings.Replace(admissionPolicy, "  validations:\n", "  validation:\n", 1)
	dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD, "policy.yaml": bad, "objs.yaml": admissionObjects})
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "--crd", filepath.Join(dir, "crd.yaml"), "--policy", filepath.Join(dir, "policy.yaml"), filepath.Join(dir, "objs.yaml")}, strings.NewReader(""), &stdout, &stderr)
	want := "crdlab: " + filepath.Join(dir, "policy.yaml") + `:8:3: unknown field "spec.validation"` + "\n"
	if code != exitUsage || stderr.String() != want {
		t.Errorf("exit %d, stderr %q, want %q", code, stderr.String(), want)
	}
}

func TestValidatePolicyFlagWithoutPolicyIsAUsageError(t *testing.T) {
	dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD, "objs.yaml": admissionObjects, "empty.yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n"})
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "--crd", filepath.Join(dir, "crd.yaml"), "--policy", filepath.Join(dir, "empty.yaml"), filepath.Join(dir, "objs.yaml")}, strings.NewReader(""), &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "no ValidatingAdmissionPolicy, MutatingAdmissionPolicy, binding or webhook configuration found") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// Gateway API's safe-upgrades policy on the CRD update, in lint --old,
// validate --old and upgrade: experimental-channel CRDs over standard ones and a v1.4 bundle
// over v1.6 are denied as the cluster denies them; v1.6.3 over v1.6.1
// passes.
func TestGatewaySafeUpgradesPolicyOnCRDUpdates(t *testing.T) {
	crds := filepath.Join(gatewayAPIDir(t), "config", "crd")
	policy := filepath.Join(crds, "standard", "gateway.networking.k8s.io_vap_safeupgrades.yaml")
	standard := filepath.Join(crds, "standard", "gateway.networking.k8s.io_gateways.yaml")
	experimental := filepath.Join(crds, "experimental", "gateway.networking.k8s.io_gateways.yaml")
	data, err := os.ReadFile(standard)
	if err != nil {
		t.Fatal(err)
	}
	tmp := writeFiles(t, map[string]string{
		"v1.4.1.yaml": strings.Replace(string(data), "bundle-version: v1.6.3", "bundle-version: v1.4.1", 1),
		"v1.6.1.yaml": strings.Replace(string(data), "bundle-version: v1.6.3", "bundle-version: v1.6.1", 1),
	})
	const experimentalDenied = `denied request: Installing experimental CRDs on top of standard channel CRDs is prohibited by default.`
	const oldDenied = `denied request: Installing CRDs with version before v1.5.0 is prohibited by default.`
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"experimental over standard", standard, experimental, experimentalDenied},
		{"v1.4 over v1.6", standard, filepath.Join(tmp, "v1.4.1.yaml"), oldDenied},
		{"v1.6.3 over v1.6.1", filepath.Join(tmp, "v1.6.1.yaml"), standard, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCode := exitValid
			if tc.want != "" {
				wantCode = exitInvalid
			}
			var stdout, stderr bytes.Buffer
			code := run([]string{"lint", "--old", tc.old, "--policy", policy, tc.new}, strings.NewReader(""), &stdout, &stderr)
			if code != wantCode || (tc.want != "" && !strings.Contains(stderr.String(), tc.want)) ||
				(tc.want == "" && !strings.Contains(stdout.String(), "configured (server dry run)")) {
				t.Errorf("lint --old: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
			}
			// validate --old OLD NEW: the same chain, the same answer
			// (the policy's oldObject is the stored CRD).
			stdout.Reset()
			stderr.Reset()
			code = run([]string{"validate", "--old", tc.old, "--policy", policy, tc.new}, strings.NewReader(""), &stdout, &stderr)
			if code != wantCode || (tc.want != "" && !strings.Contains(stdout.String()+stderr.String(), tc.want)) ||
				(tc.want == "" && !strings.Contains(stdout.String(), "configured (server dry run)")) {
				t.Errorf("validate --old: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
			}
			stdout.Reset()
			stderr.Reset()
			code = run([]string{"upgrade", "-o", "json", "--policy", policy, tc.old, tc.new}, strings.NewReader(""), &stdout, &stderr)
			var rep struct {
				wire.UpgradeReport
				Admission *wire.AdmissionOutcome `json:"admission"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatalf("upgrade: exit %d, %v\n%s", code, err, stderr.String())
			}
			if code != wantCode || rep.Admission == nil || rep.Admission.Allowed != (tc.want == "") || !strings.Contains(rep.Admission.Message, tc.want) || rep.Safe != (tc.want == "") {
				t.Errorf("upgrade: exit %d, admission %+v", code, rep.Admission)
			}
		})
	}
}

func TestValidatePolicyOnAnUpdateSeesTheOldObject(t *testing.T) {
	policy := `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: no-scale-up}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: [UPDATE], resources: [crontabs]}
  validations:
  - expression: "object.spec.replicas <= oldObject.spec.replicas"
    messageExpression: "'no scaling up from ' + string(oldObject.spec.replicas) + ' to ' + string(object.spec.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: no-scale-up}
spec: {policyName: no-scale-up, validationActions: [Deny]}
`
	obj := func(n int) string {
		return "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: ok, namespace: prod}\nspec: {replicas: " + strconv.Itoa(n) + "}\n"
	}
	dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD, "policy.yaml": policy, "two.yaml": obj(2), "four.yaml": obj(4)})
	p := func(name string) string { return filepath.Join(dir, name) }
	var stdout, stderr bytes.Buffer
	if code := run([]string{"validate", "--crd", p("crd.yaml"), "--policy", p("policy.yaml"), "--old", p("two.yaml"), p("four.yaml")}, strings.NewReader(""), &stdout, &stderr); code != exitInvalid ||
		!strings.Contains(stderr.String(), `error when updating "`+p("four.yaml")+`": crontabs.stable.example.com "ok" is forbidden: ValidatingAdmissionPolicy 'no-scale-up' with binding 'no-scale-up' denied request: no scaling up from 2 to 4`) {
		t.Errorf("scale up: exit %d, stderr:\n%s", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"validate", "--crd", p("crd.yaml"), "--policy", p("policy.yaml"), "--old", p("four.yaml"), p("two.yaml")}, strings.NewReader(""), &stdout, &stderr); code != exitValid {
		t.Errorf("scale down: exit %d, stderr:\n%s", code, stderr.String())
	}
}

const failingWebhook = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: broken}
webhooks:
- name: broken.example.com
  clientConfig: {url: "https://hooks.example.com"}
  sideEffects: None
  admissionReviewVersions: [v1]
  failurePolicy: %s
  rules:
  - {apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}
  matchConditions:
  - {name: missing, expression: "object.spec.missing == 1"}
`

func TestValidateWebhookMatchConditionErrorFailsUnderFailAndSkipsUnderIgnore(t *testing.T) {
	for _, tt := range []struct {
		policy string
		exit   int
		want   string
	}{
		{"Fail", exitInvalid, `Error from server (Forbidden): error when creating "%s": crontabs.stable.example.com "ok" is forbidden: expression 'object.spec.missing == 1' resulted in error: no such key: missing`},
		{"Ignore", exitValid, `broken/broken.example.com skipped: matchConditions could not be evaluated (failurePolicy Ignore)`},
	} {
		t.Run(tt.policy, func(t *testing.T) {
			// Webhook configurations among the inputs apply, as policies do.
			dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD,
				"objs.yaml": fmt.Sprintf(failingWebhook, tt.policy) + "---\n" + strings.Split(admissionObjects, "---\n")[0]})
			objs := filepath.Join(dir, "objs.yaml")
			var stdout, stderr bytes.Buffer
			code := run([]string{"validate", "--crd", filepath.Join(dir, "crd.yaml"), objs}, strings.NewReader(""), &stdout, &stderr)
			if code != tt.exit {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.exit, stderr.String())
			}
			want := tt.want
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, objs)
			}
			if !strings.Contains(stdout.String()+stderr.String(), want) {
				t.Errorf("output lacks %q:\n%s%s", want, stdout.String(), stderr.String())
			}
		})
	}
}

func TestCatalogEquivalentsAreTheCRDHandlersRegistry(t *testing.T) {
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
    subresources: {status: {}}
  - name: v2
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
    subresources:
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
`
	dir := writeFiles(t, map[string]string{"crd.yaml": crd})
	docs, err := (&inputs.Reader{}).Read([]string{filepath.Join(dir, "crd.yaml")}, "CRD")
	if err != nil {
		t.Fatal(err)
	}
	cat := inputs.New()
	if err := cat.AddAll(docs, 1); err != nil {
		t.Fatal(err)
	}
	res := catalogResources(cat)
	r := admission.GVR{Group: "example.com", Version: "v1", Resource: "widgets"}
	for _, tt := range []struct {
		sub  string
		want string
	}{
		{"", "v1 example.com/v1 Widget, v2 example.com/v2 Widget"}, // unserved versions too
		{"status", "v1 example.com/v1 Widget"},
		{"scale", "v2 autoscaling/v1 Scale"},
		{"other", ""},
	} {
		var got []string
		for _, e := range res.Equivalents(r, tt.sub) {
			got = append(got, fmt.Sprintf("%s %s/%s %s", e.Resource.Version, e.Kind.Group, e.Kind.Version, e.Kind.Kind))
		}
		if g := strings.Join(got, ", "); g != tt.want {
			t.Errorf("subresource %q: %s, want %s", tt.sub, g, tt.want)
		}
	}
}

// crdWebhooks are webhook configurations on CRD updates: one called for
// every CRD update, one skipped by its rules, one whose matchCondition
// errors under failurePolicy Fail (fails the request), and a mutating
// policy (not run on CRDs: a note).
const crdWebhooks = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: crd-guard}
webhooks:
- name: crds.guard.example.com
  clientConfig: {url: "https://guard.example.com/crds"}
  sideEffects: None
  admissionReviewVersions: [v1]
  rules:
  - {apiGroups: [apiextensions.k8s.io], apiVersions: [v1], operations: [UPDATE], resources: [customresourcedefinitions]}
- name: creates-only.guard.example.com
  clientConfig: {url: "https://guard.example.com/creates"}
  sideEffects: None
  admissionReviewVersions: [v1]
  rules:
  - {apiGroups: [apiextensions.k8s.io], apiVersions: [v1], operations: [CREATE], resources: [customresourcedefinitions]}
`

const crdWebhookFailing = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: crd-broken}
webhooks:
- name: broken.guard.example.com
  clientConfig: {url: "https://guard.example.com/broken"}
  sideEffects: None
  admissionReviewVersions: [v1]
  failurePolicy: Fail
  rules:
  - {apiGroups: [apiextensions.k8s.io], apiVersions: [v1], operations: [UPDATE], resources: [customresourcedefinitions]}
  matchConditions:
  - {name: nope, expression: "object.spec.nope == 'x'"}
`

const crdMutatingPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: label-crds}
spec:
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - {apiGroups: [apiextensions.k8s.io], apiVersions: [v1], operations: [UPDATE], resources: [customresourcedefinitions]}
  mutations:
  - patchType: JSONPatch
    jsonPatch: {expression: "[JSONPatch{op: 'add', path: '/metadata/labels', value: {'a': 'b'}}]"}
`

func TestWebhookConfigurationsOnCRDUpdates(t *testing.T) {
	dir := writeFiles(t, map[string]string{"hooks.yaml": crdWebhooks, "broken.yaml": crdWebhookFailing, "map.yaml": crdMutatingPolicy})
	old, updated := "../../examples/crd-update/old.yaml", "../../examples/crd-update/new-v1.yaml"
	t.Run("lint --old: the webhooks line", func(t *testing.T) {
		code, stdout, stderr := runCLI("lint", "--old", old, "--policy", filepath.Join(dir, "hooks.yaml"), updated)
		want := "customresourcedefinition.apiextensions.k8s.io/gizmos.example.com webhooks: crd-guard/crds.guard.example.com called (apiextensions.k8s.io/v1 customresourcedefinitions); crd-guard/creates-only.guard.example.com skipped: "
		if code != exitValid || !strings.Contains(stdout, want) || !strings.Contains(stdout, "configured (server dry run)") {
			t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s\nwant a line starting %q", code, stdout, stderr, want)
		}
	})
	t.Run("upgrade -o json: webhooks and the mutating policy's note", func(t *testing.T) {
		code, stdout, stderr := runCLI("upgrade", "-o", "json", "--policy", filepath.Join(dir, "hooks.yaml"), "--policy", filepath.Join(dir, "map.yaml"), old, updated)
		var rep struct {
			Admission *wire.AdmissionOutcome `json:"admission"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Admission == nil {
			t.Fatalf("exit %d, %v\n%s\n%s", code, err, stdout, stderr)
		}
		a := rep.Admission
		if !a.Allowed || len(a.Webhooks) != 2 || !a.Webhooks[0].Called || a.Webhooks[1].Called || a.Webhooks[1].Skipped == "" {
			t.Errorf("admission %+v", a)
		}
		if len(a.Notes) == 0 || !strings.Contains(a.Notes[0], "MutatingAdmissionPolicies are not run on CRD updates") {
			t.Errorf("notes %q", a.Notes)
		}
	})
	t.Run("a failing matchCondition under Fail denies the update", func(t *testing.T) {
		code, stdout, stderr := runCLI("lint", "--old", old, "--policy", filepath.Join(dir, "broken.yaml"), updated)
		if code != exitInvalid || !strings.Contains(stderr, "Error from server (Forbidden)") || !strings.Contains(stderr, "resulted in error: no such key: nope") || strings.Contains(stdout, "configured") {
			t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		code, stdout, _ = runCLI("upgrade", "--policy", filepath.Join(dir, "broken.yaml"), old, updated)
		if code != exitInvalid || !strings.Contains(stdout, "DENIED by the admission webhooks' matching") {
			t.Errorf("upgrade: exit %d\n%s", code, stdout)
		}
	})
}

// rbacAdmission is a policy that asks the authorizer and the RBAC objects
// that answer it: jane may update crontabs/scale in prod.
const rbacAdmission = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: scale}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: ["*"], resources: [crontabs]}
  validations:
  - expression: "object.spec.replicas <= 5 || authorizer.requestResource.subresource('scale').check('update').allowed()"
    message: needs crontabs/scale
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: scale}
spec: {policyName: scale, validationActions: [Deny]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: scaler}
rules:
- {apiGroups: [stable.example.com], resources: [crontabs/scale], verbs: [update]}
`

const rbacBinding = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: jane-scales, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: scaler}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: jane}
`

func TestValidateAuthorizerAnswersFromRBACObjectsOfPolicyFilesAndInputs(t *testing.T) {
	// The ClusterRole comes with --policy, the RoleBinding is an input.
	dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD, "policy.yaml": rbacAdmission, "objs.yaml": admissionObjects + "---\n" + rbacBinding})
	objs := filepath.Join(dir, "objs.yaml")
	for _, c := range []struct {
		user     string
		code     int
		contains string
	}{
		{"jane", exitValid, ""},
		{"bob", exitInvalid, `crontabs.stable.example.com "big" is forbidden: ValidatingAdmissionPolicy 'scale' with binding 'scale' denied request: needs crontabs/scale`},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"validate", "--crd", filepath.Join(dir, "crd.yaml"), "--policy", filepath.Join(dir, "policy.yaml"), "--user", c.user, objs}, strings.NewReader(""), &stdout, &stderr)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d; stderr:\n%s", c.user, code, c.code, stderr.String())
		}
		if c.contains != "" && !strings.Contains(stderr.String(), c.contains) {
			t.Errorf("%s: stderr:\n%s\nwant %s", c.user, stderr.String(), c.contains)
		}
		// The RoleBinding input is validated natively, and used all the same.
		if want := "rolebinding.rbac.authorization.k8s.io/jane-scales created (server dry run)"; !strings.Contains(stdout.String()+stderr.String(), want) {
			t.Errorf("%s: output lacks %q:\n%s%s", c.user, want, stdout.String(), stderr.String())
		}
	}
}

func TestValidateLocatesRBACObjectsOfTheWrongShapeInPolicyFilesAndInputs(t *testing.T) {
	bad := strings.Replace(rbacBinding, "subjects:", "subjects: 5\nx:", 1)
	dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD, "policy.yaml": rbacAdmission, "bad.yaml": bad, "objs.yaml": admissionObjects})
	for _, c := range []struct{ name, policy, input string }{
		{"in a --policy file", "bad.yaml", "objs.yaml"},
		{"among the inputs", "policy.yaml", "bad.yaml"},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"validate", "--crd", filepath.Join(dir, "crd.yaml"), "--policy", filepath.Join(dir, c.policy), filepath.Join(dir, "objs.yaml"), filepath.Join(dir, c.input)}, strings.NewReader(""), &stdout, &stderr)
		line := strings.Count(bad[:strings.Index(bad, "subjects: 5")], "\n") + 1
		want := fmt.Sprintf("%s:%d:1: subjects: expected a list, got a number", filepath.Join(dir, "bad.yaml"), line)
		if code != exitUsage || !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant exit %d and %s", c.name, code, stderr.String(), exitUsage, want)
		}
	}
}

func TestAdmissionAtAnOlderReleaseIsNotedAsTheNewestReleases(t *testing.T) {
	note := "note: admission is evaluated as Kubernetes 1.37's (policies, webhook matching): --kube-version 1.35 applies to validation only"
	for _, c := range []struct {
		name string
		args []string
		want bool
	}{
		{"validate at 1.35", []string{"validate", "--kube-version", "1.35", "--crd", "../../examples/crontab-crd.yaml", "--policy", "../../examples/admission/policy.yaml", "../../examples/valid.yaml"}, true},
		{"validate at 1.37", []string{"validate", "--kube-version", "1.37", "--crd", "../../examples/crontab-crd.yaml", "--policy", "../../examples/admission/policy.yaml", "../../examples/valid.yaml"}, false},
		{"validate at 1.35 without policies", []string{"validate", "--kube-version", "1.35", "--crd", "../../examples/crontab-crd.yaml", "../../examples/valid.yaml"}, false},
		{"lint --old at 1.35", []string{"lint", "--kube-version", "1.35", "--old", "../../examples/crd-update/old.yaml", "--policy", "../../examples/admission/webhooks.yaml", "../../examples/crd-update/new-v1.yaml"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			run(c.args, strings.NewReader(""), &stdout, &stderr)
			if got := strings.Contains(stderr.String(), note); got != c.want {
				t.Errorf("note on stderr: %v, want %v; stderr:\n%s", got, c.want, stderr.String())
			}
			stdout.Reset()
			stderr.Reset()
			run(append(append([]string{}, c.args[:1]...), append([]string{"-o", "json"}, c.args[1:]...)...), strings.NewReader(""), &stdout, &stderr)
			if got := strings.Contains(stdout.String(), strings.TrimPrefix(note, "note: ")); got != c.want {
				t.Errorf("note in the JSON admission outcome: %v, want %v; stdout:\n%s", got, c.want, stdout.String())
			}
		})
	}
}

// statusCRD, statusPolicy: a Widget CRD with a status subresource and a
// policy on UPDATEs of widgets/status (the rule names the subresource).
const statusCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
          status: {type: object, properties: {ready: {type: boolean}}}
`

func statusPolicy(action string) string {
	return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: status-guard}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: ["*"], operations: [UPDATE], resources: [widgets/status]}
  validations:
  - expression: "object.status.ready == false"
    messageExpression: "'ready may not be set (' + request.subResource + ')'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: status-guard}
spec: {policyName: status-guard, validationActions: [` + action + `]}
`
}

// A status update (--subresource status, or --request with subResource:
// status) is matched by a policy rule naming widgets/status, as the API
// server matches it: Deny refuses it, Warn warns. An update of the object
// itself is not matched (the status is the stored one's there).
func TestValidateStatusUpdateMatchesStatusSubresourcePolicies(t *testing.T) {
	widget := func(ready bool) string {
		return "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec: {size: 1}\nstatus: {ready: " + strconv.FormatBool(ready) + "}\n"
	}
	dir := writeFiles(t, map[string]string{
		"crd.yaml": statusCRD, "deny.yaml": statusPolicy("Deny"), "warn.yaml": statusPolicy("Warn"),
		"old.yaml": widget(false), "new.yaml": widget(true),
		"status-review.yaml": "apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nrequest: {operation: UPDATE, subResource: status}\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	const denied = `widgets.example.com "w1" is forbidden: ValidatingAdmissionPolicy 'status-guard' with binding 'status-guard' denied request: ready may not be set (status)`
	const warned = `Warning: Validation failed for ValidatingAdmissionPolicy 'status-guard' with binding 'status-guard': ready may not be set (status)`
	for _, tc := range []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"--subresource status, Deny", []string{"--subresource", "status", "--policy", p("deny.yaml")}, exitInvalid, "", denied},
		{"--request subResource status, Deny", []string{"--request", p("status-review.yaml"), "--policy", p("deny.yaml")}, exitInvalid, "", denied},
		{"both, Deny", []string{"--subresource", "status", "--request", p("status-review.yaml"), "--policy", p("deny.yaml")}, exitInvalid, "", denied},
		{"--subresource status, Warn", []string{"--subresource", "status", "--policy", p("warn.yaml")}, exitValid, "widget.example.com/w1 configured (server dry run)", warned},
		{"--request subResource status, Warn", []string{"--request", p("status-review.yaml"), "--policy", p("warn.yaml")}, exitValid, "widget.example.com/w1 configured (server dry run)", warned},
		{"an update of the object is not matched", []string{"--policy", p("deny.yaml")}, exitValid, "widget.example.com/w1 unchanged (server dry run)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"validate", "--crd", p("crd.yaml"), "--old", p("old.yaml")}, tc.args...), p("new.yaml"))
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			if code != tc.code || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) ||
				(tc.stderr == "" && stderr.Len() > 0) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout.String(), stderr.String())
			}
		})
	}
}

// A --request subResource the run cannot make is a usage error naming it.
func TestValidateRequestSubresourceErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"crd.yaml": statusCRD, "deny.yaml": statusPolicy("Deny"),
		"old.yaml":    "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\n",
		"new.yaml":    "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\n",
		"scale.yaml":  "apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nrequest: {operation: UPDATE, subResource: scale}\n",
		"create.yaml": "apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nrequest: {operation: CREATE, subResource: status}\n",
		"status.yaml": "apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nrequest: {operation: UPDATE, subResource: status}\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"scale of a custom resource", []string{"--old", p("old.yaml"), "--request", p("scale.yaml")}, `error: Widget default/w1: unsupported subresource "scale" (want "" or "status")`},
		{"status on a create", []string{"--request", p("create.yaml")}, `--request: subResource status needs the operation UPDATE and --old (a status update), not CREATE`},
		{"a flag and a request that differ", []string{"--old", p("old.yaml"), "--subresource", "status", "--request", p("scale.yaml")}, `--subresource status and the --request's subResource "scale" differ`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"validate", "--crd", p("crd.yaml"), "--policy", p("deny.yaml")}, tc.args...), p("new.yaml"))
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			want := exitUsage
			if strings.HasPrefix(tc.name, "scale") {
				want = exitInvalid // the entry's error: the subresource of a built-in resource is matched
			}
			if code != want || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q, want %q", code, stderr.String(), tc.want)
			}
		})
	}
}

// validate --old OLD_CRD NEW_CRD: the policies see --old as the UPDATE's
// oldObject when it is the same CRD (by name), not when it is another one.
func TestValidateOldCRDIsTheOldObjectOfTheSameCRDsUpdate(t *testing.T) {
	crd := func(name string) string {
		plural, group, _ := strings.Cut(name, ".")
		return "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: " + name + "}\nspec:\n  group: " + group +
			"\n  scope: Namespaced\n  names: {plural: " + plural + ", singular: " + strings.TrimSuffix(plural, "s") + ", kind: K" + plural + "}\n  versions:\n  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}\n"
	}
	policy := `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: no-old}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apiextensions.k8s.io], apiVersions: [v1], operations: [UPDATE], resources: [customresourcedefinitions]}
  validations:
  - expression: "oldObject == null"
    messageExpression: "'updated from ' + oldObject.metadata.name"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: no-old}
spec: {policyName: no-old, validationActions: [Deny]}
`
	dir := writeFiles(t, map[string]string{"new.yaml": crd("widgets.example.com"), "same.yaml": crd("widgets.example.com"), "other.yaml": crd("gadgets.example.com"), "policy.yaml": policy})
	for _, tc := range []struct {
		old  string
		code int
		want string
	}{
		{"same.yaml", exitInvalid, "denied request: updated from widgets.example.com"},
		{"other.yaml", exitValid, "configured (server dry run)"},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"validate", "--old", filepath.Join(dir, tc.old), "--policy", filepath.Join(dir, "policy.yaml"), filepath.Join(dir, "new.yaml")}, strings.NewReader(""), &stdout, &stderr)
		if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.want) {
			t.Errorf("--old %s: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", tc.old, code, tc.code, stdout.String(), stderr.String())
		}
	}
}

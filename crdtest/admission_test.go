package crdtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAdmissionSuites runs the admission cases of testdata/admission (a
// CRD's objects through mutating policies, the schema and validating
// policies) and the Kubernetes documentation's examples of testdata/k8s-docs
// (Deployments, a built-in kind, without a CRD; Pods of a stand-in CRD),
// and of testdata/k8s-docs-pods (the mutating examples on core Pods).
func TestAdmissionSuites(t *testing.T) {
	for _, tc := range []struct {
		path   string
		passed int
	}{
		{"testdata/admission", 15},
		{"testdata/k8s-docs", 22},
		{"testdata/k8s-docs-pods", 6},
		{"testdata/kaptest", 4},
	} {
		rep, err := RunPaths(Options{}, tc.path)
		if err != nil {
			t.Fatal(err)
		}
		p, f := rep.Counts()
		if p != tc.passed || f != 0 || len(rep.LoadErrors) > 0 {
			for _, r := range rep.Results {
				if !r.Passed {
					t.Errorf("%s: %s", r.Name, r.Message)
				}
			}
			t.Errorf("%s: %d passed, %d failed, load errors %v; want %d passed", tc.path, p, f, rep.LoadErrors, tc.passed)
		}
		for _, r := range rep.Results {
			if r.Admission == nil {
				t.Errorf("%s: no admission outcome in the report", r.Name)
			}
		}
	}
}

// TestAdmissionOutcomeInReport: the report carries each admission case's
// outcome (a refusal's message, reason and code, audit annotations).
func TestAdmissionOutcomeInReport(t *testing.T) {
	rep, err := RunPaths(Options{Run: regexp.MustCompile(`Too many replicas`)}, "testdata/admission")
	if err != nil || len(rep.Results) != 1 {
		t.Fatalf("%v %+v", err, rep)
	}
	a := rep.Wire().Results[0].Admission
	if a == nil || a.Allowed || a.Policy != "widget-rules" || a.Code != 422 || a.Reason != "Invalid" ||
		!strings.Contains(a.Message, "maxReplicas must be at most 5, not 8") || a.AuditAnnotations["widget-rules/replicas"] != "8" {
		t.Errorf("admission outcome = %+v", a)
	}
}

// TestAdmissionKubeVersion: admission is kube-apiserver 1.37's; a suite run
// at another release fails its admission cases with a message saying so.
func TestAdmissionKubeVersion(t *testing.T) {
	rep, err := RunPaths(Options{KubeVersion: "1.35", Run: regexp.MustCompile(`Too many replicas`)}, "testdata/admission")
	if err != nil || len(rep.Results) != 1 {
		t.Fatalf("%v %+v", err, rep)
	}
	if r := rep.Results[0]; r.Passed || !strings.Contains(r.Message, "admission cases run at Kubernetes 1.37 only") || !strings.Contains(r.Message, "1.35") {
		t.Errorf("at 1.35: %+v", r)
	}
}

// TestAdmissionLoadErrors: policies that cannot be read or decoded, the
// suite's or a case's, are load errors (the suite does not run) naming the
// suite's file and line (inline documents) or the policy file's.
func TestAdmissionLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	obj := "    object: |\n      apiVersion: apps/v1\n      kind: Deployment\n      metadata: {name: d}\n"
	write("bad-policy.yaml", "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  validations: [{expresion: x}]\n")
	for _, tc := range []struct{ name, suite, want string }{
		{"missing file", "policies: [nope.yaml]\ntests:\n  admission:\n  - name: a\n" + obj, "missing-file.crdtest.yaml:1: policies: "},
		{"bad policy file", "tests:\n  admission:\n  - name: a\n    policies: [bad-policy.yaml]\n" + obj, "bad-policy.yaml:5"},
		{"bad inline policy", "tests:\n  admission:\n  - name: a\n    policies:\n    - |\n      apiVersion: admissionregistration.k8s.io/v1\n      kind: ValidatingAdmissionPolicy\n      metadata: {name: p}\n      spec: {validations: 3}\n" + obj, "bad-inline-policy.crdtest.yaml:9"},
		{"webhooks", "tests:\n  admission:\n  - name: a\n    policies:\n    - |\n      apiVersion: admissionregistration.k8s.io/v1\n      kind: ValidatingWebhookConfiguration\n      metadata: {name: w}\n" + obj, "do not run webhook configurations"},
	} {
		p := write(strings.ReplaceAll(tc.name, " ", "-")+".crdtest.yaml", tc.suite)
		rep, err := RunPaths(Options{}, p)
		if err != nil {
			t.Fatal(err)
		}
		msg := ""
		if len(rep.LoadErrors) == 1 {
			msg = rep.LoadErrors[0].Err
		}
		if len(rep.Results) != 0 || !strings.Contains(msg, tc.want) || rep.OK() {
			t.Errorf("%s: load errors %v, results %+v; want one load error containing %q", tc.name, rep.LoadErrors, rep.Results, tc.want)
		}
	}
}

func TestParseAdmissionErrors(t *testing.T) {
	const obj = "    object: |\n      apiVersion: v1\n      kind: ConfigMap\n"
	const old = "    oldObject: |\n      apiVersion: v1\n      kind: ConfigMap\n"
	for _, tc := range []struct{ in, want string }{
		{"tests:\n  admission:\n  - name: a\n    objet: x\n", `f.yaml:4: unknown field "objet" in an admission case (expected one of name, policies, object`},
		{"tests:\n  admission:\n  - name: a\n    request: {operation: CREATE, user: x}\n" + obj, `f.yaml:4: unknown field "user" in request (expected one of operation`},
		{"tests:\n  admission:\n  - name: a\n    request:\n      userInfo: {name: x}\n" + obj, `f.yaml:5: unknown field "name" in request.userInfo (expected one of username, uid, groups, extra)`},
		{"tests:\n  admission:\n  - name: a\n", `f.yaml:3: admission case "a": give object (CREATE), object and oldObject (UPDATE) or oldObject (DELETE)`},
		{"tests:\n  admission:\n  - object: |\n      kind: X\n", `f.yaml:3: admission case "": a case needs a name`},
		{"tests:\n  admission:\n  - name: a\n    object: |\n      kind: X\n", `f.yaml:4: admission case "a": object: the object has no apiVersion`},
		{"tests:\n  admission:\n  - name: a\n    object: '[1]'\n", `f.yaml:4: admission case "a": object: expected a YAML mapping`},
		{"tests:\n  admission:\n  - name: a\n    oldObject: '{a: [}'\n", `f.yaml:4: admission case "a": oldObject: not valid YAML`},
		{"tests:\n  admission:\n  - name: a\n    request: {operation: PATCH}\n" + obj, `f.yaml:4: admission case "a": request.operation must be CREATE, UPDATE or DELETE, not "PATCH"`},
		{"tests:\n  admission:\n  - name: a\n    request: {operation: UPDATE}\n" + obj, "an UPDATE has object and oldObject"},
		{"tests:\n  admission:\n  - name: a\n    request: {operation: DELETE}\n" + obj, "a DELETE has oldObject (the stored object) and no object"},
		{"tests:\n  admission:\n  - name: a\n    request: {operation: CREATE}\n" + old, "a CREATE has object and no oldObject"},
		{"tests:\n  admission:\n  - name: a\n    fieldValidation: strict\n" + obj, `fieldValidation must be Strict, Warn or Ignore, not "strict"`},
		{"tests:\n  admission:\n  - name: a\n    expectedAllowed: true\n    expectedError: x\n" + obj, "f.yaml:5: admission case \"a\": expectedError expects a refusal"},
		{"tests:\n  admission:\n  - name: a\n    expected: '{}'\n" + old, "a DELETE leaves no object"},
		{"tests:\n  admission:\n  - name: a\n    expectedError: x\n    expected: |\n      kind: X\n" + obj, "a refused request leaves no object"},
		{"tests:\n  admission:\n  - name: a\n    policies: x.yaml\n" + obj, `f.yaml:4: policies: expected a list of files`},
		{"policies: x.yaml\ntests:\n  admission: []\n", "f.yaml:1: policies: expected a list of files"},
		{"tests:\n  admission: {name: a}\n", "f.yaml:2: tests.admission: expected a list of cases"},
		{"tests:\n  admission:\n  -\n", "empty admission case"},
		{"tests:\n  admission:\n  - name: a\n    policies: [{a: b}]\n", "f.yaml:4: policies: expected a file name or YAML documents in a block scalar"},
		{"tests:\n  admission:\n  - name: a\n    object:\n      kind: X\n", "f.yaml:5: object: expected a string (objects: YAML in a block scalar, |)"},
		{"tests:\n  admission:\n  - name: a\n    expectedAllowed: 'no'\n", "f.yaml:4: expectedAllowed: expected true or false"},
		{"tests:\n  admission:\n  - name: a\n    expectedWarnings: x\n", "f.yaml:4: expectedWarnings: expected a list"},
		{"tests:\n  admission:\n  - name: a\n    expectedAuditAnnotations: [a]\n", "f.yaml:4: expectedAuditAnnotations: expected a mapping"},
		{"tests:\n  admission:\n  - name: a\n    request: CREATE\n", "f.yaml:4: request: expected a mapping"},
		{"tests:\n  admission:\n  - name: a\n    request: {userInfo: {groups: g}}\n", "f.yaml:4: request.userInfo.groups: expected a list"},
		{"tests:\n  admission:\n  - name: a\n    request: {dryRun: 1}\n", "f.yaml:4: request.dryRun: expected true or false"},
		{"tests:\n  admission:\n  - a\n", "f.yaml:3: tests.admission: expected a case"},
	} {
		_, err := ParseSuite("f.yaml", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSuite(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
}

func TestGuessResource(t *testing.T) {
	for kind, want := range map[string]string{"Deployment": "deployments", "Ingress": "ingresses", "NetworkPolicy": "networkpolicies",
		"Endpoints": "endpoints", "Lease": "leases", "ConfigMap": "configmaps", "": ""} {
		if got := guessResource(kind); got != want {
			t.Errorf("guessResource(%q) = %q, want %q", kind, got, want)
		}
	}
}

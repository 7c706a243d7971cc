package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestCLI runs the CLI on the examples and compares exit status, stdout and
// stderr with testdata/<name>.golden.
func TestCLI(t *testing.T) {
	const crd = "../../examples/crontab-crd.yaml"
	tests := []struct {
		name  string
		args  []string
		stdin string
		exit  int
	}{
		{"validate-valid-text", []string{"validate", "--crd", crd, "../../examples/valid.yaml"}, "", 0},
		{"validate-invalid-text", []string{"validate", "--crd", crd, "../../examples/invalid.yaml"}, "", 1},
		{"validate-multi-doc-positions", []string{"validate", "--field-validation", "Warn", "--crd", crd, "testdata/multi-doc.yaml"}, "", 1},
		{"validate-multi-doc-positions-json", []string{"validate", "-o", "json", "--field-validation", "Warn", "--crd", crd, "testdata/multi-doc.yaml"}, "", 1},
		{"validate-examples-dir-text", []string{"validate", "--crd", crd, "../../examples/"}, "", 1},
		{"validate-examples-dir-json", []string{"validate", "-o", "json", "--crd", crd, "../../examples/"}, "", 1},
		{"validate-unknown-field-strict", []string{"validate", "--crd", crd, "../../examples/unknown-field.yaml"}, "", 1},
		{"validate-unknown-field-warn", []string{"validate", "--field-validation", "Warn", "--crd", crd, "../../examples/unknown-field.yaml"}, "", 0},
		{"validate-unknown-field-ignore-json", []string{"validate", "-o", "json", "--field-validation", "Ignore", "--crd", crd, "../../examples/unknown-field.yaml"}, "", 0},
		{"validate-stdin-multidoc-and-list", []string{"validate", "--crd", crd, "-"}, multiDoc, 1},
		{"validate-update-text", []string{"validate", "--crd", crd, "--old", "../../examples/valid.yaml", "testdata/update.yaml"}, "", 0},
		{"validate-webhooks-text", []string{"validate", "--crd", crd, "--policy", "../../examples/admission/webhooks.yaml", "../../examples/admission/crontabs.yaml", "../../examples/admission/team-crontab.yaml"}, "", 0},
		{"validate-webhooks-json", []string{"validate", "-o", "json", "--crd", crd, "--policy", "../../examples/admission/webhooks.yaml", "../../examples/admission/team-crontab.yaml"}, "", 0},
		{"validate-webhooks-and-policy-text", []string{"validate", "--crd", crd, "--policy", "../../examples/admission/webhooks.yaml", "--policy", "../../examples/admission/policy.yaml", "../../examples/admission/crontabs.yaml"}, "", 1},
		{"validate-invalid-crd-text", []string{"validate", "--crd", "testdata/invalid-crd.yaml", "../../examples/valid.yaml"}, "", 1},
		{"validate-invalid-crd-json", []string{"validate", "-o", "json", "--crd", "testdata/invalid-crd.yaml", "../../examples/valid.yaml"}, "", 1},
		{"validate-status-update", []string{"validate", "--crd", "testdata/widget-crd.yaml", "--old", "testdata/widget-old.yaml", "--subresource", "status", "testdata/status-update.yaml"}, "", 1},
		{"validate-status-needs-old", []string{"validate", "--crd", "testdata/widget-crd.yaml", "--subresource", "status", "testdata/status-update.yaml"}, "", 2},
		{"lint-invalid-text", []string{"lint", "testdata/invalid-crd.yaml"}, "", 1},
		{"lint-text", []string{"lint", crd}, "", 0},
		{"lint-json", []string{"lint", "-o", "json", crd}, "", 0},
		{"lint-examples-dir-skips-objects", []string{"lint", "../../examples/"}, "", 0},
		{"validate-update-json-old-result", []string{"validate", "-o", "json", "--crd", crd, "--old", "testdata/old-with-defaults.yaml", "testdata/update.yaml"}, "", 0},
		{"lint-crd-unknown-field-strict", []string{"lint", "testdata/unknown-field-crd.yaml"}, "", 1},
		{"lint-crd-unknown-field-strict-json", []string{"lint", "-o", "json", "testdata/unknown-field-crd.yaml"}, "", 1},
		{"lint-crd-unknown-field-warn", []string{"lint", "--crd-field-validation", "Warn", "testdata/unknown-field-crd.yaml"}, "", 0},
		{"lint-crd-unknown-field-ignore-json", []string{"lint", "-o", "json", "--crd-field-validation", "Ignore", "testdata/unknown-field-crd.yaml"}, "", 0},
		{"validate-crd-unknown-field-strict-json", []string{"validate", "-o", "json", "--crd", "testdata/unknown-field-crd.yaml", "../../examples/valid.yaml"}, "", 1},
		{"validate-crd-unknown-field-warn", []string{"validate", "--crd-field-validation", "Warn", "--crd", "testdata/unknown-field-crd.yaml", "../../examples/valid.yaml"}, "", 0},
		{"cost-crd-unknown-field-strict", []string{"cost", "testdata/unknown-field-crd.yaml"}, "", 1},
		{"cost-crd-unknown-field-ignore", []string{"cost", "--crd-field-validation", "Ignore", "testdata/unknown-field-crd.yaml"}, "", 0},
		{"usage-bad-crd-field-validation", []string{"lint", "--crd-field-validation", "loose", crd}, "", 2},
		{"lint-update-rejected-text", []string{"lint", "--old", "../../examples/crd-update/old.yaml", "../../examples/crd-update/new-v2.yaml"}, "", 1},
		{"lint-update-stored-versions-json", []string{"lint", "-o", "json", "--old", "../../examples/crd-update/old.yaml", "--stored-versions", "v2", "../../examples/crd-update/new-v2.yaml"}, "", 1},
		{"lint-update-accepted-text", []string{"lint", "--old", "../../examples/crd-update/old.yaml", "../../examples/crd-update/new-v1.yaml"}, "", 0},
		{"validate-matrix-range-text", []string{"validate", "--kube-version", "1.35-1.37", "--crd", "testdata/matrix-crd.yaml", "testdata/matrix-widgets.yaml"}, "", 1},
		{"validate-matrix-range-json", []string{"validate", "-o", "json", "--kube-version", "1.35-1.37", "--crd", "testdata/matrix-crd.yaml", "testdata/matrix-widgets.yaml"}, "", 1},
		{"validate-matrix-stdin-all-valid", []string{"validate", "--kube-version", "supported", "--crd", "testdata/matrix-crd.yaml", "-"}, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: small}\nspec: {replicas: 3}\n", 0},
		{"lint-matrix-list-text", []string{"lint", "--kube-version", "1.35,1.37", "testdata/matrix-name-rule-crd.yaml", "testdata/matrix-crd.yaml"}, "", 1},
		{"lint-matrix-supported-yaml", []string{"lint", "-o", "yaml", "--kube-version", "supported", "testdata/matrix-name-rule-crd.yaml"}, "", 1},
		{"lint-update-matrix-text", []string{"lint", "--kube-version", "1.35-1.37", "--old", "../../examples/crd-update/old.yaml", "../../examples/crd-update/new-v1.yaml"}, "", 0},
		{"usage-matrix-bad-output", []string{"validate", "-o", "junit", "--kube-version", "1.36-1.37", "--crd", "testdata/matrix-crd.yaml", "testdata/matrix-widgets.yaml"}, "", 2},
		{"usage-matrix-unsupported-in-range", []string{"validate", "--kube-version", "1.30-1.37", "--crd", "testdata/matrix-crd.yaml", "testdata/matrix-widgets.yaml"}, "", 2},
		{"upgrade-matrix-text", []string{"upgrade", "--kube-version", "1.35-1.37", "../../examples/upgrade/old.yaml", "../../examples/upgrade/new.yaml", "testdata/matrix-upgrade-stored.yaml"}, "", 1},
		{"conversion-matrix-json", []string{"conversion-review", "-o", "json", "--kube-version", "1.36,1.37", "--crd", "../../examples/conversion/crd.yaml", "../../examples/conversion/request.json", "../../examples/conversion/response.json"}, "", 0},
		{"cost-matrix-text", []string{"cost", "--kube-version", "supported", "testdata/matrix-name-rule-crd.yaml"}, "", 1},
		{"lint-update-needs-one-crd", []string{"lint", "--old", "../../examples/crd-update/old.yaml"}, "", 2},
		{"lint-stored-versions-needs-old", []string{"lint", "--stored-versions", "v1", "../../examples/crd-update/old.yaml"}, "", 2},
		{"validate-old-crd", []string{"validate", "--crd", "../../examples/crd-update/new-v1.yaml", "--old-crd", "../../examples/crd-update/old.yaml", "testdata/gizmo.yaml"}, "", 1},
		{"usage-no-args", nil, "", 2},
		{"usage-unknown-command", []string{"frobnicate"}, "", 2},
		{"usage-missing-crd", []string{"validate", "../../examples/valid.yaml"}, "", 2},
		{"usage-bad-field-validation", []string{"validate", "--field-validation", "loose", "--crd", crd, "../../examples/valid.yaml"}, "", 2},
		{"validate-field-validation-any-case", []string{"validate", "../../examples/unknown-field.yaml", "--field-validation=warn", "--crd=" + crd}, "", 0},
		{"validate-flags-after-args", []string{"validate", "../../examples/valid.yaml", "--crd", crd, "-o", "jsonl"}, "", 0},
		{"validate-update-unchanged", []string{"validate", "--crd", crd, "--old", "../../examples/valid.yaml", "../../examples/valid.yaml"}, "", 0},
		{"validate-missing-crds-error", []string{"validate", "--missing-crds=error", "--summary", "--crd", crd, "testdata/mixed.yaml"}, "", 1},
		{"validate-mixed-skips", []string{"validate", "--summary", "--crd", crd, "testdata/mixed.yaml"}, "", 0},
		{"validate-github", []string{"validate", "-o", "github", "--crd", crd, "../../examples/"}, "", 1},
		{"lint-github", []string{"lint", "-o", "github", "testdata/invalid-crd.yaml"}, "", 1},
		{"help-validate", []string{"help", "validate"}, "", 0},
		{"help-flag-lint", []string{"lint", "--help"}, "", 0},
		{"help-unknown", []string{"help", "frobnicate"}, "", 2},
		{"usage-stdin-twice", []string{"validate", "--crd", "-", "-"}, "", 2},
		{"usage-bad-output", []string{"validate", "-o", "xml", "--crd", crd, "../../examples/valid.yaml"}, "", 2},
		{"usage-unknown-flag", []string{"validate", "--frob", "--crd", crd, "../../examples/valid.yaml"}, "", 2},
		{"legacy-single-dash-flags", []string{"validate", "-crd", crd, "-field-validation=Ignore", "../../examples/unknown-field.yaml"}, "", 0},
		{"io-missing-object-file", []string{"validate", "--crd", crd, "testdata/does-not-exist.yaml"}, "", 2},
		{"io-bad-crd", []string{"lint", "testdata/bad-crd.yaml"}, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.exit {
				t.Errorf("exit status %d, want %d\nstderr: %s", code, tt.exit, stderr.String())
			}
			got := fmt.Sprintf("exit: %d\n--- stdout\n%s--- stderr\n%s", code, stdout.String(), stderr.String())
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/crdlab -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (go test ./cmd/crdlab -update rewrites it)\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

const multiDoc = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: first
spec:
  replicas: 2
---
# a comment-only document is skipped
---
apiVersion: v1
kind: List
items:
- apiVersion: stable.example.com/v1
  kind: CronTab
  metadata:
    name: second
  spec:
    replicas: 20
- apiVersion: stable.example.com/v1
  kind: CronTab
  metadata:
    name: third
`

func TestVersionCommandPrintsVersionCommitGoAndKubernetes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"version"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("code=%d stderr=%q", code, stderr.String())
	}
	want := regexp.MustCompile(`^crdlab dev \(Kubernetes 1\.37, k8s\.io/apiextensions-apiserver v0\.37\.2; --kube-version 1\.31, 1\.32, 1\.33, 1\.34, 1\.35, 1\.36, 1\.37, 1\.38\)\ncommit: \S+( \(modified\))?\ngo: go1\.\S+ \S+/\S+\nkubeVersion: 1\.37 \(default\)\n$`)
	if !want.MatchString(stdout.String()) {
		t.Errorf("crdlab version:\n%s\nwant to match %s", stdout.String(), want)
	}
}

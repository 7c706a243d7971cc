package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const kubeVersionCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

const kubeVersionObject = `apiVersion: example.com/v1
kind: Widget
metadata:
  name: a
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: c}]
`

func TestKubeVersionFlagSelectsTheRelease(t *testing.T) {
	dir := t.TempDir()
	crdFile := filepath.Join(dir, "crd.yaml")
	objFile := filepath.Join(dir, "obj.yaml")
	if err := os.WriteFile(crdFile, []byte(kubeVersionCRD), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(objFile, []byte(kubeVersionObject), 0o644); err != nil {
		t.Fatal(err)
	}
	badSuite := t.TempDir()
	if err := os.WriteFile(filepath.Join(badSuite, "crd.yaml"), []byte(kubeVersionCRD), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(badSuite, "bad.testsuite.yaml"), []byte("name: bad\ncrd: crd.yaml\nkubeVersion: \"1.30\"\ntests: {onCreate: [{name: x, initial: \"apiVersion: example.com/v1\\nkind: Widget\\n\"}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantOut    string // in stdout or stderr
		wantStderr string
	}{
		{"default is 1.37: Required value per index", []string{"validate", "--crd", crdFile, objFile}, 1,
			"metadata.ownerReferences[0].uid: Required value: must not be empty", ""},
		{"1.37 explicitly", []string{"validate", "--kube-version", "1.37", "--crd", crdFile, objFile}, 1,
			"metadata.ownerReferences[0].uid: Required value: must not be empty", ""},
		{"1.36: Invalid value at the list's path", []string{"validate", "--kube-version", "1.36", "--crd", crdFile, objFile}, 1,
			`metadata.ownerReferences.uid: Invalid value: "": must not be empty`, ""},
		{"unsupported release is a usage error naming the supported ones", []string{"validate", "--kube-version", "1.29", "--crd", crdFile, objFile}, 2,
			"", `unsupported Kubernetes version "1.29" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)`},
		{"malformed release", []string{"lint", "--kube-version", "latest", crdFile}, 2,
			"", `invalid Kubernetes version "latest"`},
		{"several releases: one verdict per release", []string{"lint", "--kube-version", "1.36-1.37", crdFile}, 0,
			"1.36–1.37: customresourcedefinition.apiextensions.k8s.io/widgets.example.com created", ""},
		{"lint at 1.36", []string{"lint", "--kube-version", "1.36", crdFile}, 0, "", ""},
		{"a suite's kubeVersion is its release", []string{"test", "testdata/matrix-suite"}, 0, "PASS: 1 passed", ""},
		{"test --kube-version overrides the suite's", []string{"test", "--kube-version", "1.37", "testdata/matrix-suite"}, 1, "Checked value must be of type integer with format int32", ""},
		{"test matrix: releases grouped by identical results", []string{"test", "--kube-version", "1.35-1.37", "testdata/matrix-suite"}, 1,
			"1.35: --- PASS: replicas/onCreate/a replicas count past int32 is accepted\n      PASS: 1 passed, 0 failed\n1.36–1.37: --- FAIL", ""},
		{"test --junit takes one release", []string{"test", "--junit", "x.xml", "--kube-version", "1.35-1.37", "testdata/matrix-suite"}, 2, "", "--junit takes one release"},
		{"a suite's unsupported kubeVersion is a load error", []string{"test", filepath.Join(badSuite, "bad.testsuite.yaml")}, 2, `kubeVersion: unsupported Kubernetes version "1.30" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, out, errOut)
			}
			// text verdicts are written to stderr, as kubectl does
			if !strings.Contains(out+errOut, tt.wantOut) {
				t.Errorf("output does not contain %q:\nstdout: %s\nstderr: %s", tt.wantOut, out, errOut)
			}
			if !strings.Contains(errOut, tt.wantStderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.wantStderr, errOut)
			}
		})
	}
}

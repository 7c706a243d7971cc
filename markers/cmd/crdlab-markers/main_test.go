package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestMarkers runs crdlab-markers on the test API package
// (../../testdata/api/v1: a valid rule, a rule that does not compile, a
// rule over the cost budget, an invalid pattern, an unknown format) and
// compares its output and exit status with the golden files.
func TestMarkers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		golden string // testdata/<golden>, the expected stdout
		stderr string // a substring of the expected stderr
	}{
		{name: "text", args: []string{"./testdata/api/v1"}, code: 1, golden: "text.golden"},
		{name: "json", args: []string{"-o", "json", "./testdata/api/v1"}, code: 1, golden: "json.golden"},
		{name: "no packages", args: nil, code: 2, stderr: "give one or more Go packages"},
		{name: "bad output", args: []string{"-o", "yaml", "./testdata/api/v1"}, code: 2, stderr: `-o "yaml": give text or json`},
		{name: "bad release", args: []string{"--kube-version", "2.0", "./testdata/api/v1"}, code: 2, stderr: `--kube-version "2.0"`},
		{name: "missing package", args: []string{"./testdata/nosuch"}, code: 2, stderr: "loading ./testdata/nosuch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir("../..") // the paths in the output are relative to the module's root
			var stdout, stderr bytes.Buffer
			code := run(tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			if tc.stderr != "" && !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tc.stderr)
			}
			if tc.golden == "" {
				return
			}
			path := filepath.Join("cmd", "crdlab-markers", "testdata", tc.golden)
			if *update {
				if err := os.WriteFile(path, stdout.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := stdout.String(); got != string(want) {
				t.Errorf("output differs from %s (go test -update rewrites it):\n%s", path, got)
			}
		})
	}
}

// TestMarkerErrorsArePlaced checks two packages: a rule on a field of
// an inlined embedded struct is reported on that field's marker
// (testdata/api/embedded), and a marker that does not parse at its line,
// as controller-gen reports it (testdata/api/badmarker).
func TestMarkerErrorsArePlaced(t *testing.T) {
	t.Chdir("../..")
	for _, tc := range []struct {
		pkg, at, want string
	}{
		{"./testdata/api/embedded", "testdata/api/embedded/thing.go:8:", "spec.validation.openAPIV3Schema.properties[spec].properties[label].x-kubernetes-validations[0].rule"},
		{"./testdata/api/badmarker", "testdata/api/badmarker/x.go:8:", `expected integer, got "\"x"`},
	} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{tc.pkg}, &stdout, &stderr); code != 1 {
			t.Fatalf("%s: exit %d, want 1; stderr: %s", tc.pkg, code, stderr.String())
		}
		found := false
		for _, l := range strings.Split(stdout.String(), "\n") {
			if strings.HasPrefix(l, tc.at) && strings.Contains(l, tc.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no error at %s with %q; got:\n%s", tc.pkg, tc.at, tc.want, stdout.String())
		}
	}
}

// TestDocsShowTheTextOutput: docs/editors.md's sample output is the
// text golden file, so that the page cannot go stale.
func TestDocsShowTheTextOutput(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/editors.md")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/text.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, golden) {
		t.Errorf("docs/editors.md's Kubebuilder markers section does not show testdata/text.golden: copy it there")
	}
}

// TestGeneratedCRDsAreControllerGens pins the CRDs generated from
// ../../testdata/api/v1 (testdata/crds/, controller-gen's file names):
// what `controller-gen crd paths=./testdata/api/v1` writes, and the
// CRDs of conformance/testdata/cases/30_markers.yaml, where upstream's
// verdict on them is compared with crdlab's.
func TestGeneratedCRDsAreControllerGens(t *testing.T) {
	t.Chdir("../..")
	res, err := check([]string{"./testdata/api/v1"}, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("cmd", "crdlab-markers", "testdata", "crds")
	if *update {
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range res.files {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(res.files) || len(entries) != 3 {
		t.Errorf("%d files in %s, %d generated, want 3", len(entries), dir, len(res.files))
	}
	for _, e := range entries {
		want, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.files[e.Name()]; !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generated CRD (go test -update rewrites it):\n%s", e.Name(), got)
		}
	}
}

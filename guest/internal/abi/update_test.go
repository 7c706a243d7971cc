package abi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
)

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLintAndCompileWithOldCRD: "lint" and "compile" with oldCrd answer
// json.Marshal of engine.CompileUpdate's report, and the handle validates
// with the new CRD's validators.
func TestLintAndCompileWithOldCRD(t *testing.T) {
	old := readTestFile(t, "examples/crd-update/old.yaml")
	tests := []struct {
		name, newCRD   string
		storedVersions []string
		errors         int
	}{
		{"rejected", "examples/crd-update/new-v2.yaml", nil, 4},
		{"stored v2", "examples/crd-update/new-v2.yaml", []string{"v2"}, 3},
		{"compatible", "examples/crd-update/new-v1.yaml", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newCRD := readTestFile(t, tt.newCRD)
			c, err := engine.CompileUpdate([]byte(newCRD), []byte(old), engine.UpdateOptions{StoredVersions: tt.storedVersions})
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Errors()) != tt.errors {
				t.Fatalf("native: %d errors, want %d: %v", len(c.Errors()), tt.errors, c.Errors())
			}
			want, _ := json.Marshal(wire.LintResult{CRD: engine.NewReport(c, nil).CRD})
			s := NewServer()
			env := call(t, s, request(t, map[string]interface{}{"op": "lint", "crd": newCRD, "oldCrd": old, "storedVersions": tt.storedVersions}))
			if !env.OK || string(env.Result) != string(want) {
				t.Fatalf("lint with oldCrd:\n got %s %v\nwant %s", env.Result, env.Error, want)
			}
			env = call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": newCRD, "oldCrd": old, "storedVersions": tt.storedVersions}))
			var cr wire.CompileResult
			if err := json.Unmarshal(env.Result, &cr); err != nil {
				t.Fatal(err)
			}
			wantCRD, _ := json.Marshal(engine.NewReport(c, nil).CRD)
			gotCRD, _ := json.Marshal(cr.CRD)
			if string(gotCRD) != string(wantCRD) || strings.Join(cr.Versions, ",") != strings.Join(c.ServedVersions(), ",") {
				t.Fatalf("compile with oldCrd: %s, want crd %s versions %v", env.Result, wantCRD, c.ServedVersions())
			}
			if tt.errors > 0 {
				return
			}
			// The updated CRD serves v2 (the old one did not).
			obj := `{"apiVersion":"example.com/v2","kind":"Widget","metadata":{"name":"a","namespace":"default"},"spec":{}}`
			res, err := c.Validate([]byte(obj), engine.ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, _ = json.Marshal(engine.NewReport(c, res))
			env = call(t, s, request(t, map[string]interface{}{"op": "validate", "handle": cr.Handle, "object": obj}))
			if string(env.Result) != string(want) {
				t.Fatalf("validate after the update:\n got %s %v\nwant %s", env.Result, env.Error, want)
			}
		})
	}
}

func TestOldCRDErrors(t *testing.T) {
	old := readTestFile(t, "examples/crd-update/old.yaml")
	newCRD := readTestFile(t, "examples/crd-update/new-v1.yaml")
	tests := []struct {
		name string
		req  map[string]interface{}
		code wire.ErrorCode
		msg  string
	}{
		{"old CRD does not decode", map[string]interface{}{"op": "lint", "crd": newCRD, "oldCrd": "a: [b"}, wire.CodeDecodeError, "old CRD"},
		{"two old CRDs", map[string]interface{}{"op": "compile", "crd": newCRD, "oldCrd": old + "\n---\n" + old}, wire.CodeDecodeError, "old CRD: expected exactly one CustomResourceDefinition, found 2"},
		{"new CRD has an unknown field", map[string]interface{}{"op": "lint", "crd": strings.Replace(newCRD, "scope:", "bogus: 1\n  scope:", 1), "oldCrd": old}, wire.CodeDecodeError, `unknown field "spec.bogus"`},
		{"lenient decoding", map[string]interface{}{"op": "lint", "crd": newCRD, "oldCrd": old, "crdFieldValidation": "Warn"}, wire.CodeBadRequest, "decodes both CRDs strictly"},
		{"storedVersions alone", map[string]interface{}{"op": "lint", "crd": newCRD, "storedVersions": []string{"v1"}}, wire.CodeBadRequest, `"storedVersions" needs "oldCrd"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := call(t, NewServer(), request(t, tt.req))
			if env.OK || env.Error.Code != tt.code || !strings.Contains(env.Error.Message, tt.msg) {
				t.Fatalf("got %s %+v, want %s containing %q", env.Result, env.Error, tt.code, tt.msg)
			}
		})
	}
}

// seconds matches the durations of a test report, which differ run to run.
var seconds = regexp.MustCompile(`"seconds":[0-9.e+-]+`)

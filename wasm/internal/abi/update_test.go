package abi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/conversion"
	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/upgrade"
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

// TestUpgrade: "upgrade" answers json.Marshal of upgrade.Check's report,
// the document `crdlab upgrade -o json` prints.
func TestUpgrade(t *testing.T) {
	old := readTestFile(t, "examples/upgrade/old.yaml")
	small := readTestFile(t, "examples/upgrade/small.yaml")
	big := readTestFile(t, "examples/upgrade/big.yaml")
	for _, newFile := range []string{"new.yaml", "new-drop-v1.yaml"} {
		for _, opts := range []upgrade.Options{{}, {StoredVersions: []string{"v2"}, FailOnBreaking: true}} {
			newCRD := readTestFile(t, "examples/upgrade/"+newFile)
			rep, err := upgrade.Check([]byte(old), []byte(newCRD), []upgrade.Object{{Source: "small.yaml", Data: []byte(small)}, {Source: "objects[1]", Data: []byte(big)}}, opts)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(rep)
			env := call(t, NewServer(), request(t, map[string]interface{}{"op": "upgrade", "oldCrd": old, "crd": newCRD,
				"objects": []string{small, big}, "sources": []string{"small.yaml"}, "storedVersions": opts.StoredVersions, "failOnBreaking": opts.FailOnBreaking}))
			if !env.OK || string(env.Result) != string(want) {
				t.Fatalf("%s %+v:\n got %s %v\nwant %s", newFile, opts, env.Result, env.Error, want)
			}
		}
	}
	env := call(t, NewServer(), request(t, map[string]interface{}{"op": "upgrade", "oldCrd": "a: [b", "crd": old}))
	if env.OK || env.Error.Code != wire.CodeDecodeError || !strings.HasPrefix(env.Error.Message, "old CRD: ") {
		t.Fatalf("bad old CRD: %+v", env.Error)
	}
	env = call(t, NewServer(), request(t, map[string]interface{}{"op": "upgrade", "oldCrd": old, "crd": old, "sources": []string{"a"}}))
	if env.OK || env.Error.Code != wire.CodeBadRequest {
		t.Fatalf("more sources than objects: %+v", env.Error)
	}
}

// seconds matches the durations of a test report, which differ run to run.
var seconds = regexp.MustCompile(`"seconds":[0-9.e+-]+`)

// TestTestOp: "test" over files in memory answers what `crdlab test -o
// json` prints for the same files on disk (durations aside).
func TestTestOp(t *testing.T) {
	root := filepath.Join("..", "..", "..", "crdtest")
	files := map[string]string{}
	for _, f := range []string{"testdata/widgets/widgets-crd.yaml", "testdata/widgets/widgets.testsuite.yaml", "testdata/widgets/widgets.crdtest.yaml", "testdata/failing/failing.testsuite.yaml"} {
		files[f] = readTestFile(t, filepath.Join("crdtest", f))
	}
	tests := []struct {
		name  string
		paths []string
		run   string
	}{
		{"everything", nil, ""},
		{"one directory", []string{"testdata/widgets"}, ""},
		{"run filter", []string{"testdata"}, "onUpdate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd, _ := os.Getwd()
			if err := os.Chdir(root); err != nil {
				t.Fatal(err)
			}
			paths := tt.paths
			if paths == nil {
				paths = []string{"testdata"}
			}
			opts := crdtest.Options{}
			if tt.run != "" {
				opts.Run = regexp.MustCompile(tt.run)
			}
			rep, err := crdtest.RunPaths(opts, paths...)
			os.Chdir(wd)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(rep.Wire())
			env := call(t, NewServer(), request(t, map[string]interface{}{"op": "test", "files": files, "paths": tt.paths, "run": tt.run}))
			if !env.OK {
				t.Fatalf("test: %+v", env.Error)
			}
			got := seconds.ReplaceAllString(string(env.Result), `"seconds":0`)
			if w := seconds.ReplaceAllString(string(want), `"seconds":0`); got != w {
				t.Fatalf("test:\n got %s\nwant %s", got, w)
			}
			var tr wire.TestReport
			json.Unmarshal(env.Result, &tr)
			if tr.Passed == 0 || (tt.name == "everything" && tr.Failed == 0) {
				t.Fatalf("a run with %d passed and %d failed cases tests nothing", tr.Passed, tr.Failed)
			}
		})
	}
}

func TestTestOpErrors(t *testing.T) {
	suite := "name: S\ncrd: missing.yaml\ntests:\n  onCreate:\n  - name: c\n    initial: 'kind: X'\n"
	tests := []struct {
		name string
		req  map[string]interface{}
		code wire.ErrorCode
		msg  string
	}{
		{"no files", map[string]interface{}{"op": "test"}, wire.CodeBadRequest, `needs "files"`},
		{"bad regexp", map[string]interface{}{"op": "test", "files": map[string]string{"a.testsuite.yaml": suite}, "run": "("}, wire.CodeBadRequest, `"run": error parsing regexp`},
		{"path outside the tree", map[string]interface{}{"op": "test", "files": map[string]string{"../a.testsuite.yaml": suite}}, wire.CodeInvalid, `want a relative slash-separated path`},
		{"missing path", map[string]interface{}{"op": "test", "files": map[string]string{"a.testsuite.yaml": suite}, "paths": []string{"b"}}, wire.CodeInvalid, `b: file does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := call(t, NewServer(), request(t, tt.req))
			if env.OK || env.Error.Code != tt.code || !strings.Contains(env.Error.Message, tt.msg) {
				t.Fatalf("got %s %+v, want %s containing %q", env.Result, env.Error, tt.code, tt.msg)
			}
		})
	}
	// A suite whose CRD is missing is a load error of the report, as on disk.
	env := call(t, NewServer(), request(t, map[string]interface{}{"op": "test", "files": map[string]string{"a.testsuite.yaml": suite}}))
	var tr wire.TestReport
	if err := json.Unmarshal(env.Result, &tr); err != nil || len(tr.LoadErrors) != 1 || !strings.Contains(tr.LoadErrors[0].Error, `crd "missing.yaml": no such CRD file`) {
		t.Fatalf("missing CRD: %s %+v", env.Result, env.Error)
	}
}

// TestConversionReviewIsConversionCheck: "conversionReview" answers
// json.Marshal of conversion.Check on the same bytes, accepted or rejected;
// inputs that cannot be checked are a DecodeError with its message, a
// request without a review a BadRequest.
func TestConversionReviewIsConversionCheck(t *testing.T) {
	crdText := readTestFile(t, "examples/conversion/crd.yaml")
	review := readTestFile(t, "examples/conversion/request.json")
	s := NewServer()
	for _, resp := range []string{"response.json", "response-bad-label.json", "response-invalid-object.json", "response-no-namespace.json", "response-wrong-version.json"} {
		t.Run(resp, func(t *testing.T) {
			response := readTestFile(t, "examples/conversion/"+resp)
			res, err := conversion.Check([]byte(crdText), []byte(review), []byte(response), conversion.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(res)
			env := call(t, s, request(t, map[string]interface{}{"op": "conversionReview", "crd": crdText, "review": review, "reviewResponse": response}))
			if !env.OK || string(env.Result) != string(want) {
				t.Fatalf("conversionReview:\n got %s %v\nwant %s", env.Result, env.Error, want)
			}
		})
	}
	t.Run("list option", func(t *testing.T) {
		response := readTestFile(t, "examples/conversion/response-wrong-version.json")
		res, err := conversion.Check([]byte(crdText), []byte(review), []byte(response), conversion.Options{List: true, ListAPIVersion: "stable.example.com/v1"})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(res)
		env := call(t, s, request(t, map[string]interface{}{"op": "conversionReview", "crd": crdText, "review": review, "reviewResponse": response, "list": true, "listAPIVersion": "stable.example.com/v1"}))
		if !env.OK || string(env.Result) != string(want) || !res.List {
			t.Fatalf("conversionReview with list:\n got %s %v\nwant %s", env.Result, env.Error, want)
		}
	})
	t.Run("errors", func(t *testing.T) {
		_, nerr := conversion.Check([]byte(crdText), []byte(`{}`), []byte(`{}`), conversion.Options{})
		if nerr == nil {
			t.Fatal("native: an empty review is accepted")
		}
		env := call(t, s, request(t, map[string]interface{}{"op": "conversionReview", "crd": crdText, "review": `{}`}))
		if env.OK || env.Error.Code != wire.CodeDecodeError || env.Error.Message != nerr.Error() {
			t.Fatalf("empty review: got %+v, want DecodeError %q", env.Error, nerr)
		}
		env = call(t, s, request(t, map[string]interface{}{"op": "conversionReview", "crd": crdText}))
		if env.OK || env.Error.Code != wire.CodeBadRequest || !strings.Contains(env.Error.Message, `needs "review"`) {
			t.Fatalf("no review: got %+v, want BadRequest", env.Error)
		}
	})
}

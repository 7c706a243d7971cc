package crdtest

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestWidgetSuites(t *testing.T) {
	Run(t, "testdata/widgets")
}

// TestApplySuites runs the apply cases (tests.apply) of testdata/apply.
func TestApplySuites(t *testing.T) {
	rep, err := RunPaths(Options{}, "testdata/apply")
	if err != nil {
		t.Fatal(err)
	}
	if p, f := rep.Counts(); p != 4 || f != 0 || len(rep.LoadErrors) > 0 {
		t.Errorf("%d passed, %d failed, load errors %v: %+v", p, f, rep.LoadErrors, rep.Results)
	}
}

// TestFailures checks what failing cases report: file:line, the unified
// diff, the actual error, the expected error list.
func TestFailures(t *testing.T) {
	rep, err := RunPaths(Options{}, "testdata/failing")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range rep.Results {
		if r.Passed {
			t.Errorf("%s passed, want a failure", r.Name)
		}
		b.WriteString("--- " + r.Name + "\n" + filepath.ToSlash(r.File) + ":" + strconv.Itoa(r.Line) + ": " + r.Message + "\n")
	}
	golden := "testdata/failing/failing.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("failure messages differ from %s (go test -update to rewrite):\n%s", golden, unifiedDiff(string(want), b.String()))
	}
	if p, f := rep.Counts(); p != 0 || f != 15 {
		t.Errorf("counts = %d passed, %d failed; want 0, 15", p, f)
	}
}

func TestRunFilterAndLoadErrors(t *testing.T) {
	rep, err := RunPaths(Options{Run: regexp.MustCompile(`onUpdate/.*ratchet`)}, "testdata/widgets")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || !rep.Results[0].Passed {
		t.Errorf("-run selected %+v, want the one ratcheting case, passed", rep.Results)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.testsuite.yaml")
	os.WriteFile(bad, []byte("name: x\ncrd: missing.yaml\ntests:\n  onCreate: []\n"), 0o644)
	rep, err = RunPaths(Options{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.LoadErrors) != 1 || !strings.Contains(rep.LoadErrors[0].Err, `crd "missing.yaml"`) || rep.OK() {
		t.Errorf("load errors = %+v", rep.LoadErrors)
	}
	if _, err := RunPaths(Options{}, filepath.Join(dir, "nope")); err == nil {
		t.Error("a missing path is not an error")
	}
}

func TestParseSuiteErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"- a\n", "a suite file is a mapping"},
		{"tests:\n  sequences:\n  - name: s\n    steps: []\n", "has no steps"},
		{"tests:\n  sequences:\n  - name: s\n    steps:\n    - create: x\n      update: y\n", "f.yaml:5: a step has exactly one of"},
		{"tests:\n  sequences:\n  - name: s\n    steps:\n    - update: x\n", "must create its object"},
		{"tests: [\n", "f.yaml"},
		{"tests:\n  apply:\n  - name: a\n    steps: []\n", `f.yaml:3: apply case "a" has no steps`},
		{"tests:\n  apply:\n  - name: a\n    steps:\n    - operation: Apply\n      object: '{}'\n", `f.yaml:5: apply case "a", step 1: an Apply needs a manager`},
		{"tests:\n  apply:\n  - name: a\n    steps:\n    - operation: Patch\n", `f.yaml:5: apply case "a", step 1: operation "Patch": want Apply, Update or Delete`},
		{"tests:\n  apply:\n  - name: a\n    steps:\n    - {operation: Delete, expectedConflict: x, expectedError: y}\n", "exclude each other"},
	} {
		_, err := ParseSuite("f.yaml", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSuite(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
	// A repeated key keeps its last value, as OpenShift's YAML decoding does.
	s, err := ParseSuite("f.yaml", []byte("tests:\n  onCreate:\n  - name: a\n  onCreate:\n  - name: b\n"))
	if err != nil || len(s.Tests.OnCreate) != 1 || s.Tests.OnCreate[0].Name != "b" || s.Tests.OnCreate[0].Line != 5 {
		t.Errorf("duplicate keys: %+v, %v", s, err)
	}
}

func TestJSONPatch(t *testing.T) {
	for _, tc := range []struct {
		doc, patch, want, err string
	}{
		{`{"a":{"b":1}}`, `[{"op":"replace","path":"/a/b","value":2}]`, `{"a":{"b":2}}`, ""},
		{`{"a":[1,3]}`, `[{"op":"add","path":"/a/1","value":2}]`, `{"a":[1,2,3]}`, ""},
		{`{"a":[1]}`, `[{"op":"add","path":"/a/-","value":2}]`, `{"a":[1,2]}`, ""},
		{`{"a":[1,2]}`, `[{"op":"remove","path":"/a/0"}]`, `{"a":[2]}`, ""},
		{`[1,2]`, `[{"op":"remove","path":"/0"}]`, `[2]`, ""},
		{`{"a":1}`, `[{"op":"move","from":"/a","path":"/b"}]`, `{"b":1}`, ""},
		{`{"a":{"x":1}}`, `[{"op":"copy","from":"/a","path":"/b"}]`, `{"a":{"x":1},"b":{"x":1}}`, ""},
		{`{"a/b":1,"c~d":2}`, `[{"op":"remove","path":"/a~1b"},{"op":"test","path":"/c~0d","value":2}]`, `{"c~d":2}`, ""},
		{`{"a":1}`, `[{"op":"replace","path":"/b","value":2}]`, "", `no member "b"`},
		{`{"a":1}`, `[{"op":"test","path":"/a","value":2}]`, "", "test failed"},
		{`{"a":1}`, `[{"op":"frob","path":"/a"}]`, "", "unknown op"},
		{`{"a":[1]}`, `[{"op":"add","path":"/a/5","value":2}]`, "", "out of range"},
		{`{"a":1}`, `[{"op":"add","path":"a","value":2}]`, "", "must start with /"},
	} {
		var doc interface{}
		var patches []Patch
		mustUnmarshal(t, tc.doc, &doc)
		mustUnmarshal(t, tc.patch, &patches)
		got, err := applyPatch(doc, patches)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err = %v, want %q", tc.patch, err, tc.err)
			}
			continue
		}
		if err != nil || string(mustJSON(got)) != tc.want {
			t.Errorf("%s on %s = %s, %v; want %s", tc.patch, tc.doc, mustJSON(got), err, tc.want)
		}
	}
}

func TestUnifiedDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\n"
	b := "a\nb\nc\nD\ne\nf\ng\nh\n"
	want := "@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n"
	if got := unifiedDiff(a, b); got != want {
		t.Errorf("unifiedDiff =\n%s\nwant\n%s", got, want)
	}
}

func TestStarterSuite(t *testing.T) {
	for _, crd := range []string{"../examples/crontab-crd.yaml", "testdata/widgets/widgets-crd.yaml"} {
		checkStarter(t, crd)
	}
}

// checkStarter writes the starter suite of a CRD next to a copy of it and
// runs it: it must pass.
func checkStarter(t *testing.T, crdPath string) {
	t.Helper()
	data, err := os.ReadFile(crdPath)
	if err != nil {
		t.Fatal(err)
	}
	suite, err := StarterSuite(data, crdPath)
	if err != nil {
		t.Fatalf("%s: %v", crdPath, err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, filepath.Base(crdPath)), data, 0o644)
	os.WriteFile(filepath.Join(dir, "starter.testsuite.yaml"), suite, 0o644)
	rep, err := RunPaths(Options{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || len(rep.Results) == 0 {
		t.Errorf("%s: the starter suite does not pass: %+v\n%s", crdPath, rep, suite)
	}
}

func mustUnmarshal(t *testing.T, s string, v interface{}) {
	t.Helper()
	if err := jsonUnmarshal([]byte(s), v); err != nil {
		t.Fatal(err)
	}
}

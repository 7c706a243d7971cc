package inputs

import (
	"errors"
	"fmt"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/wire"
)

// gatewayModule returns the Gateway API module directory of the corpus
// (scripts/corpus.sh), or skips.
func gatewayModule(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short")
	}
	out, err := exec.Command("../../../scripts/corpus.sh").Output()
	if err != nil {
		testenv.Unavailable(t, "corpus: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		if strings.Contains(d, "/sigs.k8s.io/gateway-api@") {
			return d
		}
	}
	testenv.Unavailable(t, "gateway-api is not in the corpus")
	return ""
}

// TestGatewayAPIExamples is the done-when: the examples directory,
// with the experimental CRDs given as a directory, validates every Gateway
// API object against its own CRD and skips the rest (Services,
// Deployments, ...) with a reason.
func TestGatewayAPIExamples(t *testing.T) {
	mod := gatewayModule(t)
	r := &Reader{Recursive: true}
	cat, docs, err := r.load([]string{filepath.Join(mod, "config", "crd", "experimental")}, []string{filepath.Join(mod, "examples")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if cat.size() < 8 {
		t.Fatalf("%d CRDs in the catalogue", cat.size())
	}
	rep := cat.run(docs, Options{})
	if Failed(rep) {
		for _, e := range rep.Results {
			if e.Status != wire.StatusValid && e.Status != wire.StatusSkipped {
				t.Errorf("%s:%d %s %s: %s %s %v", e.File, e.Line, e.Kind, e.Name, e.Status, e.Reason+e.DecodeError, e.Errors)
			}
		}
	}
	s := rep.Summary
	if s.Valid < 50 || s.Skipped == 0 || s.Total != s.Valid+s.Skipped {
		t.Errorf("summary %+v", s)
	}
	for _, e := range rep.Results {
		gw := strings.HasPrefix(e.APIVersion, "gateway.networking.")
		if gw != (e.Status == wire.StatusValid) {
			t.Errorf("%s:%d %s %s: %s (%s)", e.File, e.Line, e.APIVersion, e.Kind, e.Status, e.Reason)
		}
		if e.Status == wire.StatusSkipped && !strings.Contains(e.Reason, "built-in kind") {
			t.Errorf("%s:%d %s: reason %q", e.File, e.Line, e.Kind, e.Reason)
		}
	}
	// Deterministic order whatever the parallelism.
	one := cat.run(docs, Options{Jobs: 1})
	for i := range one.Results {
		if one.Results[i].File != rep.Results[i].File || one.Results[i].Line != rep.Results[i].Line || one.Results[i].Status != rep.Results[i].Status {
			t.Fatalf("entry %d differs between -j1 and -j%d", i, 0)
		}
	}
}

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
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
              size: {type: integer, maximum: 10}
`

// TestMixedDirectory: CRDs found among the inputs are used and linted;
// objects find their CRD; documents carry file, index and line.
func TestMixedDirectory(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a-crd.yaml", widgetCRD)
	write(t, dir, "b-objects.yaml", `# comment
apiVersion: example.com/v1
kind: Widget
metadata: {name: ok, namespace: ns}
spec: {size: 1}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: big}
spec: {size: 11}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
---
apiVersion: example.com/v2
kind: Widget
metadata: {name: v2}
---
apiVersion: other.example.com/v1
kind: Gadget
metadata: {name: g}
`)
	write(t, dir, "c-list.json", `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"in-list"},"spec":{"size":2}}]}`)
	write(t, dir, "sub/ignored.yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: sub}\n")
	cat, docs, err := (&Reader{}).load(nil, []string{dir}, 0)
	if err != nil {
		t.Fatal(err)
	}
	rep := cat.run(docs, Options{})
	type row struct {
		file          string
		doc, line     int
		name, status  string
		reasonOrError string
	}
	want := []row{
		{"a-crd.yaml", 0, 1, "widgets.example.com", "valid", ""},
		{"b-objects.yaml", 0, 2, "ok", "valid", ""},
		{"b-objects.yaml", 1, 7, "big", "invalid", "spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10"},
		{"b-objects.yaml", 2, 12, "cm", "skipped", "v1 ConfigMap is a built-in kind: no CustomResourceDefinition to validate it against"},
		{"b-objects.yaml", 3, 16, "v2", "skipped", "CustomResourceDefinition widgets.example.com does not serve version v2 (served: v1)"},
		{"b-objects.yaml", 4, 20, "g", "skipped", "no CustomResourceDefinition for other.example.com/v1 Gadget in the catalogue"},
		{"c-list.json", 0, 1, "in-list", "valid", ""},
	}
	if len(rep.Results) != len(want) {
		t.Fatalf("%d results, want %d: %+v", len(rep.Results), len(want), rep.Results)
	}
	for i, w := range want {
		e := rep.Results[i]
		got := row{filepath.Base(e.File), e.Document, e.Line, e.Name, string(e.Status), e.Reason}
		if len(e.Errors) > 0 {
			got.reasonOrError = e.Errors[0].Message
			// The field's position in the file: "spec: {size: 11}" on line 10.
			if l, c := e.Errors[0].Line, e.Errors[0].Column; l != 10 || c != 8 {
				t.Errorf("%d: error at %d:%d, want the field's 10:8", i, l, c)
			}
		}
		if got != w {
			t.Errorf("%d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	if rep.Results[6].Item == nil || *rep.Results[6].Item != 0 {
		t.Errorf("list item index: %v", rep.Results[6].Item)
	}
	if s := rep.Summary; s != (wire.RunSummary{Files: 3, Total: 7, Valid: 3, Invalid: 1, Skipped: 3}) {
		t.Errorf("summary %+v", s)
	}
	// Recursive reads sub/.
	_, docs, err = (&Reader{Recursive: true}).load(nil, []string{dir}, 0)
	if err != nil || len(docs) != 8 {
		t.Errorf("recursive: %d docs, %v", len(docs), err)
	}
	// --missing-crds=error.
	rep = cat.run(docs, Options{MissingCRDs: MissingError, Jobs: 3})
	if rep.Summary.Errors != 3 || !Failed(rep) {
		t.Errorf("missing=error: %+v", rep.Summary)
	}
}

// TestInputErrors: malformed input in any role is an *InputError at
// file:line.
func TestInputErrors(t *testing.T) {
	dir := t.TempDir()
	good := write(t, dir, "crd.yaml", widgetCRD)
	obj := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\n"
	for _, tc := range []struct {
		name      string
		crd, text string
		inCRD     bool
		want      string
	}{
		{"object yaml", "", obj + "---\napiVersion: v1\nkind: [\n", false, "bad.yaml:6: yaml: "},
		{"object separator", "", obj + "--- x\n", false, "bad.yaml:4: invalid Yaml document separator: x"},
		{"object json", "", `{"apiVersion": "v1",`, false, "bad.yaml:1: "},
		{"crd yaml", "", "a: b\nc: [\n", true, "bad.yaml:2: yaml: "},
		{"crd decode", "", strings.Replace(widgetCRD, "scope: Namespaced", "scope: 3", 1), true, "bad.yaml:8:10: spec.scope: expected string, got number 3"},
		{"crd among objects", "", obj + "---\n" + strings.Replace(widgetCRD, "served: true", "served: maybe", 1), false, "bad.yaml:15:13: spec.versions[0].served: expected boolean, got string \"maybe\""},
		{"conflicting crds", good, strings.Replace(widgetCRD, "maximum: 10", "maximum: 11", 1), false, "bad.yaml:1: CustomResourceDefinition \"widgets.example.com\" is also defined, differently, at " + good + ":1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write(t, t.TempDir(), "bad.yaml", tc.text)
			crds, args := []string{}, []string{p}
			if tc.crd != "" {
				crds = []string{tc.crd}
			}
			if tc.inCRD {
				crds, args = []string{p}, nil
			}
			_, _, err := (&Reader{}).load(crds, args, 0)
			var ie *InputError
			if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), p[:len(p)-len("bad.yaml")]+tc.want) {
				t.Errorf("error %v, want prefix %s", err, tc.want)
			}
		})
	}
	if _, _, err := (&Reader{}).load(nil, []string{filepath.Join(dir, "nope.yaml")}, 0); err == nil || !strings.HasSuffix(err.Error(), "nope.yaml: no such file or directory") {
		t.Errorf("missing file: %v", err)
	}
	r := &Reader{Stdin: strings.NewReader(widgetCRD)}
	if _, _, err := r.load([]string{"-"}, []string{"-"}, 0); err == nil || err.Error() != "-: stdin can be read only once: it was already given as the CRD" {
		t.Errorf("stdin twice: %v", err)
	}
}

// TestStream: entries come in the documents' order (many more documents
// than the window of entries waiting), natively validated errors carry no
// rendered message until Message renders it, and an error of emit stops
// the run.
func TestStream(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a-crd.yaml", widgetCRD)
	var objs strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&objs, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w%d}\nspec: {size: %d}\n---\n", i, i%20)
	}
	write(t, dir, "b-objects.yaml", objs.String())
	cat, docs, err := (&Reader{}).load(nil, []string{dir}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := cat.run(docs, Options{Jobs: 1})
	var got []wire.RunEntry
	s, err := cat.streamDocs(docs, Options{Jobs: 3}, func(i int, r *Result) error {
		if i != len(got) {
			t.Fatalf("entry %d after %d entries", i, len(got))
		}
		for j := range r.Errors {
			if r.Errors[j].Message != "" {
				t.Errorf("%s: message rendered before it is written: %q", r.Name, r.Errors[j].Message)
			}
			if m := r.Message(j); !strings.HasPrefix(m, "spec.size: Invalid value: ") {
				t.Errorf("%s: Message(%d) = %q", r.Name, j, m)
			}
		}
		got = append(got, r.Rendered())
		return nil
	})
	if err != nil || s != want.Summary || s.Invalid != 90 {
		t.Fatalf("summary %+v, err %v; want %+v", s, err, want.Summary)
	}
	for i := range got {
		if fmt.Sprint(got[i]) != fmt.Sprint(want.Results[i]) {
			t.Errorf("%d:\n got %+v\nwant %+v", i, got[i], want.Results[i])
		}
	}
	stop := errors.New("stop")
	n := 0
	s, err = cat.streamDocs(docs, Options{Jobs: 2}, func(i int, r *Result) error {
		n++
		if i == 10 {
			return stop
		}
		return nil
	})
	if err != stop || n != 11 || s.Total != 11 {
		t.Errorf("stopped run: %d emitted, summary %+v, err %v", n, s, err)
	}

}

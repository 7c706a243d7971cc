package inputs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/wire"
)

// scanRun validates inputs the streaming way (Scan, then StreamInputs
// after the CRDs found are added) and returns the entries and the error.
func scanRun(t *testing.T, r *Reader, args []string, opts Options, compiler Compiler) ([]wire.RunEntry, wire.RunSummary, error) {
	t.Helper()
	in, err := r.Scan(args, "objects")
	if err != nil {
		return nil, wire.RunSummary{}, err
	}
	cat := New()
	cat.Compiler = compiler
	if err := cat.AddAll(in.CRDs(), 0); err != nil {
		return nil, wire.RunSummary{}, err
	}
	var got []wire.RunEntry
	s, err := cat.StreamInputs(nil, in, opts, func(i int, d *Document, res *Result) error {
		if i != len(got) {
			t.Fatalf("entry %d after %d", i, len(got))
		}
		if d.File != res.File || d.Index != res.Document || d.Line != res.Line {
			t.Errorf("%d: document %s:%d #%d given with entry %s:%d #%d", i, d.File, d.Line, d.Index, res.File, res.Line, res.Document)
		}
		got = append(got, res.Rendered())
		return nil
	})
	return got, s, err
}

// TestScanMatchesRead: Scan and StreamInputs give the entries Read and
// Run give (documents, lines, identities, errors and their positions,
// stored objects), for documents of every shape: YAML and JSON, kind:
// List (YAML and JSON, empty), CRDs among the objects, a document whose
// text names List or CustomResourceDefinition without being one, escapes
// that spell a kind, case variants of apiVersion and kind, a document
// that is not an object, blank and comment-only documents.
func TestScanMatchesRead(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a-crd.yaml", widgetCRD)
	write(t, dir, "b.yaml", `# leading comment

apiVersion: example.com/v1
kind: Widget
metadata: {name: ok, namespace: ns}
spec: {size: 1}
---
---
# only a comment
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: big
  annotations: {note: "allowList: CustomResourceDefinitionish"}
spec:
  size: 11
  extra: true
---
apiVersion: v1
kind: List
items:
- apiVersion: example.com/v1
  kind: Widget
  metadata: {name: item0}
  spec: {size: 12}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm}
---
apiVersion: v1
kind: List
items: []
---
apiVersion: example.com/v1
kind: "Widg\x65t"
metadata: {name: escaped}
spec: {size: 13}
---
apiversion: example.com/v1
KIND: Widget
metadata: {name: folded}
---
- a
- b
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: dup, name: dup2}
spec: {size: 3, size: 14}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: 0x1F, namespace: [a]}
spec: {size: 1.5e3}
`)
	write(t, dir, "c.json", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"js"},"spec":{"size":15,"size":1}}`)
	write(t, dir, "d-list.json", `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"in-list"},"spec":{"size":20}}]}`)
	write(t, dir, "sub/e.yml", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: sub}\nspec: {size: 30}\n")
	for _, jobs := range []int{1, 3} {
		for _, results := range []bool{false, true} {
			// A Compiler set: another engine takes the bytes (Native
			// stands for it), objects are not parsed for the engine.
			compiler := Compiler(nil)
			if results {
				compiler = Native
			}
			opts := Options{Jobs: jobs, Results: results}
			r := &Reader{Recursive: true}
			cat, docs, err := r.load(nil, []string{dir}, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := cat.run(docs, opts)
			got, s, err := scanRun(t, &Reader{Recursive: true}, []string{dir}, opts, compiler)
			if err != nil {
				t.Fatal(err)
			}
			if s != want.Summary || s.Invalid < 4 {
				t.Errorf("summary %+v, want %+v", s, want.Summary)
			}
			if len(got) != len(want.Results) {
				t.Fatalf("%d entries, want %d", len(got), len(want.Results))
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], want.Results[i]) {
					t.Errorf("jobs %d, results %v, entry %d:\n got %+v\nwant %+v", jobs, results, i, got[i], want.Results[i])
				}
			}
		}
	}
}

// TestScanRepositories: the same over the repository's own examples and
// test data (every file read as an input).
func TestScanRepositories(t *testing.T) {
	for _, dir := range []string{"../../../examples", "../../../cmd/crdlab/testdata"} {
		if _, err := os.Stat(dir); err != nil {
			t.Skip(err)
		}
		r := &Reader{Recursive: true}
		files, err := r.Files(dir)
		if err != nil {
			t.Fatal(err)
		}
		compared := 0
		for _, f := range files {
			cat, docs, err := (&Reader{}).load(nil, []string{f}, 0)
			got, s, gerr := scanRun(t, &Reader{}, []string{f}, Options{Results: true}, nil)
			if err != nil || gerr != nil {
				// Both fail, with the same error.
				if fmt.Sprint(err) != fmt.Sprint(gerr) {
					t.Errorf("%s: error %v, Read's %v", f, gerr, err)
				}
				continue
			}
			want := cat.run(docs, Options{Results: true})
			if s != want.Summary || !reflect.DeepEqual(got, want.Results) && !(len(got) == 0 && len(want.Results) == 0) {
				t.Errorf("%s: entries differ:\n got %+v\nwant %+v", f, got, want.Results)
			}
			compared++
		}
		if compared < 10 {
			t.Errorf("%s: %d files compared", dir, compared)
		}
	}
}

// TestScanInputErrors: Scan reports what Read reports when it is of a file
// or of a CRD or List; a syntax error of another document is met by
// StreamInputs at that document (the entries before it emitted), and
// Check finds it up front. Either way the error is Read's, the first in
// order.
func TestScanInputErrors(t *testing.T) {
	obj := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\n"
	for _, tc := range []struct {
		name    string
		files   map[string]string
		inScan  bool // Scan fails (else StreamInputs)
		emitted int  // entries before the error
	}{
		{"separator", map[string]string{"a.yaml": obj + "--- x\n"}, true, 0},
		{"bad crd", map[string]string{"a.yaml": obj + "---\n" + strings.Replace(widgetCRD, "group: example.com", "group: [", 1)}, true, 0},
		{"bad list", map[string]string{"a.yaml": obj + "---\nkind: List\nitems: [\n"}, true, 0},
		{"object syntax", map[string]string{"a.yaml": widgetCRD + "---\n" + obj + "---\n" + obj + "---\nkind: [\n"}, false, 3},
		{"json syntax", map[string]string{"a-crd.yaml": widgetCRD, "b.json": `{"apiVersion": "v1",`}, false, 1},
		// An object's syntax error before a bad separator of a later
		// file: Read's first error is the syntax error.
		{"syntax before separator", map[string]string{"a-crd.yaml": widgetCRD, "b.yaml": "a: [\n", "c.yaml": obj + "--- x\n"}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tc.files {
				write(t, dir, name, text)
			}
			_, readErr := (&Reader{}).Read([]string{dir}, "objects")
			if readErr == nil {
				t.Fatal("Read accepts the input")
			}
			in, err := (&Reader{}).Scan([]string{dir}, "objects")
			if tc.inScan {
				if err == nil || err.Error() != readErr.Error() {
					t.Fatalf("Scan: %v, want %v", err, readErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Scan: %v", err)
			}
			if err := in.Check(); err == nil || err.Error() != readErr.Error() {
				t.Errorf("Check: %v, want %v", err, readErr)
			}
			cat := New()
			if err := cat.AddAll(in.CRDs(), 0); err != nil {
				t.Fatal(err)
			}
			n := 0
			_, err = cat.StreamInputs(nil, in, Options{Jobs: 2}, func(int, *Document, *Result) error { n++; return nil })
			var ie *InputError
			if !errors.As(err, &ie) || err.Error() != readErr.Error() || n != tc.emitted {
				t.Errorf("StreamInputs: %d emitted, %v; want %d, %v", n, err, tc.emitted, readErr)
			}
		})
	}
	// stdin read by Scan is read again by Check.
	r := &Reader{Stdin: strings.NewReader(widgetCRD + "---\n" + "a: [\n")}
	in, err := r.Scan([]string{"-"}, "objects")
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Check(); err == nil || !strings.HasPrefix(err.Error(), "-:") {
		t.Errorf("stdin Check: %v", err)
	}
	if len(in.CRDs()) != 1 || in.Len() != 2 {
		t.Errorf("stdin: %d CRDs, %d documents", len(in.CRDs()), in.Len())
	}
}

// TestMayBeCRDOrList: the scan's filter never misses a document that is
// a CRD or a List; it lets most others through unparsed.
func TestMayBeCRDOrList(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want bool
	}{
		{"kind: List\n", true},
		{"kind: List", true},
		{`{"kind":"List"}`, true},
		{"kind: 'List' # c\n", true},
		{"kind: CustomResourceDefinition\n", true},
		{"kind: \"Li\\x73t\"\n", true},
		{`{"kind":"\u004cist"}`, true},
		{"kind: \"Cust\\\n  omResourceDefinition\"\n", true},
		{"kind: Widget\nspec: {allowedListeners: {}, allowList: []}\n", false},
		{"kind: Widget\nspec: {pattern: \"^\\\\d+$\", re: '\\s'}\n", false},
		{"kind: Widget\n", false},
	} {
		if got := mayBeCRDOrList([]byte(tc.doc)); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.doc, got, tc.want)
		}
	}
	// Every document Split finds to be a CRD or List passes the filter:
	// the examples and test data.
	for _, dir := range []string{"../../../examples", "../../../cmd/crdlab/testdata"} {
		files, _ := (&Reader{Recursive: true}).Files(dir)
		for _, f := range files {
			data, _ := os.ReadFile(f)
			chunks, err := chunksOf(f, data)
			if err != nil {
				continue
			}
			for _, c := range chunks {
				ds, isList, err := parseChunk(filepath.Base(f), 0, c)
				if err != nil || len(ds) == 0 {
					continue
				}
				if (isList || ds[0].IsCRD()) && !mayBeCRDOrList(c.Data) {
					t.Errorf("%s:%d: a CRD or List the filter misses", f, c.Line)
				}
			}
		}
	}
}

// TestScanMarksFilesHoldingTheMark: Scan notes whether any input file
// holds Reader.Mark (validate asks for ValidatingAdmissionPolicy, so a run
// without policies reads no file twice), and notes nothing without a Mark.
func TestScanMarksFilesHoldingTheMark(t *testing.T) {
	for _, tt := range []struct {
		name   string
		mark   string
		extra  string
		marked bool
	}{
		{name: "no mark", extra: "kind: ValidatingAdmissionPolicy\n"},
		{name: "mark absent", mark: "ValidatingAdmissionPolicy"},
		{name: "mark present", mark: "ValidatingAdmissionPolicy", extra: "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\n", marked: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := filepath.Join(t.TempDir(), "in")
			os.MkdirAll(d, 0o755)
			os.WriteFile(filepath.Join(d, "a.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), 0o644)
			if tt.extra != "" {
				os.WriteFile(filepath.Join(d, "b.yaml"), []byte(tt.extra), 0o644)
			}
			r := Reader{Mark: []byte(tt.mark)}
			in, err := r.Scan([]string{d}, "objects")
			if err != nil {
				t.Fatal(err)
			}
			if in.Marked() != tt.marked {
				t.Errorf("Marked() = %v, want %v", in.Marked(), tt.marked)
			}
		})
	}
}

// TestDirectoriesLeaveOutTheConfigFile: a directory's .crdlab.yaml is
// crdlab's configuration, not an input; named on the command line, it is
// read as any file.
func TestDirectoriesLeaveOutTheConfigFile(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		ConfigFile:          "kubeVersion: \"1.36\"\n",
		".golangci.yaml":    "run: {}\n",
		"crd.yaml":          "kind: CustomResourceDefinition\n",
		"sub/" + ConfigFile: "kubeVersion: \"1.35\"\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := (&Reader{Recursive: true}).Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, ".golangci.yaml"), filepath.Join(dir, "crd.yaml")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Files(dir) = %q, want %q", got, want)
	}
	named := filepath.Join(dir, ConfigFile)
	if got, err := (&Reader{}).Files(named); err != nil || !reflect.DeepEqual(got, []string{named}) {
		t.Errorf("Files(%s) = %q, %v", named, got, err)
	}
}

package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/wire"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// testKubeVersion is the release the reports name (not the default: the
// writers print what they are given).
const testKubeVersion = "1.36"

// run validates testdata/repo: a valid CRD and an invalid one, valid,
// invalid (field errors, CEL, a strict decoding error) and skipped objects,
// an object of the invalid CRD, a deprecation warning, a List item.
func run(t *testing.T) *wire.RunReport {
	return runInputs(t, nil, []string{"testdata/repo"})
}

// runInputs validates args (with the CRDs of crdArgs, as --crd) as crdlab
// validate does and returns the report with every message rendered.
func runInputs(t *testing.T, crdArgs, args []string) *wire.RunReport {
	t.Helper()
	cat, in := scan(t, crdArgs, args)
	rep := &wire.RunReport{KubeVersion: testKubeVersion}
	s, err := cat.StreamInputs(nil, in, inputs.Options{}, func(_ int, _ *inputs.Document, r *inputs.Result) error {
		rep.Results = append(rep.Results, r.Rendered())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rep.Summary = s
	return rep
}

// scan reads the inputs as crdlab validate does (inputs.Reader.Scan) and
// compiles their CRDs and those of crdArgs (--crd) into a catalogue.
func scan(t *testing.T, crdArgs, args []string) (*inputs.Catalog, *inputs.Inputs) {
	t.Helper()
	r := &inputs.Reader{}
	var defs []inputs.Document
	if len(crdArgs) > 0 {
		docs, err := r.Read(crdArgs, "CRD")
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if d.IsCRD() {
				defs = append(defs, d)
			}
		}
	}
	in, err := r.Scan(args, "objects")
	if err != nil {
		t.Fatal(err)
	}
	cat := inputs.New()
	if err := cat.AddAll(append(defs, in.CRDs()...), 2); err != nil {
		t.Fatal(err)
	}
	return cat, in
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (go test -update):\n%s", name, p, got)
	}
}

func TestFormats(t *testing.T) {
	rep := run(t)
	if s := rep.Summary; s != (wire.RunSummary{Files: 3, Total: 8, Valid: 3, Invalid: 3, Skipped: 1, Errors: 1}) && !*update {
		t.Errorf("summary %+v", s)
	}
	for _, format := range Formats {
		for _, summary := range []bool{false, true} {
			name := format
			if summary {
				name += "-summary"
			}
			t.Run(name, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if err := Write(strings.ToUpper(format), rep, &stdout, &stderr, Options{Summary: summary}); err != nil {
					t.Fatal(err)
				}
				out := stdout.Bytes()
				if format == "text" {
					out = append(append(out, "--- stderr\n"...), stderr.Bytes()...)
				} else if stderr.Len() > 0 {
					t.Errorf("stderr: %s", stderr.Bytes())
				}
				golden(t, name, out)
			})
		}
	}
	if err := Write("xml", rep, nil, nil, Options{}); err == nil {
		t.Error("unknown format accepted")
	}
}

// TestEscaping: GitHub workflow commands and TAP descriptions survive
// newlines, colons, commas and hashes in names and messages.
func TestEscaping(t *testing.T) {
	rep := &wire.RunReport{Results: []wire.RunEntry{{
		File: "dir,a:b.yaml", Line: 3, Kind: "K", Name: "n#1", Status: wire.StatusInvalid,
		Errors: []wire.LocatedError{{ErrorReport: wire.ErrorReport{Message: "50% wrong\nsecond line"}, Line: 4, Column: 2}},
	}}}
	var b bytes.Buffer
	if err := Write("github", rep, &b, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "::error file=dir%2Ca%3Ab.yaml,line=4,col=2,title=K n#1 is invalid::50%25 wrong%0Asecond line\n"; b.String() != want {
		t.Errorf("github:\n got %q\nwant %q", b.String(), want)
	}
	b.Reset()
	if err := Write("tap", rep, &b, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `not ok 1 - dir,a:b.yaml:3 K n\#1`) || !strings.Contains(b.String(), `  - "50% wrong\nsecond line"`) {
		t.Errorf("tap:\n%s", b.String())
	}
	b.Reset()
	var e bytes.Buffer
	if err := Write("text", rep, &b, &e, Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "dir,a:b.yaml:3: The K \"n#1\" is invalid: dir,a:b.yaml:4:2: 50% wrong\nsecond line\n"; e.String() != want {
		t.Errorf("text:\n got %q\nwant %q", e.String(), want)
	}
}

// stream writes the run over args (and crdArgs, as --crd) through
// inputs.StreamInputs and NewWriter, as the CLI does: the errors'
// messages are rendered only while written.
func stream(t *testing.T, crdArgs, args []string, format string, opts Options) (stdout, stderr []byte) {
	t.Helper()
	cat, in := scan(t, crdArgs, args)
	var o, e bytes.Buffer
	w, err := NewWriter(format, &o, &e, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Begin(in.Len()); err != nil {
		t.Fatal(err)
	}
	s, err := cat.StreamInputs(nil, in, inputs.Options{Jobs: 3}, func(_ int, _ *inputs.Document, r *inputs.Result) error { return w.Entry(r) })
	if err != nil {
		t.Fatal(err)
	}
	if err := w.End(s); err != nil {
		t.Fatal(err)
	}
	return o.Bytes(), e.Bytes()
}

// TestStreamGoldens: the streaming writers, given the catalogue's entries
// as they are validated (messages unrendered), write the goldens.
func TestStreamGoldens(t *testing.T) {
	if *update {
		t.Skip("-update")
	}
	for _, format := range Formats {
		for _, summary := range []bool{false, true} {
			name := format
			if summary {
				name += "-summary"
			}
			t.Run(name, func(t *testing.T) {
				out, errOut := stream(t, nil, []string{"testdata/repo"}, format, Options{Summary: summary, KubeVersion: testKubeVersion})
				if format == "text" {
					out = append(append(out, "--- stderr\n"...), errOut...)
				}
				golden(t, name, out)
			})
		}
	}
}

// TestStreamLargeErrors: an object with many errors whose messages are
// long (an enum's supported values, YAML folding them by column) and hold
// newlines and markup streams to the bytes of the whole report's
// marshalling (Write over Run's rendered entries), in every format.
func TestStreamLargeErrors(t *testing.T) {
	dir := t.TempDir()
	var enum strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&enum, "                  - \"value <%d> & a long, long text: with \\\"quotes\\\" and\\nnewlines\"\n", i)
	}
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.com
spec:
  group: example.com
  names: {kind: Thing, listKind: ThingList, plural: things, singular: thing}
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
            x-kubernetes-validations:
            - rule: "false"
              message: "a <message> & more"
            properties:
              l:
                type: array
                items:
                  type: string
                  enum:
` + enum.String()
	obj := "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec:\n  l: [a, b, c, d, e]\n---\napiVersion: example.com/v1\nkind: Thing\nmetadata: {name: ok}\nspec: {}\n"
	if err := os.WriteFile(filepath.Join(dir, "crd.yaml"), []byte(crd), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "objects.yaml"), []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	crdArgs, args := []string{filepath.Join(dir, "crd.yaml")}, []string{filepath.Join(dir, "objects.yaml")}
	rep := runInputs(t, crdArgs, args)
	if len(rep.Results) != 2 || len(rep.Results[0].Errors) != 6 || !strings.Contains(rep.Results[0].Errors[0].Message, "value <39>") {
		t.Fatalf("unexpected run: %+v", rep.Results)
	}
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var wantOut, wantErr bytes.Buffer
			if err := Write(format, rep, &wantOut, &wantErr, Options{Summary: true}); err != nil {
				t.Fatal(err)
			}
			if format == "json" || format == "yaml" {
				// The whole document, marshalled at once.
				var b []byte
				if format == "json" {
					b, _ = json.MarshalIndent(rep, "", "  ")
					b = append(b, '\n')
				} else {
					b, _ = yaml.Marshal(rep)
				}
				if !bytes.Equal(wantOut.Bytes(), b) {
					t.Errorf("Write differs from marshalling the report:\n%s\n----\n%s", wantOut.Bytes(), b)
				}
			}
			if format == "jsonl" {
				var b bytes.Buffer
				enc := json.NewEncoder(&b)
				for i := range rep.Results {
					enc.Encode(&rep.Results[i])
				}
				enc.Encode(map[string]interface{}{"kubeVersion": rep.KubeVersion, "summary": rep.Summary})
				if !bytes.Equal(wantOut.Bytes(), b.Bytes()) {
					t.Errorf("Write differs from json.Encoder:\n%s\n----\n%s", wantOut.Bytes(), b.Bytes())
				}
			}
			out, errOut := stream(t, crdArgs, args, format, Options{Summary: true, KubeVersion: testKubeVersion})
			if !bytes.Equal(out, wantOut.Bytes()) || !bytes.Equal(errOut, wantErr.Bytes()) {
				t.Errorf("stream differs:\n%s%s\n----\n%s%s", out, errOut, wantOut.Bytes(), wantErr.Bytes())
			}
		})
	}
}

// TestBuiltinOutcomes: every format renders the outcomes of built-in
// objects — valid, invalid (field errors), partial (checked against the
// API surface only) and kubectl's "resource mapping not found" — and
// --unmodelled fail (FailPartial) turns partial entries into failures
// where the format has them (junit, tap, github, text's stream).
func TestBuiltinOutcomes(t *testing.T) {
	cat, in := scan(t, nil, []string{"testdata/builtins"})
	rep := &wire.RunReport{}
	s, err := cat.StreamInputs(nil, in, inputs.Options{Builtins: &inputs.Builtins{}}, func(_ int, _ *inputs.Document, r *inputs.Result) error {
		rep.Results = append(rep.Results, r.Rendered())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rep.Summary = s
	if s != (wire.RunSummary{Files: 1, Total: 4, Valid: 1, Invalid: 2, Partial: 1}) {
		t.Errorf("summary %+v", s)
	}
	for _, format := range Formats {
		for _, fail := range []bool{false, true} {
			name := "builtins-" + format
			if fail {
				name += "-fail"
			}
			t.Run(name, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if err := Write(format, rep, &stdout, &stderr, Options{Summary: true, FailPartial: fail}); err != nil {
					t.Fatal(err)
				}
				out := append(append(stdout.Bytes(), "--- stderr\n"...), stderr.Bytes()...)
				golden(t, name, out)
			})
		}
	}
}

// TestEveryFormatNamesTheRelease: the release a run judged by is in every
// format's output (with --summary for text, jsonl and github, whose
// release is on the summary line), and nowhere when none is given.
func TestEveryFormatNamesTheRelease(t *testing.T) {
	rep := run(t)
	want := map[string]string{
		"text":   "Skipped: 1 - Kubernetes 1.36\n",
		"json":   "{\n  \"kubeVersion\": \"1.36\",\n  \"results\": [",
		"jsonl":  `{"kubeVersion":"1.36","summary":{`,
		"junit":  `<properties>` + "\n" + `      <property name="kubeVersion" value="1.36"></property>` + "\n" + `    </properties>`,
		"tap":    "TAP version 13\n1..8\n# Kubernetes 1.36\n",
		"github": "::notice title=crdlab::Summary: 8 resources found in 3 files - Valid: 3, Invalid: 3, Errors: 1, Skipped: 1 - Kubernetes 1.36\n",
		"yaml":   "kubeVersion: \"1.36\"\nresults:\n",
	}
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			w, ok := want[format]
			if !ok {
				t.Fatalf("no expectation for format %s", format)
			}
			var stdout, stderr bytes.Buffer
			if err := Write(format, rep, &stdout, &stderr, Options{Summary: true}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("%s output does not name the release (want %q):\n%s", format, w, stdout.String())
			}
			without := *rep
			without.KubeVersion = ""
			stdout.Reset()
			if err := Write(format, &without, &stdout, &stderr, Options{Summary: true}); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(stdout.String(), "1.36") {
				t.Errorf("%s output names a release it was not given:\n%s", format, stdout.String())
			}
		})
	}
}

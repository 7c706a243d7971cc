package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/catalog"
	"github.com/crdlab/crdlab/wire"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// run validates testdata/repo: a valid CRD and an invalid one, valid,
// invalid (field errors, CEL, a strict decoding error) and skipped objects,
// an object of the invalid CRD, a deprecation warning, a List item.
func run(t *testing.T) *wire.RunReport {
	t.Helper()
	cat, docs, err := (&catalog.Reader{}).Load(nil, []string{"testdata/repo"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	return cat.Run(docs, catalog.Options{})
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
	GitHub(&b, rep, Options{})
	if want := "::error file=dir%2Ca%3Ab.yaml,line=4,col=2,title=K n#1 is invalid::50%25 wrong%0Asecond line\n"; b.String() != want {
		t.Errorf("github:\n got %q\nwant %q", b.String(), want)
	}
	b.Reset()
	TAP(&b, rep, Options{})
	if !strings.Contains(b.String(), `not ok 1 - dir,a:b.yaml:3 K n\#1`) || !strings.Contains(b.String(), `  - "50% wrong\nsecond line"`) {
		t.Errorf("tap:\n%s", b.String())
	}
	b.Reset()
	var e bytes.Buffer
	Text(&b, &e, rep, Options{})
	if want := "dir,a:b.yaml:3: The K \"n#1\" is invalid: dir,a:b.yaml:4:2: 50% wrong\nsecond line\n"; e.String() != want {
		t.Errorf("text:\n got %q\nwant %q", e.String(), want)
	}
}

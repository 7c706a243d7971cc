package crdvalidation

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// render lists the errors ("E <err>") and warnings ("W <warning>") of a CRD
// file, one per line, as the differential harness prints upstream's.
func render(t *testing.T, data []byte, name string) string {
	t.Helper()
	return renderWith(data, name, Options{})
}

// renderWith is render with explicit options.
func renderWith(data []byte, name string, opts Options) string {
	crds, err := crd.Decode(data, name)
	if err != nil {
		return "decode: " + err.Error() + "\n"
	}
	var b strings.Builder
	for _, c := range crds {
		errs, warnings := ValidateCustomResourceDefinition(c, opts)
		for _, e := range errs {
			b.WriteString("E " + e.Error() + "\n")
		}
		for _, w := range warnings {
			b.WriteString("W " + w + "\n")
		}
	}
	return b.String()
}

// TestGoldenCases validates every testdata/cases/*.yaml and compares the
// rendered errors and warnings with the .golden file next to it. The golden
// files were checked against upstream kube-apiserver v0.37.2 code (strategy
// PrepareForCreate + Validate + WarningsOnCreate); two cases
// (schema_map_type, schema_list_set_non_atomic) list errors of sibling
// properties in sorted order where upstream's order is random.
func TestGoldenCases(t *testing.T) {
	RunGoldenCases(t, "testdata/cases", false, Options{})
}

// RunGoldenCases compares the cases of dir with their golden files: the
// cel_* cases when cel is true, the others otherwise.
func RunGoldenCases(t *testing.T, dir string, cel bool, opts Options) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		if strings.HasPrefix(name, "cel_") != cel {
			continue
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := renderWith(data, filepath.Base(f), opts)
			golden := strings.TrimSuffix(f, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("missing golden file (run with -update): %v", err)
			}
			if got != string(want) {
				t.Errorf("mismatch for %s\n--- got\n%s--- want\n%s", f, got, want)
			}
		})
	}
}

// TestGoldenValidCasesHaveNoErrors pins that the cases named valid_* or *_ok
// are accepted.
func TestGoldenValidCasesHaveNoErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*.yaml")
	for _, f := range files {
		base := filepath.Base(f)
		if !strings.HasPrefix(base, "valid_") && !strings.HasSuffix(base, "_ok.yaml") && !strings.HasSuffix(base, "_approved.yaml") {
			continue
		}
		data, _ := os.ReadFile(f)
		if got := render(t, data, base); strings.Contains(got, "E ") || strings.HasPrefix(got, "decode:") {
			t.Errorf("%s: want no errors, got\n%s", base, got)
		}
	}
}

// TestCorpus validates real-world CRDs: CRDLAB_CORPUS_DIRS is a
// colon-separated list of directories (bash scripts/corpus.sh prints them:
// CRDLAB_CORPUS_DIRS=$(bash ../../scripts/corpus.sh | paste -sd:)). Every apiextensions.k8s.io/v1 CRD document must decode and
// validate without errors (CEL is not checked here). Paths under test/,
// testdata/ and patches/ are skipped: they hold partial or deliberately
// invalid CRDs, which upstream rejects with the same errors (checked with
// the differential harness, see the package README in testdata).
func TestCorpus(t *testing.T) {
	dirs := os.Getenv("CRDLAB_CORPUS_DIRS")
	if dirs == "" {
		t.Skip("CRDLAB_CORPUS_DIRS is not set; set it to the directories printed by the repository's scripts/corpus.sh (colon-separated: $(bash ../../scripts/corpus.sh | paste -sd:))")
	}
	n := 0
	for _, dir := range strings.Split(dirs, ":") {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
				return nil
			}
			// test fixtures and kustomize patches hold partial or
			// deliberately invalid CRDs (upstream rejects them too).
			for _, skip := range []string{"/test/", "/testdata/", "/patches/"} {
				if strings.Contains(p, skip) {
					return nil
				}
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			for i, doc := range strings.Split("\n"+string(data), "\n---") {
				if !strings.Contains(doc, "\nkind: CustomResourceDefinition") || !strings.Contains(doc, "apiVersion: apiextensions.k8s.io/v1\n") || strings.Contains(doc, "{{") {
					continue
				}
				n++
				c, err := crd.DecodeOne([]byte(doc), p)
				if err != nil {
					t.Errorf("%s#%d: %v", p, i, err)
					continue
				}
				errs, _ := ValidateCustomResourceDefinition(c, Options{})
				for _, e := range errs {
					t.Errorf("%s#%d: %v", p, i, e)
				}
			}
			return nil
		})
	}
	if n == 0 {
		t.Fatal("no CRD documents found in CRDLAB_CORPUS_DIRS")
	}
	t.Logf("%d CRD documents validated", n)
}

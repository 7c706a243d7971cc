package crdtest

import (
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/testsupport/corpus"
)

// corpusCRDFiles returns the CRD files of the real-world corpus (the
// repository's scripts/corpus.sh, run offline; see internal/testsupport/corpus), or
// skips.
func corpusCRDFiles(t *testing.T) []string {
	dirs, err := corpus.Dirs(corpus.Options{})
	if err != nil {
		testenv.Unavailable(t, "corpus not available: %v", err)
	}
	crdKind := regexp.MustCompile(`(?m)^kind: CustomResourceDefinition\s*$`)
	var files []string
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil && crdKind.Match(b) {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	return files
}

// TestCorpusStarterSuites: the starter suite of every corpus CRD that the
// API server accepts runs green (a sample of one file in five by default;
// every file with CRDLAB_CORPUS=all).
func TestCorpusStarterSuites(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	files := corpusCRDFiles(t)
	ran, skipped := 0, 0
	for i, f := range files {
		if os.Getenv("CRDLAB_CORPUS") != "all" && i%5 != 0 {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := parseCRDs(f, data)
		if err != nil || len(docs) == 0 {
			skipped++ // a Helm template, or no CRD after all
			continue
		}
		if c, _, err := compileLenient(mustJSON(docs[0].doc), engine.CompileOptions{}); err != nil || len(c.Errors()) > 0 {
			skipped++ // not servable: apiextensions.k8s.io/v1beta1, a test assertion, rejected
			continue
		}
		suite, err := StarterSuite(data, f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644)
		os.WriteFile(filepath.Join(dir, "starter.testsuite.yaml"), suite, 0o644)
		rep, err := RunPaths(Options{}, dir)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK() || len(rep.Results) == 0 {
			for _, le := range rep.LoadErrors {
				t.Errorf("%s: %s", f, le.Err)
			}
			for _, r := range rep.Results {
				if !r.Passed {
					t.Errorf("%s: %s: %s", f, r.Name, r.Message)
				}
			}
		}
		ran++
	}
	t.Logf("%d starter suites ran green; %d corpus CRD files skipped (not servable); %d files in all", ran, skipped, len(files))
}

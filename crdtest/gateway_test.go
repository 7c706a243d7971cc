package crdtest

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestGatewayAPIExamplesSuite turns every Gateway API example object into a
// crdlab sequence (a create that must succeed, Strict field validation)
// and runs it against the experimental-channel CRDs given as --crd, the
// objects finding their CRD by apiVersion and kind.
func TestGatewayAPIExamplesSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	var mod string
	for _, d := range corpusCRDFiles(t) {
		if i := strings.Index(d, "/sigs.k8s.io/gateway-api@"); i >= 0 {
			mod = d[:i] + "/" + strings.SplitN(d[i+1:], "/", 3)[0] + "/" + strings.SplitN(d[i+1:], "/", 3)[1]
			break
		}
	}
	if mod == "" {
		testenv.Unavailable(t, "gateway-api is not in the corpus")
	}
	var examples []string
	filepath.WalkDir(filepath.Join(mod, "examples"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			examples = append(examples, p)
		}
		return nil
	})
	byKind := map[string]*strings.Builder{}
	var kinds []string
	n := 0
	for _, f := range examples {
		data, _ := os.ReadFile(f)
		for i, part := range splitYAML(data) {
			var m map[string]interface{}
			if yaml.Unmarshal(part.data, &m) != nil || m == nil {
				continue
			}
			apiVersion, _ := m["apiVersion"].(string)
			kind, _ := m["kind"].(string)
			if !strings.HasPrefix(apiVersion, "gateway.networking.k8s.io/") && !strings.HasPrefix(apiVersion, "gateway.networking.x-k8s.io/") {
				continue // Services, Deployments, ...
			}
			key := apiVersion + " " + kind
			b := byKind[key]
			if b == nil {
				b = &strings.Builder{}
				byKind[key] = b
				kinds = append(kinds, key)
			}
			rel, _ := filepath.Rel(mod, f)
			fmt.Fprintf(b, "  - name: %q\n    steps:\n    - create: |\n%s", fmt.Sprintf("%s#%d", rel, i), indent(string(part.data), "        "))
			n++
		}
	}
	dir := t.TempDir()
	for i, key := range kinds {
		suite := "name: " + quote(key) + "\ntests:\n  sequences:\n" + byKind[key].String()
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("k%02d.crdtest.yaml", i)), []byte(suite), 0o644)
	}
	rep, err := RunPaths(Options{CRDs: []string{filepath.Join(mod, "config", "crd", "experimental")}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, le := range rep.LoadErrors {
		t.Errorf("%s", le.Err)
	}
	for _, r := range rep.Results {
		if !r.Passed {
			t.Errorf("%s: %s", r.Name, r.Message)
		}
	}
	passed, _ := rep.Counts()
	t.Logf("%d Gateway API example objects (%d kinds) pass as a suite", passed, len(kinds))
	if n == 0 || len(rep.Results) != n {
		t.Errorf("%d examples, %d cases run", n, len(rep.Results))
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDirectoriesSkipFilesThatAreNotManifests: every command reading
// directories leaves out the same documents, those that are not Kubernetes
// objects (a package.json, a Helm values.yaml, a JSON array), saying so
// with the same reason (catalog.ReadManifests, catalog.NotAnObject), and
// works on the manifests beside them.
func TestDirectoriesSkipFilesThatAreNotManifests(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"../../examples/crontab-crd.yaml": "crd.yaml",
		"../../examples/valid.yaml":       "valid.yaml",
	} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, src), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notManifests := map[string]string{
		"package.json":  `{"name": "site", "version": "1.0.0", "dependencies": {"left-pad": "^1.3.0"}}` + "\n",
		"values.yaml":   "replicaCount: 2\nimage:\n  repository: nginx\n  tag: stable\n",
		"tsconfig.json": `[{"compilerOptions": {"strict": true}}]` + "\n",
	}
	for name, src := range notManifests {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const reason = "no apiVersion and kind: not a Kubernetes object"
	tests := []struct {
		name string
		args []string
		// out is a line of stdout showing the command worked on the
		// manifests; skipped is how each skipped file is named.
		out, skipped string
	}{
		{"validate", []string{"validate", dir}, "crontab.stable.example.com/my-new-cron-object created (server dry run)", ":1: skipped object: " + reason},
		{"cost", []string{"cost", dir}, "CronTab my-new-cron-object), version v1: runtime cost 0", ":1: skipped: " + reason},
		{"bench", []string{"bench", "--duration", "1ms", "--samples", "3", dir}, "valid.yaml:2: CronTab my-new-cron-object, version v1", ":1: skipped: " + reason},
		{"schema", []string{"schema", dir}, `"$schema": "https://json-schema.org/draft/2020-12/schema"`, ":1: skipped: " + reason},
		{"lint", []string{"lint", dir}, "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created (server dry run)", ":1: skipped: " + reason},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(tt.args...)
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			if !strings.Contains(out, tt.out) {
				t.Errorf("stdout lacks %q:\n%s", tt.out, out)
			}
			for name := range notManifests {
				if want := filepath.Join(dir, name) + tt.skipped; !strings.Contains(out+errOut, want) {
					t.Errorf("%s not skipped with the reason: want %q in\nstdout:\n%s\nstderr:\n%s", name, want, out, errOut)
				}
			}
		})
	}
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestConfigDecodesKubeVersionStrictly(t *testing.T) {
	tests := []struct {
		name, text string
		want       string // kubeVersion
		wantErr    string // ":line: ..." after the path
	}{
		{name: "quoted release", text: "kubeVersion: \"1.36\"\n", want: "1.36"},
		{name: "unquoted release is the release, not a float", text: "kubeVersion: 1.38\n", want: "1.38"},
		{name: "unquoted 1.30 stays 1.30", text: "# project\nkubeVersion: 1.30\n", wantErr: `:2: kubeVersion: unsupported Kubernetes version "1.30" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)`},
		{name: "a range is a matrix", text: "kubeVersion: 1.35-1.37\n", want: "1.35-1.37"},
		{name: "empty file", text: "", want: ""},
		{name: "comments only", text: "# nothing yet\n", want: ""},
		{name: "unknown key", text: "kubeVersion: \"1.36\"\nkubeversion: \"1.35\"\n", wantErr: `:2: unknown key "kubeversion" (.crdlab.yaml takes kubeVersion only)`},
		{name: "key given twice", text: "kubeVersion: \"1.36\"\nkubeVersion: \"1.35\"\n", wantErr: `:2: kubeVersion given twice`},
		{name: "list value", text: "kubeVersion:\n  - \"1.36\"\n", wantErr: `:2: kubeVersion: a release expected ("1.37", a range "1.35-1.37", a list "1.35,1.37" or "supported"), not a list`},
		{name: "null value", text: "kubeVersion:\n", wantErr: `:1: kubeVersion: a release expected ("1.37", a range "1.35-1.37", a list "1.35,1.37" or "supported"), not nothing`},
		{name: "malformed value", text: "kubeVersion: latest\n", wantErr: `:1: kubeVersion: `},
		{name: "not a mapping", text: "- kubeVersion: \"1.36\"\n", wantErr: `:1: a mapping expected (kubeVersion: "1.37"), not a list`},
		{name: "two documents", text: "kubeVersion: \"1.36\"\n---\nkubeVersion: \"1.35\"\n", wantErr: `:2: one YAML document expected, found a second`},
		{name: "not YAML", text: "kubeVersion: [\n", wantErr: `: yaml: line `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), configName)
			writeFile(t, p, tt.text)
			cfg, err := loadConfig(p)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), p+tt.wantErr) {
					t.Fatalf("error %v, want %q", err, p+tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.kubeVersion != tt.want {
				t.Errorf("kubeVersion %q, want %q", cfg.kubeVersion, tt.want)
			}
		})
	}
}

func TestConfigIsFoundUpwardAndStopsAtTheRepositoryRoot(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, configName), "kubeVersion: \"1.35\"\n")
	writeFile(t, filepath.Join(root, "repo", ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(root, "repo", "sub", configName), "kubeVersion: \"1.36\"\n")
	writeFile(t, filepath.Join(root, "worktree", ".git"), "gitdir: /elsewhere\n")
	writeFile(t, filepath.Join(root, "plain", "a", "b", "x.yaml"), "")
	tests := []struct{ dir, want string }{
		{dir: "plain/a/b", want: filepath.Join(root, configName)},
		{dir: "repo/sub/deeper", want: filepath.Join(root, "repo", "sub", configName)},
		{dir: "repo/sub", want: filepath.Join(root, "repo", "sub", configName)},
		{dir: "repo/other", want: ""},     // the repository root (.git directory) ends the search
		{dir: "worktree/pkg/x", want: ""}, // a worktree's .git file too
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := filepath.Join(root, filepath.FromSlash(tt.dir))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			got, err := findConfig(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("findConfig(%s) = %q, want %q", tt.dir, got, tt.want)
			}
		})
	}
}

// The release precedence, end to end: --kube-version > .crdlab.yaml >
// the default. gadgets-crd.yaml's rule is over the cost budget at 1.35
// and within it at 1.37.
func TestConfigKubeVersionIsTheReleaseWithoutTheFlag(t *testing.T) {
	crd, err := filepath.Abs("../../examples/kube-versions/gadgets-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(dir, configName), "# the release we deploy to\nkubeVersion: 1.35\n")
	sub := filepath.Join(dir, "config", "crd")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	lint := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"lint", "-o", "json"}, append(args, crd)...), nil, &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	code, out := lint()
	if code != exitInvalid || !strings.Contains(out, `"kubeVersion": "1.35"`) || !strings.Contains(out, "exceeds budget") {
		t.Errorf("with .crdlab.yaml at 1.35: exit %d\n%s", code, out)
	}
	code, out = lint("--kube-version", "1.37")
	if code != exitValid || !strings.Contains(out, `"kubeVersion": "1.37"`) {
		t.Errorf("--kube-version 1.37 over .crdlab.yaml's 1.35: exit %d\n%s", code, out)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"version"}, nil, &stdout, &stderr); code != exitValid || !strings.HasSuffix(stdout.String(), "\nkubeVersion: 1.35 ("+filepath.Join(dir, configName)+":2)\n") {
		t.Errorf("crdlab version under .crdlab.yaml: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}

	// crdlab test: the file's release is that of the suites naming none;
	// a suite's own kubeVersion wins over it.
	gadgets, err := os.ReadFile(crd)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(sub, "gadgets-crd.yaml"), string(gadgets))
	suite := "name: Gadget\ncrd: gadgets-crd.yaml\n%stests:\n  onCreate:\n  - name: a gadget\n    initial: |\n      apiVersion: example.com/v1\n      kind: Gadget\n      spec: {}\n"
	for _, tt := range []struct {
		own  string
		want int
	}{{"", exitInvalid}, {"kubeVersion: \"1.37\"\n", exitValid}} {
		writeFile(t, filepath.Join(sub, "gadgets.crdtest.yaml"), fmt.Sprintf(suite, tt.own))
		var stdout, stderr bytes.Buffer
		if code := run([]string{"test", "gadgets.crdtest.yaml"}, nil, &stdout, &stderr); code != tt.want {
			t.Errorf("crdlab test under .crdlab.yaml 1.35, suite %q: exit %d, want %d\n%s%s", tt.own, code, tt.want, stdout.String(), stderr.String())
		}
	}

	writeFile(t, filepath.Join(dir, configName), "kubeVersion: 1.35\nrelease: 1.36\n")
	code, out = lint()
	want := "crdlab lint: " + filepath.Join(dir, configName) + `:2: unknown key "release" (.crdlab.yaml takes kubeVersion only)`
	if code != exitUsage || !strings.Contains(out, want) {
		t.Errorf("a bad .crdlab.yaml: exit %d\n%s\nwant %s", code, out, want)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"version"}, nil, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), `:2: unknown key "release"`) {
		t.Errorf("crdlab version under a bad .crdlab.yaml: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}

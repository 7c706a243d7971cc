package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The CI recipes (action.yml, .pre-commit-hooks.yaml) run as written: their
// shell steps and hook entries are executed here, offline.

const testVersion = "v0.0.0-20260101000000-000000000000"

// localProxy writes a file:// Go module proxy serving this checkout (its
// tracked files, nested modules left out) as github.com/crdlab/crdlab at
// testVersion, so that the action's `go install …@version` runs without
// the network; dependencies come from the module cache.
func localProxy(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-co", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	nested := []string{}
	files := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, f := range files {
		if filepath.Base(f) == "go.mod" && f != "go.mod" {
			nested = append(nested, filepath.Dir(f)+"/")
		}
	}
	dir := t.TempDir()
	v := filepath.Join(dir, "github.com", "crdlab", "crdlab", "@v")
	os.MkdirAll(v, 0o755)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	prefix := "github.com/crdlab/crdlab@" + testVersion + "/"
files:
	for _, f := range files {
		for _, n := range nested {
			if strings.HasPrefix(f, n) {
				continue files
			}
		}
		if strings.Contains(f, "node_modules/") || strings.HasPrefix(f, "build/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue // deleted in the work tree
		}
		w, _ := zw.Create(prefix + f)
		w.Write(data)
	}
	zw.Close()
	mod, _ := os.ReadFile(filepath.Join(root, "go.mod"))
	os.WriteFile(filepath.Join(v, testVersion+".zip"), buf.Bytes(), 0o644)
	os.WriteFile(filepath.Join(v, testVersion+".mod"), mod, 0o644)
	info, _ := json.Marshal(map[string]string{"Version": testVersion, "Time": "2026-01-01T00:00:00Z"})
	os.WriteFile(filepath.Join(v, testVersion+".info"), info, 0o644)
	os.WriteFile(filepath.Join(v, "list"), []byte(testVersion+"\n"), 0o644)
	return dir
}

// TestActionSteps runs the shell steps of action.yml as the runner does
// (inputs substituted, bash, GITHUB_PATH honoured) on a repository with a
// valid and an invalid object, and checks the annotations.
func TestActionSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds crdlab through a local module proxy")
	}
	var action struct {
		Inputs map[string]struct {
			Default string `json:"default"`
		} `json:"inputs"`
		Runs struct {
			Using string `json:"using"`
			Steps []struct {
				If   string            `json:"if"`
				Uses string            `json:"uses"`
				Run  string            `json:"run"`
				Env  map[string]string `json:"env"`
			} `json:"steps"`
		} `json:"runs"`
	}
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("runs.using %q", action.Runs.Using)
	}
	proxy := localProxy(t)
	work := t.TempDir()
	os.MkdirAll(filepath.Join(work, "crds"), 0o755)
	os.MkdirAll(filepath.Join(work, "deploy", "prod"), 0o755)
	crd, _ := os.ReadFile("../../examples/crontab-crd.yaml")
	valid, _ := os.ReadFile("../../examples/valid.yaml")
	invalid, _ := os.ReadFile("../../examples/invalid.yaml")
	os.WriteFile(filepath.Join(work, "crds", "crontab.yaml"), crd, 0o644)
	os.WriteFile(filepath.Join(work, "deploy", "ok.yaml"), valid, 0o644)
	os.WriteFile(filepath.Join(work, "deploy", "prod", "bad.yaml"), invalid, 0o644)
	os.WriteFile(filepath.Join(work, "deploy", "svc.yaml"), []byte("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"), 0o644)

	inputs := map[string]string{}
	for k, v := range action.Inputs {
		inputs[k] = v.Default
	}
	inputs["version"] = testVersion
	inputs["crds"] = "crds"
	inputs["paths"] = "deploy"
	inputs["setup-go"] = "false"
	expr := regexp.MustCompile(`\$\{\{\s*inputs\.([\w-]+)\s*\}\}`)
	subst := func(s string) string {
		return expr.ReplaceAllStringFunc(s, func(m string) string { return inputs[expr.FindStringSubmatch(m)[1]] })
	}
	gopath := t.TempDir()
	githubPath := filepath.Join(t.TempDir(), "github_path")
	os.WriteFile(githubPath, nil, 0o644)
	modcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	env := append(os.Environ(),
		"GOPATH="+gopath, "GOBIN=", "GOFLAGS=-mod=mod",
		"GOMODCACHE="+strings.TrimSpace(string(modcache)),
		"GOPROXY=file://"+proxy+",file://"+strings.TrimSpace(string(modcache))+"/cache/download",
		"GONOSUMDB=*", "GONOSUMCHECK=1", "GOSUMDB=off", "GOTOOLCHAIN=local",
		"GITHUB_PATH="+githubPath)
	path := os.Getenv("PATH")
	var last []byte
	var lastErr error
	ran := 0
	for _, s := range action.Runs.Steps {
		if s.If != "" && subst(strings.ReplaceAll(s.If, "inputs.setup-go == 'true'", inputs["setup-go"])) != "true" {
			continue // the setup-go step, off here: the test has Go
		}
		if s.Run == "" {
			t.Fatalf("step %q neither runs a script nor is skipped", s.Uses)
		}
		cmd := exec.Command("bash", "-e", "-c", subst(s.Run))
		cmd.Dir = work
		cmd.Env = append(env, "PATH="+path)
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+subst(v))
		}
		last, lastErr = cmd.CombinedOutput()
		ran++
		// GITHUB_PATH lines are prepended to PATH for the next steps.
		gp, _ := os.ReadFile(githubPath)
		for _, l := range strings.Fields(string(gp)) {
			if !strings.Contains(path, l) {
				path = l + string(os.PathListSeparator) + path
			}
		}
		if lastErr != nil && ran < 2 {
			t.Fatalf("step %d: %v\n%s", ran, lastErr, last)
		}
	}
	if ran != 2 {
		t.Fatalf("%d steps ran, want install and validate", ran)
	}
	if ee, ok := lastErr.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("validate step: %v, want exit status 1\n%s", lastErr, last)
	}
	out := string(last)
	for _, want := range []string{
		"::error file=deploy/prod/bad.yaml,line=3,title=CronTab my-invalid-cron-object is invalid::spec.replicas: Invalid value: 15",
		"::notice title=crdlab::Summary: 3 resources found in 3 files - Valid: 1, Invalid: 1, Errors: 0, Skipped: 1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("validate step output lacks %q:\n%s", want, out)
		}
	}
}

// TestPreCommitHooks runs each hook's entry as pre-commit does (entry,
// args, then the staged file names) with crdlab on PATH.
func TestPreCommitHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	var hooks []struct {
		ID    string `json:"id"`
		Entry string `json:"entry"`
		Lang  string `json:"language"`
		Files string `json:"files"`
	}
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "crdlab"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	staged := map[string][]string{
		"good":     {"../../examples/crontab-crd.yaml", "../../examples/valid.yaml", "../../examples/defaults.yaml"},
		"bad":      {"../../examples/crontab-crd.yaml", "../../examples/invalid.yaml"},
		"no-crd":   {"testdata/mixed.yaml"},
		"bad-crd":  {"testdata/invalid-crd.yaml"},
		"workflow": {"../../.pre-commit-hooks.yaml"},
	}
	want := map[string]map[string]int{
		"crdlab-validate": {"good": 0, "bad": 1, "no-crd": 0, "bad-crd": 1, "workflow": 0},
		"crdlab-lint":     {"good": 0, "bad": 0, "no-crd": 0, "bad-crd": 1, "workflow": 0},
	}
	if len(hooks) != len(want) {
		t.Fatalf("%d hooks, want %d", len(hooks), len(want))
	}
	for _, h := range hooks {
		if h.Lang != "golang" || !regexp.MustCompile(h.Files).MatchString("x.yaml") {
			t.Errorf("%s: language %q, files %q", h.ID, h.Lang, h.Files)
		}
		for name, files := range staged {
			args := append(strings.Fields(h.Entry)[1:], files...)
			cmd := exec.Command(filepath.Join(bin, strings.Fields(h.Entry)[0]), args...)
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if w, ok := want[h.ID][name]; !ok || code != w {
				t.Errorf("%s on %s: exit %d, want %d\n%s", h.ID, name, code, w, out)
			}
		}
	}
}

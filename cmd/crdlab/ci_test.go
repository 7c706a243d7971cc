package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
)

// The CI recipes (action.yml, .pre-commit-hooks.yaml) run as written: their
// shell steps and hook entries are executed here, offline.

// localProxy writes a file:// Go module proxy serving this checkout (its
// tracked and untracked-but-not-ignored files, nested modules left out) as
// github.com/crdlab/crdlab, so that the action's `go install …@version`
// runs without the network. It returns the proxy directory and the version,
// a pseudo-version whose revision is a hash of the served files: a change
// to the checkout is a new version, so no module cache can answer for it
// with another build.
func localProxy(t *testing.T) (dir, version string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-co", "--exclude-standard").Output()
	if err != nil {
		testenv.Unavailable(t, "git ls-files in %s: %v", root, err)
	}
	nested := []string{}
	files := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, f := range files {
		if filepath.Base(f) == "go.mod" && f != "go.mod" {
			nested = append(nested, filepath.Dir(f)+"/")
		}
	}
	sort.Strings(files)
	served := map[string][]byte{}
	h := sha256.New()
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
		served[f] = data
		fmt.Fprintf(h, "%s %d\n", f, len(data))
		h.Write(data)
	}
	version = "v0.0.0-20260101000000-" + hex.EncodeToString(h.Sum(nil))[:12]
	dir = t.TempDir()
	writeModuleVersion(t, dir, version, served)
	return dir, version
}

// writeModuleVersion lays out github.com/crdlab/crdlab at version with the
// given files in the GOPROXY protocol's file layout under dir.
func writeModuleVersion(t *testing.T, dir, version string, files map[string][]byte) {
	t.Helper()
	v := filepath.Join(dir, "github.com", "crdlab", "crdlab", "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	names := keys.Sorted(files)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	prefix := "github.com/crdlab/crdlab@" + version + "/"
	for _, f := range names {
		w, err := zw.Create(prefix + f)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[f])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": "2026-01-01T00:00:00Z"})
	for name, data := range map[string][]byte{
		version + ".zip":  buf.Bytes(),
		version + ".mod":  files["go.mod"],
		version + ".info": info,
		"list":            []byte(version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(v, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goInstallEnv is the environment of a `go install github.com/crdlab/crdlab/…@version`
// from proxy: a module cache and GOPATH of the test's own (so that nothing
// the machine's module cache holds under github.com/crdlab/crdlab, at any
// version, is used), dependencies from proxy's fallbacks — machineCache's
// downloads, then the machine's GOPROXY — checked against the served go.sum.
func goInstallEnv(t *testing.T, proxy, machineCache string) []string {
	t.Helper()
	goproxy, _ := exec.Command("go", "env", "GOPROXY").Output()
	proxies := []string{"file://" + proxy, "file://" + filepath.Join(machineCache, "cache", "download")}
	for _, p := range strings.Split(strings.TrimSpace(string(goproxy)), ",") {
		if p != "" && p != "off" && p != "direct" {
			proxies = append(proxies, p)
		}
	}
	return append(os.Environ(),
		"GOPATH="+t.TempDir(), "GOMODCACHE="+t.TempDir(), "GOBIN=",
		// -trimpath: the go install of each test extracts the modules
		// into a module cache of its own (a temporary directory), and
		// without it the build cache keys every package by its directory:
		// crdlab and all its dependencies compiled again per test and per
		// run (8 minutes each at load 35). With it the installs share
		// the compiled packages; the binary differs only in its file paths.
		"GOFLAGS=-mod=mod -modcacherw -trimpath", "GOWORK=off",
		"GOPROXY="+strings.Join(proxies, ","),
		"GONOSUMDB=*", "GOSUMDB=off", "GOTOOLCHAIN=local")
}

// machineModCache is the machine's module cache (go env GOMODCACHE).
func machineModCache(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestGoInstallIgnoresStaleModuleCache seeds a module cache with a wrong
// build of github.com/crdlab/crdlab — the served version and another one,
// both as downloads and extracted, as a machine that ran an older checkout
// would hold them — and installs through the action's proxy chain with that
// cache as the machine's: the installed crdlab is the checkout's.
func TestGoInstallIgnoresStaleModuleCache(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds crdlab through a local module proxy")
	}
	proxy, version := localProxy(t)
	stale := t.TempDir()
	wrong := map[string][]byte{
		"go.mod":             []byte("module github.com/crdlab/crdlab\n\ngo 1.26\n"),
		"cmd/crdlab/main.go": []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"STALE BUILD\") }\n"),
	}
	for _, v := range []string{version, "v0.0.0-20260101000000-000000000000"} {
		writeModuleVersion(t, filepath.Join(stale, "cache", "download"), v, wrong)
		for f, data := range wrong {
			p := filepath.Join(stale, "github.com", "crdlab", "crdlab@"+v, f)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, data, 0o644)
		}
	}
	env := goInstallEnv(t, proxy, stale)
	// Dependencies are not in the stale cache: the machine's serves them.
	for i, e := range env {
		if strings.HasPrefix(e, "GOPROXY=") {
			env[i] = e + ",file://" + filepath.Join(machineModCache(t), "cache", "download")
		}
	}
	gobin := t.TempDir()
	cmd := exec.Command("go", "install", "github.com/crdlab/crdlab/cmd/crdlab@"+version)
	cmd.Dir = t.TempDir()
	cmd.Env = append(env, "GOBIN="+gobin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	out, _ := exec.Command(filepath.Join(gobin, "crdlab"), "validate", "--crd", "../../examples/crontab-crd.yaml", "../../examples/invalid.yaml").CombinedOutput()
	if strings.Contains(string(out), "STALE") || !strings.Contains(string(out), "spec.replicas: Invalid value: 15") {
		t.Errorf("installed crdlab is not the checkout's:\n%s", out)
	}
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
	proxy, version := localProxy(t)
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
	inputs["version"] = version
	inputs["crds"] = "crds"
	inputs["paths"] = "deploy"
	inputs["setup-go"] = "false"
	expr := regexp.MustCompile(`\$\{\{\s*inputs\.([\w-]+)\s*\}\}`)
	subst := func(s string) string {
		return expr.ReplaceAllStringFunc(s, func(m string) string { return inputs[expr.FindStringSubmatch(m)[1]] })
	}
	githubPath := filepath.Join(t.TempDir(), "github_path")
	os.WriteFile(githubPath, nil, 0o644)
	env := append(goInstallEnv(t, proxy, machineModCache(t)), "GITHUB_PATH="+githubPath)
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
		"::error file=deploy/prod/bad.yaml,line=10,col=3,title=CronTab my-invalid-cron-object is invalid::spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
		// a built-in kind whose native validation is not modelled is a
		// warning annotation and counted apart (docs/builtin-kinds.md)
		"::warning file=deploy/svc.yaml,line=1,title=Service s not validated natively::",
		"::notice title=crdlab::Summary: 3 resources found in 3 files - Valid: 1, Invalid: 1, Errors: 0, Skipped: 0, Partial: 1",
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

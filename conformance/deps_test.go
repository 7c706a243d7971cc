package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// listedModule is one module of `go list -m -json all`.
type listedModule struct {
	Path    string
	Version string
	Main    bool
	Replace *listedModule
}

// resolved is the version a build uses: the replacement's when replaced.
func (m listedModule) resolved() string {
	if m.Replace != nil {
		if m.Replace.Version == "" {
			return m.Replace.Path // a directory replacement
		}
		return m.Replace.Path + "@" + m.Replace.Version
	}
	return m.Version
}

// goListModules runs `go list -m -json all` in dir (env: mainModuleEnv).
func goListModules(t *testing.T, dir string) map[string]listedModule {
	t.Helper()
	cmd := exec.Command(goCommand(), "list", "-m", "-json", "all")
	cmd.Dir = dir
	cmd.Env = mainModuleEnv()
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list -m -json all in %s: %v\n%s", dir, err, ee.Stderr)
		}
		t.Fatalf("go list -m -json all in %s: %v", dir, err)
	}
	mods := map[string]listedModule{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var m listedModule
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list -m -json all in %s: %v", dir, err)
		}
		mods[m.Path] = m
	}
	return mods
}

// builtModules returns the modules that provide a package to some build of
// the main module in root: its packages and their tests, for the host, for
// the WebAssembly module (wasip1/wasm) and for a non-Linux host (files with
// linux build constraints exist in bindings/wasm).
func builtModules(t *testing.T, root string) map[string]bool {
	t.Helper()
	used := map[string]bool{}
	for _, platform := range [][]string{nil, {"GOOS=wasip1", "GOARCH=wasm"}, {"GOOS=darwin", "GOARCH=arm64"}} {
		cmd := exec.Command(goCommand(), "list", "-deps", "-test", "-f", "{{with .Module}}{{.Path}}{{end}}", "./...")
		cmd.Dir = root
		cmd.Env = append(mainModuleEnv(), platform...)
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("go list -deps -test ./... (%v) in %s: %v\n%s", platform, root, err, stderr)
		}
		for _, p := range strings.Fields(string(out)) {
			used[p] = true
		}
	}
	return used
}

// TestMainModuleDependenciesMatchKubernetes fails when the main module
// (what users build: the crdlab command, the library, the wasm module)
// resolves a module to another version than this module does. This module
// requires k8s.io/apiextensions-apiserver v0.37.2, so its versions are those
// Kubernetes 1.37 is built with; the in-process differential tests only ever
// see these (minimal version selection lifts the main module's), so a
// main-module dependency left behind changes crdlab's output unseen — e.g.
// golang.org/x/text v0.22.0 renders CEL's '%e'.format([3.14]) as
// "3.140000 × 10⁰⁰" with narrow spaces where Kubernetes prints
// "3.140000×10⁰⁰". Fix a failure with `go get module@version && go mod
// tidy` in the repository root.
//
// Exemption (the only one): a module of the main module's graph that
// provides no package to any build of the main module (builtModules) is in
// its graph only because the go.mod of some dependency requires it (e.g.
// google.golang.org/grpc through genproto's go.mod). No code of it is
// compiled into crdlab, so its version cannot reach output; and the main
// module cannot raise it without importing it, since `go mod tidy` removes
// the requirement. Such modules are logged, not failed.
func TestMainModuleDependenciesMatchKubernetes(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	mainMods := goListModules(t, root)
	confMods := goListModules(t, ".")
	if m, ok := mainMods["github.com/crdlab/crdlab"]; !ok || !m.Main {
		t.Fatalf("%s is not the main module github.com/crdlab/crdlab", root)
	}
	if _, ok := confMods["k8s.io/apiextensions-apiserver"]; !ok {
		t.Fatal("this module does not resolve k8s.io/apiextensions-apiserver")
	}
	var differ []string
	for path, m := range mainMods {
		if m.Main {
			continue
		}
		// A module absent here (pruned from this module's graph, e.g.
		// github.com/kr/pty, which only old github.com/kr/text requires)
		// counts as a difference: the exemption below decides.
		if c, ok := confMods[path]; !ok || m.resolved() != c.resolved() {
			differ = append(differ, path)
		}
	}
	if len(differ) == 0 {
		return
	}
	sort.Strings(differ)
	used := builtModules(t, root)
	var bad, exempt []string
	for _, path := range differ {
		k8s := "absent"
		if c, ok := confMods[path]; ok {
			k8s = c.resolved()
		}
		line := fmt.Sprintf("%s: main module %s, Kubernetes (conformance module) %s", path, mainMods[path].resolved(), k8s)
		if used[path] {
			bad = append(bad, line)
		} else {
			exempt = append(exempt, line)
		}
	}
	if len(exempt) > 0 {
		t.Logf("versions differ, but no package of these modules is built into crdlab (exempt, see the test's comment):\n  %s", strings.Join(exempt, "\n  "))
	}
	if len(bad) > 0 {
		t.Errorf("the main module builds with other versions than Kubernetes 1.37 (go get module@version && go mod tidy in the repository root):\n  %s", strings.Join(bad, "\n  "))
	}
}

package archtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// pkg is what the test reads of `go list -json`.
type pkg struct {
	ImportPath string
	Dir        string
	Name       string
	Imports    []string
}

// root returns the main module's directory (this package sits three
// levels below it).
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// list returns the module's packages as `go list -json ./...` gives them
// on the host and under GOOS=wasip1 GOARCH=wasm (the WebAssembly module's
// commands build only there), by path relative to the module root.
func list(t *testing.T, dir string) (module string, pkgs map[string]pkg) {
	t.Helper()
	out, err := exec.Command("go", "-C", dir, "list", "-m").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	module = strings.TrimSpace(string(out))
	pkgs = map[string]pkg{}
	for _, env := range [][]string{nil, {"GOOS=wasip1", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "-C", dir, "list", "-json", "./...")
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %v: %v\n%s", env, err, stderr.Bytes())
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		for dec.More() {
			var p pkg
			if err := dec.Decode(&p); err != nil {
				t.Fatal(err)
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
			if old, ok := pkgs[rel]; ok {
				// The union of both builds' imports.
				for _, imp := range old.Imports {
					if !slices.Contains(p.Imports, imp) {
						p.Imports = append(p.Imports, imp)
					}
				}
			}
			pkgs[rel] = p
		}
	}
	return module, pkgs
}

// doc is what the test reads of ARCHITECTURE.md.
type doc struct {
	layerOf  map[string]string   // package (or module) path → layer
	mayUse   map[string][]string // layer → layers it may import
	never    map[string][]string // layer → import paths it never imports
	public   []string            // the public API's packages
	sections map[string]bool
}

var (
	code     = regexp.MustCompile("`([^`]+)`")
	tableRow = regexp.MustCompile(`^\|(.*)\|\s*$`)
)

// cells splits a table row into its cells, trimmed.
func cells(line string) []string {
	m := tableRow.FindStringSubmatch(line)
	if m == nil {
		return nil
	}
	var out []string
	for _, c := range strings.Split(m[1], "|") {
		out = append(out, strings.TrimSpace(c))
	}
	return out
}

func codes(s string) []string {
	var out []string
	for _, m := range code.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// parse reads the sections "## Packages" (| `path` | `layer` | what |),
// "## Layers" (| `layer` | may import: `a` `b` | never imports: `x` |)
// and the paragraph starting "**The public API**".
func parse(t *testing.T, text string) doc {
	t.Helper()
	d := doc{layerOf: map[string]string{}, mayUse: map[string][]string{}, never: map[string][]string{}, sections: map[string]bool{}}
	section, inPublic := "", false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimPrefix(line, "## ")
			d.sections[section] = true
			continue
		}
		// The public API is the paragraph starting "**The public API**".
		inPublic = strings.HasPrefix(line, "**The public API**") || inPublic && strings.TrimSpace(line) != ""
		if inPublic {
			d.public = append(d.public, codes(line)...)
			continue
		}
		c := cells(line)
		if len(c) < 3 || strings.HasPrefix(c[0], "---") {
			continue
		}
		switch section {
		case "Packages":
			paths, layers := codes(c[0]), codes(c[1])
			if len(paths) == 0 {
				continue // the header
			}
			if len(layers) != 1 {
				t.Errorf("ARCHITECTURE.md, Packages: %s: want one `layer`, got %q", c[0], c[1])
				continue
			}
			for _, p := range paths {
				d.layerOf[strings.TrimSuffix(p, "/")] = layers[0]
			}
		case "Layers":
			layer := codes(c[0])
			if len(layer) != 1 {
				continue
			}
			d.mayUse[layer[0]] = codes(c[1])
			d.never[layer[0]] = codes(c[2])
		}
	}
	for _, s := range []string{"Packages", "Layers"} {
		if !d.sections[s] {
			t.Fatalf("ARCHITECTURE.md has no section %q", s)
		}
	}
	if len(d.public) == 0 {
		t.Fatal(`ARCHITECTURE.md has no paragraph starting "**The public API**"`)
	}
	return d
}

func readDoc(t *testing.T, dir string) doc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	return parse(t, string(b))
}

// TestPackageTableIsTheModule: every package of the main module has a row
// of ARCHITECTURE.md's package table, every row names a package (or, layer
// `module`, a nested module's directory) that exists, and every layer it
// uses has its import rules.
func TestPackageTableIsTheModule(t *testing.T) {
	dir := root(t)
	_, pkgs := list(t, dir)
	d := readDoc(t, dir)
	var missing []string
	for rel := range pkgs {
		if _, ok := d.layerOf[rel]; !ok {
			missing = append(missing, rel)
		}
	}
	sort.Strings(missing)
	for _, rel := range missing {
		t.Errorf("package %s is not in ARCHITECTURE.md's package table", rel)
	}
	for path, layer := range d.layerOf {
		if layer == "module" {
			// A row may name several modules with *: conformance/versions/v1.*/.
			if m, _ := filepath.Glob(filepath.Join(dir, path, "go.mod")); len(m) == 0 {
				t.Errorf("ARCHITECTURE.md names the module %s/, which does not exist", path)
			}
			continue
		}
		if _, ok := pkgs[path]; !ok {
			t.Errorf("ARCHITECTURE.md names the package %s, which does not exist", path)
		}
		if _, ok := d.mayUse[layer]; !ok {
			t.Errorf("ARCHITECTURE.md: %s: layer %q has no row in the Layers table", path, layer)
		}
	}
}

// TestPublicAPIIsTheImportablePackages: the public API ARCHITECTURE.md
// states is exactly the module's packages a user can import: not
// commands, not under an internal/ directory.
func TestPublicAPIIsTheImportablePackages(t *testing.T) {
	dir := root(t)
	_, pkgs := list(t, dir)
	d := readDoc(t, dir)
	var want []string
	for rel, p := range pkgs {
		if p.Name != "main" && !strings.HasPrefix(rel, "internal/") && !strings.Contains(rel, "/internal/") {
			want = append(want, rel)
		}
	}
	got := append([]string(nil), d.public...)
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ARCHITECTURE.md's public API is %v; the importable packages are %v", got, want)
	}
}

// violations lists the imports that break d's layer rules.
func violations(module string, pkgs map[string]pkg, d doc) []string {
	var out []string
	for rel, p := range pkgs {
		layer, ok := d.layerOf[rel]
		if !ok {
			continue // TestPackageTableIsTheModule says so
		}
		allowed := map[string]bool{}
		for _, l := range d.mayUse[layer] {
			allowed[l] = true
		}
		for _, imp := range p.Imports {
			if irel, ok := strings.CutPrefix(imp, module+"/"); ok {
				if il := d.layerOf[irel]; !allowed[il] {
					out = append(out, fmt.Sprintf("%s (layer %s) imports %s (layer %s): ARCHITECTURE.md lets %s import only %v", rel, layer, irel, il, layer, d.mayUse[layer]))
				}
				continue
			}
			for _, n := range d.never[layer] {
				if prefix, ok := strings.CutSuffix(n, "/..."); imp == n || ok && (imp == prefix || strings.HasPrefix(imp, prefix+"/")) {
					out = append(out, fmt.Sprintf("%s (layer %s) imports %s, which ARCHITECTURE.md says %s never imports", rel, layer, imp, layer))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestImportsFollowTheLayers: no package imports a package of the module
// from a layer its own may not import, nor an import path its layer never
// imports (ARCHITECTURE.md, "Layers").
func TestImportsFollowTheLayers(t *testing.T) {
	dir := root(t)
	module, pkgs := list(t, dir)
	for _, v := range violations(module, pkgs, readDoc(t, dir)) {
		t.Error(v)
	}
}

// TestRulesCatchABrokenImport: a table whose rules the imports break
// fails, so that the tests above cannot pass by reading nothing.
func TestRulesCatchABrokenImport(t *testing.T) {
	d := parse(t, "## Packages\n\n| package | layer | what |\n|---|---|---|\n| `a` | `low` | x |\n| `b` | `high` | y |\n\n"+
		"## Layers\n\n| layer | may import | never imports |\n|---|---|---|\n| `low` | `low` | `os` `net` `example.com/w/...` |\n| `high` | `low` `high` | |\n\n**The public API**: `a`.\n")
	pkgs := map[string]pkg{
		"a": {Imports: []string{"m/b", "os/exec", "net/url", "example.com/w/api", "example.com/wx"}},
		"b": {Imports: []string{"m/a", "os"}},
	}
	got := violations("m", pkgs, d)
	want := []string{
		"a (layer low) imports b (layer high): ARCHITECTURE.md lets low import only [low]",
		"a (layer low) imports example.com/w/api, which ARCHITECTURE.md says low never imports",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

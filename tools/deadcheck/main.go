// Command deadcheck fails when the main module holds code nothing uses
// (`make deadcode`, part of `make check`). It runs golang.org/x/tools'
// deadcode (pinned in tools/go.mod) over three kinds of program and
// combines their answers:
//
//   - every command of the module (package main, on the host), and the
//     WebAssembly module (./guest/wasip1 with GOOS=wasip1 GOARCH=wasm and
//     -tags deadcode, whose deadcode_roots.go names the //go:wasmexport
//     functions as roots);
//   - the same with -test: every test binary of the module too.
//
// A function is reported when
//
//  1. it sits in a package that only the module itself uses (internal/,
//     except internal/testsupport/, and the commands under cmd/ and guest/)
//     and no command reaches it: code kept alive by its own tests only is
//     dead code; or
//  2. nothing reaches it, not even a test: for the public packages (engine,
//     engine/crd, engine/field, cost, wire, crdtest, upgrade, conversion,
//     jsonschema, bindings/wasm) and internal/testsupport/, an exported
//     function no command uses must at least be exercised by a test or an
//     Example with output.
//
// A package of the first kind that no command imports at all is reported
// as a whole.
//
// Functions and packages kept on purpose are listed, with the reason, in
// allow.txt (one "import/path.Func reason" or "import/path reason" a line); an entry that no longer names a
// dead function is an error too, so the list cannot go stale.
//
// Usage, from the repository root:
//
//	go -C tools build -o ../bin/deadcheck ./deadcheck
//	bin/deadcheck -deadcode "$(go -C tools tool -n deadcode)"
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Func is one function deadcode reports as unreachable.
type Func struct {
	Pkg  string // import path
	Name string // "F" or "T.M"
	Pos  string // file:line
}

// Key names a function as allow.txt does: import/path.Name.
func (f Func) Key() string { return f.Pkg + "." + f.Name }

// Program is one deadcode run: the packages it loaded and the functions
// it found unreachable among them.
type Program struct {
	Name   string
	Loaded map[string]bool
	Dead   map[string]Func
}

// reaches reports whether the program may reach f: its package is loaded
// and f is not among the dead.
func (p *Program) reaches(f Func) bool {
	if !p.Loaded[f.Pkg] {
		return false
	}
	_, dead := p.Dead[f.Key()]
	return !dead
}

// Classify applies the two rules of the package comment to the programs'
// answers. module is the main module's path; commands are the programs
// without tests, all are every program (commands and tests). It returns
// the offending functions with the rule each breaks, sorted.
func Classify(module string, commands, all []*Program) []string {
	candidates := map[string]Func{}
	for _, p := range all {
		for k, f := range p.Dead {
			candidates[k] = f
		}
	}
	var out []string
	for _, f := range candidates {
		if strings.Contains(f.Pos, "_test.go:") {
			// Test code: an Example without output is documentation, a
			// helper the tests stopped calling is vet's and review's.
			continue
		}
		reachedByCommand, reachedByAny := false, false
		for _, p := range commands {
			reachedByCommand = reachedByCommand || p.reaches(f)
		}
		for _, p := range all {
			reachedByAny = reachedByAny || p.reaches(f)
		}
		switch {
		case !reachedByAny:
			out = append(out, fmt.Sprintf("%s: %s: unused (no command or test reaches it)", f.Pos, f.Key()))
		case !reachedByCommand && moduleOnly(module, f.Pkg):
			out = append(out, fmt.Sprintf("%s: %s: used by tests only (no command reaches it)", f.Pos, f.Key()))
		}
	}
	// A package of the module's own that no command imports: deadcode
	// reports nothing in it (nothing of it is in the commands' programs).
	pkgs := map[string]bool{}
	for _, p := range all {
		for pkg := range p.Loaded {
			pkgs[pkg] = true
		}
	}
	for pkg := range pkgs {
		if !moduleOnly(module, pkg) {
			continue
		}
		linked := false
		for _, p := range commands {
			linked = linked || p.Loaded[pkg]
		}
		if !linked {
			out = append(out, fmt.Sprintf("%s: package used by tests only (no command imports it)", pkg))
		}
	}
	sort.Strings(out)
	return out
}

// moduleOnly reports whether pkg is a package only the module itself uses:
// internal/ (test support aside) and the commands.
func moduleOnly(module, pkg string) bool {
	rel, ok := strings.CutPrefix(pkg, module+"/")
	if !ok {
		return false
	}
	switch {
	case strings.HasPrefix(rel, "internal/testsupport/"):
		return false
	case strings.HasPrefix(rel, "internal/"), strings.Contains(rel, "/internal/"):
		return true
	case strings.HasPrefix(rel, "cmd/"), strings.HasPrefix(rel, "guest/"):
		return true
	}
	return false
}

// run is one deadcode invocation.
type run struct {
	name  string
	env   []string
	tags  string
	test  bool
	pkgs  []string
	roots []string // what `go list -deps` loads (with -test when test)
}

func main() {
	deadcode := flag.String("deadcode", "", "the deadcode binary (go -C tools tool -n deadcode)")
	allowFile := flag.String("allow", "tools/deadcheck/allow.txt", "functions kept on purpose, one \"import/path.Func reason\" a line")
	flag.Parse()
	if *deadcode == "" {
		fmt.Fprintln(os.Stderr, "deadcheck: -deadcode is required")
		os.Exit(2)
	}
	problems, err := check(*deadcode, *allowFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "deadcheck:", err)
		os.Exit(2)
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Println(p)
		}
		fmt.Printf("deadcheck: %d problem(s): remove the code, use it, or list it in %s with the reason\n", len(problems), *allowFile)
		os.Exit(1)
	}
	fmt.Println("deadcheck: ok, no unused code")
}

// check runs deadcode in the current directory (a module root) and returns
// the problems Classify finds that allow does not excuse, plus the allow
// entries that excuse nothing.
func check(deadcode, allowFile string) ([]string, error) {
	module, err := goOut(nil, "list", "-m")
	if err != nil {
		return nil, err
	}
	module = strings.TrimSpace(module)
	mains, err := goOut(nil, "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, "./...")
	if err != nil {
		return nil, err
	}
	hostMains := strings.Fields(mains)
	runs := []run{{name: "commands", pkgs: hostMains}}
	wasmEnv := []string{"GOOS=wasip1", "GOARCH=wasm"}
	if _, err := os.Stat(filepath.Join("guest", "wasip1")); err == nil {
		runs = append(runs, run{name: "wasip1", env: wasmEnv, tags: "deadcode", pkgs: []string{"./guest/wasip1"}})
	}
	runs = append(runs, run{name: "tests", test: true, pkgs: []string{"./..."}})

	var commands, all []*Program
	for _, r := range runs {
		if len(r.pkgs) == 0 {
			continue
		}
		p, err := load(deadcode, module, r)
		if err != nil {
			return nil, err
		}
		all = append(all, p)
		if !r.test {
			commands = append(commands, p)
		}
	}
	problems := Classify(module, commands, all)

	allow, err := readAllow(allowFile)
	if err != nil {
		return nil, err
	}
	var out []string
	used := map[string]bool{}
	for _, p := range problems {
		excused := false
		for k := range allow {
			if strings.Contains(p, " "+k+": ") || strings.HasPrefix(p, k+": ") {
				excused, used[k] = true, true
			}
		}
		if !excused {
			out = append(out, p)
		}
	}
	for k := range allow {
		if !used[k] {
			out = append(out, fmt.Sprintf("%s: %s: listed but not unused: remove it from the list", allowFile, k))
		}
	}
	sort.Strings(out)
	return out, nil
}

// load runs deadcode and go list for r.
func load(deadcode, module string, r run) (*Program, error) {
	args := []string{"-json", "-filter", "^" + strings.ReplaceAll(module, ".", `\.`) + "(/|$)"}
	if r.test {
		args = append(args, "-test")
	}
	if r.tags != "" {
		args = append(args, "-tags", r.tags)
	}
	cmd := exec.Command(deadcode, append(args, r.pkgs...)...)
	cmd.Env = append(os.Environ(), r.env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("deadcode (%s): %v\n%s", r.name, err, stderr.Bytes())
	}
	var pkgs []struct {
		Path  string
		Funcs []struct {
			Name     string
			Position struct {
				File string
				Line int
			}
		}
	}
	if len(bytes.TrimSpace(out)) > 0 {
		if err := json.Unmarshal(out, &pkgs); err != nil {
			return nil, fmt.Errorf("deadcode (%s): %v", r.name, err)
		}
	}
	p := &Program{Name: r.name, Loaded: map[string]bool{}, Dead: map[string]Func{}}
	for _, pk := range pkgs {
		for _, f := range pk.Funcs {
			fn := Func{Pkg: pk.Path, Name: f.Name, Pos: fmt.Sprintf("%s:%d", f.Position.File, f.Position.Line)}
			p.Dead[fn.Key()] = fn
		}
	}
	listArgs := []string{"list", "-deps", "-f", "{{.ImportPath}}"}
	if r.test {
		listArgs = append(listArgs, "-test")
	}
	if r.tags != "" {
		listArgs = append(listArgs, "-tags", r.tags)
	}
	deps, err := goOut(r.env, append(listArgs, r.pkgs...)...)
	if err != nil {
		return nil, err
	}
	for _, d := range strings.Fields(deps) {
		// -test adds "p [p.test]" variants, external test packages
		// (p_test) and test mains (p.test): keep the packages.
		if strings.HasPrefix(d, "[") || strings.HasSuffix(d, ".test") || strings.HasSuffix(d, "_test") {
			continue
		}
		p.Loaded[d] = true
	}
	return p, nil
}

func goOut(env []string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out), nil
}

// readAllow reads the allow list: "import/path.Func reason" a line, '#'
// comments and blank lines ignored. A missing file is an empty list.
func readAllow(name string) (map[string]string, error) {
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	allow := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, _ := strings.Cut(line, " ")
		if strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: %s: say why it is kept", name, n, key)
		}
		allow[key] = reason
	}
	return allow, sc.Err()
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestClassifyRules(t *testing.T) {
	const m = "example.com/m"
	f := func(pkg, name string) Func { return Func{Pkg: m + "/" + pkg, Name: name, Pos: pkg + "/x.go:1"} }
	prog := func(loaded []string, dead ...Func) *Program {
		p := &Program{Loaded: map[string]bool{}, Dead: map[string]Func{}}
		for _, l := range loaded {
			p.Loaded[m+"/"+l] = true
		}
		for _, d := range dead {
			p.Dead[d.Key()] = d
		}
		return p
	}
	alg, pub, ts := f("internal/alg", "F"), f("pub", "G"), f("internal/testsupport/h", "H")
	tests := []struct {
		name     string
		commands []*Program
		tests    *Program
		want     []string
	}{
		{"reached by a command", []*Program{prog([]string{"internal/alg"})}, prog([]string{"internal/alg"}), nil},
		{"internal, tests only", []*Program{prog([]string{"internal/alg"}, alg)}, prog([]string{"internal/alg"}),
			[]string{"internal/alg/x.go:1: example.com/m/internal/alg.F: used by tests only (no command reaches it)"}},
		{"internal, package not linked by any command", []*Program{prog(nil)}, prog([]string{"internal/alg"}),
			[]string{"example.com/m/internal/alg: package used by tests only (no command imports it)"}},
		{"internal, reached by the second command only", []*Program{prog([]string{"internal/alg"}, alg), prog([]string{"internal/alg"})}, prog([]string{"internal/alg"}, alg), nil},
		{"public, tested", []*Program{prog([]string{"pub"}, pub)}, prog([]string{"pub"}), nil},
		{"public, untested", []*Program{prog([]string{"pub"}, pub)}, prog([]string{"pub"}, pub),
			[]string{"pub/x.go:1: example.com/m/pub.G: unused (no command or test reaches it)"}},
		{"test support, used by tests", []*Program{prog(nil)}, prog([]string{"internal/testsupport/h"}), nil},
		{"test support, unused", []*Program{prog(nil)}, prog([]string{"internal/testsupport/h"}, ts),
			[]string{"internal/testsupport/h/x.go:1: example.com/m/internal/testsupport/h.H: unused (no command or test reaches it)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			all := append(append([]*Program(nil), tt.commands...), tt.tests)
			if got := Classify(m, tt.commands, all); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestCheckFailsOnAnUnusedInternalFunction runs the whole check (deadcode
// and go list) over a small module: an internal function no command calls
// and an exported function nothing calls are reported, the rest is not;
// allow.txt excuses one and a stale entry is reported.
func TestCheckFailsOnAnUnusedInternalFunction(t *testing.T) {
	deadcode, err := exec.Command("go", "tool", "-n", "deadcode").Output()
	if err != nil {
		t.Fatalf("go tool -n deadcode: %v", err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                      "module example.com/m\n\ngo 1.26\n",
		"cmd/app/main.go":             "package main\n\nimport \"example.com/m/internal/alg\"\n\nfunc main() { alg.Used() }\n",
		"internal/alg/alg.go":         "package alg\n\nfunc Used() {}\n\nfunc Unused() {}\n\nfunc TestedOnly() {}\n",
		"internal/alg/alg_test.go":    "package alg\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/internal/testsupport/h\"\n)\n\nfunc TestX(t *testing.T) { TestedOnly(); h.H() }\n",
		"internal/testsupport/h/h.go": "package h\n\nfunc H() {}\n",
		"pub/pub.go":                  "package pub\n\nfunc Exported() {}\n\nfunc Untested() {}\n",
		"pub/pub_test.go":             "package pub\n\nimport \"testing\"\n\nfunc TestExported(t *testing.T) { Exported() }\n",
		"allow.txt":                   "# kept\nexample.com/m/internal/alg.TestedOnly a test fixture of the check\nexample.com/m/internal/alg.Used stale: a command calls it\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	got, err := check(strings.TrimSpace(string(deadcode)), "no-allow.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"internal/alg/alg.go:5: example.com/m/internal/alg.Unused: unused (no command or test reaches it)",
		"internal/alg/alg.go:7: example.com/m/internal/alg.TestedOnly: used by tests only (no command reaches it)",
		"pub/pub.go:5: example.com/m/pub.Untested: unused (no command or test reaches it)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("without an allow list:\n got %q\nwant %q", got, want)
	}
	got, err = check(strings.TrimSpace(string(deadcode)), "allow.txt")
	if err != nil {
		t.Fatal(err)
	}
	want = []string{
		"allow.txt: example.com/m/internal/alg.Used: listed but not unused: remove it from the list",
		"internal/alg/alg.go:5: example.com/m/internal/alg.Unused: unused (no command or test reaches it)",
		"pub/pub.go:5: example.com/m/pub.Untested: unused (no command or test reaches it)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with allow.txt:\n got %q\nwant %q", got, want)
	}
}

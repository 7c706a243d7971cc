package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/testsupport/corpus"
)

// The shell samples of README.md and docs/*.md run here, as written, so
// that none can go stale. In a fenced block, a line "$ COMMAND" is a
// command and the lines after it, up to the next "$ " line or the end of
// the block, are its expected output (stdout and stderr together); a
// block of a shell language (sh, bash, shell) without "$ " lines is a
// list of commands whose output is not shown. Commands run with bash in a
// scratch directory that links every top-level entry of the repository
// (so relative paths resolve and written files land in the scratch
// directory), with the checkout's crdlab first on PATH; `go run
// ./cmd/crdlab` is that binary. "$ echo $?" checks the previous command's
// exit status.
//
// Matching: "..." alone on a line stands for any number of lines, and
// "..." ending a line for any rest of that line. Runs of spaces count as
// one, so that columns may shift.
//
// Markers, an HTML comment on the line before the block:
//   - <!-- doc-test: numbers vary --> every number matches any number
//     (timings, allocations: crdlab bench);
//   - <!-- doc-test: not run: REASON --> the block is not run; the reason
//     names the test that covers it instead (TestDocsSkipsNameTheirTest
//     keeps the list short).
//
// A command's trailing "# in MODULE" comment runs it in that corpus
// module's directory (scripts/corpus.sh). A command that is not crdlab's
// must be listed in docsOtherCommands with the test that runs it.

// docsOtherCommands are the commands of the samples that are not crdlab's,
// each with what runs it.
var docsOtherCommands = map[string]string{
	"make":    "the Makefile's targets run in CI (.ci/run); make help lists them (check-help)",
	"go":      "go install: TestDocsGoInstallLatest; go get/go test: the crdtest example and TestActionSteps",
	"npm":     "bindings/js's tests install and import the package (npm test)",
	"python3": "serving a static directory: no behaviour of crdlab's",
	"cd":      "changes the directory for the commands after it",
	"git":     "fetching this repository: the clone CI itself makes",
}

var (
	numberRE   = regexp.MustCompile(`[0-9][0-9.,]*(?:\s?(?:ns|µs|ms|s|KiB|MiB|GiB|B)\b)?`)
	spacesRE   = regexp.MustCompile(`[ \t]+`)
	inModuleRE = regexp.MustCompile(`\s+#\s*in\s+([^\s@]+)\S*\s*$`)
	commentRE  = regexp.MustCompile(`\s+#.*$`)
)

type docSample struct {
	file    string
	line    int
	command string
	output  []string // nil: not checked
	numbers bool     // numbers vary
}

type docBlock struct {
	file    string
	line    int
	lang    string
	marker  string
	lines   []string
	numbers bool
}

// docBlocks returns the fenced blocks of a Markdown file.
func docBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []docBlock
	var cur *docBlock
	prev := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		l := sc.Text()
		trimmed := strings.TrimSpace(l)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &docBlock{file: path, line: n, lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))}
			if m := strings.TrimSpace(prev); strings.HasPrefix(m, "<!-- doc-test:") {
				cur.marker = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(m, "<!-- doc-test:")), "-->")
				cur.marker = strings.TrimSpace(cur.marker)
				cur.numbers = cur.marker == "numbers vary"
			}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		}
		prev = l
	}
	if cur != nil {
		t.Fatalf("%s:%d: fenced block not closed", path, cur.line)
	}
	return blocks
}

// docSamples returns the commands of a block, and whether the block is a
// shell block at all.
func docSamples(b docBlock) []docSample {
	var out []docSample
	dollar := false
	for _, l := range b.lines {
		if strings.HasPrefix(l, "$ ") {
			dollar = true
			break
		}
	}
	if dollar {
		for i, l := range b.lines {
			if strings.HasPrefix(l, "$ ") {
				out = append(out, docSample{file: b.file, line: b.line + 1 + i, command: strings.TrimPrefix(l, "$ "), output: []string{}, numbers: b.numbers})
				continue
			}
			if len(out) > 0 {
				out[len(out)-1].output = append(out[len(out)-1].output, l)
			}
		}
		return out
	}
	switch b.lang {
	case "sh", "bash", "shell", "console":
	default:
		return nil
	}
	for i, l := range b.lines {
		c := strings.TrimSpace(l)
		if c == "" || strings.HasPrefix(c, "#") {
			continue
		}
		out = append(out, docSample{file: b.file, line: b.line + 1 + i, command: c})
	}
	return out
}

// docFiles are the Markdown files whose samples run: the README and the
// pages of docs/ (the generated reports of docs/reports are the output of
// their programs, not samples).
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, files...)
}

// docsScratch links every top-level entry of the repository into a new
// directory, builds the checkout's crdlab into another and returns both.
func docsScratch(t *testing.T) (dir, bin string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	bin = t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "crdlab"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir, bin
}

// normalizeDocLine folds runs of spaces and, if numbers vary, numbers.
func normalizeDocLine(l string, numbers bool) string {
	l = strings.TrimRight(l, " \t")
	if numbers {
		l = numberRE.ReplaceAllString(l, "N")
	}
	return spacesRE.ReplaceAllString(l, " ")
}

// matchDocOutput matches got against the expected lines (see the package
// comment for "..."), returning "" or what differs.
func matchDocOutput(want, got []string, numbers bool) string {
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if i == len(want) {
			return j == len(got)
		}
		w := normalizeDocLine(want[i], numbers)
		if strings.TrimSpace(w) == "..." {
			for k := j; k <= len(got); k++ {
				if match(i+1, k) {
					return true
				}
			}
			return false
		}
		if j == len(got) {
			return false
		}
		g := normalizeDocLine(got[j], numbers)
		if strings.HasSuffix(w, "...") {
			if !strings.HasPrefix(g, strings.TrimSuffix(w, "...")) {
				return false
			}
		} else if w != g {
			return false
		}
		return match(i+1, j+1)
	}
	if match(0, 0) {
		return ""
	}
	return fmt.Sprintf("want:\n%s\ngot:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
}

func TestDocsSamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds crdlab and runs every sample of the docs")
	}
	dir, bin := docsScratch(t)
	path := bin + string(os.PathListSeparator) + os.Getenv("PATH")
	ran := 0
	for _, f := range docFiles(t) {
		for _, b := range docBlocks(t, f) {
			if strings.HasPrefix(b.marker, "not run:") {
				continue
			}
			status := -1
			for _, s := range docSamples(b) {
				name := fmt.Sprintf("%s:%d", strings.TrimPrefix(s.file, "../../"), s.line)
				cmdline := strings.ReplaceAll(s.command, "go run ./cmd/crdlab", "crdlab")
				if cmdline == "echo $?" {
					if len(s.output) == 1 && s.output[0] != strconv.Itoa(status) {
						t.Errorf("%s: exit status %d, the docs say %s", name, status, s.output[0])
					}
					continue
				}
				cwd := dir
				if m := inModuleRE.FindStringSubmatch(cmdline); m != nil {
					mod, err := corpus.Module(corpus.Options{}, m[1]+"@")
					if err != nil {
						t.Errorf("%s: corpus module %s: %v", name, m[1], err)
						continue
					}
					cwd = mod
				}
				cmdline = commentRE.ReplaceAllString(cmdline, "")
				first := strings.Fields(cmdline)[0]
				if first != "crdlab" {
					if _, ok := docsOtherCommands[first]; !ok {
						t.Errorf("%s: %q is neither crdlab nor in docsOtherCommands: run it in a test and list it there", name, first)
					}
					continue
				}
				cmd := exec.Command("bash", "-c", cmdline)
				cmd.Dir = cwd
				cmd.Env = append(os.Environ(), "PATH="+path)
				out, err := cmd.CombinedOutput()
				status = 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					status = ee.ExitCode()
				} else if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				ran++
				if s.output == nil {
					if status == 2 {
						t.Errorf("%s: %s: exit status 2 (usage or input error):\n%s", name, cmdline, out)
					}
					continue
				}
				got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
				if len(out) == 0 {
					got = nil
				}
				want := s.output
				for len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "" {
					want = want[:len(want)-1]
				}
				if d := matchDocOutput(want, got, s.numbers); d != "" {
					t.Errorf("%s: %s: output differs from the docs\n%s", name, cmdline, d)
				}
			}
		}
	}
	if ran < 10 {
		t.Errorf("%d samples ran: the docs have more", ran)
	}
	t.Logf("%d crdlab samples ran", ran)
}

// TestDocsSkipsNameTheirTest keeps "not run" blocks few and explained.
func TestDocsSkipsNameTheirTest(t *testing.T) {
	n := 0
	for _, f := range docFiles(t) {
		for _, b := range docBlocks(t, f) {
			if strings.HasPrefix(b.marker, "not run:") {
				n++
				if len(strings.TrimSpace(strings.TrimPrefix(b.marker, "not run:"))) < 10 {
					t.Errorf("%s:%d: a block not run says why in a sentence", f, b.line)
				}
			} else if b.marker != "" && b.marker != "numbers vary" {
				t.Errorf("%s:%d: unknown doc-test marker %q", f, b.line, b.marker)
			}
		}
	}
	if n > 8 {
		t.Errorf("%d blocks are not run: run them instead", n)
	}
}

func TestMatchDocOutput(t *testing.T) {
	for _, tt := range []struct {
		name      string
		want, got []string
		numbers   bool
		ok        bool
	}{
		{"exact", []string{"a", "b"}, []string{"a", "b"}, false, true},
		{"differs", []string{"a", "b"}, []string{"a", "c"}, false, false},
		{"ellipsis line matches none", []string{"a", "...", "b"}, []string{"a", "b"}, false, true},
		{"ellipsis line matches many", []string{"...", "z"}, []string{"a", "b", "z"}, false, true},
		{"trailing ellipsis", []string{"x: Invalid value: ..."}, []string{"x: Invalid value: 15: too big"}, false, true},
		{"spaces fold", []string{"a    b"}, []string{"a b"}, false, true},
		{"numbers vary", []string{"decode 50.2µs 286 allocs"}, []string{"decode 1,234.5µs 7 allocs"}, true, true},
		{"numbers fixed", []string{"decode 50.2µs"}, []string{"decode 51.2µs"}, false, false},
		{"units vary with numbers", []string{"default 1.2µs 416 B 5 allocs"}, []string{"default 795ns 1.0 KiB 6 allocs"}, true, true},
		{"missing line", []string{"a", "b"}, []string{"a"}, false, false},
		{"extra line", []string{"a"}, []string{"a", "b"}, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if d := matchDocOutput(tt.want, tt.got, tt.numbers); (d == "") != tt.ok {
				t.Errorf("match = %v, want %v: %s", d == "", tt.ok, d)
			}
		})
	}
}

// TestDocsGoSamplesRun builds every Go block of the docs that is a whole
// program (package main) against the checkout (a module with a replace
// directive), runs it in the scratch directory and compares what it
// prints with the block's "// Output:" comment, as go test does for
// examples. A Go block that is not a program needs a "not run" marker
// naming the example that runs the same calls.
func TestDocsGoSamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the docs' Go programs")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	scratch, _ := docsScratch(t)
	ran := 0
	for _, f := range docFiles(t) {
		for _, b := range docBlocks(t, f) {
			if b.lang != "go" || strings.HasPrefix(b.marker, "not run:") {
				continue
			}
			name := fmt.Sprintf("%s:%d", strings.TrimPrefix(f, "../../"), b.line)
			src := strings.Join(b.lines, "\n") + "\n"
			if !strings.HasPrefix(strings.TrimSpace(src), "package main") {
				t.Errorf("%s: a Go sample is a whole program (package main) or marked <!-- doc-test: not run: … --> with the example that runs its calls", name)
				continue
			}
			var want []string
			if i := strings.Index(src, "// Output:\n"); i >= 0 {
				for _, l := range strings.Split(strings.TrimSpace(src[i+len("// Output:\n"):]), "\n") {
					want = append(want, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
				}
			}
			mod := t.TempDir()
			gomod := "module docsample\n\ngo 1.26\n\nrequire github.com/crdlab/crdlab v0.0.0\n\nreplace github.com/crdlab/crdlab => " + root + "\n"
			for file, data := range map[string]string{"go.mod": gomod, "go.sum": string(sum), "main.go": src} {
				if err := os.WriteFile(filepath.Join(mod, file), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			exe := filepath.Join(t.TempDir(), "sample")
			build := exec.Command("go", "build", "-o", exe, ".")
			build.Dir = mod
			build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
			if out, err := build.CombinedOutput(); err != nil {
				t.Errorf("%s: go build: %v\n%s", name, err, out)
				continue
			}
			run := exec.Command(exe)
			run.Dir = scratch
			out, err := run.CombinedOutput()
			if err != nil {
				t.Errorf("%s: %v\n%s", name, err, out)
				continue
			}
			ran++
			got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
			if d := matchDocOutput(want, got, false); d != "" {
				t.Errorf("%s: output differs from its // Output: comment\n%s", name, d)
			}
		}
	}
	if ran == 0 {
		t.Error("no Go sample ran: the README has one")
	}
}

// TestDocsGoInstallLatest runs the README's install command, `go install
// github.com/crdlab/crdlab/cmd/crdlab@latest`, against a local module proxy
// serving the checkout (the real host is out of reach here): @latest
// resolves to the checkout and the installed crdlab runs.
func TestDocsGoInstallLatest(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds crdlab through a local module proxy")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const install = "go install github.com/crdlab/crdlab/cmd/crdlab@latest"
	if !bytes.Contains(readme, []byte(install)) {
		t.Fatalf("README.md no longer says %q: update this test with it", install)
	}
	proxy, version := localProxy(t)
	gobin := t.TempDir()
	cmd := exec.Command("bash", "-c", install)
	cmd.Dir = t.TempDir()
	cmd.Env = append(goInstallEnv(t, proxy, machineModCache(t)), "GOBIN="+gobin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", install, err, out)
	}
	out, err := exec.Command(filepath.Join(gobin, "crdlab"), "validate", "--crd", "../../examples/crontab-crd.yaml", "../../examples/valid.yaml").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "crontab.stable.example.com/my-new-cron-object created (server dry run)") {
		t.Errorf("the installed crdlab: %v\n%s", err, out)
	}
	// @latest is the checkout's version, and crdlab version says so.
	out, err = exec.Command(filepath.Join(gobin, "crdlab"), "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "crdlab "+version+" (Kubernetes 1.37") {
		t.Errorf("crdlab version: %v\n%s\nwant crdlab %s first", err, out, version)
	}
}

// TestDocsIndexReachesEveryPage: every page of docs/ is linked from
// docs/index.md (or from a page it links), and every relative link of the
// README and the docs points at a file that exists.
func TestDocsIndexReachesEveryPage(t *testing.T) {
	linkRE := regexp.MustCompile(`\]\(([^)\s#]+)(#[^)\s]*)?\)`)
	fencedRE := regexp.MustCompile("(?ms)^```.*?^```")
	codeSpanRE := regexp.MustCompile("`[^`\n]*`")
	reached := map[string]bool{}
	var visit func(path string)
	visit = func(path string) {
		path = filepath.Clean(path)
		if reached[path] {
			return
		}
		reached[path] = true
		if !strings.HasSuffix(path, ".md") {
			return
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v", err)
			return
		}
		prose := fencedRE.ReplaceAllString(string(data), "")
		prose = codeSpanRE.ReplaceAllString(prose, "")
		for _, m := range linkRE.FindAllStringSubmatch(prose, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			p := filepath.Join(filepath.Dir(path), target)
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s links %s, which does not exist", path, target)
				continue
			}
			if strings.HasPrefix(filepath.Clean(p), filepath.Clean("../../docs")) {
				visit(p)
			}
		}
	}
	visit("../../README.md")
	if !reached[filepath.Clean("../../docs/index.md")] {
		t.Error("README.md does not link docs/index.md")
	}
	pages, _ := filepath.Glob("../../docs/*.md")
	reports, _ := filepath.Glob("../../docs/reports/*.md")
	for _, p := range append(pages, reports...) {
		if !reached[filepath.Clean(p)] {
			t.Errorf("%s is not reachable from docs/index.md", p)
		}
	}
}

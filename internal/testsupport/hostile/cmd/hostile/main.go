// Command hostile runs the hostile set (package hostile) through every
// surface — the Go API in a child process, the CLI, the WebAssembly module in
// wazero (bindings/wasm) and in Node (bindings/js) — each input under a
// ceiling (30 s of CPU time, 2 GiB peak RSS), and writes a markdown table. It fails on a
// crash, a hang, a ceiling exceeded or an outcome that is not the declared
// one (a silent pass included).
//
//	go build -o bin/crdlab ./cmd/crdlab
//	make wasm
//	go run ./internal/testsupport/hostile/cmd/hostile -crdlab bin/crdlab -wasm build/crdlab.wasm -node node -o docs/hostile.md
//
// A surface is one function (see surfaces): it gets the case, a directory
// holding crd.yaml and object.yaml, and returns the command to run; the
// command's combined output is the outcome ("valid" when it exits 0 for the
// CLI).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/crdlab/crdlab/internal/testsupport/hostile"
)

var (
	timeout  = flag.Duration("timeout", 30*time.Second, "time ceiling per input and surface: the CPU time of the process")
	wallMul  = flag.Int("wall", 4, "a process still running after this many times -timeout of wall-clock time is killed (a hang)")
	maxRSS   = flag.Int64("max-rss", 2<<30, "peak RSS ceiling in bytes per input and surface")
	crdlab   = flag.String("crdlab", "", "the crdlab binary (the CLI surface is skipped when empty)")
	wasmMod  = flag.String("wasm", "", "the WebAssembly module (make wasm): the wazero surface (bindings/wasm), and the Node surface with -node; skipped when empty")
	nodeBin  = flag.String("node", "", "the node binary for the Node surface (bindings/js; needs -wasm); skipped when empty")
	childW   = flag.String("child-wasm", "", "internal: run this case through bindings/wasm with the -wasm module and print the outcome")
	out      = flag.String("o", "", "write the markdown report here")
	only     = flag.String("run", "", "only the cases whose name matches this regexp")
	child    = flag.String("child", "", "internal: run this case through the Go API and print the outcome")
	write    = flag.String("write", "", "internal: write this case's crd.yaml and object.yaml into the directory given as argument")
	limitAS  = flag.Int64("limit-as", 4<<30, "address-space limit of the children (a safety net under the RSS ceiling)")
	execArgs = flag.Bool("exec", false, "internal: set the address-space limit and exec the remaining arguments")
)

// surface returns the command that runs case c with its files in dir, and
// how its result renders as an outcome.
type surface struct {
	name string
	cmd  func(c hostile.Case, dir string) []string
	// outcome turns the exit status and output into an outcome string.
	outcome func(exitCode int, output string) string
	// noASLimit runs the surface without the address-space limit:
	// WebAssembly runtimes reserve address space for a module's memory far
	// beyond what they use (V8 fails to instantiate under a 4 GiB limit);
	// the RSS ceiling still holds.
	noASLimit bool
	// wasm: the surface runs the WebAssembly module (Case.ExpectWasm;
	// Case.ExpectNode for the surface named Node).
	wasm bool
}

func surfaces(self string) []surface {
	s := []surface{{
		name: "Go API",
		cmd:  func(c hostile.Case, dir string) []string { return []string{self, "-child", c.Name} },
		outcome: func(code int, output string) string {
			if code != 0 {
				return fmt.Sprintf("exit %d: %s", code, output)
			}
			return strings.TrimSuffix(output, "\n")
		},
	}}
	if *crdlab != "" {
		s = append(s, surface{
			name: "CLI",
			cmd: func(c hostile.Case, dir string) []string {
				if c.Object == nil {
					return []string{*crdlab, "lint", filepath.Join(dir, "crd.yaml")}
				}
				return []string{*crdlab, "validate", "--crd", filepath.Join(dir, "crd.yaml"), filepath.Join(dir, "object.yaml")}
			},
			outcome: func(code int, output string) string {
				switch {
				case code == 0:
					return hostile.Valid
				case code == 1 || code == 2:
					return output
				}
				return fmt.Sprintf("exit %d: %s", code, output)
			},
		})
	}
	apiOutcome := s[0].outcome
	if *wasmMod != "" {
		s = append(s, surface{
			name: "wazero",
			cmd: func(c hostile.Case, dir string) []string {
				return []string{self, "-wasm", *wasmMod, "-child-wasm", c.Name}
			},
			outcome:   apiOutcome,
			noASLimit: true,
			wasm:      true,
		})
		if *nodeBin != "" {
			s = append(s, surface{
				name:      "Node",
				cmd:       func(c hostile.Case, dir string) []string { return []string{*nodeBin, nodeScript(), *wasmMod, dir} },
				outcome:   apiOutcome,
				noASLimit: true,
				wasm:      true,
			})
		}
	}
	return s
}

// nodeScript is node.mjs, next to this file in the source tree (the
// command runs from the repository root, as `make hostile` does).
func nodeScript() string {
	p, err := filepath.Abs(filepath.Join("internal", "testsupport", "hostile", "cmd", "hostile", "node.mjs"))
	if err != nil {
		fatal(err)
	}
	return p
}

type row struct {
	c        hostile.Case
	surface  string
	outcome  string
	ok       bool
	problem  string
	elapsed  time.Duration
	cpu      time.Duration
	rssBytes int64
	// outputBytes is the size of the surface's output
	outputBytes int64
}

func main() {
	flag.Parse()
	if *execArgs {
		limitAndExec(flag.Args())
		return
	}
	if *write != "" {
		writeCase(*write, flag.Arg(0))
		return
	}
	if *childW != "" {
		c, ok := hostile.Find(*childW)
		if *childW == "warm" {
			c, ok = hostile.Case{Name: "warm"}, true
		}
		if !ok {
			fmt.Fprintln(os.Stderr, "no such case", *childW)
			os.Exit(3)
		}
		fmt.Println(runWasm(c, *wasmMod))
		return
	}
	if *child != "" {
		c, ok := hostile.Find(*child)
		if !ok {
			fmt.Fprintln(os.Stderr, "no such case", *child)
			os.Exit(3)
		}
		fmt.Println(hostile.RunGo(c))
		return
	}
	self, err := os.Executable()
	if err != nil {
		fatal(err)
	}
	var re *regexp.Regexp
	if *only != "" {
		re = regexp.MustCompile(*only)
	}
	tmp, err := os.MkdirTemp("", "hostile")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(tmp)
	if *wasmMod != "" {
		warmWasm(self, *wasmMod)
	}
	var rows []row
	failed := 0
	for _, c := range hostile.Cases() {
		if re != nil && !re.MatchString(c.Name) {
			continue
		}
		// The inputs are generated in a child: the peak RSS a child
		// reports includes its parent's at the time of the fork/exec, so
		// this process stays small.
		dir := filepath.Join(tmp, c.Name)
		if b, err := exec.Command(self, "-write", c.Name, dir).CombinedOutput(); err != nil {
			fatal(fmt.Errorf("generating %s: %v: %s", c.Name, err, b))
		}
		for _, s := range surfaces(self) {
			r := run(self, c, s, dir)
			if !r.ok {
				failed++
			}
			fmt.Fprintf(os.Stderr, "%-32s %-7s %-5s %8s %8s cpu %8s  %s\n", c.Name, s.name, status(r), r.elapsed.Round(time.Millisecond), mib(r.rssBytes), r.cpu.Round(time.Millisecond), r.problem)
			rows = append(rows, r)
		}
		os.RemoveAll(dir)
	}
	if *out != "" {
		if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
			fatal(err)
		}
		if err := os.WriteFile(*out, report(rows), 0o644); err != nil {
			fatal(err)
		}
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "hostile: %d failure(s)\n", failed)
		os.Exit(1)
	}
}

func writeCase(name, dir string) {
	c, ok := hostile.Find(name)
	if !ok {
		fatal(fmt.Errorf("no such case %s", name))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "crd.yaml"), c.CRD(), 0o644); err != nil {
		fatal(err)
	}
	if c.Object != nil {
		if err := os.WriteFile(filepath.Join(dir, "object.yaml"), c.Object(), 0o644); err != nil {
			fatal(err)
		}
	}
}

// capped keeps the first 64 KiB written to it (outputs can be gigabytes:
// every error of a 1,000-item list repeats a 100,000-value enum).
type capped struct {
	buf bytes.Buffer
	n   int64
}

func (c *capped) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	if room := 64<<10 - c.buf.Len(); room > 0 {
		if len(p) < room {
			room = len(p)
		}
		c.buf.Write(p[:room])
	}
	return len(p), nil
}

func run(self string, c hostile.Case, s surface, dir string) row {
	if s.wasm && c.ExpectWasm != "" {
		c.Expect = c.ExpectWasm
	}
	if s.name == "Node" && c.ExpectNode != "" {
		c.Expect = c.ExpectNode
	}
	as := *limitAS
	if s.noASLimit {
		as = 0
	}
	args := append([]string{self, "-exec", "-limit-as", fmt.Sprint(as), "--"}, s.cmd(c, dir)...)
	// The ceiling is on the process's CPU time, which does not depend on
	// how loaded the (shared) machine is; a process that runs for several
	// times the ceiling in wall-clock time is killed as a hang (a blocked
	// process uses no CPU).
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*wallMul)*(*timeout))
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var buf capped
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	start := time.Now()
	err := cmd.Run()
	r := row{c: c, surface: s.name, elapsed: time.Since(start), outputBytes: buf.n}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.rssBytes = int64(ru.Maxrss) * 1024 // kilobytes on Linux
		}
		r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	code := 0
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	output := buf.buf.String()
	switch {
	case ctx.Err() != nil:
		r.outcome, r.problem = "timeout", fmt.Sprintf("hang: no result within %v (wall clock)", time.Duration(*wallMul)*(*timeout))
	case code < 0 || code > 2 || (err != nil && code == 0):
		r.outcome, r.problem = truncate(output, 300), fmt.Sprintf("crash (exit %d, %v)", code, err)
	default:
		r.outcome = s.outcome(code, output)
		if !c.Check(r.outcome) {
			if c.Expect == hostile.Valid {
				r.problem = "expected valid, got: " + truncate(r.outcome, 200)
			} else if r.outcome == hostile.Valid {
				r.problem = "silent pass: expected an error containing " + fmt.Sprintf("%q", c.Expect)
			} else {
				r.problem = fmt.Sprintf("expected an error containing %q, got: %s", c.Expect, truncate(r.outcome, 200))
			}
		}
	}
	if r.problem == "" && r.cpu > *timeout {
		r.problem = fmt.Sprintf("CPU time %v above the %v ceiling", r.cpu.Round(time.Millisecond), *timeout)
	}
	if r.problem == "" && r.rssBytes > *maxRSS {
		r.problem = fmt.Sprintf("peak RSS %s above the %s ceiling", mib(r.rssBytes), mib(*maxRSS))
	}
	r.ok = r.problem == ""
	return r
}

// limitAndExec sets the address-space limit and replaces the process with
// args (so its rusage is the child's).
func limitAndExec(args []string) {
	if len(args) == 0 {
		fatal(fmt.Errorf("-exec: no command"))
	}
	if *limitAS > 0 {
		lim := syscall.Rlimit{Cur: uint64(*limitAS), Max: uint64(*limitAS)}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			fatal(err)
		}
	}
	path, err := exec.LookPath(args[0])
	if err != nil {
		fatal(err)
	}
	fatal(syscall.Exec(path, args, os.Environ()))
}

func status(r row) string {
	if r.ok {
		return "ok"
	}
	return "FAIL"
}

func size(b int64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func truncate(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func report(rows []row) []byte {
	var b bytes.Buffer
	b.WriteString("# Hostile inputs\n\n")
	b.WriteString("Generated by `make hostile` (internal/testsupport/hostile, internal/testsupport/hostile/cmd/hostile); do not edit.\n")
	fmt.Fprintf(&b, "Every input runs through every surface in its own process under a %v (CPU time) and %s (peak RSS) ceiling;\n", *timeout, mib(*maxRSS))
	fmt.Fprintf(&b, "a process still running after %v of wall-clock time is killed as a hang.\n", time.Duration(*wallMul)*(*timeout))
	b.WriteString("Times (wall clock, and CPU time of the process) and peak RSS are of one run on the machine that generated the file;\n")
	b.WriteString("output is the size of what the surface printed (the Go API surface prints a shortened outcome).\n\n")
	b.WriteString("The upstream column is what the API server's own code does with the input (k8s.io/apiextensions-apiserver v0.37.2,\n")
	b.WriteString("measured by the audit of issue 16; — where it was not measured).\n\n")
	b.WriteString("| input | class | surface | expected | outcome | time | CPU | peak RSS | output | upstream |\n")
	b.WriteString("|---|---|---|---|---|---:|---:|---:|---:|---|\n")
	for _, r := range rows {
		outcome := "as expected"
		if !r.ok {
			outcome = "**FAIL**: " + r.problem
		}
		expect := "valid"
		if r.c.Expect != hostile.Valid {
			expect = "error containing `" + strings.ReplaceAll(r.c.Expect, "|", `\|`) + "`"
		}
		upstream := r.c.Upstream
		if upstream == "" {
			upstream = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.2f s | %.2f s | %s | %s | %s |\n", r.c.Name, r.c.Class, r.surface, expect,
			strings.ReplaceAll(outcome, "|", `\|`), r.elapsed.Seconds(), r.cpu.Seconds(), mib(r.rssBytes), size(r.outputBytes), upstream)
	}
	return b.Bytes()
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "hostile:", err)
	os.Exit(2)
}

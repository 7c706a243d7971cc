// Command apiserver runs crdtest suites against a real kube-apiserver 1.37
// (built from k8s.io/kubernetes v1.37.2, with etcd, by `make envtest-build`),
// as OpenShift's envtest runner does, and compares with crdlab:
//
//	go run . -bin DIR [-parallel N] [-n 1000] [-o FILE]              the timing
//	go run . -bin DIR -compare [-crd DIR] [-run REGEX] PATH...       the verdicts
//	go run . -write-limits-suite DIR                                 the request-limits suite
//
// The timing generates crdtest's 1,000-case suite (BenchmarkSuite1000's),
// runs it with crdlab's engine in process (what `crdlab test` does) and
// through the API server, and prints API server start-up, CRD install,
// suite wall time and per-case latency side by side. -compare runs the
// suites under PATH both ways and lists every case whose verdict (or
// failure message) differs: the API server as an oracle for crdlab.
//
// Both modes use crdtest's runner (suite resolution, OpenShift's request
// sequence and comparison); with a crdtest.Backend the requests go to the
// API server over HTTPS (static token, AlwaysAllow) instead of crdlab's
// engine. `make envtest-bench` runs both on the widgets suites.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/crdlab/crdlab/crdtest"
)

func main() { os.Exit(run()) }

// run returns the exit status: 0, 1 (-compare found differences), 2 (error).
// The cluster is stopped and the work directory removed on every path.
func run() (status int) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(fatalError); ok {
				fmt.Fprintln(os.Stderr, "apiserver:", e.err)
				status = 2
				return
			}
			panic(r)
		}
	}()
	bin := flag.String("bin", "", "directory with the etcd and kube-apiserver binaries (make envtest-build)")
	n := flag.Int("n", 1000, "cases of the generated timing suite (a multiple of 4)")
	parallel := flag.Int("parallel", 1, "cases run at once against the API server (OpenShift's ginkgo runs them one by one)")
	compare := flag.Bool("compare", false, "compare verdicts on the suites under the arguments instead of timing")
	var crds multiFlag
	flag.Var(&crds, "crd", "CRD file or directory the suites may name (repeatable, as crdlab test --crd)")
	keep := flag.Bool("keep", false, "keep the work directory (logs, etcd data)")
	out := flag.String("o", "", "also write the report to this file")
	runRE := flag.String("run", "", "only the cases whose full name matches this regular expression")
	writeSuite := flag.String("write-suite", "", "only write the generated timing suite into this directory (for crdlab test DIR)")
	writeLimits := flag.String("write-limits-suite", "", "only write the request-limits suite (a body over 3 MiB, one of 1 MiB) into this directory")
	flag.Parse()
	if *writeSuite != "" {
		if err := generateSuite(*writeSuite, *n); err != nil {
			fatal(err)
		}
		return 0
	}
	if *writeLimits != "" {
		if err := generateLimitsSuite(*writeLimits); err != nil {
			fatal(err)
		}
		return 0
	}
	if *bin == "" {
		fatal(fmt.Errorf("-bin is required"))
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	dir, err := os.MkdirTemp("", "crdlab-envtest-")
	if err != nil {
		fatal(err)
	}
	if !*keep {
		defer os.RemoveAll(dir)
	} else {
		fmt.Fprintln(os.Stderr, "work directory:", dir)
	}
	var report strings.Builder
	w := func(format string, args ...interface{}) {
		fmt.Fprintf(&report, format, args...)
		fmt.Printf(format, args...)
	}
	var paths []string
	if *compare {
		paths = flag.Args()
		if len(paths) == 0 {
			fatal(fmt.Errorf("-compare needs suite paths"))
		}
	} else {
		gen := filepath.Join(dir, "suite")
		if err := generateSuite(gen, *n); err != nil {
			fatal(err)
		}
		paths = []string{gen}
	}
	opts := crdtest.Options{CRDs: crds}
	if *runRE != "" {
		re, err := regexp.Compile(*runRE)
		if err != nil {
			fatal(err)
		}
		opts.Run = re
	}

	// crdlab first (in process, as `crdlab test` runs).
	native, err := crdtest.RunPaths(opts, paths...)
	if err != nil {
		fatal(err)
	}
	nativeSerial := native
	if !*compare {
		o := opts
		o.Parallel = 1
		if nativeSerial, err = crdtest.RunPaths(o, paths...); err != nil {
			fatal(err)
		}
	}

	c, err := startCluster(ctx, *bin, dir)
	if err != nil {
		fatal(err)
	}
	defer c.stop()
	b := newAPIBackend(ctx, c)
	b.progress = *compare
	o := opts
	o.Backend = b
	o.Parallel = *parallel
	cpu0, self0 := c.cpu(), selfCPU()
	real, err := crdtest.RunPaths(o, paths...)
	if err != nil {
		fatal(err)
	}
	serverCPU, runnerCPU := c.cpu()-cpu0, selfCPU()-self0
	w("load average: %s", loadavg())
	w("kube-apiserver v1.37.2 + etcd v3.7.0 start-up (to /readyz and namespace default): %v\n", c.started.Round(time.Millisecond))
	if b.installs > 0 {
		w("CRD install (create until Established and served): %d, %v each\n", b.installs, (b.installTime / time.Duration(b.installs)).Round(time.Millisecond))
	}
	if b.updates > 0 {
		w("CRD updates (variant switches, until the new schema is served): %d, %v each\n", b.updates, (b.updateTime / time.Duration(b.updates)).Round(time.Millisecond))
	}
	if *compare {
		return compareReports(w, native, real, &report, *out)
	}
	w("\n%d cases (GOMAXPROCS %d)            wall       cases/s   per case p50 / p90 / p99\n", len(native.Results), runtime.GOMAXPROCS(0))
	row := func(name string, r *crdtest.Report) {
		p, f := r.Counts()
		d := durations(r)
		w("%-38s %9v %10.0f   %v / %v / %v   (%d pass, %d fail)\n", name, r.Duration.Round(time.Microsecond),
			float64(len(r.Results))/r.Duration.Seconds(), pct(d, 50), pct(d, 90), pct(d, 99), p, f)
	}
	row("crdlab (engine, parallel)", native)
	row("crdlab (engine, 1 at a time)", nativeSerial)
	row(fmt.Sprintf("kube-apiserver (parallel %d)", *parallel), real)
	w("CPU during the suite: kube-apiserver + etcd %v, the runner (client side) %v; crdlab test's whole process: see benchmarks/README.md\n",
		serverCPU.Round(10*time.Millisecond), runnerCPU.Round(10*time.Millisecond))
	w("\nratio (suite wall, API server / crdlab parallel): %.0fx; with start-up and CRD install: %.0fx\n",
		real.Duration.Seconds()/native.Duration.Seconds(),
		(real.Duration+c.started+b.installTime).Seconds()/native.Duration.Seconds())
	if d := disagreements(native, real); len(d) > 0 {
		w("\n%d verdicts differ:\n%s", len(d), strings.Join(d, "\n"))
	}
	writeOut(*out, report.String())
	return 0
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

type fatalError struct{ err error }

// fatal ends run with status 2 (through its deferred clean-up).
func fatal(err error) { panic(fatalError{err}) }

// selfCPU is this process's CPU time (user+system).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?\n"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?\n"
	}
	return strings.Join(f[:3], " ") + "\n"
}

func writeOut(path, s string) {
	if path != "" {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			fatal(err)
		}
	}
}

func durations(r *crdtest.Report) []time.Duration {
	var d []time.Duration
	for _, c := range r.Results {
		d = append(d, c.Duration)
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	v := d[(len(d)-1)*p/100]
	switch {
	case v > time.Millisecond:
		return v.Round(10 * time.Microsecond)
	case v > 10*time.Microsecond:
		return v.Round(time.Microsecond)
	}
	return v
}

// generatedName is a name the API server generated from generateName
// "test-" (quoted in errors, bare in YAML diffs); crdlab's runner names
// such objects test-xxxxx.
var generatedName = regexp.MustCompile(`\btest-[a-z0-9]{5}\b`)

func normalize(msg string) string { return generatedName.ReplaceAllString(msg, "test-xxxxx") }

// notObservable tells the failures of checks a Backend skips (the API does
// not expose pruned fields or CEL runtime costs).
func notObservable(r crdtest.CaseResult) bool {
	return strings.Contains(r.Message, "exceeds maxCost") || strings.Contains(r.Message, "pruned fields differ")
}

// key identifies a case: names repeat across files (and within one).
func key(r crdtest.CaseResult) string { return fmt.Sprintf("%s\x00%s:%d", r.Name, r.File, r.Line) }

func index(rep *crdtest.Report) map[string]crdtest.CaseResult {
	m := map[string]crdtest.CaseResult{}
	for _, r := range rep.Results {
		m[key(r)] = r
	}
	return m
}

// disagreements lists the cases whose verdict differs.
func disagreements(native, real *crdtest.Report) []string {
	byName := index(real)
	var out []string
	for _, n := range native.Results {
		r, ok := byName[key(n)]
		if !ok {
			out = append(out, "  not run against the API server: "+n.Name)
			continue
		}
		if r.Passed != n.Passed && !(r.Passed && notObservable(n)) {
			out = append(out, fmt.Sprintf("  %s (%s:%d)\n    crdlab: %s\n    kube-apiserver: %s", n.Name, n.File, n.Line, verdict(n), verdict(r)))
		}
	}
	return out
}

func verdict(r crdtest.CaseResult) string {
	if r.Passed {
		return "pass"
	}
	return "FAIL: " + strings.ReplaceAll(strings.TrimSpace(r.Message), "\n", "\n      ")
}

// compareReports prints the verdict comparison; the exit status is 1 when
// a verdict or a failure message differs.
func compareReports(w func(string, ...interface{}), native, real *crdtest.Report, report *strings.Builder, out string) int {
	np, nf := native.Counts()
	rp, rf := real.Counts()
	w("%d cases: crdlab %d pass / %d fail (%v); kube-apiserver %d pass / %d fail (%v)\n",
		len(native.Results), np, nf, native.Duration.Round(time.Millisecond), rp, rf, real.Duration.Round(time.Millisecond))
	for _, le := range real.LoadErrors {
		w("  not loaded: %s: %s\n", le.File, le.Err)
	}
	d := disagreements(native, real)
	// Cases failing both ways with different messages: crdlab's error or
	// stored object differs from the API server's, unless both reject the
	// CRD, or the errors are the same in another order.
	byName := index(real)
	var msgs []string
	crdRejected, reordered := 0, 0
	for _, n := range native.Results {
		r, ok := byName[key(n)]
		if !ok || n.Passed || r.Passed || normalize(n.Message) == normalize(r.Message) {
			continue
		}
		switch {
		case strings.Contains(n.Message, "the API server would reject the CRD") && strings.Contains(r.Message, "the API server rejected the CRD"):
			crdRejected++
		case sameErrors(normalize(n.Message), normalize(r.Message)):
			reordered++
		default:
			msgs = append(msgs, fmt.Sprintf("  %s (%s:%d)\n    crdlab: %s\n    kube-apiserver: %s", n.Name, n.File, n.Line, verdict(n), verdict(r)))
		}
	}
	skipped := 0
	for _, n := range native.Results {
		if r, ok := byName[key(n)]; ok && r.Passed && !n.Passed && notObservable(n) {
			skipped++
		}
	}
	w("both reject the CRD: %d cases; same errors in another order: %d cases\n", crdRejected, reordered)
	w("%d verdicts differ; %d cases fail both ways with different messages; %d fail with crdlab on a check the API does not expose (maxCost, expectedPruned)\n", len(d), len(msgs), skipped)
	if len(d) > 0 {
		w("\nverdicts that differ:\n%s\n", strings.Join(d, "\n"))
	}
	if len(msgs) > 0 {
		w("\nfailures whose messages differ:\n%s\n", strings.Join(msgs, "\n"))
	}
	writeOut(out, report.String())
	if len(d) > 0 || len(msgs) > 0 {
		return 1
	}
	return 0
}

// errorList matches the start of each error of an aggregate
// "[a.b: Invalid value: ..., c: Required value]".
var errorList = regexp.MustCompile(`, (?:[a-zA-Z<][\w.\[\]<>/-]*): `)

// sameErrors reports whether two messages differ only in the order of the
// errors of their aggregates ("... is invalid: [a: ..., b: ...]"):
// kube-apiserver's CEL validation visits an object's properties in Go map
// order, so sibling fields' CEL errors come in a different order from one
// request to the next.
func sameErrors(a, b string) bool {
	const marker = "is invalid: ["
	ia, ib := strings.LastIndex(a, marker), strings.LastIndex(b, marker)
	if ia < 0 || ib < 0 || a[:ia] != b[:ib] {
		return false
	}
	split := func(s string) []string {
		s = strings.TrimSpace(s[len(marker):])
		s = strings.TrimSuffix(s, "]")
		var parts []string
		last := 0
		for _, m := range errorList.FindAllStringIndex(s, -1) {
			parts = append(parts, s[last:m[0]])
			last = m[0] + 2
		}
		parts = append(parts, s[last:])
		sort.Strings(parts)
		return parts
	}
	pa, pb := split(a[ia:]), split(b[ib:])
	if len(pa) != len(pb) || len(pa) < 2 {
		return false
	}
	for i := range pa {
		if pa[i] != pb[i] {
			return false
		}
	}
	return true
}

package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/wire"
)

// runTest is `crdlab test [flags] PATH...`: it runs CRD validation test
// suites (OpenShift's *.testsuite.yaml and tests/<crdName>/*.yaml, and
// crdlab's sequences) with the engine; see package crdtest.
var testCommand = &command{
	name:    "test",
	summary: "Run CRD validation test suites",
	usage: `crdlab test [--crd FILE|DIR]... [--run REGEX] [-o text|json] [--junit FILE] PATH...
crdlab test --init CRD`,
	doc: `Run CRD validation test suites with the engine: OpenShift's
*.testsuite.yaml and tests/<crdName>/*.yaml, and crdlab's sequences,
server-side apply cases and admission cases (validating and mutating
admission policies; docs/test-format.md). --init writes a starter suite
for a CRD.`,
	example: `  crdlab test --crd config/crd/ tests/
  crdlab test --run 'ratchet' --junit report.xml tests/
  crdlab test -o json crdtest/testdata/k8s-docs/
  crdlab test --init config/crd/widgets.yaml > widgets.crdtest.yaml`,
	flags: func(fs *flag.FlagSet) { declareTest(fs, &testFlags{}) },
	run: func(c *command, args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runTest(c, args, stdout, stderr)
	},
}

type testFlags struct {
	runtimeFlags
	crds                          []string
	runRE, output, junit, initCRD string
	parallel                      int
	kube                          kubeVersionFlag
}

func declareTest(fs *flag.FlagSet, f *testFlags) {
	fs.StringArrayVar(&f.crds, "crd", nil, "a CRD `FILE` or directory the suites may use (repeatable)")
	fs.StringVar(&f.runRE, "run", "", "run only the cases whose name matches `REGEX`")
	fs.StringVarP(&f.output, "output", "o", "text", "output format: text or json")
	fs.StringVar(&f.junit, "junit", "", "also write a JUnit XML report to `FILE`")
	fs.IntVarP(&f.parallel, "parallel", "j", 0, "cases run at once (default: the number of CPUs)")
	fs.StringVar(&f.initCRD, "init", "", "write a starter suite for the CRD `FILE` to stdout instead of running suites")
	f.kube.declare(fs)
	f.runtimeFlags.declare(fs)
}

func runTest(c *command, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(c)
	var f testFlags
	declareTest(fs, &f)
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	crds, runRE, output, junit, parallel, initCRD := f.crds, &f.runRE, &f.output, &f.junit, &f.parallel, &f.initCRD
	if *initCRD != "" {
		data, err := os.ReadFile(*initCRD)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab test: %v\n", err)
			return exitUsage
		}
		out, err := crdtest.StarterSuite(data, *initCRD)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab test: %s: %v\n", *initCRD, err)
			return exitUsage
		}
		stdout.Write(out)
		return exitValid
	}
	var err error
	if *output, err = enum("output", *output, "text", "json"); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if err := f.runtimeFlags.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	// --kube-version overrides the suites' kubeVersion only when given;
	// a .crdlab.yaml's is the release of the suites that name none.
	kubeGiven := fs.Changed("kube-version") || c.step != nil
	if err := f.kube.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if len(f.kube.versions) > 1 && *junit != "" {
		return usageError(c, stderr, "--junit takes one release, not --kube-version %s", f.kube.asked)
	}
	if code, done := matrix(c, &f.kube, output, matrixWhole, args, nil, stdout, stderr); done {
		return code
	}
	if fs.NArg() == 0 {
		return usageError(c, stderr, "no suite files or directories given")
	}
	// Admission cases on built-in objects go through their kinds' request
	// path, at the release admission is evaluated at (crdtest runs
	// admission cases at the default release only).
	opts := crdtest.Options{CRDs: crds, Parallel: *parallel, Share: f.kube.share, Builtins: newBuiltinKinds(kubeversion.Release{})}
	switch {
	case kubeGiven:
		opts.KubeVersion = f.kube.version
	case f.kube.given():
		opts.DefaultKubeVersion = f.kube.version
	}
	if *runRE != "" {
		re, err := regexp.Compile(*runRE)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab test: -run: %v\n", err)
			return exitUsage
		}
		opts.Run = re
	}
	var rep *crdtest.Report
	if f.wasm() {
		rep, err = wasmTest(f.module, crds, *runRE, opts.KubeVersion, opts.DefaultKubeVersion, fs.Args())
	} else {
		rep, err = crdtest.RunPaths(opts, fs.Args()...)
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdlab test: %v\n", err)
		return exitUsage
	}
	if len(rep.Results) == 0 && len(rep.LoadErrors) == 0 {
		fmt.Fprintln(stderr, "crdlab test: warning: no test cases found (or none matched -run)")
	}
	if *junit != "" {
		if err := writeJUnit(*junit, rep); err != nil {
			fmt.Fprintf(stderr, "crdlab test: --junit: %v\n", err)
			return exitUsage
		}
	}
	if *output == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep.Wire()); err != nil {
			return exitUsage
		}
	} else {
		printTestText(rep, stdout)
	}
	switch {
	case len(rep.LoadErrors) > 0:
		return exitUsage
	case !rep.OK():
		return exitInvalid
	}
	return exitValid
}

// admissionSummary is an admission case's outcome on one line: allowed
// (with its warnings and audit annotations) or refused (reason, code and
// the status message's first line).
func admissionSummary(a *wire.AdmissionOutcome) string {
	var b strings.Builder
	if a.Allowed {
		b.WriteString("allowed")
	} else {
		fmt.Fprintf(&b, "refused (%s, %d): %s", a.Reason, a.Code, strings.SplitN(a.Message, "\n", 2)[0])
	}
	if n := len(a.Warnings); n > 0 {
		fmt.Fprintf(&b, "; %d warning", n)
		if n > 1 {
			b.WriteString("s")
		}
	}
	if len(a.AuditAnnotations) > 0 {
		keys := keys.Sorted(a.AuditAnnotations)
		b.WriteString("; audit annotations:")
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%q", k, a.AuditAnnotations[k])
		}
	}
	return b.String()
}

// printTestText prints go test -v's shape: a line per case, the failure
// indented under it, then a summary.
func printTestText(rep *crdtest.Report, w io.Writer) {
	for _, le := range rep.LoadErrors {
		fmt.Fprintf(w, "--- ERROR: %s\n", le.Err)
	}
	for _, r := range rep.Results {
		status := "PASS"
		if !r.Passed {
			status = "FAIL"
		}
		fmt.Fprintf(w, "--- %s: %s (%.3fs)\n", status, r.Name, r.Duration.Seconds())
		if a := r.Admission; a != nil {
			fmt.Fprintf(w, "    admission: %s\n", admissionSummary(a))
		}
		if !r.Passed {
			fmt.Fprintf(w, "    %s:%d: %s\n", r.File, r.Line, strings.ReplaceAll(strings.TrimRight(r.Message, "\n"), "\n", "\n        "))
		}
	}
	passed, failed := rep.Counts()
	verdict := "PASS"
	if !rep.OK() {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "%s: %d passed, %d failed", verdict, passed, failed)
	if len(rep.LoadErrors) > 0 {
		fmt.Fprintf(w, ", %d suite files not loaded", len(rep.LoadErrors))
	}
	fmt.Fprintf(w, " (%.3fs)\n", rep.Duration.Seconds())
}

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes one <testsuite> per suite file.
func writeJUnit(path string, rep *crdtest.Report) error {
	var out junitSuites
	index := map[string]int{}
	suite := func(file string) *junitSuite {
		i, ok := index[file]
		if !ok {
			i = len(out.Suites)
			index[file] = i
			out.Suites = append(out.Suites, junitSuite{Name: file})
		}
		return &out.Suites[i]
	}
	for _, le := range rep.LoadErrors {
		s := suite(le.File)
		s.Tests++
		s.Errors++
		s.Cases = append(s.Cases, junitCase{Name: "load", Classname: le.File, Time: "0", Error: &junitFailure{Message: "suite file not loaded", Text: le.Err}})
	}
	for _, r := range rep.Results {
		s := suite(r.File)
		s.Tests++
		c := junitCase{Name: r.Name, Classname: r.File, Time: fmt.Sprintf("%.6f", r.Duration.Seconds())}
		if !r.Passed {
			s.Failures++
			first := strings.SplitN(r.Message, "\n", 2)[0]
			c.Failure = &junitFailure{Message: first, Text: fmt.Sprintf("%s:%d: %s", r.File, r.Line, r.Message)}
		}
		s.Cases = append(s.Cases, c)
	}
	data, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(data, '\n')...), 0o644)
}

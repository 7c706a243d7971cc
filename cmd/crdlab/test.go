package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/crdlab/crdlab/crdtest"
)

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// runTest is `crdlab test [flags] PATH...`: it runs CRD validation test
// suites (OpenShift's *.testsuite.yaml and tests/<crdName>/*.yaml, and
// crdlab's sequences) with the engine; see package crdtest.
func runTest(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("test", stderr)
	var crds stringList
	fs.Var(&crds, "crd", "a CRD `FILE` or directory the suites may use (repeatable)")
	runRE := fs.String("run", "", "run only the cases whose name matches `REGEX`")
	output := fs.String("o", "text", "output format: text or json")
	junit := fs.String("junit", "", "also write a JUnit XML report to `FILE`")
	parallel := fs.Int("parallel", 0, "cases run at once (default: the number of CPUs)")
	initCRD := fs.String("init", "", "write a starter suite for the CRD `FILE` to stdout instead of running suites")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
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
	if !checkOutput(*output, stderr) {
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "crdlab test: no suite files or directories given")
		return exitUsage
	}
	opts := crdtest.Options{CRDs: crds, Parallel: *parallel}
	if *runRE != "" {
		re, err := regexp.Compile(*runRE)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab test: -run: %v\n", err)
			return exitUsage
		}
		opts.Run = re
	}
	rep, err := crdtest.RunPaths(opts, fs.Args()...)
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
		type result struct {
			crdtest.CaseResult
			Seconds float64 `json:"seconds"`
		}
		passed, failed := rep.Counts()
		out := struct {
			Results    []result            `json:"results"`
			LoadErrors []crdtest.LoadError `json:"loadErrors"`
			Passed     int                 `json:"passed"`
			Failed     int                 `json:"failed"`
			Seconds    float64             `json:"seconds"`
		}{Results: []result{}, LoadErrors: rep.LoadErrors, Passed: passed, Failed: failed, Seconds: rep.Duration.Seconds()}
		for _, r := range rep.Results {
			out.Results = append(out.Results, result{r, r.Duration.Seconds()})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
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

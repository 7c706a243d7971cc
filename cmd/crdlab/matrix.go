package main

// The --kube-version matrix: one invocation gives the verdict of several
// Kubernetes releases. The command runs once per release (oldest first)
// with its output captured, every run compiling through one
// engine.CompileShare, so the compile work that does not depend on the
// release is done once; then the runs are written together:
//
//   - text: for validate and lint, each file/object once, its releases
//     grouped by identical result ("1.36–1.37: ..." then "1.35: ...");
//     for the other commands, the whole output once per group of
//     releases with an identical one;
//   - json, yaml: one envelope, matrixReport, holding each release's
//     report as the command writes it alone.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/cli/report"
	"github.com/crdlab/crdlab/wire"
)

// matrixStep is one release's run of a matrix (command.step).
type matrixStep struct {
	version string
	output  string
	share   *engine.CompileShare
}

// matrixReport is `-o json` of a matrix: the releases asked for (oldest
// first), those whose verdict is a rejection, and one result per release.
type matrixReport struct {
	KubeVersions []string       `json:"kubeVersions"`
	Failed       []string       `json:"failed"`
	Results      []matrixResult `json:"results"`
}

// matrixResult is one release's verdict: its status ("valid" when the
// command exits 0 at that release, else "invalid") and the command's own
// -o json report at that release.
type matrixResult struct {
	KubeVersion string          `json:"kubeVersion"`
	Status      wire.RunStatus  `json:"status"`
	Report      json.RawMessage `json:"report"`
}

// matrixKind says how a command's text output is grouped.
type matrixKind int

const (
	// matrixRuns: the command writes a wire.RunReport (validate, lint):
	// grouped per file/object.
	matrixRuns matrixKind = iota
	// matrixWhole: any other report: grouped as a whole.
	matrixWhole
)

// matrix handles --kube-version for a command whose flags are parsed and
// checked (k, output): within a matrix run, it sets the run's release,
// output and share and returns done=false; when several releases were
// asked for, it runs the matrix and returns its exit status with
// done=true; otherwise it does nothing.
func matrix(c *command, k *kubeVersionFlag, output *string, kind matrixKind, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, done bool) {
	if c.step != nil {
		k.version, k.versions, k.share = c.step.version, []string{c.step.version}, c.step.share
		if output != nil {
			*output = c.step.output
		}
		return 0, false
	}
	if len(k.versions) < 2 {
		return 0, false
	}
	format := "text"
	if output != nil {
		format = *output
	}
	if format != "text" && format != "json" && format != "yaml" {
		return usageError(c, stderr, "--kube-version %s (several releases) supports -o text, json or yaml, not %s", k.asked, format), true
	}
	return runMatrix(c, k.versions, format, kind, args, stdin, stdout, stderr), true
}

// runMatrix runs c once per release and writes the runs together.
func runMatrix(c *command, versions []string, format string, kind matrixKind, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	asc := append([]string(nil), versions...)
	sort.Slice(asc, func(i, j int) bool { return minorOf(asc[i]) < minorOf(asc[j]) })
	in := &sharedInput{r: stdin}
	share := engine.NewCompileShare()
	type run struct {
		version        string
		code           int
		stdout, stderr bytes.Buffer
	}
	runs := make([]*run, len(asc))
	status := exitValid
	for i, v := range asc {
		out := "json"
		if format == "text" && kind == matrixWhole {
			out = "text"
		}
		step := *c
		step.step = &matrixStep{version: v, output: out, share: share}
		r := &run{version: v}
		r.code = step.run(&step, args, in.reader(), &r.stdout, &r.stderr)
		runs[i] = r
		if r.code == exitUsage {
			// Input and usage errors do not depend on the release:
			// reported once, as the command alone reports them.
			_, _ = io.Copy(stdout, &r.stdout)
			_, _ = io.Copy(stderr, &r.stderr)
			return r.code
		}
		if r.code != exitValid {
			status = exitInvalid
		}
	}
	if format != "text" {
		rep := matrixReport{KubeVersions: asc, Failed: []string{}}
		for _, r := range runs {
			st := wire.StatusValid
			if r.code != exitValid {
				st = wire.StatusInvalid
				rep.Failed = append(rep.Failed, r.version)
			}
			raw := bytes.TrimSpace(r.stdout.Bytes())
			if !json.Valid(raw) {
				return reportInputError(stderr, fmt.Errorf("crdlab %s at %s: no JSON report (%s)", c.name, r.version, strings.TrimSpace(r.stderr.String())))
			}
			rep.Results = append(rep.Results, matrixResult{KubeVersion: r.version, Status: st, Report: raw})
		}
		if err := writeStructured(format, stdout, rep); err != nil {
			return reportInputError(stderr, err)
		}
		return status
	}
	if kind == matrixWhole {
		texts := make([]string, len(runs))
		for i, r := range runs {
			// Timings (crdlab test's) do not tell releases apart.
			texts[i] = durationRE.ReplaceAllString(r.stdout.String()+r.stderr.String(), "")
		}
		writeGroups(stdout, asc, texts, "")
		return status
	}
	reports := make([]wire.RunReport, len(runs))
	for i, r := range runs {
		if err := json.Unmarshal(r.stdout.Bytes(), &reports[i]); err != nil {
			return reportInputError(stderr, fmt.Errorf("crdlab %s at %s: %v (%s)", c.name, r.version, err, strings.TrimSpace(r.stderr.String())))
		}
	}
	if err := writeRunMatrix(stdout, asc, reports); err != nil {
		return reportInputError(stderr, err)
	}
	return status
}

// durationRE matches a timing as crdlab test writes it: " (0.001s)".
var durationRE = regexp.MustCompile(` \([0-9.]+(ns|µs|ms|s|m)\)`)

// writeRunMatrix writes the run reports of the releases entry by entry:
// each file/object's heading, then its text result once per group of
// releases with an identical one.
func writeRunMatrix(w io.Writer, versions []string, reports []wire.RunReport) error {
	n := 0
	for _, r := range reports {
		if len(r.Results) > n {
			n = len(r.Results)
		}
	}
	for i := 0; i < n; i++ {
		texts := make([]string, len(reports))
		var head *wire.RunEntry
		for j := range reports {
			if i >= len(reports[j].Results) {
				texts[j] = "(no result)\n"
				continue
			}
			e := reports[j].Results[i]
			if head == nil {
				head = &e
			}
			var b bytes.Buffer
			if err := report.Write("text", &wire.RunReport{Results: []wire.RunEntry{e}}, &b, &b, report.Options{}); err != nil {
				return err
			}
			texts[j] = b.String()
		}
		fmt.Fprintf(w, "%s:%d: %s\n", head.File, head.Line, entryName(head))
		writeGroups(w, versions, texts, "  ")
	}
	// The counts, grouped as the results are.
	counts := make([]string, len(reports))
	for j, r := range reports {
		s := r.Summary
		counts[j] = fmt.Sprintf("%d valid, %d invalid, %d skipped, %d errors", s.Valid, s.Invalid, s.Skipped, s.Errors)
		if s.Partial > 0 {
			counts[j] += fmt.Sprintf(", %d partial", s.Partial)
		}
	}
	fmt.Fprintln(w, "Summary:")
	writeGroups(w, versions, counts, "  ")
	return nil
}

// entryName is "Kind name" or "Kind namespace/name".
func entryName(e *wire.RunEntry) string {
	name := e.Name
	if e.Namespace != "" {
		name = e.Namespace + "/" + name
	}
	if name == "" {
		name = "(no name)"
	}
	if e.Kind == "" {
		return name
	}
	return e.Kind + " " + name
}

// writeGroups writes texts[i] (the output at versions[i]) once per group
// of releases with the same text, in the order of each group's first
// release: "1.36–1.37: first line", the next lines indented under it.
func writeGroups(w io.Writer, versions, texts []string, indent string) {
	done := make([]bool, len(texts))
	for i := range texts {
		if done[i] {
			continue
		}
		var group []string
		for j := i; j < len(texts); j++ {
			if !done[j] && texts[j] == texts[i] {
				done[j] = true
				group = append(group, versions[j])
			}
		}
		label := versionSpan(group) + ": "
		lines := strings.Split(strings.TrimRight(texts[i], "\n"), "\n")
		pad := indent + strings.Repeat(" ", len([]rune(label)))
		for k, l := range lines {
			if k == 0 {
				fmt.Fprintf(w, "%s%s%s\n", indent, label, l)
				continue
			}
			if l == "" {
				fmt.Fprintln(w)
				continue
			}
			fmt.Fprintf(w, "%s%s\n", pad, l)
		}
	}
}

// versionSpan writes releases (oldest first) compactly: consecutive ones
// as a range "1.35–1.37", others separated by commas.
func versionSpan(vs []string) string {
	var parts []string
	for i := 0; i < len(vs); {
		j := i
		for j+1 < len(vs) && minorOf(vs[j+1]) == minorOf(vs[j])+1 {
			j++
		}
		if j == i {
			parts = append(parts, vs[i])
		} else {
			parts = append(parts, vs[i]+"–"+vs[j])
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// minorOf is the minor of "1.<minor>" (the releases ParseKubeVersions
// returns).
func minorOf(v string) int {
	m, _ := strconv.Atoi(strings.TrimPrefix(v, "1."))
	return m
}

// sharedInput gives each run of a matrix the same standard input: read
// once, when a run first reads it (a run that does not read it never
// blocks on it).
type sharedInput struct {
	r    io.Reader
	once sync.Once
	data []byte
	err  error
}

func (s *sharedInput) reader() io.Reader {
	if s.r == nil {
		return nil
	}
	return &inputCopy{s: s}
}

type inputCopy struct {
	s   *sharedInput
	off int
}

func (c *inputCopy) Read(p []byte) (int, error) {
	c.s.once.Do(func() { c.s.data, c.s.err = io.ReadAll(c.s.r) })
	if c.off >= len(c.s.data) {
		if c.s.err != nil {
			return 0, c.s.err
		}
		return 0, io.EOF
	}
	n := copy(p, c.s.data[c.off:])
	c.off += n
	return n, nil
}

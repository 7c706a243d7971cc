// Command corpus-matrix writes docs/reports/corpus-matrix.md (`make
// corpus-matrix`): every CRD of the real-world corpus (scripts/corpus.sh)
// and Gateway API's example objects, through the upstream oracle of every
// Kubernetes release in conformance/versions (the real
// k8s.io/apiextensions-apiserver of that release), with, per CRD, the
// releases that accept it and, for each rejection, the API server's error.
// At the releases crdlab reproduces (engine.SupportedKubeVersions), crdlab
// runs beside the oracle through one engine.CompileShare, as `crdlab lint
// --kube-version` does, and any difference is counted and listed.
//
//	go run ./cmd/corpus-matrix [-o ../docs/reports/corpus-matrix.md] [-versions versions]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/crdlab/crdlab/conformance"
	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
)

func main() {
	out := flag.String("o", "", "write the report to this file (default stdout)")
	versionsDir := flag.String("versions", "versions", "the oracle modules' directory")
	flag.Parse()
	if err := run(*out, *versionsDir); err != nil {
		fmt.Fprintln(os.Stderr, "corpus-matrix:", err)
		os.Exit(1)
	}
}

// input is one request of the matrix: a CRD alone, or an example object
// against its CRD.
type input struct {
	name    string
	project string
	req     upstream.Request
	example bool
}

// verdict is one input at one release.
type verdict struct {
	ok      bool
	message string // the first error (or the request's error)
	differs string // at a release crdlab reproduces: how crdlab's outcome differs
}

func run(out, versionsDir string) error {
	dirs, err := conformance.CorpusDirs()
	if err != nil {
		return err
	}
	corp, err := conformance.LoadCorpus(dirs)
	if err != nil {
		return err
	}
	var inputs []input
	for _, c := range corp.CRDs {
		inputs = append(inputs, input{name: c.Doc.Name, project: project(c.Doc.Name), req: c.Request(nil)})
	}
	for _, e := range corp.Examples {
		inputs = append(inputs, input{name: e.Doc.Name, project: project(e.CRD.Doc.Name), req: e.CRD.Request(e.Object), example: true})
	}
	versions, err := conformance.OracleVersions(versionsDir)
	if err != nil {
		return err
	}
	sort.Slice(versions, func(i, j int) bool { return versions[i].Minor < versions[j].Minor })
	tmp, err := os.MkdirTemp("", "crdlab-oracles-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	supported := engine.SupportedKubeVersions()
	start := time.Now()
	results := make([][]verdict, len(versions)) // [version][input]
	errs := make([]error, len(versions))
	var wg sync.WaitGroup
	for i, v := range versions {
		bin := filepath.Join(tmp, "oracle-"+v.Name())
		if err := conformance.BuildOracle(v, bin); err != nil {
			return err
		}
		wg.Add(1)
		go func(i int, v conformance.OracleVersion) {
			defer wg.Done()
			o, err := conformance.StartOracle(bin)
			if err != nil {
				errs[i] = err
				return
			}
			defer o.Close()
			share := engine.NewCompileShare()
			rs := make([]verdict, len(inputs))
			for j, in := range inputs {
				up := conformance.CanonicalPointers(conformance.Deterministic(o.Run(in.name, in.req)))
				rs[j] = verdictOf(up, in.example)
				if slices.Contains(supported, v.Name()) {
					cl := conformance.Deterministic(conformance.RunCrdlabShared(in.req, v.Name(), share))
					if d := conformance.Compare(up, cl, nil); d != "" {
						rs[j].differs = firstLine(d)
					}
				}
			}
			results[i] = rs
		}(i, v)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "corpus-matrix: %d inputs x %d releases in %s\n", len(inputs), len(versions), time.Since(start).Round(time.Second))
	report := render(inputs, versions, results, supported, corp)
	if out == "" {
		_, err = os.Stdout.Write(report)
		return err
	}
	return os.WriteFile(out, report, 0o644)
}

// project is the corpus module a document belongs to (its name's first part).
func project(name string) string {
	if i := strings.Index(name, "@"); i >= 0 {
		return name[:i]
	}
	return name
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// verdictOf reads an oracle outcome: the CRD's verdict, or for an example
// the object's.
func verdictOf(o conformance.Outcome, example bool) verdict {
	if o.Err != nil {
		return verdict{message: firstLine(o.Err.Error())}
	}
	// The normalized report: the same after every run (upstream's pointer
	// addresses and random type names canonicalized).
	b, err := json.Marshal(o.Report)
	if err != nil {
		return verdict{message: "unreadable report: " + err.Error()}
	}
	rep := &wire.Report{}
	if err := json.Unmarshal(b, rep); err != nil {
		return verdict{message: "unreadable report: " + err.Error()}
	}
	if len(rep.CRD.Errors) > 0 {
		return verdict{message: rep.CRD.Errors[0].Message}
	}
	if !example {
		return verdict{ok: true}
	}
	if rep.Object == nil {
		return verdict{message: "no object report"}
	}
	if rep.Object.DecodeError != "" {
		return verdict{message: rep.Object.DecodeError}
	}
	if len(rep.Object.Errors) > 0 {
		return verdict{message: rep.Object.Errors[0].Message}
	}
	return verdict{ok: true}
}

const maxMessage = 600

// clip puts a message on one line (⏎ marks its line breaks: CEL's
// compile errors span several) and shortens it in its middle: the field path is at its start,
// the reason at its end (older releases print the whole rule struct
// between them).
func clip(s string) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ⏎ ")), " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	if len(s) > maxMessage {
		return s[:maxMessage/3] + " … " + s[len(s)-2*maxMessage/3:]
	}
	return s
}

func render(inputs []input, versions []conformance.OracleVersion, results [][]verdict, supported []string, corp *conformance.Corpus) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The corpus across Kubernetes releases\n\n")
	fmt.Fprintf(&b, "Generated by `make corpus-matrix` (conformance/cmd/corpus-matrix); do not edit. Every\n")
	fmt.Fprintf(&b, "distinct CRD of the real-world corpus (`scripts/corpus.sh`: %s) as shipped, CEL rules\n", strings.Join(projects(inputs), ", "))
	fmt.Fprintf(&b, "included, and Gateway API's example objects against their CRDs, through the upstream oracle of\n")
	fmt.Fprintf(&b, "each release (`conformance/versions`: the real `k8s.io/apiextensions-apiserver` of the\n")
	fmt.Fprintf(&b, "release with the dependencies it resolves). A CRD is *accepted* when the API server would\n")
	fmt.Fprintf(&b, "create it; an example when it would store it. At %s, the releases `--kube-version` accepts,\n", strings.Join(supported, ", "))
	fmt.Fprintf(&b, "crdlab runs beside the oracle (one `engine.CompileShare` across inputs, as a matrix run)\n")
	fmt.Fprintf(&b, "and every difference is counted below; older releases are the oracle's verdicts alone.\n\n")
	fmt.Fprintf(&b, "| release | CRDs accepted | examples accepted | crdlab differs |\n|---|---|---|---|\n")
	nCRD, nEx := 0, 0
	for _, in := range inputs {
		if in.example {
			nEx++
		} else {
			nCRD++
		}
	}
	for i, v := range versions {
		crds, ex, diff := 0, 0, 0
		for j, in := range inputs {
			r := results[i][j]
			if r.ok && in.example {
				ex++
			} else if r.ok {
				crds++
			}
			if r.differs != "" {
				diff++
			}
		}
		d := "not reproduced"
		if slices.Contains(supported, v.Name()) {
			d = fmt.Sprint(diff)
		}
		fmt.Fprintf(&b, "| %s | %d of %d | %d of %d | %s |\n", v.Name(), crds, nCRD, ex, nEx, d)
	}
	skipped := 0
	for _, n := range corp.Skips {
		skipped += len(n)
	}
	fmt.Fprintf(&b, "\n%d CRDs and %d examples; %d documents left out (templates, other API versions, examples without a CRD).\n\n", nCRD, nEx, skipped)

	kindOf := func(in input) string {
		if in.example {
			return "example"
		}
		return "CRD"
	}
	fmt.Fprintf(&b, "## Inputs whose verdict depends on the release\n\n")
	fmt.Fprintf(&b, "Each lists its releases grouped by verdict, and the API server's first error.\n\n")
	var always []int
	depends := 0
	for j, in := range inputs {
		groups := groupVerdicts(versions, results, j)
		if len(groups) == 1 {
			if !groups[0].v.ok {
				always = append(always, j)
			}
			continue
		}
		depends++
		fmt.Fprintf(&b, "### `%s` (%s)\n\n", in.name, kindOf(in))
		for _, g := range groups {
			if g.v.ok {
				fmt.Fprintf(&b, "- %s: accepted\n", g.releases)
			} else {
				fmt.Fprintf(&b, "- %s: rejected: %s\n", g.releases, clip(g.v.message))
			}
		}
		b.WriteString("\n")
	}
	if depends == 0 {
		fmt.Fprintf(&b, "None.\n\n")
	}
	fmt.Fprintf(&b, "## Inputs every release rejects\n\n")
	fmt.Fprintf(&b, "Mostly not whole CRDs: kustomize patches and test fixtures that the corpus's file\n")
	fmt.Fprintf(&b, "pattern picks up. The API server's first error, the same at every release:\n\n")
	for _, j := range always {
		fmt.Fprintf(&b, "- `%s` (%s): %s\n", inputs[j].name, kindOf(inputs[j]), clip(results[0][j].message))
	}
	if len(always) == 0 {
		fmt.Fprintf(&b, "None.\n")
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "## Differences between crdlab and the oracle\n\n")
	diffs := 0
	for i, v := range versions {
		for j, in := range inputs {
			if d := results[i][j].differs; d != "" {
				diffs++
				fmt.Fprintf(&b, "- %s `%s`: %s\n", v.Name(), in.name, clip(d))
			}
		}
	}
	if diffs == 0 {
		fmt.Fprintf(&b, "None at %s.\n", strings.Join(supported, ", "))
	}
	return b.Bytes()
}

func projects(inputs []input) []string {
	seen := map[string]bool{}
	var out []string
	for _, in := range inputs {
		if !seen[in.project] {
			seen[in.project] = true
			out = append(out, in.project)
		}
	}
	sort.Strings(out)
	return out
}

type group struct {
	releases string
	v        verdict
}

// groupVerdicts groups the releases (oldest first) with the same verdict.
func groupVerdicts(versions []conformance.OracleVersion, results [][]verdict, j int) []group {
	var out []group
	idx := map[string]int{}
	var names [][]string
	for i, v := range versions {
		r := results[i][j]
		key := fmt.Sprintf("%v\x00%s", r.ok, r.message)
		k, ok := idx[key]
		if !ok {
			k = len(out)
			idx[key] = k
			out = append(out, group{v: verdict{ok: r.ok, message: r.message}})
			names = append(names, nil)
		}
		names[k] = append(names[k], v.Name())
	}
	for k := range out {
		out[k].releases = strings.Join(names[k], ", ")
	}
	return out
}

// Command celcosts asks whether the CEL cost model predicts time: it runs
// every x-kubernetes-validations rule of the corpus (scripts/corpus.sh) on
// objects generated from each CRD's schema with every list at 1, 10, 100
// and maxItems items, records the runtime cost units and the wall time of
// each rule (package cost's Benchmark), and writes cel-costs.md with two
// SVG plots (make cel-costs).
//
//	go run ./cmd/celcosts [-out DIR] [-duration 5ms] [-samples 5] [-corpus DIR,...]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/parser"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/benchmarks"
	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/unstructured"
	"github.com/crdlab/crdlab/internal/yamldoc"
)

// sizes are the list sizes of the generated objects; 0 is each list's
// maxItems (capped at maxListItems).
var sizes = []int{1, 10, 100, 0}

const (
	// maxListItems caps a list at the "maxItems" size (unbounded lists too).
	maxListItems = 1000
	// nestedCap caps the lists inside a scaled list (100 × 100 × ... would
	// exceed the request size).
	nestedCap = 10
	// minUnits: points with fewer cost units are left out of the rankings
	// (a fixed per-evaluation overhead dominates them) but not of the plot.
	minUnits = 10
)

// genOpts are the generator's options (-depth, -nodes).
var genOpts = benchmarks.DefaultGenerateOptions

func sizeName(n int) string {
	if n == 0 {
		return "max"
	}
	return fmt.Sprint(n)
}

// sample is one rule on one object.
type sample struct {
	project, crd, errorPath, dataPath, field, expr, size string
	evals                                                int
	units                                                uint64
	ns                                                   float64
}

func (s sample) nsPerUnit() float64 { return s.ns / float64(s.units) }

func main() {
	out := flag.String("out", ".", "directory for cel-costs.md and the SVG plots")
	duration := flag.Duration("duration", 5*time.Millisecond, "time spent timing each rule on each object")
	samples := flag.Int("samples", 5, "timed batches per figure")
	corpus := flag.String("corpus", "", "comma-separated module directories (default: what ../scripts/corpus.sh prints)")
	script := flag.String("script", "../scripts/corpus.sh", "the corpus script")
	flag.IntVar(&genOpts.OptionalDepth, "depth", genOpts.OptionalDepth, "generate optional properties down to this depth")
	flag.IntVar(&genOpts.MaxNodes, "nodes", genOpts.MaxNodes, "at most this many values per generated object (before scaling the lists)")
	flag.Parse()

	var dirs []string
	if *corpus != "" {
		dirs = strings.Split(*corpus, ",")
	} else {
		o, err := exec.Command("bash", *script).Output()
		if err != nil && len(o) == 0 {
			fatalf("%s: %v", *script, err)
		}
		for _, d := range strings.Split(string(o), "\n") {
			if d = strings.TrimSpace(d); d != "" {
				dirs = append(dirs, d)
			}
		}
	}
	start := time.Now()
	opts := cost.BenchOptions{Duration: *duration, Samples: *samples}
	var all []sample
	seen := map[string]bool{}
	var crds, rules, skipped, notEvaluated, transitions int
	perProject := map[string]*projectStats{}
	var skippedNotes []string
	for _, dir := range dirs {
		project := projectName(dir)
		for _, doc := range crdDocs(dir) {
			def, err := crd.DecodeOne(doc, "")
			if err != nil || seen[def.Metadata.Name] {
				continue
			}
			seen[def.Metadata.Name] = true
			static, err := cost.Analyze(def)
			if err != nil || len(static.Rules) == 0 {
				continue
			}
			crds++
			rules += len(static.Rules)
			ps := perProject[project]
			if ps == nil {
				ps = &projectStats{}
				perProject[project] = ps
			}
			ps.crds++
			ps.rules += len(static.Rules)
			objects, err := objectsAtSizes(doc)
			if err != nil {
				skipped++
				skippedNotes = append(skippedNotes, fmt.Sprintf("%s: %v", def.Metadata.Name, err))
				continue
			}
			br, err := cost.Benchmark(def, objects, opts)
			if err != nil {
				skipped++
				skippedNotes = append(skippedNotes, fmt.Sprintf("%s: %v", def.Metadata.Name, err))
				continue
			}
			evaluated := map[int]bool{}
			for _, r := range br.Rules {
				if r.Evaluations > 0 {
					evaluated[r.Rule] = true
				}
				if r.Timing == nil || r.Cost == 0 {
					continue
				}
				all = append(all, sample{project: project, crd: def.Metadata.Name, errorPath: r.ErrorPath, dataPath: r.DataPath,
					field: r.Field, expr: r.Expression, size: sizeName(sizes[r.Object]), evals: r.Evaluations, units: r.Cost, ns: r.Timing.MedianNs})
			}
			notEvaluated += len(static.Rules) - len(evaluated)
			for i, r := range static.Rules {
				if !evaluated[i] && strings.Contains(static.Rules[i].Expression, "oldSelf") || (r.Field == "messageExpression" && !evaluated[i] && i > 0 && strings.Contains(static.Rules[i-1].Expression, "oldSelf")) {
					transitions++
				}
			}
			fmt.Fprintf(os.Stderr, "%s %s: %d rules, %d samples so far (%s)\n", project, def.Metadata.Name, len(static.Rules), len(all), time.Since(start).Round(time.Second))
		}
	}
	if len(all) == 0 {
		fatalf("no samples: is the corpus there? (%s)", *script)
	}
	for _, d := range dirs {
		if perProject[projectName(d)] == nil {
			perProject[projectName(d)] = &projectStats{}
		}
	}
	run := runInfo{crds: crds, rules: rules, notEvaluated: notEvaluated, transitions: transitions, notes: skippedNotes, elapsed: time.Since(start),
		duration: *duration, samples: *samples, projects: perProject}
	if err := write(*out, all, run); err != nil {
		fatalf("%v", err)
	}
}

type projectStats struct{ crds, rules int }

// runInfo is what the report says about the run besides the samples.
type runInfo struct {
	crds, rules, notEvaluated int
	transitions               int
	notes                     []string
	elapsed, duration         time.Duration
	samples                   int
	projects                  map[string]*projectStats
}

func fatalf(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "celcosts: "+format+"\n", args...)
	os.Exit(1)
}

// projectName turns a module cache directory into a short project name.
func projectName(dir string) string {
	base := filepath.Base(dir)
	if i := strings.Index(base, "@"); i >= 0 {
		base = base[:i]
	}
	if base == "v3" { // github.com/argoproj/argo-cd/v3
		base = filepath.Base(filepath.Dir(dir))
	}
	return base
}

// crdDocs lists the CustomResourceDefinition documents of the YAML files
// under dir, sorted by path.
func crdDocs(dir string) [][]byte {
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(data, []byte("kind: CustomResourceDefinition")) || !bytes.Contains(data, []byte("x-kubernetes-validations")) {
			continue
		}
		docs, err := yamldoc.Split(data)
		if err != nil {
			continue
		}
		for _, d := range docs {
			var tm struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
			}
			if yaml.Unmarshal(d.Data, &tm) == nil && tm.Kind == "CustomResourceDefinition" && strings.HasPrefix(tm.APIVersion, "apiextensions.k8s.io/") {
				out = append(out, d.Data)
			}
		}
	}
	return out
}

// objectsAtSizes generates an object for the CRD's storage version and
// scales its lists to each of sizes.
func objectsAtSizes(doc []byte) ([][]byte, error) {
	obj, err := benchmarks.Generate(doc, genOpts)
	if err != nil {
		return nil, err
	}
	root, err := storageSchema(doc)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, n := range sizes {
		scaled := scale(unstructured.DeepCopy(obj), root, n, false)
		data, err := json.Marshal(scaled)
		if err != nil {
			return nil, err
		}
		out = append(out, data)
	}
	return out, nil
}

func storageSchema(doc []byte) (map[string]interface{}, error) {
	var c struct {
		Spec struct {
			Versions []struct {
				Storage bool `json:"storage"`
				Schema  *struct {
					OpenAPIV3Schema map[string]interface{} `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(doc, &c); err != nil {
		return nil, err
	}
	for _, v := range c.Spec.Versions {
		if v.Storage && v.Schema != nil {
			return v.Schema.OpenAPIV3Schema, nil
		}
	}
	return nil, fmt.Errorf("no storage version schema")
}

// scale sets every list of v (described by s) to n items (0: its
// maxItems), copying its items; lists inside a scaled list get at most
// nestedCap. Items are copied as they are: the rules run whether or not
// the copies break list-type uniqueness.
func scale(v interface{}, s map[string]interface{}, n int, nested bool) interface{} {
	if s == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]interface{}:
		props, _ := s["properties"].(map[string]interface{})
		addl, _ := s["additionalProperties"].(map[string]interface{})
		for k, e := range x {
			if ps, ok := props[k].(map[string]interface{}); ok {
				x[k] = scale(e, ps, n, nested)
			} else if addl != nil {
				x[k] = scale(e, addl, n, nested)
			}
		}
		return x
	case []interface{}:
		items, _ := s["items"].(map[string]interface{})
		if len(x) == 0 {
			return x
		}
		target := n
		if maxV, ok := s["maxItems"].(float64); ok && (target == 0 || int(maxV) < target) {
			target = int(maxV)
		}
		if target == 0 || target > maxListItems {
			target = maxListItems
		}
		if nested && target > nestedCap {
			target = nestedCap
		}
		if minV, ok := s["minItems"].(float64); ok && target < int(minV) {
			target = int(minV)
		}
		out := make([]interface{}, 0, target)
		for i := 0; i < target; i++ {
			out = append(out, scale(unstructured.DeepCopy(x[i%len(x)]), items, n, true))
		}
		return out
	}
	return v
}

// functions lists the functions, operators and macros an expression calls.
func functions(expr string) []string {
	p, err := parser.NewParser(parser.Macros(parser.AllMacros...), parser.PopulateMacroCalls(true))
	if err != nil {
		return nil
	}
	tree, iss := p.Parse(common.NewTextSource(expr))
	if iss != nil && len(iss.GetErrors()) > 0 {
		return nil
	}
	set := map[string]bool{}
	for _, mc := range tree.SourceInfo().MacroCalls() {
		if mc.Kind() == ast.CallKind {
			set[mc.AsCall().FunctionName()+"()"] = true
		}
	}
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		switch e.Kind() {
		case ast.CallKind:
			c := e.AsCall()
			name := c.FunctionName()
			if strings.HasPrefix(name, "_") || name == "!_" || name == "-_" {
				name = "operator " + strings.Trim(name, "_")
			} else {
				name += "()"
			}
			set[name] = true
			if c.IsMemberFunction() {
				walk(c.Target())
			}
			for _, a := range c.Args() {
				walk(a)
			}
		case ast.ComprehensionKind:
			c := e.AsComprehension()
			for _, x := range []ast.Expr{c.IterRange(), c.AccuInit(), c.LoopCondition(), c.LoopStep(), c.Result()} {
				walk(x)
			}
		case ast.SelectKind:
			walk(e.AsSelect().Operand())
		case ast.ListKind:
			for _, x := range e.AsList().Elements() {
				walk(x)
			}
		case ast.MapKind:
			for _, x := range e.AsMap().Entries() {
				walk(x.AsMapEntry().Key())
				walk(x.AsMapEntry().Value())
			}
		}
	}
	walk(tree.Expr())
	// the macros' expansions call @not_strictly_false and friends: drop them
	var out []string
	for k := range set {
		if !strings.HasPrefix(k, "operator @") && !strings.HasPrefix(k, "@") {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// machine describes the CPU (Linux), OS, architecture and Go version.
func machine() string {
	cpu := ""
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "model name") {
				if i := strings.Index(l, ":"); i >= 0 {
					cpu = strings.TrimSpace(l[i+1:])
				}
				break
			}
		}
	}
	if cpu == "" {
		cpu = "unknown CPU"
	}
	return fmt.Sprintf("%s, %d logical CPUs, %s/%s, %s", cpu, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

func logs(all []sample) (xs, ys []float64) {
	for _, s := range all {
		xs = append(xs, math.Log10(float64(s.units)))
		ys = append(ys, math.Log10(s.ns))
	}
	return
}

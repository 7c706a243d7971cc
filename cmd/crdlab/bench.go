package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
)

const benchUsage = `usage: crdlab bench [-o text|json|csv] [--sort estimate|runtime|time|share]
                   [--top N] [--over PERCENT] [--duration D] [--samples N]
                   CRD|DIR... OBJECT|DIR...

Times every x-kubernetes-validations rule and messageExpression of each CRD
on each of its objects: the runtime cost units, the median wall time (with
the 10th and 90th percentiles over --samples batches lasting --duration in
all), the allocations and the nanoseconds per cost unit; and each object's
validation phase by phase (decode, prune, default, openapi, cel, and the
whole request). A messageExpression is timed wherever its rule runs, as if
the rule failed there.

Inputs are as for crdlab cost: CRDs and objects, files or directories,
mixed; objects are matched to their CRD by group and kind. --sort orders
the rules (largest first) across all the CRDs, --top keeps the first N,
--over those above PERCENT of the per-expression limit. -o csv writes one
row per phase and per rule. Absolute times vary with the machine and its
load: compare ratios and ranks.
Exit status: 0 done, 2 usage or I/O error.
`

// runBench is `crdlab bench`.
func runBench(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, benchUsage) }
	output := fs.String("o", "text", "output format: text, json or csv")
	duration := fs.Duration("duration", 20*time.Millisecond, "time spent measuring each figure")
	samples := fs.Int("samples", 11, "timed batches per figure (median and p10..p90 over them)")
	crdFieldValidation := crdFieldValidationFlag(fs)
	var sel selection
	sorts := []string{"estimate", "runtime", "time", "share"}
	sel.register(fs, strings.Join(sorts, ", "))
	files, ok := parseInterleaved(fs, args)
	if !ok {
		return exitUsage
	}
	if *output != "text" && *output != "json" && *output != "csv" {
		fmt.Fprintf(stderr, "crdlab: -o must be text, json or csv, not %q\n", *output)
		return exitUsage
	}
	if !sel.check("bench", sorts, stderr) || !checkCRDFieldValidation("bench", *crdFieldValidation, stderr) {
		return exitUsage
	}
	if *duration <= 0 || *samples <= 0 || *samples > 1000 {
		fmt.Fprintln(stderr, "crdlab bench: --duration must be positive and --samples between 1 and 1000")
		return exitUsage
	}
	crds, skipped, code := loadProject("bench", files, engine.FieldValidation(*crdFieldValidation), stdin, stdout, stderr)
	if code != exitValid {
		if len(files) == 0 {
			fmt.Fprint(stderr, benchUsage)
		}
		return code
	}
	opts := cost.BenchOptions{Duration: *duration, Samples: *samples}
	var reps []*cost.BenchReport
	nobj := 0
	for _, c := range crds {
		var objects [][]byte
		for _, o := range c.objects {
			objects = append(objects, o.data)
		}
		nobj += len(objects)
		rep, err := cost.Benchmark(c.def, objects, opts)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %s: %v\n", c.doc.where(), err)
			return exitUsage
		}
		for i := range rep.Objects {
			rep.Objects[i].Source = c.objects[i].where()
		}
		reps = append(reps, rep)
	}
	if nobj == 0 {
		fmt.Fprintln(stderr, "crdlab bench: no objects of the CRDs' kinds found in the inputs")
		return exitUsage
	}
	if sel.active() {
		selectBenchRules(reps, sel)
	}
	switch *output {
	case "json":
		var v interface{} = reps[0]
		if len(reps) > 1 {
			v = struct {
				Reports []*cost.BenchReport `json:"reports"`
				Skipped []string            `json:"skipped"`
			}{reps, append([]string{}, skipped...)}
		}
		if err := writeJSON(stdout, v); err != nil {
			fmt.Fprintf(stderr, "crdlab: %v\n", err)
			return exitUsage
		}
	case "csv":
		for i, rep := range reps {
			if err := rep.WriteCSV(stdout, i == 0); err != nil {
				fmt.Fprintf(stderr, "crdlab: %v\n", err)
				return exitUsage
			}
		}
	default:
		for i, rep := range reps {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprint(stdout, rep.Text())
		}
	}
	return exitValid
}

// selectBenchRules keeps, in each report, the rules sel picks across all
// the reports, in its order.
func selectBenchRules(reps []*cost.BenchReport, sel selection) {
	n := make([]int, len(reps))
	for i, r := range reps {
		n[i] = len(r.Rules)
	}
	rule := func(r, i int) *cost.RuleBench { return &reps[r].Rules[i] }
	picked := sel.pick(n, func(r, i int) float64 { return rule(r, i).LimitShare }, func(r, i int) float64 {
		x := rule(r, i)
		switch sel.sort {
		case "runtime":
			return float64(x.Cost)
		case "time":
			if x.Timing == nil {
				return -1
			}
			return x.Timing.MedianNs
		case "share":
			return x.LimitShare
		}
		return float64(x.EstimatedCost)
	})
	kept := make([][]cost.RuleBench, len(reps))
	for _, p := range picked {
		kept[p[0]] = append(kept[p[0]], reps[p[0]].Rules[p[1]])
	}
	for i, r := range reps {
		if kept[i] == nil {
			kept[i] = []cost.RuleBench{}
		}
		r.Rules = kept[i]
	}
}

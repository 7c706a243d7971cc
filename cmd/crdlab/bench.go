package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
)

var benchCommand = &command{
	name:    "bench",
	summary: "Measure validation time and CEL cost per object",
	usage:   `crdlab bench [--crd FILE|DIR]... [-R] [-o text|json|yaml|csv] [--sort KEY] [--top N] [--over PERCENT] [--duration D] [--samples N] CRD|DIR... OBJECT|DIR...`,
	doc: `Time every x-kubernetes-validations rule and messageExpression of each CRD
on each of its objects: the runtime cost units, the median wall time (with
the 10th and 90th percentiles over --samples batches lasting --duration in
all), the allocations and the nanoseconds per cost unit; and each object's
validation phase by phase (decode, prune, default, openapi, cel, and the
whole request). A messageExpression is timed wherever its rule runs, as if
the rule failed there.

Inputs are as for crdlab cost: CRDs (--crd, and among the inputs) and
objects, files or directories, mixed; objects are matched to their CRD by
group and kind. Each object is first validated once within --timeout, so
that none holds the measurement. --sort orders the rules (largest first)
across all the CRDs, --top keeps the first N, --over those above PERCENT of
the per-expression limit. -o csv writes one row per phase and per rule.
Absolute times vary with the machine and its load: compare ratios and
ranks.`,
	example: `  crdlab bench config/crd/ samples/
  crdlab bench --crd config/crd/ -R samples/ --sort time --top 10
  crdlab bench -o csv --sort time config/crd/ samples/ > bench.csv`,
	exit: `Exit status: 0 done, 1 an object past --timeout, 2 usage or input error
(unreadable or unparseable input, with file:line).`,
	flags: func(fs *flag.FlagSet) { declareBench(fs, &benchFlags{}) },
	run:   runBench,
}

type benchFlags struct {
	projectFlags
	output   string
	duration time.Duration
	samples  int
}

var benchSorts = []string{"estimate", "runtime", "time", "share"}

func declareBench(fs *flag.FlagSet, f *benchFlags) {
	fs.StringVarP(&f.output, "output", "o", "text", "output format: text, json, yaml or csv")
	fs.DurationVar(&f.duration, "duration", 20*time.Millisecond, "time spent measuring each figure")
	fs.IntVar(&f.samples, "samples", 11, "timed batches per figure (median and p10..p90 over them)")
	f.projectFlags.declare(fs, benchSorts, "the time limit of each object's validation, run once before timing (0: none); an object past it is an error")
}

// runBench is `crdlab bench`.
func runBench(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags(c)
	var f benchFlags
	declareBench(fs, &f)
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	var err error
	if f.output, err = enum("output", f.output, "text", "json", "yaml", "csv"); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if err := f.check(benchSorts); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if f.duration <= 0 || f.samples <= 0 || f.samples > 1000 {
		return usageError(c, stderr, "--duration must be positive and --samples between 1 and 1000")
	}
	defer closeEngine()
	benchmark, err := pickRuntime[benchFunc](f.runtimeFlags, nativeBench, wasmBench)
	if err != nil {
		return runtimeError(c, stderr, err)
	}
	crds, skipped, code := loadProject(c, &f.projectFlags, fs.Args(), stdin, stdout, stderr)
	if code != exitValid {
		return code
	}
	nobj := 0
	for _, p := range crds {
		nobj += len(p.objects)
	}
	if nobj == 0 {
		return usageError(c, stderr, "no objects of the CRDs' kinds found in the inputs")
	}
	if f.timeout > 0 {
		for _, p := range crds {
			if code := validateWithin(p, f.timeout, stderr); code != exitValid {
				return code
			}
		}
	}
	opts := cost.BenchOptions{Duration: f.duration, Samples: f.samples}
	var reps []*cost.BenchReport
	for _, p := range crds {
		rep, err := benchmark(p.def, p.doc.Raw, p.objectData(), opts)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %s: %v\n", where(&p.doc), err)
			return exitUsage
		}
		for i := range rep.Objects {
			rep.Objects[i].Source = where(&p.objects[i])
		}
		reps = append(reps, rep)
	}
	if f.sel.active() {
		selectBenchRules(reps, f.sel)
	}
	switch f.output {
	case "json", "yaml":
		var v interface{} = reps[0]
		if len(reps) > 1 {
			v = struct {
				Reports []*cost.BenchReport `json:"reports"`
				Skipped []string            `json:"skipped"`
			}{reps, append([]string{}, skipped...)}
		}
		if err := writeStructured(f.output, stdout, v); err != nil {
			return reportInputError(stderr, err)
		}
	case "csv":
		for i, rep := range reps {
			if err := rep.WriteCSV(stdout, i == 0); err != nil {
				return reportInputError(stderr, err)
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

// validateWithin validates each object of p once within timeout, before it
// is timed over and over: an object past it is an error (exit status 1), as
// in crdlab validate. A rejected CRD has nothing to validate.
func validateWithin(p *projectCRD, timeout time.Duration, stderr io.Writer) int {
	compiled := engine.CompileCRDWithSource(p.def, p.doc.Raw)
	if len(compiled.Errors()) > 0 {
		return exitValid
	}
	for i := range p.objects {
		o := &p.objects[i]
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		_, err := compiled.ValidateContext(ctx, o.Body(), engine.ValidateOptions{})
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintf(stderr, "crdlab bench: %s: %s %s: %s\n", where(o), o.Kind, o.Name, timeoutReason(err, timeout))
			return exitInvalid
		}
	}
	return exitValid
}

// selectBenchRules keeps, in each report, the rules sel picks across all
// the reports, in its order.
func selectBenchRules(reps []*cost.BenchReport, sel selection) {
	lists := make([][]cost.RuleBench, len(reps))
	for i, r := range reps {
		lists[i] = r.Rules
	}
	kept := selectEach(&sel, lists, func(x *cost.RuleBench) float64 { return x.LimitShare }, func(x *cost.RuleBench) float64 {
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
	for i, r := range reps {
		r.Rules = kept[i]
	}
}

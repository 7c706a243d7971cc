package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cli/inputs"
)

var costCommand = &command{
	name:    "cost",
	summary: "Report the CEL cost of CRDs' validation rules",
	usage:   `crdlab cost [--crd FILE|DIR]... [-R] [-o text|json|yaml] [--sort KEY] [--top N] [--over PERCENT] CRD|DIR... [OBJECT|DIR...]`,
	doc: `Report the static CEL cost of every x-kubernetes-validations rule and
messageExpression of each CRD (cost, cardinality, share of the
per-expression limit of 10,000,000, the schema total against 100,000,000),
the bounds (maxItems, maxProperties, maxLength) that would bring an
expression over budget under, and with objects the runtime cost of each rule
on each object against the per-object budget of 10,000,000.

The inputs are files and directories holding CRDs and objects, mixed, and
the CRDs of --crd: documents of kind CustomResourceDefinition are CRDs, the
others objects, each matched to the CRD of its group and kind (objects
without one are skipped with a note on stderr). --sort orders the
expressions (largest first) across all the CRDs, --top keeps the first N,
--over those above PERCENT of the per-expression limit. With -o json (or
yaml), one CRD gives its report, several {"reports": [...], "skipped": [...]}.
With --crd-field-validation Strict (the default, as kubectl) a CRD with
unknown or duplicate fields is rejected (exit status 1); Warn prints them as
warnings and Ignore drops them silently, as the API server does. Each CRD's
analysis with its objects is bounded by --timeout.`,
	example: `  crdlab cost config/crd/widgets.yaml
  crdlab cost --sort runtime --top 10 config/crd/ samples/
  crdlab cost -o json --crd config/crd/ -R samples/`,
	exit: `Exit status: 0 accepted and within budget, 1 rejected, over budget or past
--timeout, 2 usage or input error (unreadable or unparseable input, with
file:line).`,
	flags: func(fs *flag.FlagSet) { declareCost(fs, &costFlags{}) },
	run:   runCost,
}

// projectFlags are the input flags of cost and bench.
type projectFlags struct {
	runtimeFlags
	crds      []string
	recursive bool
	crdFV     string
	timeout   time.Duration
	sel       selection
}

func (f *projectFlags) declare(fs *flag.FlagSet, sorts []string, timeout string) {
	fs.StringArrayVar(&f.crds, "crd", nil, "a CustomResourceDefinition `FILE` or directory (repeatable; - for stdin); the CRDs among the inputs are used too")
	fs.BoolVarP(&f.recursive, "recursive", "R", false, "read directories recursively (as kubectl -R)")
	fs.StringVar(&f.crdFV, "crd-field-validation", "Strict", "the CRD create's fieldValidation: Strict, Warn or Ignore (unknown and duplicate fields of the CRDs; any case)")
	fs.DurationVar(&f.timeout, "timeout", defaultTimeout, timeout+wasmTimeoutNote)
	f.sel.register(fs, strings.Join(sorts, ", "))
	f.runtimeFlags.declare(fs)
}

func (f *projectFlags) check(sorts []string) error {
	var err error
	if f.crdFV, err = enum("crd-field-validation", f.crdFV, "Strict", "Warn", "Ignore"); err != nil {
		return err
	}
	if f.timeout < 0 {
		return fmt.Errorf("--timeout must not be negative, not %v", f.timeout)
	}
	if err := f.sel.check(sorts); err != nil {
		return err
	}
	return f.runtimeFlags.check()
}

type costFlags struct {
	projectFlags
	output string
	kube   kubeVersionFlag
}

var costSorts = []string{"estimate", "runtime", "share"}

func declareCost(fs *flag.FlagSet, f *costFlags) {
	fs.StringVarP(&f.output, "output", "o", "text", "output format: text, json or yaml")
	f.kube.declare(fs)
	f.projectFlags.declare(fs, costSorts, "the time limit of each CRD's analysis with its objects (0: none); a CRD past it is an error")
}

// selection is --sort, --top and --over.
type selection struct {
	sort string
	top  int
	over float64
}

func (s *selection) register(fs *flag.FlagSet, sorts string) {
	fs.StringVar(&s.sort, "sort", "", "order the expressions by `KEY`: "+sorts)
	fs.IntVar(&s.top, "top", 0, "keep the first `N` expressions (0: all)")
	fs.Float64Var(&s.over, "over", 0, "keep the expressions above `PERCENT` of the per-expression limit")
}

func (s *selection) check(sorts []string) error {
	if s.top < 0 || s.over < 0 {
		return errors.New("--top and --over must not be negative")
	}
	if s.sort == "" {
		return nil
	}
	var err error
	s.sort, err = enum("sort", s.sort, sorts...)
	return err
}

func (s *selection) active() bool { return s.sort != "" || s.top > 0 || s.over > 0 }

// selectEach keeps, in each of lists (one per report), the items s picks
// across all of them: those over s.over, in the order of key (descending,
// stable) when sorting, the first s.top. A list with nothing kept is empty,
// not nil.
func selectEach[T any](s *selection, lists [][]T, share, key func(*T) float64) [][]T {
	type at struct{ r, i int }
	var picked []at
	for r := range lists {
		for i := range lists[r] {
			if s.over > 0 && share(&lists[r][i])*100 <= s.over {
				continue
			}
			picked = append(picked, at{r, i})
		}
	}
	if s.sort != "" {
		sort.SliceStable(picked, func(a, b int) bool {
			return key(&lists[picked[a].r][picked[a].i]) > key(&lists[picked[b].r][picked[b].i])
		})
	}
	if s.top > 0 && len(picked) > s.top {
		picked = picked[:s.top]
	}
	kept := make([][]T, len(lists))
	for i := range kept {
		kept[i] = []T{}
	}
	for _, p := range picked {
		kept[p.r] = append(kept[p.r], lists[p.r][p.i])
	}
	return kept
}

// projectCRD is one CRD of the inputs and the objects matched to it.
type projectCRD struct {
	def     *crd.CustomResourceDefinition
	doc     inputs.Document
	objects []inputs.Document
}

// objectData returns the request bodies of the CRD's objects.
func (p *projectCRD) objectData() [][]byte {
	out := make([][]byte, len(p.objects))
	for i := range p.objects {
		out[i] = p.objects[i].Body()
	}
	return out
}

// where renders a document's place: "file" for the first document of a
// file, else "file:line", with " (items[i])" for a kind: List item.
func where(d *inputs.Document) string {
	if d.Line <= 1 && d.Item < 0 {
		return d.File
	}
	return d.Where()
}

// loadProject reads the CRDs (--crd: their other documents are ignored) and
// the inputs (files, directories, -: CRDs and objects mixed): CRD documents
// are decoded, the other documents matched to the CRD of their group and
// kind; skipped lists the notes about objects without one.
//
// The CRDs are decoded as the API server decodes a CRD create with
// fieldValidation fv: under Strict an unknown or duplicate field rejects the
// CRD (the API server's 400 is printed and the status is exitInvalid),
// under Warn each is a warning, under Ignore nothing is said.
func loadProject(c *command, f *projectFlags, args []string, stdin io.Reader, stdout, stderr io.Writer) ([]*projectCRD, []string, int) {
	if len(args) == 0 && len(f.crds) == 0 {
		return nil, nil, usageError(c, stderr, "no CRDs given (files, directories or -)")
	}
	if code := stdinOnce(c, stderr, f.crds, args); code >= 0 {
		return nil, nil, code
	}
	reader := &inputs.Reader{Recursive: f.recursive, Stdin: stdin}
	crdDocs, err := reader.Read(f.crds, "CRD (--crd)")
	if err != nil {
		return nil, nil, reportInputError(stderr, err)
	}
	docs, notObjects, err := reader.ReadManifests(args, "inputs")
	if err != nil {
		return nil, nil, reportInputError(stderr, err)
	}
	var given []inputs.Document
	for _, d := range crdDocs {
		if d.IsCRD() {
			given = append(given, d)
		}
	}
	for _, name := range f.crds {
		if !holdsCRD(given, name) {
			return nil, nil, reportInputError(stderr, fmt.Errorf("%s: no CustomResourceDefinition found (--crd)", name))
		}
	}
	fv := engine.FieldValidation(f.crdFV)
	var crds []*projectCRD
	var objects []inputs.Document
	addCRD := func(d inputs.Document) int {
		for _, p := range crds {
			if p.doc.File == d.File && p.doc.Index == d.Index && p.doc.Item == d.Item {
				return exitValid // given twice
			}
		}
		doc, err := crd.DecodeOneDocument(d.Raw, d.File)
		if err != nil {
			_, err = inputs.DecodeCRD(d) // the same error, located in the file
			return reportInputError(stderr, err)
		}
		if len(doc.FieldErrors) > 0 && fv != engine.Ignore {
			if fv == engine.Strict {
				// Rejected while decoding: there is no CRD to analyze.
				compiled, err := engine.CompileWithOptions(d.Raw, engine.CompileOptions{FieldValidation: fv, Filename: d.File})
				if err != nil {
					return reportInputError(stderr, err)
				}
				printCRD(compiled, docOrigin(d), stdout, stderr)
				return exitInvalid
			}
			for _, e := range doc.FieldErrors {
				fmt.Fprintf(stderr, "Warning: %s\n", e.Error())
			}
		}
		crds = append(crds, &projectCRD{def: doc.CRD, doc: d})
		return exitValid
	}
	for _, d := range given {
		if code := addCRD(d); code != exitValid {
			return nil, nil, code
		}
	}
	for i, d := range docs {
		// The first document of the first file is the CRD in the
		// "crdlab cost CRD OBJECT..." form, whatever it holds (so that its
		// decoding error is reported).
		if !d.IsCRD() && !(i == 0 && len(given) == 0 && d.Kind == "") {
			objects = append(objects, d)
			continue
		}
		if code := addCRD(d); code != exitValid {
			return nil, nil, code
		}
	}
	if len(crds) == 0 {
		return nil, nil, usageError(c, stderr, "no CustomResourceDefinition found in the inputs")
	}
	skipped := notObjects
	for _, o := range objects {
		group := ""
		if i := strings.LastIndex(o.APIVersion, "/"); i >= 0 {
			group = o.APIVersion[:i]
		}
		var match *projectCRD
		for _, c := range crds {
			if c.def.Spec.Names.Kind == o.Kind && c.def.Spec.Group == group {
				match = c
				break
			}
		}
		if match == nil && len(crds) == 1 && o.Kind == "" {
			match = crds[0] // no kind: the decoding reports it
		}
		if match == nil {
			what := o.Kind
			if what == "" {
				what = "a document without kind"
			}
			if o.Name != "" {
				what += " " + o.Name
			}
			skipped = append(skipped, fmt.Sprintf("%s: %s (%s): no CustomResourceDefinition of this group and kind in the inputs: skipped", where(&o), what, o.APIVersion))
			continue
		}
		match.objects = append(match.objects, o)
	}
	for _, s := range skipped {
		fmt.Fprintf(stderr, "note: %s\n", s)
	}
	return crds, skipped, exitValid
}

// runCost is `crdlab cost`.
func runCost(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags(c)
	var f costFlags
	declareCost(fs, &f)
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	var err error
	if f.output, err = enum("output", f.output, "text", "json", "yaml"); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if err := f.check(costSorts); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if err := f.kube.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if code, done := matrix(c, &f.kube, &f.output, matrixWhole, args, stdin, stdout, stderr); done {
		return code
	}
	defer closeEngine()
	analyze, err := pickRuntime[costFunc](f.runtimeFlags, nativeCostAt(f.kube.version), wasmCostAt(f.kube.version))
	if err != nil {
		return runtimeError(c, stderr, err)
	}
	crds, skipped, code := loadProject(c, &f.projectFlags, fs.Args(), stdin, stdout, stderr)
	if code != exitValid {
		return code
	}
	var reps []*cost.Report
	for _, p := range crds {
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if f.timeout > 0 {
			ctx, cancel = context.WithTimeout(ctx, f.timeout)
		}
		rep, err := analyze(ctx, p.def, p.doc.Raw, engine.FieldValidation(f.crdFV), p.objectData())
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintf(stderr, "crdlab cost: %s: CustomResourceDefinition %s: %s\n", where(&p.doc), p.def.Metadata.Name, timeoutReason(err, f.timeout))
			return exitInvalid
		}
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
		selectRules(reps, f.sel)
	}
	if f.output != "text" {
		var v interface{} = reps[0]
		if len(reps) > 1 {
			v = struct {
				Reports []*cost.Report `json:"reports"`
				Skipped []string       `json:"skipped"`
			}{reps, append([]string{}, skipped...)}
		}
		if err := writeStructured(f.output, stdout, v); err != nil {
			return reportInputError(stderr, err)
		}
	} else {
		for i, rep := range reps {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			rep.KubeVersion = f.kube.single(c)
			fmt.Fprint(stdout, rep.Text())
		}
	}
	status := exitValid
	for _, rep := range reps {
		if !rep.Accepted {
			status = exitInvalid
		}
		for _, o := range rep.Objects {
			if o.OverBudget {
				status = exitInvalid
			}
		}
	}
	return status
}

// selectRules keeps, in each report, the expressions sel picks across all
// the reports, in its order.
func selectRules(reps []*cost.Report, sel selection) {
	lists := make([][]cost.Rule, len(reps))
	for i, r := range reps {
		lists[i] = r.Rules
	}
	kept := selectEach(&sel, lists, func(x *cost.Rule) float64 { return x.LimitShare }, func(x *cost.Rule) float64 {
		switch sel.sort {
		case "runtime":
			var m uint64
			for _, c := range x.RuntimeCost {
				if c > m {
					m = c
				}
			}
			return float64(m)
		case "share":
			return x.LimitShare
		}
		return float64(x.EstimatedCost)
	})
	for i, r := range reps {
		r.Rules = kept[i]
	}
}

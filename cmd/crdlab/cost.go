package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
)

const costUsage = `usage: crdlab cost [-o text|json] [--sort estimate|runtime|share] [--top N]
                  [--over PERCENT] [--crd-field-validation Strict|Warn|Ignore]
                  CRD|DIR... [OBJECT|DIR...]

Lists the static CEL cost of every x-kubernetes-validations rule and
messageExpression of each CRD (cost, cardinality, share of the
per-expression limit of 10,000,000, the schema total against 100,000,000),
the bounds (maxItems, maxProperties, maxLength) that would bring an
expression over budget under, and with objects the runtime cost of each rule
on each object against the per-object budget of 10,000,000.

The inputs are files and directories holding CRDs and objects, mixed:
documents of kind CustomResourceDefinition are CRDs, the others objects,
each matched to the CRD of its group and kind (objects without one are
skipped with a note on stderr). --sort orders the expressions (largest
first) across all the CRDs, --top keeps the first N, --over those above
PERCENT of the per-expression limit. With -o json, one CRD gives its report,
several {"reports": [...], "skipped": [...]}.
With --crd-field-validation Strict (the default, as kubectl) a CRD with
unknown or duplicate fields is rejected (exit status 1); Warn prints them as
warnings and Ignore drops them silently, as the API server does.
Exit status: 0 accepted and within budget, 1 rejected or an object over
budget, 2 usage or I/O error.
`

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

func (s *selection) check(cmd string, sorts []string, stderr io.Writer) bool {
	if s.top < 0 || s.over < 0 {
		fmt.Fprintf(stderr, "crdlab %s: --top and --over must not be negative\n", cmd)
		return false
	}
	if s.sort == "" {
		return true
	}
	for _, k := range sorts {
		if s.sort == k {
			return true
		}
	}
	fmt.Fprintf(stderr, "crdlab %s: --sort must be %s, not %q\n", cmd, strings.Join(sorts, ", "), s.sort)
	return false
}

func (s *selection) active() bool { return s.sort != "" || s.top > 0 || s.over > 0 }

// pick returns the (report, item) pairs selected: those over s.over, in
// the order of key (descending, stable) when sorting, the first s.top.
func (s *selection) pick(n []int, share func(r, i int) float64, key func(r, i int) float64) [][2]int {
	var out [][2]int
	for r, count := range n {
		for i := 0; i < count; i++ {
			if s.over > 0 && share(r, i)*100 <= s.over {
				continue
			}
			out = append(out, [2]int{r, i})
		}
	}
	if s.sort != "" {
		sort.SliceStable(out, func(a, b int) bool { return key(out[a][0], out[a][1]) > key(out[b][0], out[b][1]) })
	}
	if s.top > 0 && len(out) > s.top {
		out = out[:s.top]
	}
	return out
}

// projectCRD is one CRD of the inputs and the objects matched to it.
type projectCRD struct {
	def     *crd.CustomResourceDefinition
	doc     document
	objects []document
}

// project reads CRDs and objects from the inputs (files, directories, -):
// CRD documents are decoded, the other documents matched to the CRD of
// their group and kind; skipped lists the notes about objects without one.
//
// The CRDs are decoded as the API server decodes a CRD create with
// fieldValidation fv: under Strict an unknown or duplicate field rejects the
// CRD (the API server's 400 is printed and the status is exitInvalid),
// under Warn each is a warning, under Ignore nothing is said.
func loadProject(cmd string, files []string, fv engine.FieldValidation, stdin io.Reader, stdout, stderr io.Writer) ([]*projectCRD, []string, int) {
	if len(files) == 0 {
		fmt.Fprintf(stderr, "crdlab %s: no CRD given\n\n", cmd)
		return nil, nil, exitUsage
	}
	if countStdin(files) > 1 {
		fmt.Fprintf(stderr, "crdlab %s: - (stdin) may be given once\n", cmd)
		return nil, nil, exitUsage
	}
	docs, err := readInputs(files, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return nil, nil, exitUsage
	}
	var crds []*projectCRD
	var objects []document
	for i, d := range docs {
		apiVersion, kind := docKind(d.data)
		isCRD := kind == crd.Kind && strings.HasPrefix(apiVersion, crd.Group+"/")
		// The first document of the first file is the CRD in the
		// "crdlab cost CRD OBJECT..." form, whatever it holds (so that its
		// decoding error is reported).
		if !isCRD && !(i == 0 && kind == "") {
			objects = append(objects, d)
			continue
		}
		doc, err := crd.DecodeOneDocument(d.data, d.source)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %s\n", relocate(err, d))
			return nil, nil, exitUsage
		}
		if len(doc.FieldErrors) > 0 && fv != engine.Ignore {
			if fv == engine.Strict {
				// Rejected while decoding: there is no CRD to analyze.
				compiled, err := engine.CompileWithOptions(d.data, engine.CompileOptions{FieldValidation: fv, Filename: d.source})
				if err != nil {
					fmt.Fprintf(stderr, "crdlab: %s\n", relocate(err, d))
					return nil, nil, exitUsage
				}
				printCRD(compiled, docOrigin(d), stdout, stderr)
				return nil, nil, exitInvalid
			}
			for _, e := range doc.FieldErrors {
				fmt.Fprintf(stderr, "Warning: %s\n", e.Error())
			}
		}
		crds = append(crds, &projectCRD{def: doc.CRD, doc: d})
	}
	if len(crds) == 0 {
		fmt.Fprintf(stderr, "crdlab %s: no CustomResourceDefinition found in the inputs\n", cmd)
		return nil, nil, exitUsage
	}
	var skipped []string
	for _, o := range objects {
		apiVersion, kind := docKind(o.data)
		group := ""
		if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
			group = apiVersion[:i]
		}
		var match *projectCRD
		for _, c := range crds {
			if c.def.Spec.Names.Kind == kind && c.def.Spec.Group == group {
				match = c
				break
			}
		}
		if match == nil && len(crds) == 1 && kind == "" {
			match = crds[0] // no kind: the decoding reports it
		}
		if match == nil {
			what := kind
			if what == "" {
				what = "a document without kind"
			}
			name := objectName(decodeLoose(o.data))
			if name != "" {
				what += " " + name
			}
			skipped = append(skipped, fmt.Sprintf("%s: %s (%s): no CustomResourceDefinition of this group and kind in the inputs: skipped", o.where(), what, apiVersion))
			continue
		}
		match.objects = append(match.objects, o)
	}
	for _, s := range skipped {
		fmt.Fprintf(stderr, "note: %s\n", s)
	}
	return crds, skipped, exitValid
}

// decodeLoose decodes a document for its name, nil on error.
func decodeLoose(data []byte) interface{} {
	var v map[string]interface{}
	if yaml.Unmarshal(data, &v) != nil {
		return nil
	}
	return v
}

// runCost is `crdlab cost`. Flags may come before or after the files.
func runCost(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("cost", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, costUsage) }
	output := fs.String("o", "text", "output format: text or json")
	crdFieldValidation := crdFieldValidationFlag(fs)
	var sel selection
	sorts := []string{"estimate", "runtime", "share"}
	sel.register(fs, strings.Join(sorts, ", "))
	files, ok := parseInterleaved(fs, args)
	if !ok {
		return exitUsage
	}
	if !checkOutput(*output, stderr) || !sel.check("cost", sorts, stderr) || !checkCRDFieldValidation("cost", *crdFieldValidation, stderr) {
		return exitUsage
	}
	crds, skipped, code := loadProject("cost", files, engine.FieldValidation(*crdFieldValidation), stdin, stdout, stderr)
	if code != exitValid {
		if len(files) == 0 {
			fmt.Fprint(stderr, costUsage)
		}
		return code
	}
	var reps []*cost.Report
	for _, c := range crds {
		var objects [][]byte
		for _, o := range c.objects {
			objects = append(objects, o.data)
		}
		rep, err := cost.Analyze(c.def, objects...)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %s: %v\n", c.doc.where(), err)
			return exitUsage
		}
		for i := range rep.Objects {
			rep.Objects[i].Source = c.objects[i].where()
		}
		reps = append(reps, rep)
	}
	if sel.active() {
		selectRules(reps, sel)
	}
	if *output == "json" {
		var v interface{} = reps[0]
		if len(reps) > 1 {
			v = struct {
				Reports []*cost.Report `json:"reports"`
				Skipped []string       `json:"skipped"`
			}{reps, append([]string{}, skipped...)}
		}
		if err := writeJSON(stdout, v); err != nil {
			fmt.Fprintf(stderr, "crdlab: %v\n", err)
			return exitUsage
		}
	} else {
		for i, rep := range reps {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
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
	n := make([]int, len(reps))
	for i, r := range reps {
		n[i] = len(r.Rules)
	}
	rule := func(r, i int) *cost.Rule { return &reps[r].Rules[i] }
	picked := sel.pick(n, func(r, i int) float64 { return rule(r, i).LimitShare }, func(r, i int) float64 {
		x := rule(r, i)
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
	kept := make([][]cost.Rule, len(reps))
	for _, p := range picked {
		kept[p[0]] = append(kept[p[0]], reps[p[0]].Rules[p[1]])
	}
	for i, r := range reps {
		if kept[i] == nil {
			kept[i] = []cost.Rule{}
		}
		r.Rules = kept[i]
	}
}

// parseInterleaved parses flags given before, between or after the files.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, bool) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		if fs.NArg() == 0 {
			return files, true
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func countStdin(files []string) int {
	n := 0
	for _, f := range files {
		if strings.TrimSpace(f) == "-" {
			n++
		}
	}
	return n
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	flag "github.com/spf13/pflag"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/cli/inputs"
)

// This file is `crdlab apply`: server-side apply offline (package apply).

var applyCommand = &command{
	name:    "apply",
	summary: "Run server-side applies and updates offline: stored object, managedFields, conflicts",
	usage: `crdlab apply --crd CRD [--stored OBJECT] --manager NAME [--force] [--subresource status] [-o text|json|yaml] OBJECT
crdlab apply --crd CRD [--stored OBJECT] [-o text|json|yaml] STEPS`,
	doc: `Send server-side applies (and updates with a field manager) to a custom
resource as kube-apiserver 1.37 serves them, without a cluster: the merge of
the CRD's list and map types (x-kubernetes-list-type atomic, set, map with
its keys; x-kubernetes-map-type; preserve-unknown-fields; embedded
resources), who owns each field (metadata.managedFields, exactly as the API
server writes it), the 409 conflict text, the status subresource's reset
fields, the cap of ten update managers, then the usual pruning, defaulting
and validation of the result.

With --manager, OBJECT is one applied configuration. Otherwise STEPS is a
YAML list of requests sent in order to one object (docs/apply-steps.schema.json):

  - {manager: NAME, operation: Apply|Update|Delete, force: BOOL,
     subresource: status, object: {...}}

--stored is the object as stored before the first request (with its
managedFields, if any); without it the first request creates the object.
Times in managedFields are --time for the first request and one second
later for each next one.

Text output: one line per request, then the final object and each of its
fields with its owners. -o json|yaml: {"steps": [{"object", "managedFields",
"conflict", "error", ...}]}, one entry per request (the stored object after
it: unchanged when the request failed).`,
	example: `  # Two managers apply the same CRD's object
  crdlab apply --crd examples/apply/crd.yaml examples/apply/steps.yaml

  # One apply on top of a stored object, as kubectl apply --server-side
  crdlab apply --crd crd.yaml --stored live.yaml --manager kubectl --force obj.yaml`,
	exit:  "Exit status: 0 every request succeeded, 1 a request conflicted or was refused (invalid result, bad request), 2 usage or input error (with file:line).",
	flags: func(fs *flag.FlagSet) { declareApply(fs, &applyFlags{}) },
	run:   runApply,
}

type applyFlags struct {
	crd             string
	stored          string
	manager         string
	force           bool
	subresource     string
	output          string
	time            string
	fieldValidation string
	operation       string
}

func declareApply(fs *flag.FlagSet, f *applyFlags) {
	fs.StringVar(&f.crd, "crd", "", "the CustomResourceDefinition `FILE`")
	fs.StringVar(&f.stored, "stored", "", "the object as stored before the first request (`FILE`)")
	fs.StringVar(&f.manager, "manager", "", "the field manager of a single request (OBJECT is then one object)")
	fs.BoolVar(&f.force, "force", false, "force the single apply's conflicts")
	fs.StringVar(&f.subresource, "subresource", "", "the single request's subresource: status")
	fs.StringVar(&f.operation, "operation", "Apply", "the single request's operation: Apply or Update")
	fs.StringVarP(&f.output, "output", "o", "text", "output format: text, json or yaml")
	fs.StringVar(&f.time, "time", apply.DefaultTime.Format(time.RFC3339), "the time of the first request (RFC 3339)")
	fs.StringVar(&f.fieldValidation, "field-validation", "Strict", "the requests' fieldValidation: Strict, Warn or Ignore")
}

func runApply(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags(c)
	var f applyFlags
	declareApply(fs, &f)
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	var err error
	if f.output, err = enum("output", f.output, "text", "json", "yaml"); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if f.fieldValidation, err = enum("field-validation", f.fieldValidation, "Strict", "Warn", "Ignore"); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if f.operation, err = enum("operation", f.operation, "Apply", "Update"); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if f.subresource != "" && f.subresource != "status" {
		return usageError(c, stderr, "--subresource must be status, not %q", f.subresource)
	}
	t0, err := time.Parse(time.RFC3339, f.time)
	if err != nil {
		return usageError(c, stderr, "--time: %v", err)
	}
	if f.crd == "" {
		return usageError(c, stderr, "--crd is required")
	}
	if fs.NArg() != 1 {
		return usageError(c, stderr, "need one OBJECT (with --manager) or STEPS file, got %d arguments", fs.NArg())
	}
	single := f.manager != ""
	if !single && (f.force || f.subresource != "" || fs.Changed("operation")) {
		return usageError(c, stderr, "--force, --subresource and --operation describe a single request: give --manager and one OBJECT")
	}
	reader := &inputs.Reader{Stdin: stdin}
	crdData, err := reader.ReadFile(f.crd, "CRD")
	if err != nil {
		return reportInputError(stderr, err)
	}
	compiled, err := engine.CompileWithOptions(crdData, engine.CompileOptions{})
	if err != nil {
		return reportInputError(stderr, fmt.Errorf("%s: %v", f.crd, err))
	}
	if !compiled.Valid() {
		msg := compiled.DecodeError()
		if msg == "" {
			msg = strings.TrimSuffix(engine.InvalidMessage("CustomResourceDefinition", compiled.Definition().Metadata.Name, compiled.Errors()), "\n")
		}
		return reportInputError(stderr, fmt.Errorf("%s: the CRD is refused by the API server: %s", f.crd, msg))
	}
	var stored []byte
	if f.stored != "" {
		if stored, err = reader.ReadFile(f.stored, "stored object"); err != nil {
			return reportInputError(stderr, err)
		}
	}
	input := fs.Arg(0)
	data, err := reader.ReadFile(input, "input")
	if err != nil {
		return reportInputError(stderr, err)
	}
	var steps []apply.Step
	if single {
		var probe map[string]interface{}
		if err := yaml.Unmarshal(data, &probe); err != nil || probe == nil {
			return reportInputError(stderr, fmt.Errorf("%s: want one YAML or JSON object: %v", input, errOr(err, "not an object")))
		}
		js, _ := json.Marshal(probe)
		steps = []apply.Step{{Manager: f.manager, Operation: apply.Operation(f.operation), Force: f.force, Subresource: f.subresource, Object: js}}
	} else {
		steps, err = apply.ParseSteps(data)
		if err != nil {
			var se *apply.StepError
			if errors.As(err, &se) && se.Line > 0 {
				return reportInputError(stderr, fmt.Errorf("%s:%d: %s", input, se.Line, se.Msg))
			}
			return reportInputError(stderr, fmt.Errorf("%s: %v", input, err))
		}
	}
	rep, err := apply.Run(compiled, stored, steps, apply.Options{Time: t0, FieldValidation: engine.FieldValidation(f.fieldValidation)})
	if err != nil {
		where := input
		if strings.HasPrefix(err.Error(), "stored object") {
			where = f.stored
		}
		return reportInputError(stderr, fmt.Errorf("%s: %v", where, err))
	}
	status := exitValid
	if rep.Failed() {
		status = exitInvalid
	}
	if f.output != "text" {
		if err := writeStructured(f.output, stdout, rep); err != nil {
			fmt.Fprintf(stderr, "crdlab: %v\n", err)
			return exitUsage
		}
		return status
	}
	writeApplyText(stdout, steps, rep, stored != nil)
	return status
}

func errOr(err error, msg string) string {
	if err != nil {
		return err.Error()
	}
	return msg
}

// writeApplyText prints one line per request, then the final object and
// the owners of its fields.
func writeApplyText(w io.Writer, steps []apply.Step, rep *apply.Report, had bool) {
	for i, s := range steps {
		r := rep.Steps[i]
		who := fmt.Sprintf("%s by %q", s.Operation, s.Manager)
		if s.Operation == apply.Delete {
			who = "Delete"
		}
		if s.Subresource != "" {
			who += " (" + s.Subresource + ")"
		}
		if s.Force {
			who += " (force)"
		}
		switch {
		case r.Conflict != "":
			fmt.Fprintf(w, "step %d: %s: conflict (409)\n%s\n", i+1, who, indentLines(r.Conflict, "  "))
		case r.Failed():
			fmt.Fprintf(w, "step %d: %s: refused (%d)\n%s\n", i+1, who, r.Code, indentLines(strings.TrimSuffix(r.Error, "\n"), "  "))
		case s.Operation == apply.Delete:
			fmt.Fprintf(w, "step %d: %s: deleted\n", i+1, who)
		case !had:
			fmt.Fprintf(w, "step %d: %s: created\n", i+1, who)
		default:
			fmt.Fprintf(w, "step %d: %s: ok\n", i+1, who)
		}
		if r.Result != nil && !r.Failed() {
			for _, warn := range r.Result.Warnings {
				fmt.Fprintf(w, "  Warning: %s\n", warn)
			}
		}
		had = r.Object != nil
	}
	last := len(rep.Steps) - 1
	if last < 0 || rep.Steps[last].Object == nil {
		fmt.Fprintln(w, "\nno object stored")
		return
	}
	final := rep.Steps[last]
	obj := map[string]interface{}{}
	for k, v := range final.Object {
		obj[k] = v
	}
	if md, ok := obj["metadata"].(map[string]interface{}); ok {
		c := map[string]interface{}{}
		for k, v := range md {
			if k != "managedFields" {
				c[k] = v
			}
		}
		obj["metadata"] = c
	}
	b, _ := json.Marshal(obj)
	y, _ := yaml.JSONToYAML(b)
	fmt.Fprintf(w, "\nstored object after step %d (owners below):\n%s", last+1, indentLines(strings.TrimSuffix(string(y), "\n"), "  ")+"\n")
	owners, err := rep.Ownership(last)
	if err != nil {
		fmt.Fprintf(w, "\nowners: %v\n", err)
		return
	}
	fmt.Fprintf(w, "\nfields and their owners:\n")
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	for _, o := range owners {
		v, _ := json.Marshal(o.Value)
		vs := string(v)
		if len(vs) > 40 {
			vs = vs[:37] + "..."
		}
		who := strings.Join(o.Owners, ", ")
		if who == "" {
			who = "(no manager)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", o.Path, vs, who)
	}
	tw.Flush()
}

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
)

const costUsage = `usage: crdlab cost [--crd-field-validation Strict|Warn|Ignore] [-o text|json] CRD [OBJECT...]

Lists the static CEL cost of every x-kubernetes-validations rule and
messageExpression of CRD (cost, cardinality, share of the per-expression
limit of 10,000,000, the schema total against 100,000,000), the bounds
(maxItems, maxProperties, maxLength) that would bring an expression over
budget under, and with OBJECTs the runtime cost of each rule on each object
against the per-object budget of 10,000,000.
With --crd-field-validation Strict (the default, as kubectl) a CRD with
unknown or duplicate fields is rejected (exit status 1); Warn prints them as
warnings and Ignore drops them silently, as the API server does.
Exit status: 0 accepted and within budget, 1 rejected or an object over
budget, 2 usage or I/O error.
`

// runCost is `crdlab cost`. Flags may come before or after the files.
func runCost(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("cost", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, costUsage) }
	output := fs.String("o", "text", "output format: text or json")
	crdFieldValidation := crdFieldValidationFlag(fs)
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if !checkOutput(*output, stderr) || !checkCRDFieldValidation("cost", *crdFieldValidation, stderr) {
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprint(stderr, "crdlab cost: no CRD given\n\n"+costUsage)
		return exitUsage
	}
	if countStdin(files) > 1 {
		fmt.Fprintln(stderr, "crdlab cost: - (stdin) may be given once")
		return exitUsage
	}
	data, err := readFile(files[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	compiled, err := engine.CompileWithOptions(data, engine.CompileOptions{FieldValidation: engine.FieldValidation(*crdFieldValidation), Filename: files[0]})
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	if compiled.DecodeError() != "" {
		// Rejected while decoding: there is no CRD to analyze.
		printCRDReport(compiled.Definition(), &engine.NewReport(compiled, nil).CRD, stdout, stderr)
		return exitInvalid
	}
	for _, e := range compiled.FieldErrors() {
		fmt.Fprintf(stderr, "Warning: %s\n", e.Error())
	}
	var objects [][]byte
	if len(files) > 1 {
		docs, err := readInputs(files[1:], stdin)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %v\n", err)
			return exitUsage
		}
		for _, d := range skipCRDs(docs) {
			objects = append(objects, d.data)
		}
	}
	rep, err := cost.Analyze(compiled.Definition(), objects...)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	if *output == "json" {
		if err := writeJSON(stdout, rep); err != nil {
			fmt.Fprintf(stderr, "crdlab: %v\n", err)
			return exitUsage
		}
	} else {
		fmt.Fprint(stdout, rep.Text())
	}
	status := exitValid
	if !rep.Accepted {
		status = exitInvalid
	}
	for _, o := range rep.Objects {
		if o.OverBudget {
			status = exitInvalid
		}
	}
	return status
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

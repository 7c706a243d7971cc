package main

// Helpers of the commands that still read their inputs with input.go and
// parse flags with the standard library (cost, bench, schema, lint --old,
// validate --old-crd): see legacyCommand.

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

// legacyCommand wraps a command whose flags are parsed by the standard
// library: help (crdlab help CMD, CMD --help, CMD -h) prints its usage on
// stdout with exit 0; everything else is its own.
func legacyCommand(name, summary, text, example string, run func(args []string, stdin io.Reader, stdout, stderr io.Writer) int) *command {
	c := &command{name: name, summary: summary, text: text, example: example}
	c.run = func(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		for _, a := range args {
			if a == "--" {
				break
			}
			if a == "-h" || a == "--help" || a == "-help" {
				c.help(stdout)
				return exitValid
			}
		}
		return run(args, stdin, stdout, stderr)
	}
	return c
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("crdlab "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}
func checkOutput(o string, stderr io.Writer) bool {
	if o != "text" && o != "json" {
		fmt.Fprintf(stderr, "crdlab: -o must be text or json, not %q\n", o)
		return false
	}
	return true
}

// onlyCRDs keeps the CustomResourceDefinition documents, so that lint on a
// directory holding a CRD and its objects checks the CRD only. Documents
// without a kind are kept, so that their decoding error is reported.
func onlyCRDs(docs []document) []document {
	out := docs[:0]
	for _, d := range docs {
		apiVersion, kind := docKind(d.data)
		if kind != "" && kind != "List" && !(kind == crd.Kind && strings.HasPrefix(apiVersion, crd.Group+"/")) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// relocate shifts a CRD decoding error's line by the document's first line.
func relocate(err error, d document) string {
	var de *crd.DecodeError
	if errors.As(err, &de) && de.Line > 0 && d.line > 1 {
		shifted := *de
		shifted.Line += d.line - 1
		return shifted.Error()
	}
	return err.Error()
}
func writeJSON(w io.Writer, v interface{}) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// printCRD prints a CRD's outcome as kubectl create --dry-run=server would.
// Errors and warnings are preceded by the file:line:col of their field.
func printCRD(c *engine.CRD, o origin, stdout, stderr io.Writer) {
	printCRDReport(c.Definition(), &engine.NewReport(c, nil).CRD, o, stdout, stderr)
}

// printCRDReport is printCRD over a report (native or from the wasm module).
func printCRDReport(def *crd.CustomResourceDefinition, rep *wire.CRDReport, o origin, stdout, stderr io.Writer) {
	for _, w := range locatedWarnings(rep.Warnings, rep.WarningPositions, o) {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	name := def.Metadata.Name
	if rep.DecodeError != "" {
		// kubectl create: the API server's 400 BadRequest, then where the
		// offending fields are in the input.
		fmt.Fprintf(stderr, "Error from server (BadRequest): %s\n", rep.DecodeError)
		for _, p := range rep.FieldErrorPositions {
			fmt.Fprintf(stderr, "  %s\n", p)
		}
		return
	}
	if len(rep.Errors) > 0 {
		fmt.Fprint(stderr, engine.InvalidMessageOf(crd.Kind, name, locatedMessages(rep.Errors, o)))
		return
	}
	fmt.Fprintf(stdout, "customresourcedefinition.apiextensions.k8s.io/%s created (server dry run)\n", name)
}

// messages returns the rendered errors of a report.
func messages(errs []wire.ErrorReport) []string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Message
	}
	return msgs
}
func objectName(obj interface{}) string {
	m, _ := obj.(map[string]interface{})
	meta, _ := m["metadata"].(map[string]interface{})
	name, _ := meta["name"].(string)
	return name
}

var (
	costCommand = legacyCommand("cost", "Report the CEL cost of CRDs' validation rules", costUsage, `  crdlab cost config/crd/widgets.yaml
  crdlab cost --sort runtime --top 10 config/crd/ samples/
  crdlab cost -o json config/crd/ samples/`, runCost)
	benchCommand = legacyCommand("bench", "Measure validation time and CEL cost per object", benchUsage, `  crdlab bench config/crd/ samples/
  crdlab bench -o csv --sort time config/crd/ samples/ > bench.csv`, runBench)
	upgradeCommand = legacyCommand("upgrade", "Check that a CRD upgrade keeps the stored objects valid", upgradeUsage, `  crdlab upgrade deployed.yaml config/crd/widgets.yaml samples/
  crdlab upgrade --fail-on-breaking deployed.yaml new.yaml`, runUpgrade)
	schemaCommand = legacyCommand("schema", "Export CRD schemas as JSON Schema (for editors, kubeconform)", schemaUsage, `  crdlab schema config/crd/widgets.yaml > widget.json
  crdlab schema --strict -o schemas/ config/crd/`, runSchema)
)

// crdFieldValidationFlag defines --crd-field-validation on fs.
func crdFieldValidationFlag(fs *flag.FlagSet) *string {
	return fs.String("crd-field-validation", "Strict", "the CRD create's fieldValidation: Strict, Warn or Ignore (unknown and duplicate fields of the CRD)")
}
func checkCRDFieldValidation(cmd, fv string, stderr io.Writer) bool {
	switch engine.FieldValidation(fv) {
	case engine.Strict, engine.Warn, engine.Ignore:
		return true
	}
	fmt.Fprintf(stderr, "crdlab %s: --crd-field-validation must be Strict, Warn or Ignore, not %q\n", cmd, fv)
	return false
}

package main

import (
	"encoding/json"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

// writeStructured writes v as indented JSON or, for "yaml", as YAML (the
// same document, as kubectl -o yaml renders its JSON).
func writeStructured(format string, w io.Writer, v interface{}) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if format == "yaml" {
		if b, err = yaml.JSONToYAML(b); err != nil {
			return err
		}
		_, err = w.Write(b)
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

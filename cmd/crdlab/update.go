package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

// This file is the CRD-update side of the CLI: `lint --old OLD NEW` and
// `validate --crd NEW --old-crd OLD`.

// storedVersionsFlag parses --stored-versions: nil when unset, else the
// comma-separated list.
func storedVersionsFlag(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// decodeOneCRD reads exactly one CRD from a file; on failure it prints the
// error and returns exitUsage.
func decodeOneCRD(name string, stdin io.Reader, stderr io.Writer) (*crd.CustomResourceDefinition, int) {
	data, err := readFile(name, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return nil, exitUsage
	}
	defs, err := crd.Decode(data, name)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return nil, exitUsage
	}
	if len(defs) != 1 {
		fmt.Fprintf(stderr, "crdlab: %s: expected exactly one CustomResourceDefinition, found %d\n", name, len(defs))
		return nil, exitUsage
	}
	return defs[0], exitValid
}

// compileUpdateFiles compiles newFile as an update of oldFile.
func compileUpdateFiles(newFile, oldFile, storedVersions string, stdin io.Reader, stderr io.Writer) (*engine.CRD, int) {
	if newFile == "-" && oldFile == "-" {
		fmt.Fprintln(stderr, "crdlab: the new and the old CRD cannot both be read from stdin")
		return nil, exitUsage
	}
	oldDef, code := decodeOneCRD(oldFile, stdin, stderr)
	if oldDef == nil {
		return nil, code
	}
	newDef, code := decodeOneCRD(newFile, stdin, stderr)
	if newDef == nil {
		return nil, code
	}
	return engine.CompileCRDUpdate(newDef, oldDef, engine.UpdateOptions{StoredVersions: storedVersionsFlag(storedVersions)}), exitValid
}

// runLintUpdate is `crdlab lint --old OLD NEW`: the API server's verdict on
// updating OLD (as stored in the cluster) to NEW.
func runLintUpdate(oldFile, storedVersions, output string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "crdlab lint: --old needs exactly one new CRD file")
		return exitUsage
	}
	compiled, code := compileUpdateFiles(args[0], oldFile, storedVersions, stdin, stderr)
	if compiled == nil {
		return code
	}
	status := exitValid
	if len(compiled.Errors()) > 0 {
		status = exitInvalid
	}
	rep := engine.NewReport(compiled, nil).CRD
	if output == "json" {
		if err := writeJSON(stdout, wire.LintResult{CRD: rep}); err != nil {
			return exitUsage
		}
		return status
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	name := compiled.Definition().Metadata.Name
	if len(rep.Errors) > 0 {
		fmt.Fprint(stderr, engine.InvalidMessageOf(crd.Kind, name, messages(rep.Errors)))
		return status
	}
	fmt.Fprintf(stdout, "customresourcedefinition.apiextensions.k8s.io/%s configured (server dry run)\n", name)
	return status
}

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cli/inputs"
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
func decodeOneCRD(reader *inputs.Reader, name, role string, stderr io.Writer) ([]byte, *crd.CustomResourceDefinition, int) {
	data, err := reader.ReadFile(name, role)
	if err != nil {
		return nil, nil, reportInputError(stderr, err)
	}
	defs, err := crd.Decode(data, name)
	if err != nil {
		return nil, nil, reportInputError(stderr, err)
	}
	if len(defs) != 1 {
		return nil, nil, reportInputError(stderr, fmt.Errorf("%s: expected exactly one CustomResourceDefinition, found %d", name, len(defs)))
	}
	return data, defs[0], exitValid
}

// compileUpdateFiles compiles newFile as an update of oldFile.
func compileUpdateFiles(update crdUpdateFunc, newFile, oldFile, storedVersions, kubeVersion string, stdin io.Reader, stderr io.Writer) (inputs.Compiled, *crd.CustomResourceDefinition, int) {
	c, def, _, _, code := compileUpdateFilesRaw(update, newFile, oldFile, storedVersions, kubeVersion, stdin, stderr)
	return c, def, code
}

// compileUpdateFilesRaw is compileUpdateFiles, also returning the files'
// bytes (new, old).
func compileUpdateFilesRaw(update crdUpdateFunc, newFile, oldFile, storedVersions, kubeVersion string, stdin io.Reader, stderr io.Writer) (inputs.Compiled, *crd.CustomResourceDefinition, []byte, []byte, int) {
	reader := &inputs.Reader{Stdin: stdin} // stdin once: the callers check it
	oldRaw, oldDef, code := decodeOneCRD(reader, oldFile, "old CRD", stderr)
	if oldDef == nil {
		return nil, nil, nil, nil, code
	}
	newRaw, newDef, code := decodeOneCRD(reader, newFile, "new CRD", stderr)
	if newDef == nil {
		return nil, nil, nil, nil, code
	}
	compiled, err := update(newRaw, oldRaw, newDef, oldDef, engine.UpdateOptions{StoredVersions: storedVersionsFlag(storedVersions), KubeVersion: kubeVersion})
	if err != nil {
		return nil, nil, nil, nil, reportInputError(stderr, err)
	}
	return compiled, newDef, newRaw, oldRaw, exitValid
}

// runLintUpdate is `crdlab lint --old OLD NEW`: the API server's verdict on
// updating OLD (as stored in the cluster) to NEW.
func runLintUpdate(c *command, lf *lintFlags, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		return usageError(c, stderr, "--old needs exactly one new CRD file")
	}
	if code := stdinOnce(c, stderr, []string{lf.old}, args); code >= 0 {
		return code
	}
	defer closeEngine()
	update, err := pickRuntime[crdUpdateFunc](lf.runtimeFlags, nativeCRDUpdate, func(m *wasmModule) (crdUpdateFunc, error) { return wasmCRDUpdate(m, "crdlab lint --old") })
	if err != nil {
		return runtimeError(c, stderr, err)
	}
	compiled, def, newRaw, oldRaw, code := compileUpdateFilesRaw(update, args[0], lf.old, lf.storedVersions, lf.kube.version, stdin, stderr)
	if compiled == nil {
		return code
	}
	rep := compiled.Report()
	status := exitValid
	if len(rep.Errors) > 0 {
		status = exitInvalid
	}
	// Validating admission runs on the update the schema checks accept.
	var adm *wire.AdmissionOutcome
	if len(rep.Errors) == 0 {
		var err error
		adm, err = crdUpdateAdmission(&lf.admission, inputs.Reader{Recursive: lf.recursive}, newRaw, oldRaw, lf.kube.version)
		if err != nil {
			return reportInputError(stderr, err)
		}
		if n := admissionReleaseNote(lf.kube.version); adm != nil && n != "" {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
		if adm != nil && !adm.Allowed {
			status = exitInvalid
		}
	}
	if lf.output != "text" {
		if err := writeStructured(lf.output, stdout, lintUpdateResult{LintResult: wire.LintResult{CRD: rep}, Admission: adm}); err != nil {
			return reportInputError(stderr, err)
		}
		return status
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	name := def.Metadata.Name
	if len(rep.Errors) > 0 {
		fmt.Fprint(stderr, engine.InvalidMessageOf(crd.Kind, name, messages(rep.Errors)))
		return status
	}
	writeAdmissionText(stderr, args[0], adm)
	if line := crdWebhooksLine(name, adm); line != "" {
		fmt.Fprintln(stdout, line)
	}
	if adm != nil && !adm.Allowed {
		return status
	}
	fmt.Fprintf(stdout, "customresourcedefinition.apiextensions.k8s.io/%s configured (server dry run)\n", name)
	return status
}

// lintUpdateResult is what lint --old -o json prints: the CRD report and,
// with --policy, the admission outcome of the update (the CLI's; the ABI's
// lint result has no admission).
type lintUpdateResult struct {
	wire.LintResult
	Admission *wire.AdmissionOutcome `json:"admission,omitempty"`
}

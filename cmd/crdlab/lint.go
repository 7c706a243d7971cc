package main

import (
	"fmt"
	"io"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/cli/report"
)

var lintCommand = &command{
	name:    "lint",
	summary: "Validate CustomResourceDefinitions as kube-apiserver would",
	usage: `crdlab lint [-R] [-o FORMAT] [--summary] [--policy FILE|DIR]... CRD...
crdlab lint --old OLD_CRD [--stored-versions V,...] [--policy FILE|DIR]... [-o text|json] NEW_CRD`,
	doc: `Validate CustomResourceDefinitions as kube-apiserver 1.37 would on
create: structural schema, CEL rules and their costs, defaults, names and
versions. Other documents in the inputs are ignored.

With --policy (and no --old), the ValidatingAdmissionPolicies given are
type-checked against the CRDs as the API server does for a policy's
status.typeChecking: each policy is an entry whose warnings name the
expression (file:line) and the kind it fails for. Warnings do not change
the exit status. A policy or binding the API server would refuse to
create is an invalid entry with its field errors instead (exit 1); with
--old, and in validate and upgrade, it is an input error (exit 2).`,
	example: `  crdlab lint config/crd/bases/
  crdlab lint -R -o github config/

  # Type-check validating admission policies against the CRDs
  crdlab lint --policy policies/ config/crd/

  # The update of the CRD in the cluster to a new revision
  crdlab lint --old deployed.yaml config/crd/widgets.yaml

  # ... with the cluster's validating admission policies on CRDs
  crdlab lint --old deployed.yaml --policy gateway.networking.k8s.io_vap_safeupgrades.yaml gateways.yaml

  # As a Kubernetes 1.35 API server judges them
  crdlab lint --kube-version 1.35 config/crd/

  # At 1.35, 1.36 and 1.37 at once (exit 1 if any rejects)
  crdlab lint --kube-version 1.35-1.37 config/crd/`,
	flags: func(fs *flag.FlagSet) { declareLint(fs, &lintFlags{}) },
	run:   runLint,
}

type lintFlags struct {
	outputFlags
	old, storedVersions string
	admission           admissionFlags
}

func declareLint(fs *flag.FlagSet, f *lintFlags) {
	f.outputFlags.declare(fs)
	fs.StringVar(&f.old, "old", "", "the CRD in the cluster `FILE`: lint the update of it to the one CRD given")
	fs.StringVar(&f.storedVersions, "stored-versions", "", "with --old: its status.storedVersions, comma-separated (default: the file's, else its storage version)")
	f.admission.declareForUpdate(fs)
	fs.Lookup("policy").Usage = "ValidatingAdmissionPolicies and bindings `FILE` or directory (repeatable): with --old applied to the CRD update; without it, type-checked against the CRDs"
}

func runLint(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags(c)
	var lf lintFlags
	declareLint(fs, &lf)
	f := &lf.outputFlags
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	if err := f.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	kind := matrixRuns
	if lf.old != "" {
		kind = matrixWhole
	}
	if code, done := matrix(c, &f.kube, &f.output, kind, args, stdin, stdout, stderr); done {
		return code
	}
	if lf.storedVersions != "" && lf.old == "" {
		return usageError(c, stderr, "--stored-versions needs --old")
	}
	if (lf.admission.request != "" || lf.admission.user != "" || lf.admission.groups != nil || lf.admission.webhookResponses != nil) && lf.old == "" {
		return usageError(c, stderr, "--request, --user, --group and --webhook-response need --old (the policies apply to the CRD update; without --old, --policy type-checks the policies against the CRDs)")
	}
	if lf.old != "" {
		if f.output != "text" && f.output != "json" && f.output != "yaml" {
			return usageError(c, stderr, "--old supports -o text, json or yaml, not %s", f.output)
		}
		return runLintUpdate(c, &lf, fs.Args(), stdin, stdout, stderr)
	}
	if fs.NArg() == 0 {
		return usageError(c, stderr, "no CRDs given (files, directories or -)")
	}
	if code := stdinOnce(c, stderr, fs.Args()); code >= 0 {
		return code
	}
	docs, skipped, err := (&inputs.Reader{Recursive: f.recursive, Stdin: stdin}).ReadManifests(fs.Args(), "CRDs")
	if err != nil {
		return reportInputError(stderr, err)
	}
	for _, s := range skipped {
		fmt.Fprintf(stderr, "note: %s\n", s)
	}
	var defs []inputs.Document
	for _, d := range docs {
		if d.IsCRD() {
			defs = append(defs, d)
		}
	}
	if len(defs) == 0 {
		if f.empty {
			return writeEmpty(*f, stdout, stderr)
		}
		return usageError(c, stderr, "no CustomResourceDefinitions found in %s", strings.Join(fs.Args(), ", "))
	}
	cat, code := newCatalog(f, stderr)
	if cat == nil {
		return code
	}
	defer closeEngine()
	rep, err := cat.Lint(defs, f.jobs)
	if err != nil {
		return reportInputError(stderr, err)
	}
	if len(lf.admission.policies) > 0 {
		// The policies' type checking against the CRDs linted: one entry
		// per ValidatingAdmissionPolicy, after the CRDs.
		entries, err := typeCheckEntries(&inputs.Reader{Recursive: f.recursive}, lf.admission.policies, defs, rep.Results)
		if err != nil {
			return reportInputError(stderr, err)
		}
		rep.Results = append(rep.Results, entries...)
		rep.Summary = inputs.Summarize(rep.Results)
	}
	rep.KubeVersion = f.kube.version
	if err := report.Write(f.output, rep, stdout, stderr, report.Options{Summary: f.summary}); err != nil {
		return reportInputError(stderr, err)
	}
	if inputs.Failed(rep) {
		return exitInvalid
	}
	return exitValid
}

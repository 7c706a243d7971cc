package main

import (
	"fmt"
	"io"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/upgrade"
	"github.com/crdlab/crdlab/wire"
)

var upgradeCommand = &command{
	name:    "upgrade",
	summary: "Check that a CRD upgrade keeps the stored objects valid",
	usage:   `crdlab upgrade [--stored-versions V,...] [--fail-on-breaking] [--policy FILE|DIR]... [-R] [-o text|json|yaml] OLD_CRD NEW_CRD [STORED_OBJECT|DIR...]`,
	doc: `Report what applying NEW_CRD over OLD_CRD (as stored in the cluster) does:
the API server's verdict on the CRD update; for each stored object (read at
the version of its apiVersion), what the updated API server does when it
reads it (decode errors, fields pruned, defaults applied) and writes it back
unchanged (ratcheting applies) or creates it afresh, at the stored version
and at the new storage version; and a compatibility diff of the schemas for
clients (a diff, not the API server's verdict). When a list or map changes
its merge type for server-side apply (x-kubernetes-list-type,
x-kubernetes-list-map-keys, x-kubernetes-map-type), an "Apply behaviour"
section lists the changes and, for each stored object with managedFields,
what the field manager does with them under the new CRD (fields orphaned,
entries rewritten) and each Apply manager's next apply (its owned fields
re-applied, as ExtractInto rebuilds them) under the old and the new CRD:
fields wiped, new conflicts (docs/apply.md). With --policy, the
validating admission policies given (e.g. Gateway API's safe-upgrades
policy) run on the CRD update as the API server's admission chain would; a
denial makes the upgrade unsafe.`,
	example: `  crdlab upgrade deployed.yaml config/crd/widgets.yaml samples/
  crdlab upgrade --fail-on-breaking deployed.yaml new.yaml
  crdlab upgrade --policy gateway.networking.k8s.io_vap_safeupgrades.yaml old/gateways.yaml new/gateways.yaml

  # The CRD in the cluster, its stored objects, and the new revision
  kubectl get crd widgets.example.com -o yaml > deployed.yaml
  kubectl get widgets -A -o yaml > stored.yaml
  crdlab upgrade -o json deployed.yaml config/crd/widgets.yaml stored.yaml`,
	exit: `Exit status: 0 safe, 1 unsafe (the update is rejected, or a stored object
no longer reads, loses data on read or fails a no-op update; with
--fail-on-breaking also a breaking schema change), 2 usage or input error
(unreadable or unparseable input, with file:line).`,
	flags: func(fs *flag.FlagSet) { declareUpgrade(fs, &upgradeFlags{}) },
	run:   runUpgrade,
}

type upgradeFlags struct {
	runtimeFlags
	output, storedVersions    string
	failOnBreaking, recursive bool
	admission                 admissionFlags
	kube                      kubeVersionFlag
}

func declareUpgrade(fs *flag.FlagSet, f *upgradeFlags) {
	fs.StringVarP(&f.output, "output", "o", "text", "output format: text, json or yaml")
	fs.StringVar(&f.storedVersions, "stored-versions", "", "the old CRD's status.storedVersions (comma-separated); default: its file's status, else its storage version")
	fs.BoolVar(&f.failOnBreaking, "fail-on-breaking", false, "a breaking schema change makes the upgrade unsafe")
	fs.BoolVarP(&f.recursive, "recursive", "R", false, "read directories of stored objects recursively (as kubectl -R)")
	f.admission.declareForUpdate(fs)
	f.kube.declare(fs)
	f.runtimeFlags.declare(fs)
}

// runUpgrade is `crdlab upgrade OLD_CRD NEW_CRD [STORED_OBJECT...]`.
func runUpgrade(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags(c)
	var f upgradeFlags
	declareUpgrade(fs, &f)
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	var err error
	if f.output, err = enum("output", f.output, "text", "json", "yaml"); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if err := f.runtimeFlags.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if err := f.kube.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if code, done := matrix(c, &f.kube, &f.output, matrixWhole, args, stdin, stdout, stderr); done {
		return code
	}
	rest := fs.Args()
	if len(rest) < 2 {
		return usageError(c, stderr, "need OLD_CRD and NEW_CRD")
	}
	if code := stdinOnce(c, stderr, rest); code >= 0 {
		return code
	}
	defer closeEngine()
	check, err := pickRuntime[upgradeFunc](f.runtimeFlags, nativeUpgrade, wasmUpgrade)
	if err != nil {
		return runtimeError(c, stderr, err)
	}
	reader := &inputs.Reader{Recursive: f.recursive, Stdin: stdin}
	oldRaw, oldDef, code := decodeOneCRD(reader, rest[0], "old CRD", stderr)
	if oldDef == nil {
		return code
	}
	newRaw, newDef, code := decodeOneCRD(reader, rest[1], "new CRD", stderr)
	if newDef == nil {
		return code
	}
	docs, skipped, err := reader.ReadManifests(rest[2:], "stored objects")
	if err != nil {
		return reportInputError(stderr, err)
	}
	for _, s := range skipped {
		fmt.Fprintf(stderr, "note: %s\n", s)
	}
	objects := make([]upgrade.Object, len(docs))
	for i := range docs {
		objects[i] = upgrade.Object{Source: where(&docs[i]), Data: docs[i].Body()}
	}
	rep, err := check(oldRaw, newRaw, oldDef, newDef, objects, upgrade.Options{
		StoredVersions: storedVersionsFlag(f.storedVersions),
		FailOnBreaking: f.failOnBreaking,
		KubeVersion:    f.kube.version,
		Share:          f.kube.share,
	})
	if err != nil {
		return reportInputError(stderr, err)
	}
	var adm *wire.AdmissionOutcome
	if len(rep.CRDUpdate.Errors) == 0 {
		if adm, err = crdUpdateAdmission(&f.admission, inputs.Reader{Recursive: f.recursive}, newRaw, oldRaw, f.kube.version); err != nil {
			return reportInputError(stderr, err)
		}
		if n := admissionReleaseNote(f.kube.version); adm != nil && n != "" {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
		if adm != nil && !adm.Allowed {
			rep.Safe = false
		}
	}
	var ab *apply.UpgradeReport
	if len(rep.CRDUpdate.Errors) == 0 {
		if ab, err = applyBehaviour(oldDef, newDef, objects, storedVersionsFlag(f.storedVersions)); err != nil {
			return reportInputError(stderr, err)
		}
	}
	status := exitValid
	if !rep.Safe {
		status = exitInvalid
	}
	if f.output != "text" {
		if err := writeStructured(f.output, stdout, upgradeResult{UpgradeReport: rep, Admission: adm, ApplyBehaviour: ab}); err != nil {
			return reportInputError(stderr, err)
		}
		return status
	}
	writeUpgradeText(stdout, newDef.Metadata.Name, f.kube.single(c), rep, adm, ab)
	return status
}

// upgradeResult is what upgrade -o json prints: the report and, with
// --policy, the admission outcome of the CRD update (the CLI's; the ABI's
// upgrade report has no admission).
type upgradeResult struct {
	*wire.UpgradeReport
	Admission *wire.AdmissionOutcome `json:"admission,omitempty"`
	// ApplyBehaviour is what the update changes for server-side apply
	// (absent when the update is rejected): the CLI's, computed natively
	// whatever the runtime.
	ApplyBehaviour *apply.UpgradeReport `json:"applyBehaviour,omitempty"`
}

// writeUpgradeText renders the report for people; the result line names
// the release judged by (kube; "" in a matrix, whose output names it).
func writeUpgradeText(w io.Writer, name, kube string, rep *wire.UpgradeReport, adm *wire.AdmissionOutcome, ab *apply.UpgradeReport) {
	fmt.Fprintf(w, "CRD update of %s: ", name)
	if len(rep.CRDUpdate.Errors) > 0 {
		fmt.Fprintln(w, "REJECTED by the API server")
		fmt.Fprint(w, indent(engine.InvalidMessageOf(crd.Kind, name, messages(rep.CRDUpdate.Errors)), "  "))
	} else if a := adm; a != nil && !a.Allowed {
		if a.Policy != "" {
			fmt.Fprintln(w, "DENIED by a validating admission policy")
		} else {
			fmt.Fprintln(w, "DENIED by the admission webhooks' matching")
		}
		fmt.Fprintf(w, "  %s\n", a.Message)
	} else {
		fmt.Fprintln(w, "accepted by the API server")
	}
	for _, warn := range rep.CRDUpdate.Warnings {
		fmt.Fprintf(w, "  Warning: %s\n", warn)
	}
	if a := adm; a != nil {
		for _, warn := range a.Warnings {
			fmt.Fprintf(w, "  Warning: %s\n", warn)
		}
		if line := crdWebhooksLine(name, a); line != "" {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	fmt.Fprintf(w, "Storage version: %s -> %s (stored versions: %s)\n", rep.OldStorageVersion, rep.NewStorageVersion, strings.Join(rep.StoredVersions, ", "))
	if len(rep.Objects) > 0 {
		fmt.Fprintln(w, "\nStored objects (as the updated API server reads and writes them):")
	}
	for _, o := range rep.Objects {
		verdict := "ok"
		if o.Skipped != "" {
			fmt.Fprintf(w, "  %s %s: skipped: %s\n", o.Source, o.Name, o.Skipped)
			continue
		}
		if len(rep.CRDUpdate.Errors) > 0 {
			verdict = "not checked"
		} else if !o.Safe {
			verdict = "UNSAFE"
		}
		fmt.Fprintf(w, "  %s %s (stored at %s): %s\n", o.Source, o.Name, o.StoredVersion, verdict)
		if len(rep.CRDUpdate.Errors) > 0 {
			fmt.Fprintln(w, "    not read: the update is rejected")
		}
		for _, r := range o.Reads {
			fmt.Fprintf(w, "    at %s:\n", r.Version)
			if r.DecodeError != "" {
				fmt.Fprintf(w, "      does not decode: %s\n", r.DecodeError)
				continue
			}
			if len(r.Pruned) > 0 {
				fmt.Fprintf(w, "      pruned on read (data lost): %s\n", strings.Join(r.Pruned, ", "))
			}
			if len(r.Defaulted) > 0 {
				fmt.Fprintf(w, "      defaulted on read: %s\n", strings.Join(r.Defaulted, ", "))
			}
			writeRequest(w, "no-op update", r.NoOpUpdate)
			writeRequest(w, "create", r.Create)
		}
	}
	writeApplyBehaviour(w, ab)
	if len(rep.Changes) > 0 {
		fmt.Fprintln(w, "\nSchema changes for clients (a diff of the two CRDs, not the API server's verdict):")
	}
	for _, c := range rep.Changes {
		at := c.Version
		if c.FromVersion != "" {
			at = c.FromVersion + "->" + c.Version
		}
		if c.Path != "" {
			at += " " + c.Path
		}
		if at == "" {
			at = "CRD"
		}
		fmt.Fprintf(w, "  %-8s %s: %s: %s\n", c.Severity, strings.TrimSpace(at), c.Kind, c.Message)
	}
	result := "UNSAFE"
	if rep.Safe {
		result = "safe"
	}
	if kube != "" {
		result += " (Kubernetes " + kube + ")"
	}
	fmt.Fprintf(w, "\nResult: %s\n", result)
}

func writeRequest(w io.Writer, what string, r *wire.RequestReport) {
	switch {
	case r == nil:
		fmt.Fprintf(w, "      %s: not served\n", what)
	case r.Allowed:
		fmt.Fprintf(w, "      %s: allowed\n", what)
	case r.DecodeError != "":
		fmt.Fprintf(w, "      %s: rejected: %s\n", what, r.DecodeError)
	default:
		fmt.Fprintf(w, "      %s: rejected:\n", what)
		for _, e := range r.Errors {
			fmt.Fprintf(w, "        %s\n", e.Message)
		}
	}
	for _, warn := range warningsOf(r) {
		fmt.Fprintf(w, "        Warning: %s\n", warn)
	}
}

func warningsOf(r *wire.RequestReport) []string {
	if r == nil {
		return nil
	}
	return r.Warnings
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

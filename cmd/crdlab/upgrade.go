package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/upgrade"
	"github.com/crdlab/crdlab/wire"
)

const upgradeUsage = `Usage: crdlab upgrade [--stored-versions V,...] [--fail-on-breaking] [-o text|json]
                     OLD_CRD NEW_CRD [STORED_OBJECT...]

Reports what applying NEW_CRD over OLD_CRD (as stored in the cluster) does:
the API server's verdict on the CRD update; for each stored object (read at
the version of its apiVersion), what the updated API server does when it
reads it (decode errors, fields pruned, defaults applied) and writes it back
unchanged (ratcheting applies) or creates it afresh, at the stored version
and at the new storage version; and a compatibility diff of the schemas for
clients (a diff, not the API server's verdict).

Exit status: 0 safe, 1 unsafe (the update is rejected, or a stored object
no longer reads, loses data on read or fails a no-op update; with
--fail-on-breaking also a breaking schema change), 2 usage or I/O error.
`

// runUpgrade is `crdlab upgrade OLD_CRD NEW_CRD [STORED_OBJECT...]`.
func runUpgrade(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("upgrade", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, upgradeUsage) }
	output := fs.String("o", "text", "output format: text or json")
	storedVersions := fs.String("stored-versions", "", "the old CRD's status.storedVersions (comma-separated); default: its file's status, else its storage version")
	failOnBreaking := fs.Bool("fail-on-breaking", false, "a breaking schema change makes the upgrade unsafe")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if !checkOutput(*output, stderr) {
		return exitUsage
	}
	rest := fs.Args()
	if len(rest) < 2 {
		fmt.Fprint(stderr, "crdlab upgrade: need OLD_CRD and NEW_CRD\n\n"+upgradeUsage)
		return exitUsage
	}
	if rest[0] == "-" && rest[1] == "-" {
		fmt.Fprintln(stderr, "crdlab: the new and the old CRD cannot both be read from stdin")
		return exitUsage
	}
	oldDef, code := decodeOneCRD(rest[0], stdin, stderr)
	if oldDef == nil {
		return code
	}
	newDef, code := decodeOneCRD(rest[1], stdin, stderr)
	if newDef == nil {
		return code
	}
	docs, err := readInputs(rest[2:], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	objects := make([]upgrade.Object, len(docs))
	for i, d := range docs {
		objects[i] = upgrade.Object{Source: d.where(), Data: d.data}
	}
	rep := upgrade.CheckCRDs(oldDef, newDef, objects, upgrade.Options{
		StoredVersions: storedVersionsFlag(*storedVersions),
		FailOnBreaking: *failOnBreaking,
	})
	status := exitValid
	if !rep.Safe {
		status = exitInvalid
	}
	if *output == "json" {
		if err := writeJSON(stdout, rep); err != nil {
			return exitUsage
		}
		return status
	}
	writeUpgradeText(stdout, newDef.Metadata.Name, rep)
	return status
}

// writeUpgradeText renders the report for people.
func writeUpgradeText(w io.Writer, name string, rep *wire.UpgradeReport) {
	fmt.Fprintf(w, "CRD update of %s: ", name)
	if len(rep.CRDUpdate.Errors) > 0 {
		fmt.Fprintln(w, "REJECTED by the API server")
		fmt.Fprint(w, indent(engine.InvalidMessageOf(crd.Kind, name, messages(rep.CRDUpdate.Errors)), "  "))
	} else {
		fmt.Fprintln(w, "accepted by the API server")
	}
	for _, warn := range rep.CRDUpdate.Warnings {
		fmt.Fprintf(w, "  Warning: %s\n", warn)
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
	if rep.Safe {
		fmt.Fprintln(w, "\nResult: safe")
	} else {
		fmt.Fprintln(w, "\nResult: UNSAFE")
	}
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

package main

import (
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
	iadm "github.com/crdlab/crdlab/internal/admission"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/position"
	"github.com/crdlab/crdlab/wire"
)

// crdlab lint --policy (without --old): the type checking of the
// ValidatingAdmissionPolicies given, against the CRDs linted
// (internal/admission.TypeCheck), one run entry per policy; a policy or
// binding the API server would not create is an invalid entry with its
// create errors instead (policycreate.go).

// typeCheckEntries reads the --policy files and returns one valid entry
// per ValidatingAdmissionPolicy: its status.typeChecking warnings
// (TypeChecking) against the CRDs of defs that lint accepts (results is
// index for index with defs), and each as a warning located at its
// expression in the policy file.
func typeCheckEntries(reader *inputs.Reader, files []string, defs []inputs.Document, results []wire.RunEntry) ([]wire.RunEntry, error) {
	docs, err := reader.Read(files, "policies (--policy)")
	if err != nil {
		return nil, err
	}
	var crds []*crd.CustomResourceDefinition
	for i, d := range defs {
		if i < len(results) && results[i].Status != wire.StatusValid {
			continue
		}
		if def, err := crd.DecodeOne(d.Data, d.File); err == nil {
			crds = append(crds, def)
		}
	}
	var out []wire.RunEntry
	for _, d := range docs {
		if !iadm.IsPolicyKind(d.APIVersion, d.Kind) {
			continue
		}
		body, file, line := d.Raw, d.File, d.RawLine
		if d.Item >= 0 || body == nil {
			body, file, line = d.Data, d.Where(), 0
		}
		in, err := iadm.DecodeDocument(body, file, line)
		if err != nil {
			return nil, err
		}
		if errs := in.CreateErrors(); len(errs) > 0 {
			out = append(out, createErrorEntries(d, body, line, errs)...)
			continue
		}
		var tree *position.Tree
		for _, p := range in.Policies {
			warnings, err := iadm.TypeCheck(p, crds)
			if err != nil {
				return nil, err
			}
			e := wire.RunEntry{
				File: d.File, Document: d.Index, Line: d.Line,
				APIVersion: d.APIVersion, Kind: d.Kind, Name: p.Metadata.Name,
				Status: wire.StatusValid, Errors: []wire.LocatedError{}, Warnings: []string{},
			}
			if d.Item >= 0 {
				item := d.Item
				e.Item = &item
			}
			for _, w := range warnings {
				e.TypeChecking = append(e.TypeChecking, wire.ExpressionWarning{FieldRef: w.FieldRef, Warning: w.Warning})
				e.Warnings = append(e.Warnings, w.FieldRef+": "+strings.TrimSuffix(w.Warning, "\n"))
				at := &wire.Position{Line: d.Line}
				if line > 0 {
					if tree == nil {
						tree = position.Parse(body)
					}
					if pos, ok := tree.Find(w.FieldRef); ok {
						at = &wire.Position{Line: pos.Line + line - 1, Column: pos.Column}
					}
				}
				e.WarningPositions = append(e.WarningPositions, at)
			}
			if len(e.TypeChecking) == 0 {
				e.WarningPositions = nil
			}
			out = append(out, e)
		}
	}
	return out, nil
}

package main

import (
	iadm "github.com/crdlab/crdlab/internal/admission"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/position"
	"github.com/crdlab/crdlab/wire"
)

// createErrorEntries are the lint entries of the admission policies and
// bindings of document d that kube-apiserver would refuse to create
// (internal/admission's CreateErrors): one invalid entry per object, its
// field errors in the API server's order, each at its field's line and
// column in the file when the document's text is known (line > 0: body
// starts at that line), else at the document's line.
func createErrorEntries(d inputs.Document, body []byte, line int, errs []*iadm.CreateError) []wire.RunEntry {
	var tree *position.Tree
	var out []wire.RunEntry
	for _, ce := range errs {
		e := wire.RunEntry{
			File: d.File, Document: d.Index, Line: d.Line,
			APIVersion: d.APIVersion, Kind: ce.Kind, Name: ce.Name,
			Status: wire.StatusInvalid, Errors: []wire.LocatedError{}, Warnings: []string{},
		}
		if d.Item >= 0 {
			item := d.Item
			e.Item = &item
		}
		for _, fe := range ce.Errors {
			le := wire.LocatedError{
				ErrorReport: wire.ErrorReport{Type: string(fe.Type), Field: fe.Field, Detail: fe.Detail, Message: fe.Error()},
				Line:        d.Line,
			}
			if line > 0 {
				if tree == nil {
					tree = position.Parse(body)
				}
				if pos, ok := tree.Find(fe.Field); ok || pos.Known() {
					le.Line, le.Column = pos.Line+line-1, pos.Column
				}
			}
			e.Errors = append(e.Errors, le)
		}
		out = append(out, e)
	}
	return out
}

package inputs

import (
	"encoding/json"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/wire"
)

// Mutating admission in a run (Options.Mutate): the document's object, the
// document carrying a mutated object, and the entry's record of it.

// ObjectJSON is the whole document as JSON (a pending document's Data
// holds its identity only).
func (d *Document) ObjectJSON() ([]byte, error) {
	if d.Item < 0 && d.Raw != nil {
		return yaml.YAMLToJSON(d.Raw)
	}
	return d.Data, nil
}

// WithObject is a copy of d whose body is obj (JSON): its errors are
// located at the document's line (the positions of the mutated object do
// not point into the file).
func (d *Document) WithObject(obj map[string]interface{}) (*Document, error) {
	js, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	nd := *d
	nd.Data, nd.Raw, nd.RawLine = js, nil, 0
	nd.parsed, nd.pending = nil, false
	return &nd, nil
}

// recordMutation records mo in the entry; a refusal replaces the
// validation's outcome, which the API server never reaches.
func recordMutation(r *Result, mo *wire.MutationOutcome) {
	r.Mutation = mo
	if mo.Allowed {
		return
	}
	r.Status = wire.StatusInvalid
	r.DecodeError, r.DecodeErrorPosition = "", nil
	r.Errors = []wire.LocatedError{{ErrorReport: wire.ErrorReport{Type: "AdmissionDenied", Detail: mo.Message, Message: mo.Message}, Line: r.Line}}
	r.Warnings, r.WarningPositions = []string{}, nil
	r.Pruned = nil
	r.Result, r.OldResult = nil, nil
	r.fieldErrors = nil
}

package abi

import (
	"fmt"
	"time"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
)

// applyReport answers "apply": apply.Run of the steps on the compiled CRD
// Handle, as `crdlab apply --crd CRD [--stored OBJECT] STEPS` runs them,
// with each step's field owners. A steps file that does not parse is a
// BadRequest with its line; an invalid CRD or an unreadable stored object
// is Invalid; refused steps are in the result.
func (s *Server) applyReport(r *wire.Request) (interface{}, *wire.Error) {
	c, e := s.lookup(r.Handle)
	if e != nil {
		return nil, e
	}
	if r.Steps == "" {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `"apply" needs "steps" (a list of {manager, operation, force, subresource, object})`}
	}
	steps, err := apply.ParseSteps([]byte(r.Steps))
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: "steps: " + err.Error()}
	}
	opts := apply.Options{FieldValidation: engine.FieldValidation(r.FieldValidation)}
	switch r.FieldValidation {
	case "", string(engine.Strict), string(engine.Warn), string(engine.Ignore):
	default:
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(`"fieldValidation" %q: want Strict, Warn or Ignore`, r.FieldValidation)}
	}
	if r.Time != "" {
		if opts.Time, err = time.Parse(time.RFC3339, r.Time); err != nil {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(`"time": %v`, err)}
		}
	}
	var stored []byte
	if r.Stored != "" {
		stored = []byte(r.Stored)
	}
	rep, err := apply.Run(c, stored, steps, opts)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
	}
	res, err := rep.Wire()
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
	}
	return res, nil
}

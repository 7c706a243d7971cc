package wasm

import (
	"context"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/crdlab/crdlab/wire"
)

// ApplyOptions are the options of `crdlab apply` (apply.Options).
type ApplyOptions struct {
	// Stored is the object as stored before the first step (YAML or JSON,
	// with its metadata.managedFields); nil when there is none yet.
	Stored []byte
	// Time is the time of the first step (one second more per step); zero
	// is 2026-01-01T00:00:00Z.
	Time time.Time
	// FieldValidation is the updates' fieldValidation ("" is Strict).
	FieldValidation FieldValidation
}

// Apply sends server-side apply requests to one object of the compiled
// CRD, in order, as `crdlab apply --crd CRD [--stored OBJECT] STEPS` does
// (package apply): steps is a steps file, YAML or JSON, a list of
// {manager, operation: Apply|Update|Delete, force, subresource, object}.
// The result has one entry per step: the stored object with its
// managedFields, the 409 text of a conflict or another refusal, and the
// owners of the object's fields. A steps file that does not parse is an
// error with Code BadRequest (its line in the message).
func (c *CRD) Apply(ctx context.Context, steps []byte, opts ApplyOptions) (*wire.ApplyResult, error) {
	raw, err := c.ApplyRaw(ctx, steps, opts)
	if err != nil {
		return nil, err
	}
	var out wire.ApplyResult
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ApplyRaw is Apply returning the module's bytes: json.Marshal of the
// native apply.Report's Wire().
func (c *CRD) ApplyRaw(ctx context.Context, steps []byte, opts ApplyOptions) (json.RawMessage, error) {
	if !utf8.Valid(steps) || !utf8.Valid(opts.Stored) {
		return nil, &Error{Code: wire.CodeBadRequest, Message: "the steps and the stored object must be UTF-8 text"}
	}
	req := wire.ApplyRequest{Op: wire.OpApply, Steps: string(steps), Stored: string(opts.Stored), FieldValidation: string(opts.FieldValidation)}
	if !opts.Time.IsZero() {
		req.Time = opts.Time.UTC().Format(time.RFC3339)
	}
	var out json.RawMessage
	err := c.withHandle(ctx, func(h uint32, _ int64) interface{} {
		req.Handle = h
		return req
	}, &out)
	if err != nil {
		return nil, err
	}
	return out, nil
}

package wasm

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"unicode/utf8"
)

// Report is the document `crdlab validate -o json` prints (engine.Report):
// the CRD's errors and warnings and, when the CRD is valid, the object's
// outcome.
type Report struct {
	CRD    CRDReport     `json:"crd"`
	Object *ObjectReport `json:"object"`
}

// CRDReport holds the CRD's validation errors and warnings (engine.CRDReport).
type CRDReport struct {
	Errors   []ErrorReport `json:"errors"`
	Warnings []string      `json:"warnings"`
}

// ObjectReport holds one object's outcome (engine.ObjectReport). Result is
// the final object's JSON, or null when the request failed while decoding.
type ObjectReport struct {
	Result      json.RawMessage `json:"result"`
	Pruned      []string        `json:"pruned"`
	DecodeError string          `json:"decodeError,omitempty"`
	Errors      []ErrorReport   `json:"errors"`
	Warnings    []string        `json:"warnings"`
}

// Valid reports whether the request would have succeeded (engine.Result.Valid).
func (o *ObjectReport) Valid() bool { return o.DecodeError == "" && len(o.Errors) == 0 }

// ErrorReport is one field error (engine.ErrorReport).
type ErrorReport struct {
	Type    string `json:"type"`
	Field   string `json:"field"`
	Detail  string `json:"detail"`
	Message string `json:"message"`
}

// FieldValidation is the fieldValidation request parameter (engine.FieldValidation).
type FieldValidation string

// The fieldValidation values, as engine's.
const (
	Strict FieldValidation = "Strict"
	Warn   FieldValidation = "Warn"
	Ignore FieldValidation = "Ignore"
)

// ValidateOptions mirror engine.ValidateOptions.
type ValidateOptions struct {
	// Version is the served version; "" picks it from the object's apiVersion.
	Version string
	// Old is the stored object; when set, the request is an update.
	Old []byte
	// Subresource is "" or "status".
	Subresource string
	// FieldValidation is Strict (default), Warn or Ignore.
	FieldValidation FieldValidation
}

// CRD is a CRD compiled in the module. It is safe for concurrent use: every
// pooled instance compiles it on first use (the module's compile is
// deterministic, so all instances agree).
type CRD struct {
	r        *Runtime
	id       uint64
	src      []byte
	report   CRDReport
	versions []string
	closed   atomic.Bool
}

// Errors returns the CRD's validation errors, upstream's order (engine.CRD.Errors).
func (c *CRD) Errors() []ErrorReport { return c.report.Errors }

// Warnings returns the CRD's warnings (engine.CRD.Warnings).
func (c *CRD) Warnings() []string { return c.report.Warnings }

// Report returns the CRD's errors and warnings as one document.
func (c *CRD) Report() CRDReport { return c.report }

// ServedVersions returns the served versions (engine.CRD.ServedVersions).
func (c *CRD) ServedVersions() []string { return c.versions }

type compileResult struct {
	Handle   uint32    `json:"handle"`
	CRD      CRDReport `json:"crd"`
	Versions []string  `json:"versions"`
}

// Version returns the module's ABI and engine versions.
func (r *Runtime) Version(ctx context.Context) (abi int, engine string, err error) {
	var out struct {
		ABI    int    `json:"abi"`
		Engine string `json:"engine"`
	}
	err = r.do(ctx, func(ctx context.Context, inst *instance) (bool, error) {
		return inst.call(ctx, map[string]string{"op": "version"}, &out)
	})
	if err != nil {
		// out may still be written by an abandoned call (see Options.Interrupt).
		return 0, "", err
	}
	return out.ABI, out.Engine, nil
}

// Lint validates a CRD and returns its errors and warnings (`crdlab lint`).
// The error is about decoding (Code DecodeError) or reaching the module.
func (r *Runtime) Lint(ctx context.Context, crdYAMLorJSON []byte) (*CRDReport, error) {
	var out struct {
		CRD CRDReport `json:"crd"`
	}
	err := r.do(ctx, func(ctx context.Context, inst *instance) (bool, error) {
		return inst.call(ctx, textRequest("lint", crdYAMLorJSON), &out)
	})
	if err != nil {
		return nil, err
	}
	return &out.CRD, nil
}

// Compile compiles a CRD inside the module (engine.Compile). The error is
// about decoding (an *Error with Code DecodeError, the message native
// Compile returns) or reaching the module; a decoded but invalid CRD
// compiles and reports its problems through Errors.
func (r *Runtime) Compile(ctx context.Context, crdYAMLorJSON []byte) (*CRD, error) {
	r.mu.Lock()
	r.nextID++
	id := r.nextID
	r.mu.Unlock()
	c := &CRD{r: r, id: id, src: append([]byte(nil), crdYAMLorJSON...)}
	err := r.do(ctx, func(ctx context.Context, inst *instance) (bool, error) {
		res, broken, err := c.compileIn(ctx, inst)
		if err == nil {
			c.report, c.versions = res.CRD, res.Versions
		}
		return broken, err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func (c *CRD) compileIn(ctx context.Context, inst *instance) (*compileResult, bool, error) {
	var res compileResult
	broken, err := inst.call(ctx, textRequest("compile", c.src), &res)
	if err != nil {
		return nil, broken, err
	}
	inst.handles[c.id] = instHandle{crd: c, handle: res.Handle}
	return &res, false, nil
}

// Close releases the CRD in every instance (lazily, as each is next used).
// Validate fails afterwards.
func (c *CRD) Close() { c.closed.Store(true) }

// Validate validates one object (a JSON or YAML document), as
// engine.CRD.Validate followed by engine.NewReport. The error is for misuse
// (Code Invalid: unknown version, undecodable old object), a closed CRD, a
// trap or the context's end; validation failures are in the report.
func (c *CRD) Validate(ctx context.Context, object []byte, opts ValidateOptions) (*Report, error) {
	raw, err := c.ValidateRaw(ctx, object, opts)
	if err != nil {
		return nil, err
	}
	var out Report
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ValidateRaw is Validate returning the module's result bytes untouched:
// json.Marshal of the native engine.Report, byte for byte.
func (c *CRD) ValidateRaw(ctx context.Context, object []byte, opts ValidateOptions) (json.RawMessage, error) {
	if c.closed.Load() {
		return nil, &Error{Code: "Invalid", Message: "CRD was closed"}
	}
	var out json.RawMessage
	err := c.r.do(ctx, func(ctx context.Context, inst *instance) (bool, error) {
		h, ok := inst.handles[c.id]
		if !ok {
			_, broken, err := c.compileIn(ctx, inst)
			if err != nil {
				return broken, err
			}
			h = inst.handles[c.id]
		}
		req := validateRequest{Op: "validate", Handle: h.handle,
			Version: opts.Version, Subresource: opts.Subresource, FieldValidation: string(opts.FieldValidation)}
		req.Object, req.ObjectBytes = text(object)
		req.Old, req.OldBytes = text(opts.Old)
		return inst.call(ctx, req, &out)
	})
	if err != nil {
		return nil, err // out may still be written by an abandoned call
	}
	return out, nil
}

// text returns b as a JSON string field, or, when b is not valid UTF-8
// (which a JSON string cannot carry byte for byte), as a bytes field.
func text(b []byte) (string, []byte) {
	if utf8.Valid(b) {
		return string(b), nil
	}
	return "", b
}

type crdRequest struct {
	Op       string `json:"op"`
	CRD      string `json:"crd"`
	CRDBytes []byte `json:"crdBytes,omitempty"`
}

func textRequest(op string, crd []byte) crdRequest {
	r := crdRequest{Op: op}
	r.CRD, r.CRDBytes = text(crd)
	return r
}

type validateRequest struct {
	Op              string `json:"op"`
	Handle          uint32 `json:"handle"`
	Object          string `json:"object"`
	ObjectBytes     []byte `json:"objectBytes,omitempty"`
	Old             string `json:"old,omitempty"`
	OldBytes        []byte `json:"oldBytes,omitempty"`
	Version         string `json:"version,omitempty"`
	Subresource     string `json:"subresource,omitempty"`
	FieldValidation string `json:"fieldValidation,omitempty"`
}

// Cost returns the CEL cost report of a CRD and, for each object, the
// runtime cost of its rules: the JSON document `crdlab cost -o json` prints
// (cost.Report), as raw bytes.
func (r *Runtime) Cost(ctx context.Context, crdYAMLorJSON []byte, objects ...[]byte) (json.RawMessage, error) {
	req := costRequest{Op: "cost"}
	req.CRD, req.CRDBytes = text(crdYAMLorJSON)
	for _, o := range objects {
		if utf8.Valid(o) {
			req.Objects = append(req.Objects, string(o))
		} else {
			req.ObjectsBytes = append(req.ObjectsBytes, o)
		}
	}
	var out json.RawMessage
	err := r.do(ctx, func(ctx context.Context, inst *instance) (bool, error) {
		return inst.call(ctx, req, &out)
	})
	if err != nil {
		return nil, err // out may still be written by an abandoned call
	}
	return out, nil
}

type costRequest struct {
	Op           string   `json:"op"`
	CRD          string   `json:"crd"`
	CRDBytes     []byte   `json:"crdBytes,omitempty"`
	Objects      []string `json:"objects,omitempty"`
	ObjectsBytes [][]byte `json:"objectsBytes,omitempty"`
}

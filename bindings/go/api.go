package wasm

import (
	"context"
	"encoding/json"
)

// Report is the document `crdlab validate -o json` prints: the CRD's errors
// and warnings and, when the CRD is valid, the object's result.
type Report struct {
	CRD    CRDReport     `json:"crd"`
	Object *ObjectReport `json:"object"`
}

// CRDReport holds the CRD's validation errors and warnings.
type CRDReport struct {
	Errors   []ErrorReport `json:"errors"`
	Warnings []string      `json:"warnings"`
}

// ObjectReport holds one object's outcome.
type ObjectReport struct {
	Result      json.RawMessage `json:"result"`
	Pruned      []string        `json:"pruned"`
	DecodeError string          `json:"decodeError,omitempty"`
	Errors      []ErrorReport   `json:"errors"`
	Warnings    []string        `json:"warnings"`
}

// ErrorReport is one field error.
type ErrorReport struct {
	Type    string `json:"type"`
	Field   string `json:"field"`
	Detail  string `json:"detail"`
	Message string `json:"message"`
}

// ValidateOptions mirror the native engine's options.
type ValidateOptions struct {
	Version         string
	Old             []byte
	Subresource     string
	FieldValidation string
}

// CRD is a CRD compiled in the module. It is safe for concurrent use: each
// pooled instance compiles it on first use.
type CRD struct {
	r        *Runtime
	id       uint64
	src      []byte
	Report   CRDReport
	Versions []string
}

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
	err = r.do(ctx, func(inst *instance) (bool, error) {
		return r.call(ctx, inst, map[string]string{"op": "version"}, &out)
	})
	return out.ABI, out.Engine, err
}

// Lint validates a CRD and returns its errors and warnings.
func (r *Runtime) Lint(ctx context.Context, crdYAML []byte) (*CRDReport, error) {
	var out struct {
		CRD CRDReport `json:"crd"`
	}
	err := r.do(ctx, func(inst *instance) (bool, error) {
		return r.call(ctx, inst, map[string]string{"op": "lint", "crd": string(crdYAML)}, &out)
	})
	if err != nil {
		return nil, err
	}
	return &out.CRD, nil
}

// Compile compiles a CRD inside the module.
func (r *Runtime) Compile(ctx context.Context, crdYAML []byte) (*CRD, error) {
	r.mu.Lock()
	r.nextID++
	id := r.nextID
	r.mu.Unlock()
	c := &CRD{r: r, id: id, src: append([]byte(nil), crdYAML...)}
	err := r.do(ctx, func(inst *instance) (bool, error) {
		res, broken, err := c.compileIn(ctx, inst)
		if err == nil {
			c.Report, c.Versions = res.CRD, res.Versions
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
	broken, err := c.r.call(ctx, inst, map[string]string{"op": "compile", "crd": string(c.src)}, &res)
	if err != nil {
		return nil, broken, err
	}
	inst.handles[c.id] = res.Handle
	return &res, false, nil
}

// Validate validates one object (a JSON or YAML document).
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

// ValidateRaw is Validate returning the module's result bytes untouched
// (the exact JSON document the native CLI prints).
func (c *CRD) ValidateRaw(ctx context.Context, object []byte, opts ValidateOptions) (json.RawMessage, error) {
	var out json.RawMessage
	err := c.r.do(ctx, func(inst *instance) (bool, error) {
		h, ok := inst.handles[c.id]
		if !ok {
			res, broken, err := c.compileIn(ctx, inst)
			if err != nil {
				return broken, err
			}
			h = res.Handle
		}
		req := map[string]interface{}{
			"op": "validate", "handle": h, "object": string(object),
			"version": opts.Version, "subresource": opts.Subresource, "fieldValidation": opts.FieldValidation,
		}
		if len(opts.Old) > 0 {
			req["old"] = string(opts.Old)
		}
		return c.r.call(ctx, inst, req, &out)
	})
	return out, err
}

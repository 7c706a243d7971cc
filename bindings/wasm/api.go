package wasm

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/crdlab/crdlab/wire"
)

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

// CompileOptions mirror engine.CompileOptions.
type CompileOptions struct {
	// FieldValidation is the CRD create's fieldValidation: Strict (default)
	// rejects a CRD with unknown or duplicate fields (the report's
	// DecodeError), Warn accepts it with warnings, Ignore silently.
	FieldValidation FieldValidation
	// Filename names the CRD in positions (the report's FieldErrorPositions).
	Filename string
	// OldCRD, when set, is the CRD in the cluster: the CRD compiles as an
	// update of it (engine.CompileUpdate; see update.go). FieldValidation
	// must then be "" or Strict.
	OldCRD []byte
	// StoredVersions, with OldCRD, is its status.storedVersions (nil: the
	// old file's status, else its storage version).
	StoredVersions []string
	// KubeVersion is the Kubernetes release whose API server is reproduced
	// ("1.<minor>", one of Runtime.KubeVersions; "" is the default), as
	// engine.CompileOptions.KubeVersion: the CRD's verdict, and every
	// validation through the compiled CRD. An unsupported release is an
	// *Error with Code BadRequest naming the supported ones.
	KubeVersion string
}

// CRD is a CRD compiled in the module. It is safe for concurrent use: every
// pooled instance compiles it on first use (the module's compile is
// deterministic, so all instances agree).
type CRD struct {
	r        *Runtime
	id       uint64
	src      []byte
	opts     CompileOptions
	report   wire.CRDReport
	versions []string
	kube     string
	closed   atomic.Bool
}

// Errors returns the CRD's validation errors, upstream's order (engine.CRD.Errors).
func (c *CRD) Errors() []wire.ErrorReport { return c.report.Errors }

// Warnings returns the CRD's warnings (engine.CRD.Warnings).
func (c *CRD) Warnings() []string { return c.report.Warnings }

// Report returns the CRD's errors and warnings as one document.
func (c *CRD) Report() wire.CRDReport { return c.report }

// ServedVersions returns the served versions (engine.CRD.ServedVersions).
func (c *CRD) ServedVersions() []string { return c.versions }

// KubeVersion returns the Kubernetes release the CRD was compiled for
// ("1.<minor>"), as engine.CRD.KubeVersion.
func (c *CRD) KubeVersion() string { return c.kube }

// requireKubeVersion checks, before the first request naming a release,
// that the module reads kubeVersion: a module older than the option
// ignores the member and would answer at its only release, the default.
// Such a module is an *Error with Code BadRequest.
func (r *Runtime) requireKubeVersion(ctx context.Context, kubeVersion string) error {
	if kubeVersion == "" {
		return nil
	}
	r.mu.Lock()
	known := r.kubeReleases
	r.mu.Unlock()
	if known {
		return nil
	}
	supported, _, err := r.KubeVersions(ctx)
	if err != nil {
		return err
	}
	if len(supported) == 0 {
		return &Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("kubeVersion %q: the module reproduces only its default Kubernetes release (it predates kubeVersion: rebuild it)", kubeVersion)}
	}
	r.mu.Lock()
	r.kubeReleases = true
	r.mu.Unlock()
	return nil
}

// KubeVersions returns the Kubernetes releases the module reproduces,
// newest first ("1.37", "1.36", ...; the values of
// CompileOptions.KubeVersion), and the default release, as
// engine.SupportedKubeVersions and engine.DefaultKubeVersion.
func (r *Runtime) KubeVersions(ctx context.Context) (supported []string, defaultVersion string, err error) {
	var out wire.VersionResult
	if err := r.send(ctx, func(int64) interface{} { return wire.VersionRequest{Op: wire.OpVersion} }, &out); err != nil {
		return nil, "", err
	}
	return out.KubeVersions, out.DefaultKubeVersion, nil
}

// Version returns the module's ABI and engine versions.
func (r *Runtime) Version(ctx context.Context) (abi int, engine string, err error) {
	var out wire.VersionResult
	if err := r.send(ctx, func(int64) interface{} { return wire.VersionRequest{Op: wire.OpVersion} }, &out); err != nil {
		return 0, "", err
	}
	return out.ABI, out.Engine, nil
}

// Lint validates a CRD and returns its errors and warnings (`crdlab lint`).
// The error is about decoding (Code DecodeError) or reaching the module.
func (r *Runtime) Lint(ctx context.Context, crdYAMLorJSON []byte) (*wire.CRDReport, error) {
	return r.LintWithOptions(ctx, crdYAMLorJSON, CompileOptions{})
}

// LintWithOptions is Lint with the CRD's fieldValidation.
func (r *Runtime) LintWithOptions(ctx context.Context, crdYAMLorJSON []byte, opts CompileOptions) (*wire.CRDReport, error) {
	if err := r.requireKubeVersion(ctx, opts.KubeVersion); err != nil {
		return nil, err
	}
	var out wire.LintResult
	err := r.send(ctx, func(ms int64) interface{} {
		req := textRequest(wire.OpLint, crdYAMLorJSON, opts)
		req.TimeoutMs = ms
		withOldCRD(&req, opts)
		return req
	}, &out)
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
	return r.CompileWithOptions(ctx, crdYAMLorJSON, CompileOptions{})
}

// CompileWithOptions is Compile with the CRD's fieldValidation
// (engine.CompileWithOptions): a CRD rejected while decoding compiles, with
// the report's DecodeError set.
func (r *Runtime) CompileWithOptions(ctx context.Context, crdYAMLorJSON []byte, opts CompileOptions) (*CRD, error) {
	if err := r.requireKubeVersion(ctx, opts.KubeVersion); err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.nextID++
	id := r.nextID
	r.mu.Unlock()
	opts.OldCRD = append([]byte(nil), opts.OldCRD...)
	opts.StoredVersions = append([]string(nil), opts.StoredVersions...)
	c := &CRD{r: r, id: id, src: append([]byte(nil), crdYAMLorJSON...), opts: opts}
	err := r.do(ctx, func(ctx context.Context, inst *instance) (bool, error) {
		res, broken, err := c.compileIn(ctx, inst)
		if err == nil {
			c.report, c.versions, c.kube = res.CRD, res.Versions, res.KubeVersion
		}
		return broken, err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func (c *CRD) compileIn(ctx context.Context, inst *instance) (*wire.CompileResult, bool, error) {
	var res wire.CompileResult
	req := textRequest(wire.OpCompile, c.src, c.opts)
	req.TimeoutMs = timeoutMs(ctx)
	withOldCRD(&req, c.opts)
	broken, err := inst.call(ctx, req, &res)
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
// trap or the context's end; validation failures are in the report. The
// report's Object.Result is the final object's JSON as a json.RawMessage
// (nil when the request failed while decoding), Object.OldResult the stored
// object's for an update.
func (c *CRD) Validate(ctx context.Context, object []byte, opts ValidateOptions) (*wire.Report, error) {
	raw, err := c.ValidateRaw(ctx, object, opts)
	if err != nil {
		return nil, err
	}
	return decodeReport(raw)
}

// decodeReport decodes a "validate" result, keeping the object's bytes.
func decodeReport(raw []byte) (*wire.Report, error) {
	var out struct {
		wire.Report
		Object *struct {
			wire.ObjectReport
			Result    json.RawMessage `json:"result"`
			OldResult json.RawMessage `json:"oldResult"`
		} `json:"object"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	rep := out.Report
	if o := out.Object; o != nil {
		rep.Object = &o.ObjectReport
		if len(o.Result) > 0 && string(o.Result) != "null" {
			rep.Object.Result = o.Result
		}
		if len(o.OldResult) > 0 && string(o.OldResult) != "null" {
			rep.Object.OldResult = o.OldResult
		}
	}
	return &rep, nil
}

// ValidateRaw is Validate returning the module's result bytes untouched:
// json.Marshal of the native engine.NewReport, byte for byte.
func (c *CRD) ValidateRaw(ctx context.Context, object []byte, opts ValidateOptions) (json.RawMessage, error) {
	var out json.RawMessage
	err := c.withHandle(ctx, func(handle uint32, timeoutMs int64) interface{} {
		req := wire.ValidateRequest{Op: wire.OpValidate, Handle: handle, TimeoutMs: timeoutMs,
			Version: opts.Version, Subresource: opts.Subresource, FieldValidation: string(opts.FieldValidation)}
		req.Object, req.ObjectBytes = text(object)
		req.Old, req.OldBytes = text(opts.Old)
		return req
	}, &out)
	if err != nil {
		return nil, err // out may still be written by an abandoned call
	}
	return out, nil
}

// send sends the request build makes (given the request's timeoutMs: the
// time left before ctx's deadline when an instance takes it) to an
// instance and decodes its result into out. On an error out may still be
// written by an abandoned call (see Options.Interrupt): do not read it.
func (r *Runtime) send(ctx context.Context, build func(timeoutMs int64) interface{}, out interface{}) error {
	return r.do(ctx, func(ctx context.Context, inst *instance) (bool, error) {
		return inst.call(ctx, build(timeoutMs(ctx)), out)
	})
}

// withHandle sends the request build makes for the CRD's handle in an
// instance (and the request's timeoutMs), compiling the CRD there first
// when needed: send for a compiled CRD.
func (c *CRD) withHandle(ctx context.Context, build func(handle uint32, timeoutMs int64) interface{}, out interface{}) error {
	if c.closed.Load() {
		return &Error{Code: wire.CodeInvalid, Message: "CRD was closed"}
	}
	return c.r.do(ctx, func(ctx context.Context, inst *instance) (bool, error) {
		h, ok := inst.handles[c.id]
		if !ok {
			_, broken, err := c.compileIn(ctx, inst)
			if err != nil {
				return broken, err
			}
			h = inst.handles[c.id]
		}
		return inst.call(ctx, build(h.handle, timeoutMs(ctx)), out)
	})
}

// text returns b as a JSON string field, or, when b is not valid UTF-8
// (which a JSON string cannot carry byte for byte), as a bytes field.
func text(b []byte) (string, []byte) {
	if utf8.Valid(b) {
		return string(b), nil
	}
	return "", b
}

// timeoutMs is the request's timeoutMs for ctx: the time left until its
// deadline, in milliseconds (at least 1), or 0 (none) when it has none. The
// module then ends its own work at the deadline (a CEL rule it interrupts is
// a validation error naming the rule), so that a call abandoned when ctx
// ends stops soon after instead of running to the engine's other limits.
func timeoutMs(ctx context.Context) int64 {
	d, ok := ctx.Deadline()
	if !ok {
		return 0
	}
	ms := time.Until(d).Milliseconds()
	if ms < 1 {
		ms = 1
	}
	return ms
}

// textRequest is the request of "compile" or "lint".
func textRequest(op wire.Op, crd []byte, opts CompileOptions) wire.CompileRequest {
	r := wire.CompileRequest{Op: op, CRDFieldValidation: string(opts.FieldValidation), Filename: opts.Filename, KubeVersion: opts.KubeVersion}
	r.CRD, r.CRDBytes = text(crd)
	return r
}

// Cost returns the CEL cost report of a CRD and, for each object, the
// runtime cost of its rules: the JSON document `crdlab cost -o json` prints
// (cost.Report), as raw bytes.
func (r *Runtime) Cost(ctx context.Context, crdYAMLorJSON []byte, objects ...[]byte) (json.RawMessage, error) {
	return r.CostWithOptions(ctx, crdYAMLorJSON, CompileOptions{}, objects...)
}

// CostWithOptions is Cost with the CRD's fieldValidation (with Strict a CRD
// with unknown or duplicate fields is an error, with Warn or Ignore they
// are dropped) and its release (KubeVersion: cost.AnalyzeOptions').
func (r *Runtime) CostWithOptions(ctx context.Context, crdYAMLorJSON []byte, opts CompileOptions, objects ...[]byte) (json.RawMessage, error) {
	if err := r.requireKubeVersion(ctx, opts.KubeVersion); err != nil {
		return nil, err
	}
	req := wire.CostRequest{Op: wire.OpCost, CRDFieldValidation: string(opts.FieldValidation), KubeVersion: opts.KubeVersion}
	req.CRD, req.CRDBytes = text(crdYAMLorJSON)
	for _, o := range objects {
		if utf8.Valid(o) {
			req.Objects = append(req.Objects, string(o))
		} else {
			req.ObjectsBytes = append(req.ObjectsBytes, o)
		}
	}
	var out json.RawMessage
	if err := r.send(ctx, func(int64) interface{} { return req }, &out); err != nil {
		return nil, err
	}
	return out, nil
}

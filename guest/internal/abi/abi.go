package abi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
	crdtypes "github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/wire"
)

// MaxRequestBytes bounds a single request (64 MiB): large enough for any
// real CRD (the biggest corpus CRDs are a few MiB), small enough that a host
// bug cannot make the module grow without limit.
const MaxRequestBytes = 64 << 20

// MaxResponseBytes bounds the errors and warnings of one "validate" result
// (64 MiB, estimated before they are rendered): an object's errors can
// render to gigabytes — each error of a 1,000-item list repeating a
// 100,000-value enum, 1.5 GB — which the module cannot hold in its memory
// twice (the report, then its JSON). Such a result is the error
// ResponseTooLarge instead of a trap.
const MaxResponseBytes = 64 << 20

// reportSize estimates the rendered size of a result's errors and warnings.
func reportSize(res *engine.Result) int64 {
	n := int64(0)
	for _, e := range res.Errors {
		n += int64(2*len(e.Field) + len(e.Detail) + 64)
		if s, ok := e.BadValue.(string); ok {
			n += int64(len(s))
		}
	}
	for _, w := range res.Warnings {
		n += int64(len(w))
	}
	return n
}

// Server holds the compiled CRDs of one module instance.
type Server struct {
	mu      sync.Mutex
	next    uint32
	handles map[uint32]*engine.CRD
}

// NewServer returns an empty server.
func NewServer() *Server {
	return &Server{next: 1, handles: map[uint32]*engine.CRD{}}
}

// Handle answers one JSON request with one JSON response (a
// wire.Response). It never panics.
func (s *Server) Handle(req []byte) (resp []byte) {
	defer func() {
		if r := recover(); r != nil {
			resp = encodeError(&wire.Error{Code: wire.CodePanic, Message: fmt.Sprintf("internal error: %v\n%s", r, debug.Stack())})
		}
	}()
	if len(req) > MaxRequestBytes {
		return encodeError(&wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("request of %d bytes exceeds the limit of %d bytes", len(req), MaxRequestBytes)})
	}
	var r wire.Request
	if err := json.Unmarshal(req, &r); err != nil {
		return encodeError(&wire.Error{Code: wire.CodeBadRequest, Message: "request is not a valid JSON request object: " + err.Error()})
	}
	result, e := s.dispatch(&r)
	if e != nil {
		return encodeError(e)
	}
	return encodeResult(result)
}

// compile is engine.CompileContext with the request's options; tests
// replace it to exercise panic recovery.
var compile = func(ctx context.Context, data []byte, fv, filename, kubeVersion string) (*engine.CRD, error) {
	return engine.CompileContext(ctx, data, engine.CompileOptions{FieldValidation: engine.FieldValidation(fv), Filename: filename, KubeVersion: kubeVersion})
}

// kubeVersionOf checks a request's kubeVersion: "" (the default) or a
// supported release. The error is BadRequest with kubeversion.Parse's
// message, as `--kube-version` reports it, naming the supported releases.
func kubeVersionOf(r *wire.Request) *wire.Error {
	if _, err := kubeversion.Parse(r.KubeVersion); err != nil {
		return &wire.Error{Code: wire.CodeBadRequest, Message: err.Error()}
	}
	return nil
}

// engineError is the error response of an engine error: Timeout when the
// request's deadline ended the work, else code.
func engineError(code wire.ErrorCode, err error) *wire.Error {
	if errors.Is(err, context.DeadlineExceeded) {
		code = wire.CodeTimeout
	}
	return &wire.Error{Code: code, Message: err.Error()}
}

// validateOptions are the engine options of a "validate" or "validateAll"
// request.
func validateOptions(r *wire.Request) engine.ValidateOptions {
	opts := engine.ValidateOptions{Version: r.Version, Subresource: r.Subresource, FieldValidation: engine.FieldValidation(r.FieldValidation)}
	if old := pick(r.Old, r.OldBytes); len(old) > 0 {
		opts.Old = old
	}
	return opts
}

// pick returns the bytes of a text field or of its *Bytes twin.
func pick(text string, raw []byte) []byte {
	if raw != nil {
		return raw
	}
	return []byte(text)
}

func (s *Server) dispatch(r *wire.Request) (interface{}, *wire.Error) {
	switch r.Op {
	case wire.OpVersion:
		return wire.VersionResult{ABI: wire.ABIVersion, Engine: engine.Version, KubeVersions: engine.SupportedKubeVersions(), DefaultKubeVersion: engine.DefaultKubeVersion}, nil
	case wire.OpCompile, wire.OpLint:
		c, e := compileRequest(r)
		if e != nil {
			return nil, e
		}
		rep := engine.NewReport(c, nil)
		if r.Op == wire.OpLint {
			return wire.LintResult{CRD: rep.CRD}, nil
		}
		s.mu.Lock()
		h := s.next
		s.next++
		s.handles[h] = c
		s.mu.Unlock()
		return wire.CompileResult{Handle: h, CRD: rep.CRD, Versions: c.ServedVersions(), KubeVersion: c.KubeVersion()}, nil
	case wire.OpValidate:
		c, e := s.lookup(r.Handle)
		if e != nil {
			return nil, e
		}
		opts := validateOptions(r)
		if !c.Valid() {
			return engine.NewReport(c, nil), nil
		}
		res, err := c.ValidateContext(withTimeout(r.TimeoutMs), pick(r.Object, r.ObjectBytes), opts)
		if err != nil {
			return nil, engineError(wire.CodeInvalid, err)
		}
		if n := reportSize(res); n > MaxResponseBytes {
			return nil, &wire.Error{Code: wire.CodeResponseTooLarge, Message: fmt.Sprintf("the result's %d errors and %d warnings render to about %d bytes, over the module's limit of %d bytes (the native engine and the CLI stream them)", len(res.Errors), len(res.Warnings), n, MaxResponseBytes)}
		}
		return engine.NewReport(c, res), nil
	case wire.OpValidateAll:
		c, e := s.lookup(r.Handle)
		if e != nil {
			return nil, e
		}
		opts := validateOptions(r)
		docs, err := c.ValidateAllContext(withTimeout(r.TimeoutMs), pick(r.Object, r.ObjectBytes), opts)
		if err != nil {
			return nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
		}
		out := wire.ValidateAllResult{Documents: make([]wire.DocumentReport, len(docs))}
		for i, d := range docs {
			out.Documents[i] = wire.DocumentReport{Index: d.Index, Line: d.Line}
			switch {
			case len(c.Errors()) > 0:
				out.Documents[i].Report = engine.NewReport(c, nil)
			case d.Err != nil:
				out.Documents[i].Error = engineError(wire.CodeInvalid, d.Err)
			default:
				out.Documents[i].Report = engine.NewReport(c, d.Result)
			}
		}
		return out, nil
	case wire.OpFree:
		s.mu.Lock()
		_, ok := s.handles[r.Handle]
		delete(s.handles, r.Handle)
		s.mu.Unlock()
		if !ok {
			return nil, &wire.Error{Code: wire.CodeNotFound, Message: fmt.Sprintf("no compiled CRD with handle %d", r.Handle)}
		}
		return wire.FreeResult{}, nil
	case wire.OpCost:
		if e := kubeVersionOf(r); e != nil {
			return nil, e
		}
		objects := make([][]byte, 0, len(r.Objects)+len(r.ObjectsBytes))
		for _, o := range r.Objects {
			objects = append(objects, []byte(o))
		}
		objects = append(objects, r.ObjectsBytes...)
		rep, err := costReport(pick(r.CRD, r.CRDBytes), r.CRDFieldValidation, r.KubeVersion, objects)
		if err != nil {
			return nil, &wire.Error{Code: wire.CodeDecodeError, Message: err.Error()}
		}
		return rep, nil
	case wire.OpSchema:
		return s.schema(r)
	case wire.OpBench:
		return s.bench(r)
	case wire.OpUpgrade:
		return upgradeReport(r)
	case wire.OpTest:
		return testReport(r)
	case wire.OpConversionReview:
		return conversionReport(r)
	case wire.OpAdmit:
		return s.admit(r)
	case wire.OpComplete:
		return s.complete(r)
	case wire.OpApply:
		return s.applyReport(r)
	case "":
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `request has no "op"`}
	default:
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("unknown op %q (expected %s)", r.Op, wire.OpNames())}
	}
}

// costReport is the cost report, at release kubeVersion, of a CRD decoded
// with the CRD fieldValidation fv: with Strict (the default) unknown or
// duplicate fields are an error (the API server's message), with Warn or
// Ignore they are dropped.
func costReport(data []byte, fv, kubeVersion string, objects [][]byte) (*cost.Report, error) {
	opts := cost.AnalyzeOptions{KubeVersion: kubeVersion}
	if fv == "" || fv == string(engine.Strict) {
		// cost.AnalyzeBytes at a release: the report of `crdlab cost -o json`.
		defs, err := crdtypes.Decode(data, "")
		if err != nil {
			return nil, err
		}
		if len(defs) != 1 {
			return nil, fmt.Errorf("expected exactly one CustomResourceDefinition, found %d", len(defs))
		}
		return cost.AnalyzeWithOptions(defs[0], opts, objects...)
	}
	c, err := engine.CompileWithOptions(data, engine.CompileOptions{FieldValidation: engine.FieldValidation(fv)})
	if err != nil {
		return nil, err
	}
	return cost.AnalyzeWithOptions(c.Definition(), opts, objects...)
}

func (s *Server) lookup(h uint32) (*engine.CRD, *wire.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.handles[h]
	if !ok {
		return nil, &wire.Error{Code: wire.CodeNotFound, Message: fmt.Sprintf("no compiled CRD with handle %d", h)}
	}
	return c, nil
}

// encodeResult returns the response {"ok":true,"result":<result>}: the
// bytes json.Marshal gives for a wire.Response carrying the encoded result,
// without a second pass over them.
func encodeResult(result interface{}) []byte {
	b, err := json.Marshal(result)
	if err != nil {
		return encodeError(&wire.Error{Code: wire.CodePanic, Message: "internal error: cannot encode response: " + err.Error()})
	}
	const head, tail = `{"ok":true,"result":`, `}`
	out := make([]byte, 0, len(head)+len(b)+len(tail))
	out = append(out, head...)
	out = append(out, b...)
	return append(out, tail...)
}

// encodeError returns the response {"ok":false,"error":{...}}.
func encodeError(e *wire.Error) []byte {
	b, _ := json.Marshal(wire.Response{Error: e}) // cannot fail: two strings
	return b
}

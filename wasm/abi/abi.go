// Package abi is the transport-independent core of crdlab's WebAssembly
// module: it takes one JSON request and returns one JSON response
// {"ok": true, "result": ...} or {"ok": false, "error": {...}}. The wasip1
// reactor (wasm/wasip1) and any other host glue only move bytes in and out.
//
// A panic anywhere below Handle is recovered and returned as an error
// response, so a host never sees a trap for bad input.
package abi

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
)

// Version is the ABI version the module exports (crdlab_abi_version). It
// changes only when a request or response shape changes incompatibly.
const Version = 1

// MaxRequestBytes bounds a single request (64 MiB): large enough for any
// real CRD (the biggest corpus CRDs are a few MiB), small enough that a host
// bug cannot make the module grow without limit.
const MaxRequestBytes = 64 << 20

// Request is one call into the module.
type Request struct {
	Op     string `json:"op"`
	CRD    string `json:"crd,omitempty"`
	Handle uint32 `json:"handle,omitempty"`
	Object string `json:"object,omitempty"`
	Old    string `json:"old,omitempty"`
	// CRDBytes, ObjectBytes and OldBytes (base64 in JSON) replace CRD,
	// Object and Old when set: they carry input that is not valid UTF-8
	// byte for byte, which a JSON string cannot.
	CRDBytes    []byte `json:"crdBytes,omitempty"`
	ObjectBytes []byte `json:"objectBytes,omitempty"`
	OldBytes    []byte `json:"oldBytes,omitempty"`
	// Objects are the objects of a "cost" request (YAML or JSON text);
	// ObjectsBytes the same as bytes (base64 in JSON).
	Objects         []string `json:"objects,omitempty"`
	ObjectsBytes    [][]byte `json:"objectsBytes,omitempty"`
	Version         string   `json:"version,omitempty"`
	Subresource     string   `json:"subresource,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
}

// Error is the error member of a failed response.
type Error struct {
	// Code is one of BadRequest, DecodeError, NotFound, Invalid, Panic.
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Response is the envelope of every answer.
type Response struct {
	OK     bool        `json:"ok"`
	Result interface{} `json:"result,omitempty"`
	Error  *Error      `json:"error,omitempty"`
}

// CompileResult is the result of "compile".
type CompileResult struct {
	Handle   uint32           `json:"handle"`
	CRD      engine.CRDReport `json:"crd"`
	Versions []string         `json:"versions"`
}

// VersionResult is the result of "version".
type VersionResult struct {
	ABI    int    `json:"abi"`
	Engine string `json:"engine"`
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

// Handle answers one JSON request with one JSON response. It never panics.
func (s *Server) Handle(req []byte) (resp []byte) {
	defer func() {
		if r := recover(); r != nil {
			resp = encode(Response{Error: &Error{Code: "Panic", Message: fmt.Sprintf("internal error: %v\n%s", r, debug.Stack())}})
		}
	}()
	if len(req) > MaxRequestBytes {
		return encode(Response{Error: &Error{Code: "BadRequest", Message: fmt.Sprintf("request of %d bytes exceeds the limit of %d bytes", len(req), MaxRequestBytes)}})
	}
	var r Request
	if err := json.Unmarshal(req, &r); err != nil {
		return encode(Response{Error: &Error{Code: "BadRequest", Message: "request is not a valid JSON request object: " + err.Error()}})
	}
	result, e := s.dispatch(&r)
	if e != nil {
		return encode(Response{Error: e})
	}
	return encode(Response{OK: true, Result: result})
}

// compile is engine.Compile; tests replace it to exercise panic recovery.
var compile = engine.Compile

// analyzeCost is cost.AnalyzeBytes, the report of `crdlab cost -o json`.
var analyzeCost = cost.AnalyzeBytes

// pick returns the bytes of a text field or of its *Bytes twin.
func pick(text string, raw []byte) []byte {
	if raw != nil {
		return raw
	}
	return []byte(text)
}

func (s *Server) dispatch(r *Request) (interface{}, *Error) {
	switch r.Op {
	case "version":
		return VersionResult{ABI: Version, Engine: engine.Version}, nil
	case "compile", "lint":
		c, err := compile(pick(r.CRD, r.CRDBytes))
		if err != nil {
			return nil, &Error{Code: "DecodeError", Message: err.Error()}
		}
		rep := engine.NewReport(c, nil)
		if r.Op == "lint" {
			return struct {
				CRD engine.CRDReport `json:"crd"`
			}{rep.CRD}, nil
		}
		s.mu.Lock()
		h := s.next
		s.next++
		s.handles[h] = c
		s.mu.Unlock()
		return CompileResult{Handle: h, CRD: rep.CRD, Versions: c.ServedVersions()}, nil
	case "validate":
		c, e := s.lookup(r.Handle)
		if e != nil {
			return nil, e
		}
		opts := engine.ValidateOptions{Version: r.Version, Subresource: r.Subresource, FieldValidation: engine.FieldValidation(r.FieldValidation)}
		if old := pick(r.Old, r.OldBytes); len(old) > 0 {
			opts.Old = old
		}
		if len(c.Errors()) > 0 {
			return engine.NewReport(c, nil), nil
		}
		res, err := c.Validate(pick(r.Object, r.ObjectBytes), opts)
		if err != nil {
			return nil, &Error{Code: "Invalid", Message: err.Error()}
		}
		return engine.NewReport(c, res), nil
	case "free":
		s.mu.Lock()
		_, ok := s.handles[r.Handle]
		delete(s.handles, r.Handle)
		s.mu.Unlock()
		if !ok {
			return nil, &Error{Code: "NotFound", Message: fmt.Sprintf("no compiled CRD with handle %d", r.Handle)}
		}
		return struct{}{}, nil
	case "cost":
		objects := make([][]byte, 0, len(r.Objects)+len(r.ObjectsBytes))
		for _, o := range r.Objects {
			objects = append(objects, []byte(o))
		}
		objects = append(objects, r.ObjectsBytes...)
		rep, err := analyzeCost(pick(r.CRD, r.CRDBytes), objects...)
		if err != nil {
			return nil, &Error{Code: "DecodeError", Message: err.Error()}
		}
		return rep, nil
	case "":
		return nil, &Error{Code: "BadRequest", Message: `request has no "op"`}
	default:
		return nil, &Error{Code: "BadRequest", Message: fmt.Sprintf("unknown op %q (expected version, compile, lint, validate, cost or free)", r.Op)}
	}
}

func (s *Server) lookup(h uint32) (*engine.CRD, *Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.handles[h]
	if !ok {
		return nil, &Error{Code: "NotFound", Message: fmt.Sprintf("no compiled CRD with handle %d", h)}
	}
	return c, nil
}

func encode(r Response) []byte {
	b, err := json.Marshal(r)
	if err != nil {
		b, _ = json.Marshal(Response{Error: &Error{Code: "Panic", Message: "internal error: cannot encode response: " + err.Error()}})
	}
	return b
}

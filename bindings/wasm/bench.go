package wasm

import (
	"context"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/crdlab/crdlab/wire"
)

// BenchOptions are the options of `crdlab bench` (cost.BenchOptions).
type BenchOptions struct {
	// Duration is the time spent timing one figure (one rule on one
	// object, or one phase), in whole milliseconds; default 20ms, at most
	// 10s.
	Duration time.Duration
	// Samples is the number of timed batches, default 11, at most 1000.
	Samples int
	// CRDFieldValidation is the CRD's fieldValidation (Runtime.Bench
	// only), as for Cost.
	CRDFieldValidation FieldValidation
}

func (o BenchOptions) request(objects [][]byte) wire.BenchRequest {
	req := wire.BenchRequest{Op: wire.OpBench, Samples: o.Samples}
	if o.Duration > 0 {
		req.DurationMs = max(1, o.Duration.Milliseconds())
	}
	for _, obj := range objects {
		if utf8.Valid(obj) {
			req.Objects = append(req.Objects, string(obj))
		} else {
			req.ObjectsBytes = append(req.ObjectsBytes, obj)
		}
	}
	return req
}

// Bench times every CEL rule and messageExpression of a CRD on each object,
// and each object's validation phase by phase, inside the module: the
// document `crdlab bench -o json` prints for one CRD (cost.BenchReport), as
// raw bytes. The times are the module's, read from the host's clock
// (wazero: the system's monotonic clock); its Machine is wasip1/wasm. The
// context's deadline bounds the benchmark (checked before every figure: the
// error is then a Timeout matching context.DeadlineExceeded).
func (r *Runtime) Bench(ctx context.Context, crdYAMLorJSON []byte, objects [][]byte, opts BenchOptions) (json.RawMessage, error) {
	req := opts.request(objects)
	req.CRD, req.CRDBytes = text(crdYAMLorJSON)
	req.CRDFieldValidation = string(opts.CRDFieldValidation)
	var out json.RawMessage
	err := r.send(ctx, func(ms int64) interface{} {
		req.TimeoutMs = ms
		return req
	}, &out)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Bench is Runtime.Bench for the compiled CRD.
func (c *CRD) Bench(ctx context.Context, objects [][]byte, opts BenchOptions) (json.RawMessage, error) {
	var out json.RawMessage
	err := c.withHandle(ctx, func(h uint32, ms int64) interface{} {
		req := opts.request(objects)
		req.Handle, req.TimeoutMs = h, ms
		return req
	}, &out)
	if err != nil {
		return nil, err
	}
	return out, nil
}

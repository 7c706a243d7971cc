package abi

import (
	"fmt"
	"time"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
	crdtypes "github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

// The bounds of a "bench" request's measurement options: as `crdlab bench`
// (at most 1000 samples), and at most 10 s per figure, so that a request
// cannot keep an instance busy for hours by mistake.
const (
	maxBenchSamples    = 1000
	maxBenchDurationMs = 10_000
)

// bench answers "bench": cost.Benchmark of the CRD on the objects, timed
// with the module's clock.
func (s *Server) bench(r *wire.Request) (interface{}, *wire.Error) {
	if r.DurationMs < 0 || r.DurationMs > maxBenchDurationMs || r.Samples < 0 || r.Samples > maxBenchSamples {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("durationMs must be between 1 and %d and samples between 1 and %d (0: the defaults, 20 ms and 11)", maxBenchDurationMs, maxBenchSamples)}
	}
	var def *crdtypes.CustomResourceDefinition
	if r.Handle != 0 {
		c, e := s.lookup(r.Handle)
		if e != nil {
			return nil, e
		}
		if msg := c.DecodeError(); msg != "" {
			return nil, &wire.Error{Code: wire.CodeDecodeError, Message: msg}
		}
		def = c.Definition()
	} else {
		data := pick(r.CRD, r.CRDBytes)
		if len(data) == 0 {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `bench request needs a "handle" or a "crd"`}
		}
		d, err := benchDefinition(data, r.CRDFieldValidation)
		if err != nil {
			return nil, &wire.Error{Code: wire.CodeDecodeError, Message: err.Error()}
		}
		def = d
	}
	objects := make([][]byte, 0, len(r.Objects)+len(r.ObjectsBytes))
	for _, o := range r.Objects {
		objects = append(objects, []byte(o))
	}
	objects = append(objects, r.ObjectsBytes...)
	opts := cost.BenchOptions{Duration: time.Duration(r.DurationMs) * time.Millisecond, Samples: r.Samples, Context: withTimeout(r.TimeoutMs)}
	rep, err := benchmark(def, objects, opts)
	if err != nil {
		return nil, engineError(wire.CodeInvalid, err)
	}
	return rep, nil
}

// benchmark is cost.Benchmark; tests replace it.
var benchmark = cost.Benchmark

// benchDefinition decodes a CRD as the "cost" op does (costReport): with
// Strict (the default) unknown or duplicate fields are an error, with Warn
// or Ignore they are dropped.
func benchDefinition(data []byte, fv string) (*crdtypes.CustomResourceDefinition, error) {
	if fv == "" || fv == string(engine.Strict) {
		return crdtypes.DecodeOne(data, "")
	}
	c, err := engine.CompileWithOptions(data, engine.CompileOptions{FieldValidation: engine.FieldValidation(fv)})
	if err != nil {
		return nil, err
	}
	return c.Definition(), nil
}

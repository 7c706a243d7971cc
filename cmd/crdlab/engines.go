package main

// The work of cost, bench, schema, upgrade and the CRD update (lint --old,
// validate --old-crd), native or in the WebAssembly module (--engine wasm).
//
// Each piece of work is a function type with a native implementation
// (nativeX) and a wasm constructor (wasmX). A constructor whose op the
// module's ABI (wire.Op) does not have yet returns missingOp: the command
// turns it into a usage error naming the op, before reading any input.
// Wiring an op when the ABI gains it is writing the body of its
// constructor; nothing else changes.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	flag "github.com/spf13/pflag"

	wasm "github.com/crdlab/crdlab/bindings/go"
	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/catalog"
	"github.com/crdlab/crdlab/jsonschema"
	"github.com/crdlab/crdlab/upgrade"
	"github.com/crdlab/crdlab/wire"
)

// engineFlags are --engine and --wasm-module.
type engineFlags struct {
	engine, module string
}

func (e *engineFlags) declare(fs *flag.FlagSet) {
	fs.StringVar(&e.engine, "engine", "native", "native, or wasm: run through the WebAssembly module (bindings/go, wazero)")
	fs.StringVar(&e.module, "wasm-module", "", "the module `FILE` for --engine wasm (default: $CRDLAB_WASM, else crdlab.wasm next to the binary, else build/crdlab.wasm)")
}

func (e *engineFlags) check() (err error) {
	e.engine, err = enum("engine", e.engine, "native", "wasm")
	return err
}

func (e *engineFlags) wasm() bool { return e.engine == "wasm" }

// wasmModule is the module of --engine wasm, started on first use.
type wasmModule struct {
	path string // --wasm-module
	rt   *wasm.Runtime
}

func (m *wasmModule) runtime() (*wasm.Runtime, error) {
	if m.rt == nil {
		rt, err := startWasm(m.path)
		if err != nil {
			return nil, err
		}
		m.rt = rt
	}
	return m.rt, nil
}

// missingOpError is the work of a command that the module's ABI has no op
// for yet.
type missingOpError struct {
	op   wire.Op
	what string
}

func (e *missingOpError) Error() string {
	return fmt.Sprintf("--engine wasm: the WebAssembly module has no %q op yet (needed for %s): use --engine native", e.op, e.what)
}

func missingOp(op wire.Op, what string) error { return &missingOpError{op, what} }

// engineError reports the failure of a wasm constructor: a missing op is a
// usage error of the command, a module that does not start an input error.
func engineError(c *command, stderr io.Writer, err error) int {
	var mo *missingOpError
	if errors.As(err, &mo) {
		return usageError(c, stderr, "%v", err)
	}
	return reportInputError(stderr, err)
}

// withContext runs f, giving up when ctx ends (f goes on in the background:
// the command stops at its first timeout).
func withContext[T any](ctx context.Context, f func() (T, error)) (T, error) {
	if ctx.Done() == nil {
		return f()
	}
	if err := ctx.Err(); err != nil {
		var zero T
		return zero, err
	}
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// costFunc is `crdlab cost`'s work on one CRD (raw: its document as written,
// fv: the CRD's fieldValidation) and its objects.
type costFunc func(ctx context.Context, def *crd.CustomResourceDefinition, raw []byte, fv engine.FieldValidation, objects [][]byte) (*cost.Report, error)

func nativeCost(ctx context.Context, def *crd.CustomResourceDefinition, _ []byte, _ engine.FieldValidation, objects [][]byte) (*cost.Report, error) {
	return withContext(ctx, func() (*cost.Report, error) { return cost.Analyze(def, objects...) })
}

// wasmCost is op "cost".
func wasmCost(m *wasmModule) (costFunc, error) {
	rt, err := m.runtime()
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, _ *crd.CustomResourceDefinition, raw []byte, fv engine.FieldValidation, objects [][]byte) (*cost.Report, error) {
		out, err := rt.CostWithOptions(ctx, raw, wasm.CompileOptions{FieldValidation: wasm.FieldValidation(fv)}, objects...)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return nil, context.DeadlineExceeded
			}
			return nil, errors.New(wasmMessage(err))
		}
		var rep cost.Report
		if err := json.Unmarshal(out, &rep); err != nil {
			return nil, fmt.Errorf("the module's cost report: %v", err)
		}
		return &rep, nil
	}, nil
}

// benchFunc is `crdlab bench`'s work on one CRD and its objects.
type benchFunc func(def *crd.CustomResourceDefinition, raw []byte, objects [][]byte, opts cost.BenchOptions) (*cost.BenchReport, error)

func nativeBench(def *crd.CustomResourceDefinition, _ []byte, objects [][]byte, opts cost.BenchOptions) (*cost.BenchReport, error) {
	return cost.Benchmark(def, objects, opts)
}

// wasmBench: the ABI has no op to time rules yet.
func wasmBench(m *wasmModule) (benchFunc, error) {
	return nil, missingOp("bench", "crdlab bench")
}

// schemaFunc is `crdlab schema`'s work on one CRD: the API server's verdict
// on it and, when it is valid, its JSON Schemas.
type schemaFunc func(d catalog.Document, def *crd.CustomResourceDefinition, opts jsonschema.Options) (*wire.CRDReport, []jsonschema.Schema, error)

func nativeSchema(d catalog.Document, def *crd.CustomResourceDefinition, opts jsonschema.Options) (*wire.CRDReport, []jsonschema.Schema, error) {
	rep := engine.NewReport(engine.CompileCRDWithSource(def, d.Raw), nil).CRD
	if len(rep.Errors) > 0 {
		return &rep, nil, nil
	}
	out, err := jsonschema.Convert(def, opts)
	return &rep, out, err
}

// wasmSchema: the ABI has no op to export JSON Schema yet.
func wasmSchema(m *wasmModule) (schemaFunc, error) {
	return nil, missingOp("schema", "crdlab schema")
}

// upgradeFunc is `crdlab upgrade`'s work.
type upgradeFunc func(oldDef, newDef *crd.CustomResourceDefinition, objects []upgrade.Object, opts upgrade.Options) (*wire.UpgradeReport, error)

func nativeUpgrade(oldDef, newDef *crd.CustomResourceDefinition, objects []upgrade.Object, opts upgrade.Options) (*wire.UpgradeReport, error) {
	return upgrade.CheckCRDs(oldDef, newDef, objects, opts), nil
}

// wasmUpgrade: the ABI has no op to check an upgrade yet.
func wasmUpgrade(m *wasmModule) (upgradeFunc, error) {
	return nil, missingOp("upgrade", "crdlab upgrade")
}

// crdUpdateFunc compiles newDef as an update of oldDef (the CRD in the
// cluster): `lint --old`, `validate --old-crd`.
type crdUpdateFunc func(newDef, oldDef *crd.CustomResourceDefinition, opts engine.UpdateOptions) (catalog.Compiled, error)

func nativeCRDUpdate(newDef, oldDef *crd.CustomResourceDefinition, opts engine.UpdateOptions) (catalog.Compiled, error) {
	return catalog.NativeCRD(engine.CompileCRDUpdate(newDef, oldDef, opts)), nil
}

// wasmCRDUpdate: the ABI has no op to compile a CRD update yet.
func wasmCRDUpdate(m *wasmModule, what string) (crdUpdateFunc, error) {
	return nil, missingOp("compileUpdate", what)
}

// pickEngine returns native, or the wasm constructor's function for
// --engine wasm.
func pickEngine[F any](e engineFlags, native F, wasmOf func(*wasmModule) (F, error)) (F, error) {
	if !e.wasm() {
		return native, nil
	}
	return wasmOf(&wasmModule{path: e.module})
}

// timeoutReason is how a CRD or object past --timeout is reported, as
// validate reports it.
func timeoutReason(err error, d interface{ String() string }) string {
	return strings.TrimSpace(fmt.Sprintf("%v (--timeout %v)", err, d))
}

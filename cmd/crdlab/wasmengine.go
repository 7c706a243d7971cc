package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	wasm "github.com/crdlab/crdlab/bindings/go"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

// wasmRequest is a `crdlab validate --engine wasm` invocation.
type wasmRequest struct {
	module, crdFile, oldFile, version, subresource, fieldValidation, output string
	args                                                                    []string
	timeout                                                                 time.Duration
}

// validateWasm runs `crdlab validate` through the WebAssembly module in
// wazero (bindings/go): the same inputs, the same output and exit status as
// the native engine — the module's JSON reports are byte-identical to the
// native ones (the parity test in bindings/go checks it).
func validateWasm(r wasmRequest, stdin io.Reader, stdout, stderr io.Writer) int {
	data, err := readFile(r.crdFile, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	// The CRD is decoded natively too, for its names (text output) and to
	// report decoding errors with their file:line as the native engine does.
	defs, err := crd.Decode(data, r.crdFile)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	if len(defs) != 1 {
		fmt.Fprintf(stderr, "crdlab: %s: expected exactly one CustomResourceDefinition, found %d\n", r.crdFile, len(defs))
		return exitUsage
	}
	old, docs, code := readRequestInputs(r.oldFile, r.args, stdin, stderr)
	if code != exitValid {
		return code
	}
	module := r.module
	if module == "" {
		module = os.Getenv("CRDLAB_WASM")
	}
	if module == "" {
		module = filepath.Join("build", "crdlab.wasm")
	}
	opts := wasm.Options{ModulePath: module}
	if dir, err := os.UserCacheDir(); err == nil {
		opts.CacheDir = filepath.Join(dir, "crdlab", "wazero")
	}
	ctx := context.Background()
	rt, err := wasm.New(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v (build the module with `make wasm`)\n", err)
		return exitUsage
	}
	defer rt.Close(ctx)
	if err := checkCRDBody(r.crdFile, data); err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	compiled, err := rt.Compile(ctx, data)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	vopts := wasm.ValidateOptions{Version: r.version, Old: old, Subresource: r.subresource, FieldValidation: wasm.FieldValidation(r.fieldValidation)}
	status := exitValid
	for _, d := range docs {
		vctx, cancel := withTimeout(r.timeout)
		raw, err := compiled.ValidateRaw(vctx, d.data, vopts)
		cancel()
		if err != nil && isTimeout(err) {
			fmt.Fprintf(stderr, "crdlab: %s: %v (--timeout %v)\n", d.where(), err, r.timeout)
			status = exitInvalid
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %s: %v\n", d.where(), err)
			return exitUsage
		}
		var rep wire.Report
		if err := json.Unmarshal(raw, &rep); err != nil {
			fmt.Fprintf(stderr, "crdlab: %s: malformed report from the module: %v\n", d.where(), err)
			return exitUsage
		}
		if len(rep.CRD.Errors) > 0 || rep.Object == nil || rep.Object.DecodeError != "" || len(rep.Object.Errors) > 0 {
			status = exitInvalid
		}
		if r.output == "json" {
			var out bytes.Buffer
			if err := json.Indent(&out, raw, "", "  "); err != nil {
				return exitUsage
			}
			fmt.Fprintf(stdout, "%s\n", out.Bytes())
			continue
		}
		if rep.Object == nil {
			printCRDReport(defs[0], &rep.CRD, stdout, stderr)
			return status
		}
		printResult(defs[0], d, rep.Object, old != nil, stdout, stderr)
	}
	return status
}

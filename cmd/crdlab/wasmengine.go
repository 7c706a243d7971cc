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
	module, crdFile, oldFile, version, subresource, fieldValidation string
	crdFieldValidation, output                                      string
	args                                                            []string
	timeout                                                         time.Duration
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
	doc, err := crd.DecodeOneDocument(data, r.crdFile)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	def := doc.CRD
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
	compiled, err := rt.CompileWithOptions(ctx, data, wasm.CompileOptions{FieldValidation: wasm.FieldValidation(r.crdFieldValidation), Filename: r.crdFile})
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
		if !rep.CRD.Valid() || rep.Object == nil || rep.Object.DecodeError != "" || len(rep.Object.Errors) > 0 {
			status = exitInvalid
		}
		if r.output == "json" {
			if err := writeWasmJSON(stdout, raw, &rep, origin{file: r.crdFile, line: 1}, docOrigin(d)); err != nil {
				return exitUsage
			}
			continue
		}
		if rep.Object == nil {
			printCRDReport(def, &rep.CRD, origin{file: r.crdFile, line: 1}, stdout, stderr)
			return status
		}
		printResult(def, d, rep.Object, old != nil, stdout, stderr)
	}
	return status
}

// writeWasmJSON prints the module's report as the native engine's: its
// positions counted from the start of the files, the final object kept
// byte for byte (numbers are not reread as float64).
func writeWasmJSON(stdout io.Writer, raw []byte, rep *wire.Report, crd, obj origin) error {
	if rep.Object != nil {
		var r struct {
			Object struct {
				Result json.RawMessage `json:"result"`
			} `json:"object"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		rep.Object.Result = r.Object.Result
	}
	shiftReport(rep, crd, obj)
	var out bytes.Buffer
	b, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", out.Bytes())
	return err
}

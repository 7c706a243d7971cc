package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/bindings/wasm"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/wire"
)

// The WebAssembly runtime (--runtime wasm): the module run in wazero through
// bindings/wasm. Its reports are byte-identical to the native ones (the parity
// test of bindings/wasm checks it), so every output format is the same.

var (
	wasmMu      sync.Mutex
	wasmRuntime *wasm.Runtime
)

// findModule returns the module's path: --wasm-module, else $CRDLAB_WASM,
// else crdlab.wasm next to the crdlab binary, else build/crdlab.wasm (a
// repository checkout).
func findModule(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if env := os.Getenv("CRDLAB_WASM"); env != "" {
		return env, nil
	}
	tried := []string{}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "crdlab.wasm")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		tried = append(tried, p)
	}
	p := filepath.Join("build", "crdlab.wasm")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	tried = append(tried, p)
	return "", fmt.Errorf("--runtime wasm: no module found (tried %s): give --wasm-module FILE or set CRDLAB_WASM (build it with `make wasm`)", strings.Join(tried, ", "))
}

// startWasm finds the module and starts the runtime (closeEngine stops it).
func startWasm(module string) (*wasm.Runtime, error) {
	path, err := findModule(module)
	if err != nil {
		return nil, err
	}
	opts := wasm.Options{ModulePath: path}
	if dir, err := os.UserCacheDir(); err == nil {
		opts.CacheDir = filepath.Join(dir, "crdlab", "wazero")
	}
	rt, err := wasm.New(context.Background(), opts)
	if err != nil {
		return nil, fmt.Errorf("--runtime wasm: %s: %v", path, wasmMessage(err))
	}
	wasmMu.Lock()
	wasmRuntime = rt
	wasmMu.Unlock()
	return rt, nil
}

// wasmCompiler starts the runtime and returns a catalogue compiler at a
// Kubernetes release.
func wasmCompiler(module, crdFieldValidation, kubeVersion string) (inputs.Compiler, error) {
	rt, err := startWasm(module)
	if err != nil {
		return nil, err
	}
	return func(d inputs.Document, _ *crd.CustomResourceDefinition) (inputs.Compiled, error) {
		c, err := rt.CompileWithOptions(context.Background(), d.Raw, wasm.CompileOptions{FieldValidation: wasm.FieldValidation(crdFieldValidation), Filename: d.File, KubeVersion: kubeVersion})
		if err != nil {
			return nil, errors.New(wasmMessage(err))
		}
		return wasmCRD{c}, nil
	}, nil
}

// closeEngine stops the WebAssembly runtime, if one was started.
func closeEngine() {
	wasmMu.Lock()
	defer wasmMu.Unlock()
	if wasmRuntime != nil {
		wasmRuntime.Close(context.Background())
		wasmRuntime = nil
	}
}

// wasmMessage is the module's message without the bindings' prefix, as
// the native runtime words it.
func wasmMessage(err error) string {
	var we *wasm.Error
	if errors.As(err, &we) {
		return we.Message
	}
	return strings.TrimPrefix(err.Error(), "crdlab wasm: ")
}

type wasmCRD struct{ c *wasm.CRD }

func (w wasmCRD) Report() wire.CRDReport { return w.c.Report() }

func (w wasmCRD) Validate(ctx context.Context, object []byte, opts engine.ValidateOptions) (*wire.ObjectReport, error) {
	rep, err := w.c.Validate(ctx, object, wasm.ValidateOptions{
		Version: opts.Version, Old: opts.Old, Subresource: opts.Subresource, FieldValidation: wasm.FieldValidation(opts.FieldValidation),
	})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, errors.New(wasmMessage(err))
	}
	if rep.Object == nil {
		return nil, fmt.Errorf("the module returned no object report")
	}
	return rep.Object, nil
}

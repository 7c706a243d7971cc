package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/crdlab/crdlab/bindings/wasm"
	"github.com/crdlab/crdlab/internal/testsupport/hostile"
)

// runWasm is hostile.RunGo through the WebAssembly module in wazero
// (bindings/wasm, its default options: 1 GiB of memory per instance): the
// outcome is rendered from the module's reports the same way.
func runWasm(c hostile.Case, module string) string {
	ctx := context.Background()
	if c.Name == "warm" {
		rt, err := wasm.New(ctx, wasm.Options{ModulePath: module, CacheDir: wazeroCache()})
		if err != nil {
			fmt.Fprintln(os.Stderr, "loading the module:", err)
			os.Exit(3)
		}
		rt.Close(ctx)
		return "warm"
	}
	rt, err := wasm.New(ctx, wasm.Options{ModulePath: module, CacheDir: wazeroCache()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "loading the module:", err)
		os.Exit(3)
	}
	defer rt.Close(ctx)
	compiled, err := rt.Compile(ctx, c.CRD())
	if err != nil {
		return "compile: " + err.Error()
	}
	var out []string
	for _, e := range compiled.Errors() {
		out = append(out, "CRD: "+hostile.Clip(e.Message))
	}
	if len(out) > 0 || c.Object == nil {
		return hostile.Outcome(out)
	}
	for _, doc := range hostile.Documents(c.Object()) {
		rep, err := compiled.Validate(ctx, doc, wasm.ValidateOptions{})
		if err != nil {
			out = append(out, "validate: "+err.Error())
			continue
		}
		if rep.Object == nil {
			continue
		}
		if rep.Object.DecodeError != "" {
			out = append(out, hostile.Clip(rep.Object.DecodeError))
		}
		for _, e := range rep.Object.Errors {
			out = append(out, hostile.Clip(e.Message))
		}
	}
	return hostile.Outcome(out)
}

// wazeroCache is the compilation cache the wazero children share: compiling
// the module takes seconds of CPU, which is not what a case measures
// (warmWasm fills it before the first case).
func wazeroCache() string {
	return filepath.Join(os.TempDir(), "crdlab-hostile-wazero")
}

// warmWasm compiles the module into the cache, in a child (so that this
// process stays small).
func warmWasm(self, module string) {
	if b, err := exec.Command(self, "-wasm", module, "-child-wasm", "warm").CombinedOutput(); err != nil {
		fatal(fmt.Errorf("compiling %s: %v: %s", module, err, b))
	}
}

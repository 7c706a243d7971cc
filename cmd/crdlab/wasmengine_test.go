package main

import (
	"bytes"
	"os"
	"testing"
)

// TestEngineWasmMatchesNative runs `crdlab validate` on the examples with
// both engines, in every output format and field-validation mode, and
// requires identical output and exit status. It needs the module that
// `make wasm` builds (make test sets CRDLAB_WASM).
func TestEngineWasmMatchesNative(t *testing.T) {
	module := os.Getenv("CRDLAB_WASM")
	if module == "" {
		t.Skip("CRDLAB_WASM is not set: build the module with `make wasm` (make test does)")
	}
	for _, args := range [][]string{
		{"validate", "--crd", "../../examples/crontab-crd.yaml", "../../examples/"},
		{"validate", "-o", "json", "--crd", "../../examples/crontab-crd.yaml", "../../examples/"},
		{"validate", "-o", "json", "--field-validation", "Warn", "--crd", "../../examples/crontab-crd.yaml", "../../examples/"},
		{"validate", "--field-validation", "Ignore", "--old", "../../examples/valid.yaml", "--crd", "../../examples/crontab-crd.yaml", "../../examples/invalid.yaml"},
	} {
		var nOut, nErr, wOut, wErr bytes.Buffer
		nCode := run(args, nil, &nOut, &nErr)
		wasmArgs := append([]string{args[0], "--engine", "wasm", "--wasm-module", module}, args[1:]...)
		wCode := run(wasmArgs, nil, &wOut, &wErr)
		if nCode != wCode || nOut.String() != wOut.String() || nErr.String() != wErr.String() {
			t.Errorf("%v: native and wasm differ:\nnative (%d):\n%s%s\nwasm (%d):\n%s%s", args, nCode, nOut.String(), nErr.String(), wCode, wOut.String(), wErr.String())
		}
		if nOut.Len()+nErr.Len() == 0 {
			t.Errorf("%v: no output at all", args)
		}
	}
}

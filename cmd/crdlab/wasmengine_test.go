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
		{"validate", "-o", "github", "--summary", "--crd", "../../examples/crontab-crd.yaml", "testdata/mixed.yaml", "../../examples/"},
		{"validate", "--crd", "testdata/invalid-crd.yaml", "../../examples/valid.yaml"},
		{"lint", "-o", "json", "testdata/invalid-crd.yaml", "../../examples/"},
		{"lint", "--crd-field-validation", "Warn", "testdata/unknown-field-crd.yaml"},
		{"lint", "-o", "json", "--crd-field-validation", "Ignore", "testdata/unknown-field-crd.yaml"},
		{"lint", "testdata/unknown-field-crd.yaml"},
		{"validate", "--field-validation", "Warn", "--crd", "../../examples/crontab-crd.yaml", "testdata/multi-doc.yaml"},
		{"cost", "testdata/project"},
		{"cost", "-o", "json", "../../cost/testdata/mixed.yaml", "../../cost/testdata/mixed-object.yaml"},
		{"cost", "--sort", "runtime", "--top", "2", "--crd", "testdata/project/crds.yaml", "testdata/project/objects.yaml"},
		{"cost", "../../cost/testdata/docs-unbounded.yaml"},
		{"cost", "testdata/unknown-field-crd.yaml"},
		{"cost", "--crd-field-validation", "Warn", "testdata/unknown-field-crd.yaml"},
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

// TestEngineWasmModuleNotFound: without a module the error says where it
// looked and how to give one, once prefixed.
func TestEngineWasmModuleNotFound(t *testing.T) {
	crd, err := os.ReadFile("../../examples/crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CRDLAB_WASM", "")
	t.Chdir(t.TempDir())
	os.WriteFile("x.yaml", crd, 0o644)
	var stdout, stderr bytes.Buffer
	code := run([]string{"lint", "--engine", "wasm", "x.yaml"}, nil, &stdout, &stderr)
	if code != exitUsage || !bytes.HasPrefix(stderr.Bytes(), []byte("crdlab: --engine wasm: no module found (tried ")) || bytes.Contains(stderr.Bytes(), []byte("crdlab wasm")) {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}

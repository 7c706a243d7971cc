package main

import (
	"bytes"
	"encoding/json"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/wire"
)

// TestRuntimeWasmMatchesNative runs `crdlab validate` on the examples with
// both runtimes, in every output format and field-validation mode, and
// requires identical output and exit status. It needs the module that
// `make wasm` builds (make test sets CRDLAB_WASM).
func TestRuntimeWasmMatchesNative(t *testing.T) {
	module := wasmModuleForTest(t)
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
		{"schema", "../../examples/crontab-crd.yaml"},
		{"schema", "--draft", "07", "--strict", "../../examples/crontab-crd.yaml", "testdata/invalid-crd.yaml"},
		{"upgrade", "../../examples/upgrade/old.yaml", "../../examples/upgrade/new.yaml", "../../examples/upgrade/"},
		{"upgrade", "-o", "json", "--fail-on-breaking", "../../examples/upgrade/old.yaml", "../../examples/upgrade/new.yaml"},
		{"lint", "--old", "../../examples/crd-update/old.yaml", "../../examples/crd-update/new-v1.yaml"},
		{"lint", "-o", "json", "--stored-versions", "v1", "--old", "../../examples/crd-update/old.yaml", "../../examples/crd-update/new-v1.yaml"},
		{"validate", "--crd", "../../examples/crd-update/new-v1.yaml", "--old-crd", "../../examples/crd-update/old.yaml", "testdata/gizmo.yaml"},
		{"validate", "-o", "json", "--crd", "../../examples/crd-update/new-v1.yaml", "--old-crd", "../../examples/crd-update/old.yaml", "testdata/gizmo.yaml"},
		{"conversion-review", "--objects", "--crd", "../../examples/conversion/crd.yaml", "../../examples/conversion/request.json", "../../examples/conversion/response.json"},
		{"conversion-review", "-o", "json", "--crd", "../../examples/conversion/crd.yaml", "../../examples/conversion/request.json", "../../examples/conversion/response-invalid-object.json"},
		{"conversion-review", "--list", "--crd", "../../examples/conversion/crd.yaml", "../../examples/conversion/request.json", "../../examples/conversion/response-wrong-version.json"},
		{"conversion-review", "--crd", "../../examples/crontab-crd.yaml", "../../examples/conversion/request.json", "../../examples/conversion/response.json"},
		{"conversion-review", "--crd", "../../examples/conversion/crd.yaml", "../../examples/valid.yaml"},
		// Kubernetes releases (docs/kube-versions.md): each op at a release
		// other than the default, and matrices (the module once per release).
		{"validate", "--kube-version", "1.35", "--crd", "../../examples/kube-versions/widgets-crd.yaml", "../../examples/kube-versions/widgets.yaml"},
		{"validate", "-o", "json", "--kube-version", "1.36", "--crd", "../../examples/kube-versions/widgets-crd.yaml", "../../examples/kube-versions/widgets.yaml"},
		{"validate", "--kube-version", "1.35-1.37", "--crd", "../../examples/kube-versions/widgets-crd.yaml", "../../examples/kube-versions/widgets.yaml"},
		{"lint", "-o", "json", "--kube-version", "supported", "../../examples/kube-versions/gadgets-crd.yaml", "../../examples/kube-versions/widgets-crd.yaml"},
		{"lint", "--kube-version", "1.35", "--old", "../../examples/kube-versions/widgets-crd.yaml", "../../examples/kube-versions/gadgets-crd.yaml"},
		{"validate", "--kube-version", "1.36", "--crd", "../../examples/kube-versions/widgets-crd.yaml", "--old-crd", "../../examples/kube-versions/widgets-crd.yaml", "../../examples/kube-versions/widgets.yaml"},
		{"cost", "--kube-version", "1.35", "../../examples/kube-versions/gadgets-crd.yaml"},
		{"cost", "-o", "json", "--kube-version", "1.35,1.37", "../../examples/kube-versions/gadgets-crd.yaml"},
		{"upgrade", "--kube-version", "1.35", "../../examples/kube-versions/widgets-crd.yaml", "../../examples/kube-versions/widgets-crd.yaml", "../../examples/kube-versions/widgets.yaml"},
		{"conversion-review", "-o", "json", "--kube-version", "1.36", "--crd", "../../examples/conversion/crd.yaml", "../../examples/conversion/request.json", "../../examples/conversion/response-invalid-object.json"},
		{"lint", "--kube-version", "1.30", "../../examples/kube-versions/widgets-crd.yaml"},
	} {
		var nOut, nErr, wOut, wErr bytes.Buffer
		nCode := run(args, nil, &nOut, &nErr)
		wasmArgs := append([]string{args[0], "--runtime", "wasm", "--wasm-module", module}, args[1:]...)
		wCode := run(wasmArgs, nil, &wOut, &wErr)
		if nCode != wCode || nOut.String() != wOut.String() || nErr.String() != wErr.String() {
			t.Errorf("%v: native and wasm differ:\nnative (%d):\n%s%s\nwasm (%d):\n%s%s", args, nCode, nOut.String(), nErr.String(), wCode, wOut.String(), wErr.String())
		}
		if nOut.Len()+nErr.Len() == 0 {
			t.Errorf("%v: no output at all", args)
		}
	}
}

// TestRuntimeWasmModuleNotFound: without a module the error says where it
// looked and how to give one, once prefixed.
func TestRuntimeWasmModuleNotFound(t *testing.T) {
	crd, err := os.ReadFile("../../examples/crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CRDLAB_WASM", "")
	t.Chdir(t.TempDir())
	os.WriteFile("x.yaml", crd, 0o644)
	var stdout, stderr bytes.Buffer
	code := run([]string{"lint", "--runtime", "wasm", "x.yaml"}, nil, &stdout, &stderr)
	if code != exitUsage || !bytes.HasPrefix(stderr.Bytes(), []byte("crdlab: --runtime wasm: no module found (tried ")) || bytes.Contains(stderr.Bytes(), []byte("crdlab wasm")) {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}

// TestBenchRuntimeWasm: `crdlab bench --runtime wasm` times the same rules
// on the same objects as native, with the same cost units; only the
// timings (the module's own) differ.
func TestBenchRuntimeWasm(t *testing.T) {
	module := wasmModuleForTest(t)
	type rule struct {
		Object, Rule, Evaluations int
		Expression                string
		Cost, EstimatedCost       float64
	}
	figures := func(args ...string) []rule {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"bench", "-o", "json", "--duration", "1ms", "--samples", "2"}, append(args, "../../cost/testdata/mixed.yaml", "../../cost/testdata/mixed-object.yaml")...), nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		var rep struct{ Rules []rule }
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Rules) == 0 {
			t.Fatalf("%v: %v: %s", args, err, stdout.String())
		}
		return rep.Rules
	}
	native, inWasm := figures(), figures("--runtime", "wasm", "--wasm-module", module)
	if !reflect.DeepEqual(native, inWasm) {
		t.Errorf("rules differ:\nnative %+v\nwasm   %+v", native, inWasm)
	}
}

// TestTestRuntimeWasm: `crdlab test --runtime wasm` reads the suites into
// the module and reports the same cases, verdicts and messages as native
// (the times aside); a path outside the current directory is refused.
func TestTestRuntimeWasm(t *testing.T) {
	module := wasmModuleForTest(t)
	module, _ = filepath.Abs(module)
	t.Chdir("../..")
	report := func(args ...string) (wire.TestReport, int) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"test", "-o", "json"}, args...), nil, &stdout, &stderr)
		var rep wire.TestReport
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Results) == 0 {
			t.Fatalf("%v: exit %d, %v: %s%s", args, code, err, stdout.String(), stderr.String())
		}
		rep.Seconds = 0
		for i := range rep.Results {
			rep.Results[i].Seconds = 0
		}
		return rep, code
	}
	// Every suite of crdtest/testdata but k8s-docs-pods: its steps on
	// built-in Pods take the built-in kinds' path natively, which the
	// module does not link yet (docs/builtin-kinds.md), so the module's
	// admission outcomes lack the note that the Pods were not validated
	// natively (the verdicts and objects agree).
	entries, err := os.ReadDir("crdtest/testdata")
	if err != nil {
		t.Fatal(err)
	}
	var suites []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "k8s-docs-pods" {
			suites = append(suites, filepath.Join("crdtest/testdata", e.Name()))
		}
	}
	if len(suites) < 6 {
		t.Fatalf("suites: %v", suites)
	}
	for _, args := range [][]string{suites, append([]string{"--run", "ratchet"}, suites...),
		{"--kube-version", "1.35", "cmd/crdlab/testdata/matrix-suite"}, {"--kube-version", "1.36", "cmd/crdlab/testdata/matrix-suite"}} {
		native, nCode := report(args...)
		inWasm, wCode := report(append([]string{"--runtime", "wasm", "--wasm-module", module}, args...)...)
		if nCode != wCode || !reflect.DeepEqual(native, inWasm) {
			t.Errorf("%v: native (exit %d) and wasm (exit %d) differ:\n%+v\n%+v", args, nCode, wCode, native, inWasm)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"test", "--runtime", "wasm", "--wasm-module", module, "../elsewhere"}, nil, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "below the current directory") {
		t.Errorf("a path outside: exit %d, %s", code, stderr.String())
	}
}

// wasmModuleForTest is the module the --runtime wasm tests run ($CRDLAB_WASM,
// which make test sets). Under -short (make race) they are skipped: the
// race detector makes wazero compile the 24 MB module for minutes, as for
// bindings/wasm, which make race leaves out. Without the module a
// developer's run skips and CI fails.
func wasmModuleForTest(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: runs the 24 MB module in wazero (make test runs it)")
	}
	module := os.Getenv("CRDLAB_WASM")
	if module == "" {
		testenv.Unavailable(t, "CRDLAB_WASM is not set: build the module with `make wasm` (make test does)")
	}
	return module
}

package calibrate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// Native vs wazero, on the same workload (see the package comment):
//
//	go test ./guest/internal/calibrate -run '^$' -bench . -count 5
//
// Each benchmark op is one workload iteration.

const perCall = 20 // iterations per wasm call: the call's own cost is amortised

func TestRunProducesJSON(t *testing.T) {
	if got := Run(2); got < 100 {
		t.Fatalf("Run(2) = %d, want the length of the JSON document", got)
	}
}

func BenchmarkNative(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if Run(1) < 0 {
			b.Fatal("workload failed")
		}
	}
}

func BenchmarkWazero(b *testing.B)          { benchWazero(b, false) }
func BenchmarkWazeroInterrupt(b *testing.B) { benchWazero(b, true) }

func benchWazero(b *testing.B, interrupt bool) {
	mod := buildModule(b)
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(interrupt))
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	m, err := rt.InstantiateWithConfig(ctx, mod, wazero.NewModuleConfig().WithStartFunctions("_initialize").WithSysWalltime().WithSysNanotime())
	if err != nil {
		b.Fatal(err)
	}
	run := m.ExportedFunction("run")
	b.ResetTimer()
	for done := 0; done < b.N; done += perCall {
		res, err := run.Call(ctx, perCall)
		if err != nil || int32(res[0]) < 0 {
			b.Fatalf("run: %v %v", res, err)
		}
	}
}

// buildModule builds module/ for GOOS=wasip1 into the test's temp dir.
func buildModule(b *testing.B) []byte {
	out := filepath.Join(b.TempDir(), "calibrate.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-buildmode=c-shared", "-o", out, "./module")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the calibration module: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

package wasm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crdlab/crdlab/bindings/wasm"
	"github.com/crdlab/crdlab/cost"
)

// Bench times the CEL rules inside the module, with its clock: the cost
// units are the native ones, the times those of WebAssembly.
func ExampleRuntime_Bench() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample(), CacheDir: filepath.Join(os.TempDir(), "crdlab-example-cache")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	withRule := strings.Replace(crontabCRD, "        properties:\n          spec:\n",
		"        properties:\n          spec:\n            x-kubernetes-validations:\n            - rule: \"self.replicas % 2 == 1\"\n", 1)
	object := []byte("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {replicas: 3}\n")
	raw, err := r.Bench(ctx, []byte(withRule), [][]byte{object}, wasm.BenchOptions{Duration: 5 * time.Millisecond, Samples: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	var rep cost.BenchReport
	if err := json.Unmarshal(raw, &rep); err != nil {
		fmt.Println(err)
		return
	}
	for _, rule := range rep.Rules {
		fmt.Printf("%s: %d cost units, timed: %v\n", rule.Expression, rule.Cost, rule.Timing != nil && rule.PerEvaluationNs > 0)
	}
	fmt.Println(rep.Machine.GOOS, rep.Machine.GOARCH)
	// Output:
	// self.replicas % 2 == 1: 4 cost units, timed: true
	// wasip1 wasm
}

// A compiled CRD benchmarks without being decoded again: each phase of the
// validation is timed (no "cel" phase here: the CRD has no rules).
func ExampleCRD_Bench() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample(), CacheDir: filepath.Join(os.TempDir(), "crdlab-example-cache")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	crd, err := r.Compile(ctx, []byte(crontabCRD))
	if err != nil {
		fmt.Println(err)
		return
	}
	raw, err := crd.Bench(ctx, [][]byte{[]byte("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {}\n")}, wasm.BenchOptions{Duration: 2 * time.Millisecond, Samples: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	var rep cost.BenchReport
	_ = json.Unmarshal(raw, &rep)
	for _, p := range rep.Objects[0].Phases {
		fmt.Print(p.Phase, " ")
	}
	fmt.Println()
	// Output:
	// decode prune default openapi request
}

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

// Schema exports the JSON Schema of each served version, as `crdlab schema`
// writes it, for editors and schema-only validators.
func ExampleRuntime_Schema() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample(), CacheDir: filepath.Join(os.TempDir(), "crdlab-example-cache")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	res, err := r.Schema(ctx, []byte(crontabCRD), wasm.SchemaOptions{Draft: "07", Strict: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range res.Schemas {
		var doc map[string]interface{}
		if err := json.Unmarshal([]byte(s.Document), &doc); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(s.FileName, doc["$schema"], doc["additionalProperties"])
	}
	// Output:
	// crontab_v1.json http://json-schema.org/draft-07/schema# false
}

// A compiled CRD exports without being compiled again.
func ExampleCRD_Schema() {
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
	res, err := crd.Schema(ctx, wasm.SchemaOptions{Layout: "catalog"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Schemas[0].FileName, strings.Contains(res.Schemas[0].Document, `"maximum": 10`))
	// Output:
	// stable.example.com/crontab_v1.json true
}

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

// Complete is the CEL completion of the playground and of `crdlab lsp`:
// what may follow "<receiver>." in a rule, given the schema node that
// carries it.
func ExampleRuntime_Complete() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample(), CacheDir: filepath.Join(os.TempDir(), "crdlab-example-cache")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	node := []byte(`{"type":"object","properties":{"ports":{"type":"array","items":{"type":"object",
	  "properties":{"port":{"type":"integer"},"name":{"type":"string"}}}}}}`)
	res, err := r.Complete(ctx, node, "self.ports.all(p, p.na", wasm.CompleteOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Type, res.From, res.To)
	for _, o := range res.Options {
		fmt.Println(o.Label, o.Kind, o.Detail)
	}
	// Output:
	// object 20 22
	// name property string
	// port property int
}

package wasm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/crdlab/crdlab/bindings/wasm"
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

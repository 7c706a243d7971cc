package abi_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/guest/internal/abi"
	"github.com/crdlab/crdlab/wire"
)

// A host (or a test) talks to the dispatcher with JSON requests; the wasip1
// module only moves these bytes through linear memory.
func ExampleServer_Handle() {
	s := abi.NewServer()
	fmt.Println(string(s.Handle([]byte(`{"op":"nope"}`))))

	var compiled struct {
		Result wire.CompileResult `json:"result"`
	}
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"crontabs.stable.example.com"},
"spec":{"group":"stable.example.com","scope":"Namespaced","names":{"plural":"crontabs","singular":"crontab","kind":"CronTab"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`
	req, _ := json.Marshal(wire.CompileRequest{Op: wire.OpCompile, CRD: crd})
	_ = json.Unmarshal(s.Handle(req), &compiled)
	fmt.Println(compiled.Result.Handle, compiled.Result.Versions, len(compiled.Result.CRD.Errors))
	// Output:
	// {"ok":false,"error":{"code":"BadRequest","message":"unknown op \"nope\" (expected version, compile, lint, validate, validateAll, cost, free, upgrade, test, schema, bench, conversionReview, complete, admit or apply)"}}
	// 1 [v1] 0
}

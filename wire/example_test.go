package wire_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/wire"
)

// A host reads the report of a validate op (or of crdlab validate -o json)
// into wire.Report and asks it for the verdict.
func ExampleReport() {
	answer := `{"crd": {"errors": [], "warnings": []},
	  "object": {"result": null, "pruned": [], "warnings": [],
	    "errors": [{"type": "FieldValueInvalid", "field": "spec.replicas", "detail": "spec.replicas in body should be greater than or equal to 0", "message": "spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0"}]}}`
	var rep wire.Report
	if err := json.Unmarshal([]byte(answer), &rep); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("CRD valid:", rep.CRD.Valid())
	fmt.Println("object valid:", rep.Object.Valid())
	for _, e := range rep.Object.Errors {
		fmt.Println(e.Field, e.Type)
	}
	// Output:
	// CRD valid: true
	// object valid: false
	// spec.replicas FieldValueInvalid
}

// OpNames lists the module's ops, as its unknown-op error names them.
func ExampleOpNames() {
	fmt.Println(wire.OpNames())
	// Output:
	// version, compile, lint, validate, validateAll, cost, free, upgrade, test, schema, bench, conversionReview, complete, admit or apply
}

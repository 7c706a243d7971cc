package engine_test

import (
	"fmt"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
)

// CompileUpdate gives the API server's verdict on updating the CRD in the
// cluster (old) to a new one: here the scope changes, v1 is dropped while
// objects are still stored at v1, and a changed schema brings a CEL rule
// over the cost budget.
func ExampleCompileUpdate() {
	c, err := engine.CompileUpdate(
		mustRead("../examples/crd-update/new-v2.yaml"),
		mustRead("../examples/crd-update/old.yaml"),
		engine.UpdateOptions{},
	)
	if err != nil {
		panic(err)
	}
	for _, e := range c.Errors() {
		fmt.Println(e.Field)
	}
	// After a storage migration, status.storedVersions is [v2]:
	c, _ = engine.CompileUpdate(
		mustRead("../examples/crd-update/new-v2.yaml"),
		mustRead("../examples/crd-update/old.yaml"),
		engine.UpdateOptions{StoredVersions: []string{"v2"}},
	)
	fmt.Println(len(c.Errors()), "errors")
	// A compatible update: the over-budget rule of the unchanged v1 schema
	// is tolerated, and the validators are the new CRD's.
	c, _ = engine.CompileUpdate(
		mustRead("../examples/crd-update/new-v1.yaml"),
		mustRead("../examples/crd-update/old.yaml"),
		engine.UpdateOptions{},
	)
	fmt.Println(len(c.Errors()), "errors")
	_, err = c.Validator("v2")
	fmt.Println("v2 served:", err == nil)
	// Output:
	// spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule
	// spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule
	// spec.scope
	// status.storedVersions[0]
	// 3 errors
	// 0 errors
	// v2 served: true
}

// CompileCRDUpdateWithSource is CompileCRDUpdate of CRDs already decoded
// (crd.Decode), keeping the new CRD's text so that errors carry positions.
func ExampleCompileCRDUpdateWithSource() {
	newText := mustRead("../examples/crd-update/new-v2.yaml")
	newDefs, err := crd.Decode(newText, "new-v2.yaml")
	if err != nil {
		panic(err)
	}
	oldDefs, err := crd.Decode(mustRead("../examples/crd-update/old.yaml"), "old.yaml")
	if err != nil {
		panic(err)
	}
	c := engine.CompileCRDUpdateWithSource(newDefs[0], oldDefs[0], engine.UpdateOptions{StoredVersions: []string{"v2"}}, newText)
	for i, e := range engine.NewReport(c, nil).CRD.Errors {
		fmt.Printf("new-v2.yaml:%d:%d: %s\n", e.Position.Line, e.Position.Column, c.Errors()[i].Field)
	}
	// Output:
	// new-v2.yaml:23:15: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule
	// new-v2.yaml:25:15: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule
	// new-v2.yaml:10:3: spec.scope
}

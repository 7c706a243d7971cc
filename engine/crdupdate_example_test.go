package engine_test

import (
	"fmt"

	"github.com/crdlab/crdlab/engine"
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

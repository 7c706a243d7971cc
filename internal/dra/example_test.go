package dra_test

import (
	"context"
	"fmt"

	"github.com/crdlab/crdlab/engine/field"
	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/dra"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// A selector compiled as the scheduler compiles it and run against a
// device whose attribute names take the driver's domain.
func ExampleSelector_Matches() {
	rel := kubeversion.Of(37)
	env, err := dra.NewEnv(rel, kcel.StoredExpressions, dra.Defaults(rel))
	if err != nil {
		panic(err)
	}
	sel, cerr := env.Compile(`device.attributes["gpu.example.com"].memoryGB >= 40`)
	if cerr != nil {
		panic(cerr)
	}
	memory := int64(80)
	gpu := dra.Device{Driver: "gpu.example.com", Attributes: map[string]dra.Attribute{"memoryGB": {Int: &memory}}}
	r := sel.Matches(context.Background(), gpu)
	fmt.Println(r.Matches, r.Err, *r.Cost, sel.MaxCost)

	r = sel.Matches(context.Background(), dra.Device{Driver: "gpu.example.com"})
	fmt.Println(r.Matches, r.Err)
	// Output:
	// true <nil> 5 5
	// false no such key: memoryGB. consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for optional fields
}

// The API server's check of a selector on create.
func ExampleValidator_ValidateExpression() {
	v := dra.NewValidator(kubeversion.Of(37))
	errs := v.ValidateExpression(`device.driver`, field.NewPath("spec", "selectors").Index(0).Child("cel", "expression"))
	fmt.Println(errs.ToAggregate())
	// Output:
	// spec.selectors[0].cel.expression: Invalid value: "device.driver": must evaluate to bool or the unknown type, not string
}

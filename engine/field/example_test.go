package field_test

import (
	"fmt"

	"github.com/crdlab/crdlab/engine/field"
)

func ExampleInvalid() {
	p := field.NewPath("spec").Child("replicas")
	err := field.Invalid(p, int64(15), "spec.replicas in body should be less than or equal to 10")
	fmt.Println(err)
	// Output: spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10
}

func ExampleErrorList_ToAggregate() {
	p := field.NewPath("spec")
	errs := field.ErrorList{field.Required(p.Child("image"), ""), field.Forbidden(p.Child("x"), "may not be set")}
	fmt.Println(errs.ToAggregate())
	// Output: [spec.image: Required value, spec.x: Forbidden: may not be set]
}

// Kubernetes 1.33 and older print a bad value that is not a number, boolean
// or string in Go syntax (fmt's %#v of upstream's Go value); 1.34 and
// newer as JSON.
func ExampleErrorList_WithGoSyntaxValues() {
	errs := field.ErrorList{field.Invalid(field.NewPath("spec", "keys"), []string{"a", "a"}, "must not contain duplicate entries")}
	fmt.Println(errs[0])
	fmt.Println(errs.WithGoSyntaxValues()[0])
	// Output:
	// spec.keys: Invalid value: ["a","a"]: must not contain duplicate entries
	// spec.keys: Invalid value: []string{"a", "a"}: must not contain duplicate entries
}

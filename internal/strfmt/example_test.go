package strfmt_test

import (
	"fmt"

	"github.com/crdlab/crdlab/internal/strfmt"
)

func ExampleIsDuration() {
	fmt.Println(strfmt.IsDuration("1h30m"), strfmt.IsDuration("3 days"), strfmt.IsDuration("soon"))
	// Output:
	// true true false
}

func ExampleLookup() {
	check := strfmt.Lookup("date-time")
	fmt.Println(check("2024-01-02T03:04:05Z"), check("2024-01-02"))
	fmt.Println(strfmt.Lookup("int32") == nil) // not a string format of the registry
	// Output:
	// true false
	// true
}

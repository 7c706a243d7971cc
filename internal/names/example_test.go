package names_test

import (
	"fmt"

	"github.com/crdlab/crdlab/internal/names"
)

func ExampleIsDNS1123Label() {
	fmt.Println(names.IsDNS1123Label("my-name"))
	fmt.Println(names.IsDNS1123Label("my.name"))
	// Output:
	// []
	// [must not contain dots]
}

func ExampleIsQualifiedName() {
	for _, msg := range names.IsQualifiedName("/finalizer") {
		fmt.Println(msg)
	}
	// Output:
	// prefix part must be non-empty
}

func ExampleNameIsDNSSubdomain() {
	// a generateName may end with a dash
	fmt.Println(len(names.NameIsDNSSubdomain("web-", true)), len(names.NameIsDNSSubdomain("web-", false)))
	// Output: 0 1
}

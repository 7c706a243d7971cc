package crdtest_test

import (
	"fmt"
	"testing"

	"github.com/crdlab/crdlab/crdtest"
)

// An operator repository's whole CRD validation test: every suite under
// testdata/ runs as a subtest, in milliseconds, without envtest.
func TestCRDValidation(t *testing.T) {
	crdtest.Run(t, "testdata/widgets")
}

func ExampleRunPaths() {
	rep, err := crdtest.RunPaths(crdtest.Options{}, "testdata/widgets")
	if err != nil {
		panic(err)
	}
	passed, failed := rep.Counts()
	fmt.Println(passed, "passed,", failed, "failed")
	fmt.Println(rep.Results[0].Name)
	// Output:
	// 12 passed, 0 failed
	// Widget sequences/sequence/Create, scale, then finish
}

func ExampleRun() {
	// In a _test.go file:
	//
	//	func TestCRDValidation(t *testing.T) { crdtest.Run(t, "testdata/") }
}

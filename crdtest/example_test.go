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

func ExampleStarterSuite() {
	crd := []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: dials.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {plural: dials, singular: dial, kind: Dial}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [level]
            properties:
              level: {type: integer, minimum: 1, maximum: 11}
            x-kubernetes-validations:
            - rule: self.level != 7
              message: seven is unlucky
`)
	suite, err := crdtest.StarterSuite(crd, "dials-crd.yaml")
	if err != nil {
		panic(err)
	}
	fmt.Print(string(suite))
	// Output:
	// # Starter suite for dials.example.com, written by `crdlab test --init`.
	// # Format: OpenShift's test suites (onCreate/onUpdate) plus crdlab's sequences;
	// # see docs/test-format.md. Run it with: crdlab test THIS_FILE
	// name: "Dial"
	// crd: "dials-crd.yaml" # relative to this file: save the suite next to the CRD
	// version: "v1"
	// tests:
	//   onCreate:
	//   - name: Should create a minimal object
	//     initial: |
	//       apiVersion: example.com/v1
	//       kind: Dial
	//       spec:
	//         level: 1
	//     expected: |
	//       apiVersion: example.com/v1
	//       kind: Dial
	//       spec:
	//         level: 1
	//   # TODO: make initial break the rule at spec and set expectedError:
	//   #   rule: self.level != 7
	//   #   message: seven is unlucky
	//   - name: "Rule at spec: seven is unlucky"
	//     initial: |
	//       apiVersion: example.com/v1
	//       kind: Dial
	//       spec:
	//         level: 1
	//     expected: |
	//       apiVersion: example.com/v1
	//       kind: Dial
	//       spec:
	//         level: 1
}

func ExampleDiscover() {
	files, err := crdtest.Discover("testdata/widgets")
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		fmt.Println(f)
	}
	// Output:
	// testdata/widgets/widgets.crdtest.yaml
	// testdata/widgets/widgets.testsuite.yaml
}

// RunFiles runs suites held in memory (the WebAssembly module's "test" op
// and the playground use it); Wire is the document `crdlab test -o json`
// prints.
func ExampleRunFiles() {
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: dials.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: dials, singular: dial, kind: Dial}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              level: {type: integer, maximum: 10, default: 5}
`
	suite := `name: Dial
crd: crds/dials.yaml
tests:
  onCreate:
  - name: Defaults the level
    initial: |
      apiVersion: example.com/v1
      kind: Dial
      spec: {}
    expected: |
      apiVersion: example.com/v1
      kind: Dial
      spec: {level: 5}
  - name: Rejects 11
    initial: |
      apiVersion: example.com/v1
      kind: Dial
      spec: {level: 11}
    expectedError: "spec.level: Invalid value: 11: spec.level in body should be less than or equal to 10"
`
	rep, err := crdtest.RunFiles(map[string][]byte{
		"crds/dials.yaml":      []byte(crd),
		"dials.testsuite.yaml": []byte(suite),
	}, crdtest.Options{}, ".")
	if err != nil {
		panic(err)
	}
	w := rep.Wire()
	for _, r := range w.Results {
		fmt.Println(r.Passed, r.File+":"+fmt.Sprint(r.Line), r.Name)
	}
	fmt.Println(w.Passed, "passed,", w.Failed, "failed")
	// Output:
	// true dials.testsuite.yaml:5 Dial/onCreate/Defaults the level
	// true dials.testsuite.yaml:14 Dial/onCreate/Rejects 11
	// 2 passed, 0 failed
}

package crdtest_test

import (
	"fmt"
	"sync"
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

// refusingServer is a Backend standing for an API server that refuses
// every write (benchmarks/apiserver's is a real kube-apiserver).
type refusingServer struct{ requests int }

func (s *refusingServer) Do(r crdtest.BackendRequest) (*crdtest.BackendResponse, error) {
	if r.Object == nil {
		return &crdtest.BackendResponse{}, nil // the CRD is installed
	}
	s.requests++
	return &crdtest.BackendResponse{Error: "the server is read-only"}, nil
}

func (s *refusingServer) Cleanup(created [][]byte) {}

func ExampleBackend() {
	srv := &refusingServer{}
	rep, err := crdtest.RunPaths(crdtest.Options{Backend: srv, Parallel: 1}, "testdata/widgets/widgets.testsuite.yaml")
	if err != nil {
		panic(err)
	}
	passed, failed := rep.Counts()
	fmt.Println(passed, "passed,", failed, "failed;", srv.requests, "requests")
	fmt.Println(rep.Results[1].Message)
	// Output:
	// 0 passed, 9 failed; 9 requests
	// create failed with an error that does not contain the expected text
	//   expected (substring):
	//     spec.size: Unsupported value: "Medium": supported values: "Small", "Large"
	//   actual:
	//     the server is read-only
}

// Admission cases (tests.admission) run a request through the admission
// chain: here a ValidatingAdmissionPolicy on ConfigMaps, a built-in kind,
// so the suite needs no CRD. ObserveAdmission sees each validating step.
func ExampleRunFiles_admission() {
	suite := `name: ConfigMaps
policies:
- |
  apiVersion: admissionregistration.k8s.io/v1
  kind: ValidatingAdmissionPolicy
  metadata: {name: owner-label}
  spec:
    matchConstraints:
      resourceRules:
      - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}
    validations:
    - expression: "has(object.metadata.labels) && 'owner' in object.metadata.labels"
      message: every ConfigMap needs an owner label
    auditAnnotations:
    - {key: owner, valueExpression: "has(object.metadata.labels) && 'owner' in object.metadata.labels ? string(object.metadata.labels.owner) : ''"}
  ---
  apiVersion: admissionregistration.k8s.io/v1
  kind: ValidatingAdmissionPolicyBinding
  metadata: {name: owner-label}
  spec: {policyName: owner-label, validationActions: [Deny]}
tests:
  admission:
  - name: Labelled
    object: |
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: settings, labels: {owner: jane}}
    expectedAuditAnnotations: {owner-label/owner: jane}
  - name: Unlabelled
    object: |
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: settings}
    expectedError: every ConfigMap needs an owner label
`
	var mu sync.Mutex
	var resources []string
	rep, err := crdtest.RunFiles(map[string][]byte{"configmaps.crdtest.yaml": []byte(suite)}, crdtest.Options{
		Parallel: 1,
		ObserveAdmission: func(o crdtest.AdmissionObserved) {
			if o.Step != "validating" {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			resources = append(resources, o.Request.Operation+" "+o.Request.Resource.Resource+" "+o.Request.Namespace+"/"+o.Request.Name)
		},
	}, ".")
	if err != nil {
		panic(err)
	}
	for _, r := range rep.Results {
		fmt.Println(r.Passed, r.Name, "allowed:", r.Admission.Allowed)
	}
	fmt.Println(rep.Results[1].Admission.Message)
	fmt.Println(resources)
	// Output:
	// true ConfigMaps/admission/Labelled allowed: true
	// true ConfigMaps/admission/Unlabelled allowed: false
	// configmaps "settings" is forbidden: ValidatingAdmissionPolicy 'owner-label' with binding 'owner-label' denied request: every ConfigMap needs an owner label
	// [CREATE configmaps default/settings CREATE configmaps default/settings]
}

package upgrade_test

import (
	"fmt"

	"github.com/crdlab/crdlab/upgrade"
)

const oldCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}, legacy: {type: string}}}
`

// newCRD drops spec.legacy and adds a CEL rule.
const newCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
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
            x-kubernetes-validations: [{rule: "self.size <= 10"}]
            properties: {size: {type: integer}}
`

func ExampleCheck() {
	stored := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"spec":{"size":50,"legacy":"x"}}`)
	rep, err := upgrade.Check([]byte(oldCRD), []byte(newCRD), []upgrade.Object{{Source: "w.json", Data: stored}}, upgrade.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("CRD update errors:", len(rep.CRDUpdate.Errors))
	r := rep.Objects[0].Reads[0]
	fmt.Println("pruned on read:", r.Pruned)
	fmt.Println("no-op update allowed:", r.NoOpUpdate.Allowed)
	fmt.Println("create allowed:", r.Create.Allowed)
	for _, c := range rep.Changes {
		fmt.Println(c.Severity, c.Kind, c.Path)
	}
	fmt.Println("safe:", rep.Safe)
	// Output:
	// CRD update errors: 0
	// pruned on read: [spec.legacy]
	// no-op update allowed: true
	// create allowed: false
	// breaking RuleAdded spec
	// breaking FieldRemoved spec.legacy
	// safe: false
}

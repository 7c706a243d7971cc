package engine_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/engine"
)

// A stored v1alpha1 object read through the v1 endpoint (conversion
// strategy None): defaulted by v1alpha1's schema, its apiVersion rewritten,
// then pruned by v1's schema.
func ExampleCRD_ReadStored() {
	c, err := engine.Compile([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1alpha1
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {old: {type: string}, size: {type: integer, default: 1}}}}}}
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}
`))
	if err != nil {
		panic(err)
	}
	read, err := c.ReadStored([]byte(`{"apiVersion":"example.com/v1alpha1","kind":"Widget","metadata":{"name":"w"},"spec":{"old":"x"}}`), "v1")
	if err != nil {
		panic(err)
	}
	obj, _ := json.Marshal(read.Object)
	fmt.Println(string(obj))
	fmt.Println("pruned:", read.Pruned, "defaulted:", read.Defaulted)
	// Output:
	// {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1,"name":"w"},"spec":{"size":1}}
	// pruned: [spec.old] defaulted: [spec.size]
}

package crd_test

import (
	"fmt"

	"github.com/crdlab/crdlab/engine/crd"
)

func ExampleDecode() {
	crds, err := crd.Decode([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  versions:
  - {name: v1, served: yes, storage: true, schema: {openAPIV3Schema: {type: object}}}
`), "widgets.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	c := crds[0]
	fmt.Println(c.Metadata.Name, c.Spec.Names.ListKind, c.Spec.Conversion.Strategy, c.Spec.Versions[0].Served)
	// Output: widgets.example.com WidgetList None true
}

func ExampleDecodeOne() {
	_, err := crd.DecodeOne([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scpoe: Namespaced
`), "widgets.yaml")
	fmt.Println(err)
	// Output: widgets.yaml:8:3: unknown field "spec.scpoe"
}

func ExampleDecodeDocuments() {
	docs, err := crd.DecodeDocuments([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, bogusKeyword: 1}
`), "widgets.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range docs[0].FieldErrors {
		fmt.Println(e)     // as the API server reports it
		fmt.Println(e.Pos) // where it is
	}
	// Output:
	// unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.bogusKeyword"
	// widgets.yaml:18:32: unknown field "spec.versions[0].schema.openAPIV3Schema.properties[spec].bogusKeyword"
}

package crdvalidation_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/crdvalidation"
)

func ExampleValidateCustomResourceDefinition() {
	c, err := crd.DecodeOne([]byte(`
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
          spec:
            type: object
            properties:
              size: {type: int}
`), "widgets.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	errs, warnings := crdvalidation.ValidateCustomResourceDefinition(c, crdvalidation.Options{})
	for _, e := range errs {
		fmt.Println(e)
	}
	fmt.Println(len(warnings), "warnings")
	// Output:
	// spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"
	// 0 warnings
}

func ExampleCompileRules() {
	var root crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object",
		"properties":{"n":{"type":"integer"}},
		"x-kubernetes-validations":[{"rule":"self.n > 0"},{"rule":"self.m > 0"}]}}}`), &root)
	spec := root.Properties["spec"]
	results, err := crdvalidation.CompileRules(crdvalidation.CELNode{
		Root:   &root,
		Steps:  []crdvalidation.CELStep{{Kind: crdvalidation.CELStepProperty, Property: "spec"}},
		Schema: &spec,
	}, nil)
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Println(r.MaxCost, r.Error != nil)
	}
	// Output:
	// 3 false
	// 0 true
}

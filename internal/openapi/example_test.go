package openapi_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/openapi"
	"github.com/crdlab/crdlab/internal/schema"
)

const exampleSchema = `{
  "type": "object",
  "properties": {
    "spec": {
      "type": "object",
      "required": ["image"],
      "properties": {
        "image": {"type": "string"},
        "replicas": {"type": "integer", "minimum": 1, "maximum": 10},
        "mode": {"type": "string", "enum": ["Fast", "Safe"]}
      }
    }
  }
}`

func exampleValidator() *openapi.Validator {
	var props crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(exampleSchema), &props); err != nil {
		panic(err)
	}
	v, err := openapi.NewSchemaValidator(&props, nil)
	if err != nil {
		panic(err)
	}
	return v
}

func ExampleNewSchemaValidator() {
	v := exampleValidator()
	obj := map[string]interface{}{
		"spec": map[string]interface{}{"replicas": int64(20), "mode": "Slow"},
	}
	for _, err := range v.Validate(nil, obj) {
		fmt.Println(err)
	}
	// Output:
	// spec.mode: Unsupported value: "Slow": supported values: "Fast", "Safe"
	// spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10
	// spec.image: Required value
}

func ExampleValidator_Validate() {
	v := exampleValidator()
	status := map[string]interface{}{"spec": map[string]interface{}{"image": "nginx", "replicas": "two"}}
	for _, err := range v.Validate(field.NewPath("root"), status) {
		fmt.Println(err)
	}
	// Output:
	// root.spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"
}

func ExampleValidator_ValidateUpdate() {
	v := exampleValidator()
	old := map[string]interface{}{"spec": map[string]interface{}{"image": "nginx", "replicas": int64(0)}}
	// replicas is still invalid but unchanged: ratcheting lets the update through.
	obj := map[string]interface{}{"spec": map[string]interface{}{"image": "nginx:2", "replicas": int64(0)}}
	fmt.Println(len(v.ValidateUpdate(nil, obj, old)))
	// changing it to another invalid value is reported.
	obj = map[string]interface{}{"spec": map[string]interface{}{"image": "nginx:2", "replicas": int64(-1)}}
	fmt.Println(v.ValidateUpdate(nil, obj, old))
	// Output:
	// 0
	// [spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 1]
}

func ExampleNewValidatorFromStructural() {
	max := int64(3)
	s := &schema.Structural{
		Generic:         schema.Generic{Type: "string"},
		ValueValidation: &schema.ValueValidation{MaxLength: &max, Format: "bogus"},
	}
	v := openapi.NewValidatorFromStructural(s, nil)
	fmt.Println(v.Validate(field.NewPath("spec", "default"), "toolong"))
	// Output:
	// [spec.default: Too long: may not be more than 3 bytes]
}

func ExampleGetUnrecognizedFormats() {
	var props crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{
		"a":{"type":"string","format":"date-time"},
		"b":{"type":"string","format":"semver"}}}`), &props)
	fmt.Println(openapi.GetUnrecognizedFormats(&props))
	// Output:
	// [semver]
}

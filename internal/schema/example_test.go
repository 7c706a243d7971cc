package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/schema"
)

func ExampleNewStructural() {
	var props crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"replicas":{"type":"integer","default":1}}}`), &props)
	s, err := schema.NewStructural(&props)
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Child("replicas").Type, s.Child("replicas").Default.Object)
	// Output: integer 1
}

func ExampleValidateStructural() {
	var props crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{},"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}}`), &props)
	s, _ := schema.NewStructural(&props)
	for _, err := range schema.ValidateStructural(field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema"), s) {
		fmt.Println(err)
	}
	// Output:
	// spec.versions[0].schema.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified
	// spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields
}

func ExampleStructural_Unfold() {
	var props crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"port":{"x-kubernetes-int-or-string":true}}}`), &props)
	s, _ := schema.NewStructural(&props)
	port := s.Unfold().Child("port")
	for _, alt := range port.ValueValidation.AnyOf {
		fmt.Println(alt.ForbiddenGenerics.Type)
	}
	// Output:
	// integer
	// string
}

func ExampleVisitor() {
	var props crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"string","nullable":true}}}`), &props)
	s, _ := schema.NewStructural(&props)
	n := 0
	v := schema.Visitor{Structural: func(s *schema.Structural) bool {
		if s.Nullable {
			n++
		}
		return false
	}}
	v.Visit(s)
	fmt.Println(n, s.StripNullable().Child("a").Nullable)
	// Output: 1 false
}

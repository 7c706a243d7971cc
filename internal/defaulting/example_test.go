package defaulting_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/defaulting"
	"github.com/crdlab/crdlab/internal/schema"
)

func widgetSchema() *schema.Structural {
	return &schema.Structural{
		Generic: schema.Generic{Type: "object"},
		Properties: map[string]schema.Structural{
			"spec": {
				Generic: schema.Generic{Type: "object", Default: schema.JSON{Object: map[string]interface{}{"colour": "blue"}}},
				Properties: map[string]schema.Structural{
					"replicas": {Generic: schema.Generic{Type: "integer", Default: schema.JSON{Object: int64(1)}}},
					"colour":   {Generic: schema.Generic{Type: "string"}},
					"note":     {Generic: schema.Generic{Type: "string", Nullable: true}},
					"size":     {Generic: schema.Generic{Type: "string"}},
				},
			},
		},
	}
}

func ExampleDefault() {
	obj := map[string]interface{}{"apiVersion": "example.com/v1", "kind": "Widget"}
	defaulting.Default(obj, widgetSchema())
	out, _ := json.Marshal(obj)
	fmt.Println(string(out))
	// Output:
	// {"apiVersion":"example.com/v1","kind":"Widget","spec":{"colour":"blue","replicas":1}}
}

func ExamplePruneNonNullableNullsWithoutDefaults() {
	obj := map[string]interface{}{"spec": map[string]interface{}{"note": nil, "size": nil, "replicas": nil}}
	defaulting.PruneNonNullableNullsWithoutDefaults(obj, widgetSchema())
	out, _ := json.Marshal(obj)
	fmt.Println(string(out))
	// Output:
	// {"spec":{"note":null,"replicas":null}}
}

func ExamplePruneDefaults() {
	s := widgetSchema()
	spec := s.Properties["spec"]
	spec.Default.Object = map[string]interface{}{"colour": "blue", "shape": "round"}
	s.Properties["spec"] = spec
	if err := defaulting.PruneDefaults(s); err != nil {
		fmt.Println(err)
	}
	fmt.Println(s.Properties["spec"].Default.Object)
	// Output:
	// map[colour:blue]
}

func ExampleValidateDefaults() {
	s := widgetSchema()
	spec := s.Properties["spec"]
	spec.Default.Object = map[string]interface{}{"colour": "blue", "shape": "round"}
	s.Properties["spec"] = spec
	errs, err := defaulting.ValidateDefaults(field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema"), s, true, true)
	fmt.Println(err)
	for _, e := range errs {
		fmt.Println(e)
	}
	// Output:
	// <nil>
	// spec.versions[0].schema.openAPIV3Schema.properties[spec].default: Invalid value: {"colour":"blue","shape":"round"}: must not have unknown fields
}

package crdvalidation

import (
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
)

// The renderings below are Kubernetes 1.33's (its oracle's messages, pointer
// addresses written 0xPTR as the differential suite canonicalizes them).
func TestGoSyntaxOfInternalTypesIsUpstreams(t *testing.T) {
	tr := true
	reason := crd.FieldValueErrorReason("FieldValueForbidden")
	minProps := int64(1)
	tests := []struct {
		name  string
		value interface{}
		want  string
	}{
		{"a rule", internalRule(crd.ValidationRule{Rule: "self.nope > 1"}),
			`apiextensions.ValidationRule{Rule:"self.nope > 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`},
		{"a rule with a reason and optionalOldSelf", internalRule(crd.ValidationRule{Rule: "r", Reason: &reason, OptionalOldSelf: &tr}),
			`apiextensions.ValidationRule{Rule:"r", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(0xPTR), FieldPath:"", OptionalOldSelf:(*bool)(0xPTR)}`},
		{"versions", []internalVersion{{Name: "v1", Served: true, Storage: true, Schema: &internalValidation{}}},
			`[]apiextensions.CustomResourceDefinitionVersion{apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:true, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(0xPTR), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil), SelectableFields:[]apiextensions.SelectableField(nil)}}`},
		{"a schema's properties are expanded, its pointers are not",
			internalSchema{&crd.JSONSchemaProps{Type: "object", MinProperties: &minProps, Enum: []crd.JSON{{Raw: []byte(`"a"`)}, {Raw: []byte(`null`)}}}},
			`apiextensions.JSONSchemaProps{ID:"", Schema:"", Ref:(*string)(nil), Description:"", Type:"object", Nullable:false, Format:"", Title:"", Default:(*apiextensions.JSON)(nil), Maximum:(*float64)(nil), ExclusiveMaximum:false, Minimum:(*float64)(nil), ExclusiveMinimum:false, MaxLength:(*int64)(nil), MinLength:(*int64)(nil), Pattern:"", MaxItems:(*int64)(nil), MinItems:(*int64)(nil), UniqueItems:false, MultipleOf:(*float64)(nil), Enum:[]apiextensions.JSON{"a", apiextensions.JSON(nil)}, MaxProperties:(*int64)(nil), MinProperties:(*int64)(0xPTR), Required:[]string(nil), Items:(*apiextensions.JSONSchemaPropsOrArray)(nil), AllOf:[]apiextensions.JSONSchemaProps(nil), OneOf:[]apiextensions.JSONSchemaProps(nil), AnyOf:[]apiextensions.JSONSchemaProps(nil), Not:(*apiextensions.JSONSchemaProps)(nil), Properties:map[string]apiextensions.JSONSchemaProps(nil), AdditionalProperties:(*apiextensions.JSONSchemaPropsOrBool)(nil), PatternProperties:map[string]apiextensions.JSONSchemaProps(nil), Dependencies:apiextensions.JSONSchemaDependencies(nil), AdditionalItems:(*apiextensions.JSONSchemaPropsOrBool)(nil), Definitions:apiextensions.JSONSchemaDefinitions(nil), ExternalDocs:(*apiextensions.ExternalDocumentation)(nil), Example:(*apiextensions.JSON)(nil), XPreserveUnknownFields:(*bool)(nil), XEmbeddedResource:false, XIntOrString:false, XListMapKeys:[]string(nil), XListType:(*string)(nil), XMapType:(*string)(nil), XValidations:apiextensions.ValidationRules(nil)}`},
		{"items", internalItems{&crd.JSONSchemaPropsOrArray{Schema: &crd.JSONSchemaProps{}}},
			`apiextensions.JSONSchemaPropsOrArray{Schema:(*apiextensions.JSONSchemaProps)(0xPTR), JSONSchemas:[]apiextensions.JSONSchemaProps(nil)}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := field.ErrorList{field.Invalid(field.NewPath("x"), tt.value, "d")}.WithGoSyntaxValues()[0]
			if got, want := err.Error(), "x: Invalid value: "+tt.want+": d"; got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

package defaulting

import (
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/schema"
)

// TestValidateDefaultsEmbeddedResources ports the expectations of upstream's
// "embedded metadata defaults" CRD validation test
// (pkg/apis/apiextensions/validation/validation_test.go): error types and
// fields, one schema property at a time.
func TestValidateDefaultsEmbeddedResources(t *testing.T) {
	const str = `{"type":"string"}`
	const something = `"properties":{"something":` + str + `}`
	const strMap = `{"type":"object","additionalProperties":` + str + `}`
	tests := []struct {
		name   string
		schema string
		want   []string // "<type> <field>" relative to properties[name]
	}{
		{name: "embedded", schema: `{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object","default":{"name":"foo"}}}}`},
		{name: "allowed-in-object-defaults", schema: `{"type":"object","x-kubernetes-embedded-resource":true,"properties":{
  "apiVersion":{"type":"string","default":"v1"},"kind":{"type":"string","default":"Pod"},
  "metadata":{"type":"object","properties":{"name":{"type":"string","default":"foo"}},"default":{"unknown":42}}}}`},
		{name: "allowed-object-defaults", schema: `{"type":"object",` + something + `,"x-kubernetes-embedded-resource":true,"default":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"foo","unknown":42}}}`},
		{name: "allowed-spanning-object-defaults", schema: `{"type":"object","properties":{"embedded":{"type":"object","x-kubernetes-embedded-resource":true,` + something + `}},
  "default":{"embedded":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"foo","unknown":42}}}}`},
		{name: "unknown-field-object-defaults", schema: `{"type":"object","x-kubernetes-embedded-resource":true,` + something + `,
  "default":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"foo","unknown":42},"unknown":42}}`,
			want: []string{"FieldValueInvalid default"}},
		{name: "unknown-field-spanning-object-defaults", schema: `{"type":"object","properties":{"embedded":{"type":"object","x-kubernetes-embedded-resource":true,` + something + `}},
  "default":{"embedded":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"foo","unknown":42},"unknown":42},"unknown":42}}`,
			want: []string{"FieldValueInvalid default"}},
		{name: "x-preserve-unknown-fields-unknown-field-object-defaults", schema: `{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"properties":{},
  "default":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"foo","unknown":42},"unknown":42}}`},
		{name: "x-preserve-unknown-fields-unknown-field-outside", schema: `{"type":"object","properties":{"embedded":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"properties":{}}},
  "default":{"embedded":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"foo","unknown":42},"unknown":42},"unknown":42}}`,
			want: []string{"FieldValueInvalid default"}},
		{name: "wrongly-typed-in-object-defaults", schema: `{"type":"object","x-kubernetes-embedded-resource":true,"properties":{
  "apiVersion":{"type":"string","default":42},"kind":{"type":"string","default":42},
  "metadata":{"type":"object","properties":{"name":{"type":"string","default":42},"annotations":{"type":"object","additionalProperties":` + str + `,"default":42}}}}}`,
			want: []string{
				"FieldValueInvalid properties[apiVersion].default",
				"FieldValueInvalid properties[kind].default",
				"FieldValueInvalid properties[metadata].properties[annotations].default",
				"FieldValueInvalid properties[metadata].properties[name].default",
			}},
		{name: "wrongly-typed-object-defaults-apiVersion", schema: `{"type":"object","x-kubernetes-embedded-resource":true,` + something + `,"default":{"apiVersion":42}}`,
			want: []string{"FieldValueInvalid default.apiVersion"}},
		{name: "wrongly-typed-object-defaults-kind", schema: `{"type":"object","x-kubernetes-embedded-resource":true,` + something + `,"default":{"kind":42}}`,
			want: []string{"FieldValueInvalid default.kind"}},
		{name: "wrongly-typed-object-defaults-name", schema: `{"type":"object","x-kubernetes-embedded-resource":true,` + something + `,"default":{"metadata":{"name":42}}}`,
			want: []string{"FieldValueInvalid default.metadata"}},
		{name: "wrongly-typed-object-defaults-labels", schema: `{"type":"object","x-kubernetes-embedded-resource":true,` + something + `,"default":{"metadata":{"labels":{"foo":42}}}}`,
			want: []string{"FieldValueInvalid default.metadata"}},
		{name: "wrongly-typed-object-defaults-metadata", schema: `{"type":"object","x-kubernetes-embedded-resource":true,` + something + `,"default":{"metadata":42}}`,
			want: []string{"FieldValueInvalid default.metadata"}},
		{name: "wrongly-typed-spanning-object-defaults-kind", schema: `{"type":"object","properties":{"embedded":{"type":"object","x-kubernetes-embedded-resource":true,` + something + `}},"default":{"embedded":{"kind":42}}}`,
			want: []string{"FieldValueInvalid default.embedded.kind"}},
		{name: "invalid-in-object-defaults", schema: `{"type":"object","x-kubernetes-embedded-resource":true,"properties":{
  "kind":{"type":"string","default":"%"},
  "metadata":{"type":"object","properties":{"name":{"type":"string","default":"%"},"labels":` + strings.TrimSuffix(strMap, "}") + `,"default":{"foo":"x y"}}}}}}`,

			want: []string{
				"FieldValueInvalid properties[kind].default",
				"FieldValueInvalid properties[metadata].properties[labels].default",
				"FieldValueInvalid properties[metadata].properties[name].default",
			}},
		{name: "invalid-object-defaults-kind", schema: `{"type":"object","x-kubernetes-embedded-resource":true,` + something + `,"default":{"apiVersion":"foo/v1","kind":"%"}}`,

			want: []string{"FieldValueInvalid default.kind"}},
		{name: "invalid-object-defaults-name", schema: `{"type":"object","x-kubernetes-embedded-resource":true,` + something + `,"default":{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"%"}}}`,

			want: []string{"FieldValueInvalid default.metadata.name"}},
		{name: "invalid-spanning-object-defaults-labels", schema: `{"type":"object","properties":{"embedded":{"type":"object","x-kubernetes-embedded-resource":true,` + something + `}},
  "default":{"embedded":{"apiVersion":"foo/v1","kind":"Foo","metadata":{"labels":{"foo":"x y"}}}}}`,

			want: []string{"FieldValueInvalid default.embedded.metadata.labels"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := sch(t, `{"type":"object"}`)
			root.Properties = map[string]schema.Structural{tt.name: *sch(t, tt.schema)}
			base := field.NewPath("spec", "validation", "openAPIV3Schema")
			errs, err := ValidateDefaultsWithOptions(base, root, true, true, ValidateOptions{})
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			prefix := base.Child("properties").Key(tt.name).String() + "."
			var got []string
			for _, e := range errs {
				got = append(got, string(e.Type)+" "+strings.TrimPrefix(e.Field, prefix))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("errors\n\t%s\nwant\n\t%s\nall:\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"), strings.Join(renderErrs(errs), "\n\t"))
			}
		})
	}
}

package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
)

func mustProps(t *testing.T, js string) *crd.JSONSchemaProps {
	t.Helper()
	var p crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatalf("bad test schema: %v", err)
	}
	return &p
}

func mustStructural(t *testing.T, js string) *Structural {
	t.Helper()
	s, err := NewStructural(mustProps(t, js))
	if err != nil {
		t.Fatalf("NewStructural: %v", err)
	}
	return s
}

func errStrings(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestNewStructuralRejectsUnsupportedFields(t *testing.T) {
	tests := []struct {
		name, schema, wantErr string
	}{
		{"id", `{"type":"object","id":"x"}`, "OpenAPIV3Schema 'id' is not supported"},
		{"$schema", `{"type":"object","$schema":"x"}`, "OpenAPIV3Schema 'schema' is not supported"},
		{"$ref", `{"type":"object","$ref":"#/x"}`, "OpenAPIV3Schema '$ref' is not supported"},
		{"patternProperties", `{"type":"object","patternProperties":{"a":{}}}`, "OpenAPIV3Schema 'patternProperties' is not supported"},
		{"dependencies", `{"type":"object","dependencies":{"a":["b"]}}`, "OpenAPIV3Schema 'dependencies' is not supported"},
		{"additionalItems", `{"type":"object","additionalItems":false}`, "OpenAPIV3Schema 'additionalItems' is not supported"},
		{"definitions", `{"type":"object","definitions":{"a":{}}}`, "OpenAPIV3Schema 'definitions' is not supported"},
		{"items array", `{"type":"array","items":[{"type":"string"}]}`, "OpenAPIV3Schema 'items' must be a schema, but is an array"},
		{"nested items array", `{"type":"object","properties":{"a":{"type":"array","items":[{}]}}}`, "OpenAPIV3Schema 'items' must be a schema, but is an array"},
		{"unsupported under allOf", `{"type":"object","allOf":[{"id":"x"}]}`, "OpenAPIV3Schema 'id' is not supported"},
		{"preserve false", `{"type":"object","x-kubernetes-preserve-unknown-fields":false}`, "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"},
		{"valid", `{"type":"object","properties":{"a":{"type":"string"}}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewStructural(mustProps(t, tt.schema))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Errorf("got error %q, want %q", got, tt.wantErr)
			}
		})
	}
}

func TestNewStructuralNilIsNil(t *testing.T) {
	s, err := NewStructural(nil)
	if s != nil || err != nil {
		t.Fatalf("got %v, %v", s, err)
	}
}

func TestNewStructuralConvertsFields(t *testing.T) {
	s := mustStructural(t, `{
		"type":"object","description":"d","title":"t","nullable":true,
		"default":{"a":1},"example":[1.5],
		"externalDocs":{"description":"ed","url":"http://x"},
		"x-kubernetes-preserve-unknown-fields":true,
		"x-kubernetes-map-type":"atomic",
		"x-kubernetes-validations":[{"rule":"self.a > 0","message":"m"}],
		"required":["a"],"maxProperties":3,"enum":[{"a":1},null],
		"properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
			"items":{"type":"object","properties":{"k":{"type":"string"}}}}},
		"additionalProperties":false,
		"anyOf":[{"required":["a"],"properties":{"a":{"minimum":1}}}],
		"not":{"additionalProperties":true}
	}`)
	if s.Type != "object" || s.Description != "d" || s.Title != "t" || !s.Nullable {
		t.Errorf("generic fields not converted: %+v", s.Generic)
	}
	if !reflect.DeepEqual(s.Default.Object, map[string]interface{}{"a": int64(1)}) {
		t.Errorf("default: got %#v, want int64 for integers as util/json decodes them", s.Default.Object)
	}
	if !reflect.DeepEqual(s.Example.Object, []interface{}{1.5}) {
		t.Errorf("example: got %#v", s.Example.Object)
	}
	if s.ExternalDocs == nil || s.ExternalDocs.URL != "http://x" {
		t.Errorf("externalDocs: %+v", s.ExternalDocs)
	}
	if !s.XPreserveUnknownFields || s.MapType() != "atomic" {
		t.Errorf("extensions: %+v", s.Extensions)
	}
	if len(s.XValidations) != 1 || s.XValidations[0].Rule != "self.a > 0" {
		t.Errorf("validations: %+v", s.XValidations)
	}
	if len(s.ValueValidation.Enum) != 2 || s.ValueValidation.Enum[1].Object != nil {
		t.Errorf("enum: %+v", s.ValueValidation.Enum)
	}
	if *s.ValueValidation.MaxProperties != 3 || s.ValueValidation.Required[0] != "a" {
		t.Errorf("value validation: %+v", s.ValueValidation)
	}
	l := s.Properties["l"]
	if l.ListType() != "map" || l.XListMapKeys[0] != "k" || l.Items.Properties["k"].Type != "string" {
		t.Errorf("list: %+v", l)
	}
	if s.AdditionalProperties == nil || s.AdditionalProperties.Bool || s.AdditionalProperties.Structural != nil {
		t.Errorf("additionalProperties false: %+v", s.AdditionalProperties)
	}
	if len(s.ValueValidation.AnyOf) != 1 || *s.ValueValidation.AnyOf[0].Properties["a"].Minimum != 1 {
		t.Errorf("anyOf: %+v", s.ValueValidation.AnyOf)
	}
	if s.ValueValidation.Not == nil || s.ValueValidation.Not.AdditionalProperties == nil {
		t.Errorf("not with additionalProperties true must keep an empty nested validation: %+v", s.ValueValidation.Not)
	}
}

func TestValidateStructural(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		opts   *ValidationOptions
		want   []string
	}{
		{
			name:   "valid schema",
			schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
		},
		{
			name:   "empty type at the root, for fields and items",
			schema: `{"properties":{"a":{},"b":{"type":"array","items":{}}}}`,
			want: []string{
				"properties[a].type: Required value: must not be empty for specified object fields",
				"properties[b].items.type: Required value: must not be empty for specified array items",
				"type: Required value: must not be empty at the root",
			},
		},
		{
			name:   "array without items and non-object root",
			schema: `{"type":"array"}`,
			want: []string{
				`items: Required value: must be specified`,
				`type: Invalid value: "array": must be object at the root`,
			},
		},
		{
			name:   "additionalProperties at the root",
			schema: `{"type":"object","additionalProperties":{"type":"string"}}`,
			want:   []string{"additionalProperties: Forbidden: must not be used at the root"},
		},
		{
			name:   "preserve-unknown-fields and int-or-string allow an empty type",
			schema: `{"type":"object","properties":{"a":{"x-kubernetes-preserve-unknown-fields":true},"b":{"x-kubernetes-int-or-string":true}}}`,
		},
		{
			name:   "int-or-string excludes preserve-unknown-fields and embedded-resource",
			schema: `{"type":"object","properties":{"a":{"type":"object","x-kubernetes-int-or-string":true,"x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-embedded-resource":true}}}`,
			want: []string{
				"properties[a].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
				"properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
			},
		},
		{
			name:   "embedded resource must be an object with properties or preserve-unknown-fields",
			schema: `{"type":"object","properties":{"a":{"x-kubernetes-embedded-resource":true},"b":{"type":"string","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},"c":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"additionalProperties":{"type":"string"}}}}`,
			want: []string{
				"properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
				"properties[a].type: Required value: must be object if x-kubernetes-embedded-resource is true",
				`properties[b].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
				"properties[c].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set",
			},
		},
		{
			name:   "kind, apiVersion and metadata types at the root and in embedded resources",
			schema: `{"type":"object","properties":{"kind":{"type":"integer"},"apiVersion":{"type":"object"},"metadata":{"type":"string"},"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"kind":{"type":"boolean"},"metadata":{"type":"array","items":{"type":"string"}}}},"n":{"type":"object","properties":{"kind":{"type":"integer"},"metadata":{"type":"string"}}}}}`,
			want: []string{
				`properties[apiVersion].type: Invalid value: "object": must be string`,
				`properties[e].properties[kind].type: Invalid value: "boolean": must be string`,
				`properties[e].properties[metadata].type: Invalid value: "array": must be object`,
				`properties[kind].type: Invalid value: "integer": must be string`,
				`properties[metadata].type: Invalid value: "string": must be object`,
			},
		},
		{
			name:   "root metadata may restrict only name and generateName",
			schema: `{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","maxLength":10},"generateName":{"type":"string"}}}}}`,
		},
		{
			name:   "root metadata with other properties",
			schema: `{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string"},"labels":{"type":"object"}}}}}`,
			want:   []string{"properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"},
		},
		{
			name:   "root metadata with a value validation",
			schema: `{"type":"object","properties":{"metadata":{"type":"object","required":["name"]}}}`,
			want:   []string{"properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"},
		},
		{
			name:   "root metadata with a default is left to API validation",
			schema: `{"type":"object","properties":{"metadata":{"type":"object","default":{"name":"x"}}}}`,
		},
		{
			name:   "nested metadata is not restricted",
			schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}}}}`,
		},
		{
			name:   "forbidden fields in value validations",
			schema: `{"type":"object","properties":{"a":{"type":"object"}},"anyOf":[{"type":"string","title":"t","description":"d","nullable":true,"default":"x","x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-embedded-resource":true,"x-kubernetes-int-or-string":true,"x-kubernetes-list-map-keys":["k"],"x-kubernetes-list-type":"map","x-kubernetes-map-type":"atomic","x-kubernetes-validations":[{"rule":"true"}],"additionalProperties":{}}]}`,
			want: []string{
				"anyOf[0].additionalProperties: Forbidden: must be undefined to be structural",
				"anyOf[0].default: Forbidden: must be undefined to be structural",
				"anyOf[0].description: Forbidden: must be empty to be structural",
				"anyOf[0].nullable: Forbidden: must be false to be structural",
				"anyOf[0].title: Forbidden: must be empty to be structural",
				"anyOf[0].type: Forbidden: must be empty to be structural",
				"anyOf[0].x-kubernetes-embedded-resource: Forbidden: must be false to be structural",
				"anyOf[0].x-kubernetes-int-or-string: Forbidden: must be false to be structural",
				"anyOf[0].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural",
				"anyOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural",
				"anyOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural",
				"anyOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural",
				"anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural",
			},
		},
		{
			name:   "nested x-kubernetes-validations allowed only under allOf with the option",
			schema: `{"type":"object","allOf":[{"x-kubernetes-validations":[{"rule":"true"}]}],"oneOf":[{"x-kubernetes-validations":[{"rule":"true"}]}]}`,
			opts:   &ValidationOptions{AllowNestedXValidations: true},
			want:   []string{"oneOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"},
		},
		{
			name:   "metadata in a nested context",
			schema: `{"type":"object","properties":{"metadata":{"type":"object"}},"not":{"properties":{"metadata":{}}}}`,
			want:   []string{"not.properties[metadata]: Forbidden: must not be specified in a nested context"},
		},
		{
			name:   "int-or-string anyOf pattern is allowed",
			schema: `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`,
		},
		{
			name:   "int-or-string allOf pattern is allowed, only in the first allOf",
			schema: `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]},{"anyOf":[{"type":"integer"},{"type":"string"}]}]}}}`,
			want: []string{
				"properties[a].allOf[1].anyOf[0].type: Forbidden: must be empty to be structural",
				"properties[a].allOf[1].anyOf[1].type: Forbidden: must be empty to be structural",
			},
		},
		{
			name:   "int-or-string anyOf pattern with extra fields is not the pattern",
			schema: `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer","maximum":3},{"type":"string"}]}}}`,
			want: []string{
				"properties[a].anyOf[0].type: Forbidden: must be empty to be structural",
				"properties[a].anyOf[1].type: Forbidden: must be empty to be structural",
			},
		},
		{
			name:   "invalid pattern",
			schema: `{"type":"object","properties":{"a":{"type":"string","pattern":"(a"}}}`,
			want:   []string{"properties[a].pattern: Invalid value: \"(a\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(a`"},
		},
		{
			name:   "completeness: properties, items and missing structure",
			schema: `{"type":"object","properties":{"a":{"type":"string"},"l":{"type":"array","items":{"type":"string"}}},"anyOf":[{"properties":{"a":{"minLength":1},"b":{"minLength":1},"l":{"items":{"properties":{"x":{}}}}}}]}`,
			want: []string{
				"properties[b]: Required value: because it is defined in anyOf[0].properties[b]",
				"properties[l].items.properties[x]: Required value: because it is defined in anyOf[0].properties[l].items.properties[x]",
			},
		},
		{
			name:   "completeness: items missing in structure",
			schema: `{"type":"object","properties":{"a":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},"not":{"properties":{"a":{"items":{"maxLength":1}}}}}`,
			want:   []string{"properties[a].items: Required value: because it is defined in not.properties[a].items"},
		},
		{
			name:   "completeness is only checked from the root's value validations, as upstream",
			schema: `{"type":"object","properties":{"a":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"not":{"items":{"maxLength":1}}}}}`,
		},
		{
			name:   "completeness: validations of properties defined by additionalProperties need the option",
			schema: `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}},"allOf":[{"properties":{"m":{"properties":{"k":{"maxLength":3}}}}}]}`,
			want:   []string{"properties[m].properties[k]: Required value: because it is defined in allOf[0].properties[m].properties[k]"},
		},
		{
			name:   "completeness: the option allows them",
			schema: `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}},"allOf":[{"properties":{"m":{"properties":{"k":{"maxLength":3}}}}}]}`,
			opts:   &ValidationOptions{AllowValidationPropertiesWithAdditionalProperties: true},
		},
		{
			name:   "nested additionalProperties with the option are checked for completeness",
			schema: `{"type":"object","properties":{"m":{"type":"object"}},"allOf":[{"properties":{"m":{"additionalProperties":{"maxLength":3}}}}]}`,
			opts:   &ValidationOptions{AllowNestedAdditionalProperties: true},
			want:   []string{"properties[m].additionalProperties: Required value: because it is defined in allOf[0].properties[m].additionalProperties"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustStructural(t, tt.schema)
			var errs field.ErrorList
			if tt.opts != nil {
				errs = ValidateStructuralWithOptions(nil, s, *tt.opts)
			} else {
				errs = ValidateStructural(nil, s)
			}
			got := errStrings(errs)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

func TestValidateStructuralWithPathPrefix(t *testing.T) {
	s := mustStructural(t, `{"properties":{"a":{}}}`)
	got := errStrings(ValidateStructural(field.NewPath("spec", "validation", "openAPIV3Schema"), s))
	want := []string{
		"spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields",
		"spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestValidateStructuralDoesNotMutateMetadata(t *testing.T) {
	s := mustStructural(t, `{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string"}}}}}`)
	before := s.DeepCopy()
	ValidateStructural(nil, s)
	if !reflect.DeepEqual(s, before) {
		t.Errorf("schema was mutated")
	}
}

func TestUnfold(t *testing.T) {
	tests := []struct {
		name, schema string
		check        func(t *testing.T, s *Structural)
	}{
		{
			name:   "int-or-string gets the anyOf",
			schema: `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true}}}`,
			check: func(t *testing.T, s *Structural) {
				a := s.Properties["a"]
				if !reflect.DeepEqual(a.ValueValidation.AnyOf, intOrStringAnyOf) {
					t.Errorf("anyOf: %+v", a.ValueValidation.AnyOf)
				}
			},
		},
		{
			name:   "existing anyOf: pattern is prepended to allOf",
			schema: `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"maximum":3}],"allOf":[{"minimum":1}]}}}`,
			check: func(t *testing.T, s *Structural) {
				a := s.Properties["a"]
				if len(a.ValueValidation.AllOf) != 2 || !reflect.DeepEqual(a.ValueValidation.AllOf[0].AnyOf, intOrStringAnyOf) || *a.ValueValidation.AllOf[1].Minimum != 1 {
					t.Errorf("allOf: %+v", a.ValueValidation.AllOf)
				}
				if len(a.ValueValidation.AnyOf) != 1 {
					t.Errorf("anyOf changed: %+v", a.ValueValidation.AnyOf)
				}
			},
		},
		{
			name:   "already unfolded schemas stay as they are",
			schema: `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`,
			check: func(t *testing.T, s *Structural) {
				a := s.Properties["a"]
				if len(a.ValueValidation.AnyOf) != 2 || len(a.ValueValidation.AllOf) != 0 {
					t.Errorf("changed: %+v", a.ValueValidation)
				}
			},
		},
		{
			name:   "items and additionalProperties are unfolded",
			schema: `{"type":"object","properties":{"l":{"type":"array","items":{"x-kubernetes-int-or-string":true}},"m":{"type":"object","additionalProperties":{"x-kubernetes-int-or-string":true}}}}`,
			check: func(t *testing.T, s *Structural) {
				if len(s.Properties["l"].Items.ValueValidation.AnyOf) != 2 {
					t.Errorf("items not unfolded")
				}
				if len(s.Properties["m"].AdditionalProperties.Structural.ValueValidation.AnyOf) != 2 {
					t.Errorf("additionalProperties not unfolded")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustStructural(t, tt.schema)
			tt.check(t, s.Unfold())
			if errs := ValidateStructural(nil, s); len(errs) != 0 {
				t.Errorf("unfolded schema is not structural: %v", errs)
			}
		})
	}
	if (*Structural)(nil).Unfold() != nil {
		t.Errorf("nil.Unfold() must be nil")
	}
}

func TestStripCopiesAndRemoves(t *testing.T) {
	s := mustStructural(t, `{"type":"object","nullable":true,"properties":{"a":{"type":"string","nullable":true,"maxLength":3}},"required":["a"]}`)
	noVV := s.StripValueValidations()
	if noVV.ValueValidation != nil || noVV.Properties["a"].ValueValidation != nil {
		t.Errorf("value validations left")
	}
	if s.ValueValidation == nil || s.Properties["a"].ValueValidation == nil {
		t.Errorf("original was modified")
	}
	noNull := s.StripNullable()
	if noNull.Nullable || noNull.Properties["a"].Nullable {
		t.Errorf("nullable left")
	}
	if !s.Nullable || !s.Properties["a"].Nullable {
		t.Errorf("original was modified")
	}
}

func TestDeepCopyIsIndependent(t *testing.T) {
	s := mustStructural(t, `{"type":"object","default":{"a":[1]},"x-kubernetes-validations":[{"rule":"true","reason":"FieldValueInvalid"}],"properties":{"a":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string","enum":["x"]}}},"allOf":[{"properties":{"a":{"maxItems":2}}}]}`)
	c := s.DeepCopy()
	if !reflect.DeepEqual(s, c) {
		t.Fatalf("copy differs")
	}
	c.Default.Object.(map[string]interface{})["a"].([]interface{})[0] = "changed"
	*c.XValidations[0].Reason = "x"
	a := c.Properties["a"]
	*a.XListType = "map"
	a.Items.ValueValidation.Enum[0].Object = "y"
	*c.ValueValidation.AllOf[0].Properties["a"].MaxItems = 9
	if reflect.DeepEqual(s, c) {
		t.Fatalf("copy shares memory with the original")
	}
	if s.Default.Object.(map[string]interface{})["a"].([]interface{})[0] != int64(1) || *s.XValidations[0].Reason != "FieldValueInvalid" ||
		*s.Properties["a"].XListType != "set" || s.Properties["a"].Items.ValueValidation.Enum[0].Object != "x" ||
		*s.ValueValidation.AllOf[0].Properties["a"].MaxItems != 2 {
		t.Errorf("original modified through the copy")
	}
	if (*Structural)(nil).DeepCopy() != nil {
		t.Errorf("nil copy")
	}
}

func TestVisitorVisitsEveryNode(t *testing.T) {
	s := mustStructural(t, `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"array","items":{"type":"object","additionalProperties":{"type":"string"}}}},"anyOf":[{"properties":{"a":{"items":{"maxProperties":1}}}}],"not":{"required":["a"]}}`)
	var types []string
	nested := 0
	v := Visitor{
		Structural:            func(s *Structural) bool { types = append(types, s.Type); return false },
		NestedValueValidation: func(*NestedValueValidation) bool { nested++; return false },
	}
	v.Visit(s)
	if want := []string{"object", "array", "object", "string", "string"}; !reflect.DeepEqual(types, want) {
		t.Errorf("structural nodes: got %v, want %v", types, want)
	}
	if nested != 4 {
		t.Errorf("nested nodes: got %d, want 4", nested)
	}
}

func TestChild(t *testing.T) {
	s := mustStructural(t, `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer"}},"a":{"type":"string"}}}`)
	if s.Child("a").Type != "string" {
		t.Errorf("property")
	}
	if s.Child("m").Child("anything").Type != "integer" {
		t.Errorf("additionalProperties")
	}
	if s.Child("missing") != nil || (*Structural)(nil).Child("x") != nil {
		t.Errorf("missing child must be nil")
	}
	if got := s.PropertyNames(); !reflect.DeepEqual(got, []string{"a", "m"}) {
		t.Errorf("names %v", got)
	}
}

func TestUnknownFieldPathOptions(t *testing.T) {
	o := &UnknownFieldPathOptions{TrackUnknownFieldPaths: true}
	o.AppendKey("spec")
	o.AppendKey("list")
	o.AppendIndex(2)
	if got := strings.Join(o.ParentPath, ""); got != "spec.list[2]" {
		t.Errorf("got %q, want spec.list[2]", got)
	}
	o.RecordUnknownField("foo")
	if !reflect.DeepEqual(o.UnknownFieldPaths, []string{"spec.list[2].foo"}) || strings.Join(o.ParentPath, "") != "spec.list[2]" {
		t.Errorf("RecordUnknownField: paths %q, parent %q; want [spec.list[2].foo], the parent unchanged", o.UnknownFieldPaths, strings.Join(o.ParentPath, ""))
	}
	off := &UnknownFieldPathOptions{}
	off.AppendKey("a")
	off.AppendIndex(1)
	off.RecordUnknownField("b")
	if off.ParentPath != nil || off.UnknownFieldPaths != nil {
		t.Errorf("tracking off must record nothing")
	}
}

package defaulting

import (
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/internal/schema"
)

func TestDefault(t *testing.T) {
	tests := []struct {
		name   string
		obj    string
		schema string // "" is a nil schema
		want   string
	}{
		{name: "null with nil schema stays null", obj: `null`, want: `null`},
		{name: "scalar is not replaced by its default", obj: `4`, schema: `{"default":"foo"}`, want: `4`},
		{name: "scalar items are not replaced", obj: `[1,2]`, schema: `{"items":{"default":"foo"}}`, want: `[1,2]`},
		{
			name:   "missing properties of array items are defaulted",
			obj:    `[{"a":1},{"b":1},{"c":1}]`,
			schema: `{"items":{"properties":{"a":{"default":"A"},"b":{"default":"B"},"c":{"default":"C"}}}}`,
			want:   `[{"a":1,"b":"B","c":"C"},{"a":"A","b":1,"c":"C"},{"a":"A","b":"B","c":1}]`,
		},
		{
			name: "properties items and additionalProperties are followed",
			obj:  `{"array":[{"a":1},{"b":2}],"object":{"a":1},"additionalProperties":{"x":{"a":1},"y":{"b":2}}}`,
			schema: `{"properties":{
  "array":{"items":{"properties":{"a":{"default":"A"},"b":{"default":"B"}}}},
  "object":{"properties":{"a":{"default":"N"},"b":{"default":"O"}}},
  "additionalProperties":{"additionalProperties":{"properties":{"a":{"default":"alpha"},"b":{"default":"beta"}}}},
  "foo":{"default":"bar"}}}`,
			want: `{"array":[{"a":1,"b":"B"},{"a":"A","b":2}],"object":{"a":1,"b":"O"},"additionalProperties":{"x":{"a":1,"b":"beta"},"y":{"a":"alpha","b":2}},"foo":"bar"}`,
		},
		{
			name:   "only missing and null values are defaulted, not empty or zero ones",
			obj:    `[{},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":null},{"a":[]},{"a":{}}]`,
			schema: `{"items":{"properties":{"a":{"default":"A"}}}}`,
			want:   `[{"a":"A"},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":"A"},{"a":[]},{"a":{}}]`,
		},
		{name: "null item of a nullable list without item default stays", obj: `[null]`, schema: `{"nullable":true,"items":{"properties":{"a":{"default":"A"}}}}`, want: `[null]`},
		{name: "null item of a non-nullable item schema takes the item default", obj: `[null]`, schema: `{"items":{"default":"A"}}`, want: `["A"]`},
		{name: "null item without item default stays null", obj: `[null]`, schema: `{"items":{"type":"string"}}`, want: `[null]`},
		{name: "null nullable property keeps null", obj: `{"a":null}`, schema: `{"properties":{"a":{"nullable":true,"default":"A"}}}`, want: `{"a":null}`},
		{name: "null non-nullable property takes its default", obj: `{"a":null}`, schema: `{"properties":{"a":{"default":"A"}}}`, want: `{"a":"A"}`},
		{name: "null nullable additionalProperties value keeps null", obj: `{"a":null}`, schema: `{"additionalProperties":{"nullable":true,"default":"A"}}`, want: `{"a":null}`},
		{name: "null non-nullable additionalProperties value takes its default", obj: `{"a":null}`, schema: `{"additionalProperties":{"default":"A"}}`, want: `{"a":"A"}`},
		{name: "null value under additionalProperties true stays", obj: `{"a":null}`, schema: `{"additionalProperties":true}`, want: `{"a":null}`},
		{name: "null non-nullable additionalProperties value without default stays null", obj: `{"a":null}`, schema: `{"additionalProperties":{"type":"string"}}`, want: `{"a":null}`},
		{
			name:   "defaults apply inside a defaulted object",
			obj:    `{}`,
			schema: `{"properties":{"spec":{"default":{},"properties":{"replicas":{"default":1},"nested":{"default":{"x":"y"},"properties":{"z":{"default":"Z"}}}}}}}`,
			want:   `{"spec":{"replicas":1,"nested":{"x":"y","z":"Z"}}}`,
		},
		{
			name:   "a default object is completed by the defaults of its properties but not overridden",
			obj:    `{}`,
			schema: `{"properties":{"spec":{"default":{"replicas":3},"properties":{"replicas":{"default":1},"image":{"default":"nginx"}}}}}`,
			want:   `{"spec":{"replicas":3,"image":"nginx"}}`,
		},
		{
			name:   "defaults apply to list items of a defaulted list",
			obj:    `{}`,
			schema: `{"properties":{"ports":{"default":[{"name":"http"},{}],"items":{"properties":{"protocol":{"default":"TCP"}}}}}}`,
			want:   `{"ports":[{"name":"http","protocol":"TCP"},{"protocol":"TCP"}]}`,
		},
		{
			name:   "specified properties of a preserve-unknown-fields object are defaulted and unknown ones left alone",
			obj:    `{"p":{"unknown":{"a":null}}}`,
			schema: `{"properties":{"p":{"x-kubernetes-preserve-unknown-fields":true,"properties":{"known":{"default":"K"}}}}}`,
			want:   `{"p":{"unknown":{"a":null},"known":"K"}}`,
		},
		{
			name:   "embedded resource fields are defaulted like any other",
			obj:    `{"e":{"apiVersion":"v1","kind":"Pod"}}`,
			schema: `{"properties":{"e":{"x-kubernetes-embedded-resource":true,"properties":{"spec":{"default":{"a":1}},"metadata":{"properties":{"name":{"default":"n"}}}}}}}`,
			want:   `{"e":{"apiVersion":"v1","kind":"Pod","spec":{"a":1}}}`,
		},
		{
			name:   "integer defaults stay int64 and float defaults float64",
			obj:    `{}`,
			schema: `{"properties":{"i":{"default":5},"f":{"default":5.0},"g":{"default":2.5}}}`,
			want:   `{"i":5,"f":5.0,"g":2.5}`,
		},
		{
			name:   "scalar where an object is specified is not defaulted into",
			obj:    `{"spec":"x"}`,
			schema: `{"properties":{"spec":{"properties":{"a":{"default":1}}}}}`,
			want:   `{"spec":"x"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s *schema.Structural
			if tt.schema != "" {
				s = sch(t, tt.schema)
			}
			obj := decode(t, tt.obj)
			Default(obj, s)
			if want := decode(t, tt.want); !reflect.DeepEqual(obj, want) {
				t.Errorf("got\n%s\nwant\n%s", encode(t, obj), encode(t, want))
			}
		})
	}
}

func TestDefaultNeverAliasesSchemaMemory(t *testing.T) {
	s := sch(t, `{"properties":{"spec":{"default":{"list":[{"a":1}],"m":{"k":"v"}}},"l":{"items":{"default":{"x":[1]}}},"ap":{"additionalProperties":{"default":{"y":{}}}}}}`)
	orig := encode(t, s.Properties["spec"].Default.Object) + encode(t, s.Properties["l"].Items.Default.Object) + encode(t, s.Properties["ap"].AdditionalProperties.Structural.Default.Object)

	first := decode(t, `{"l":[null],"ap":{"k":null}}`).(map[string]interface{})
	second := decode(t, `{"l":[null],"ap":{"k":null}}`).(map[string]interface{})
	Default(first, s)
	Default(second, s)

	// Scribble over everything the first object got.
	spec := first["spec"].(map[string]interface{})
	spec["list"].([]interface{})[0].(map[string]interface{})["a"] = "changed"
	spec["m"].(map[string]interface{})["k"] = "changed"
	first["l"].([]interface{})[0].(map[string]interface{})["x"].([]interface{})[0] = "changed"
	first["ap"].(map[string]interface{})["k"].(map[string]interface{})["y"].(map[string]interface{})["z"] = "changed"

	now := encode(t, s.Properties["spec"].Default.Object) + encode(t, s.Properties["l"].Items.Default.Object) + encode(t, s.Properties["ap"].AdditionalProperties.Structural.Default.Object)
	if now != orig {
		t.Errorf("schema defaults changed through a defaulted object:\n%s\nwas\n%s", now, orig)
	}
	want := decode(t, `{"spec":{"list":[{"a":1}],"m":{"k":"v"}},"l":[{"x":[1]}],"ap":{"k":{"y":{}}}}`)
	if !reflect.DeepEqual(second, want) {
		t.Errorf("second object shares memory with the first:\n%s", encode(t, second))
	}
}

func TestPruneNonNullableNullsWithoutDefaults(t *testing.T) {
	tests := []struct {
		name   string
		obj    string
		schema string
		want   string
	}{
		{name: "null with nil schema", obj: `null`, want: `null`},
		{name: "scalar untouched", obj: `4`, schema: `{"default":"foo"}`, want: `4`},
		{name: "nulls in lists are kept", obj: `[1,null]`, want: `[1,null]`},
		{name: "nulls in lists with non-nullable items are kept", obj: `[1,null]`, schema: `{"items":{"type":"integer"}}`, want: `[1,null]`},
		{
			name:   "only non-nullable properties without default lose their null",
			obj:    `[{"a":null},{"b":null},{"c":null},{"d":null},{"e":null}]`,
			schema: `{"items":{"properties":{"a":{"default":"A"},"b":{"nullable":true},"c":{"default":"C","nullable":true},"d":{}}}}`,
			want:   `[{"a":null},{"b":null},{"c":null},{},{"e":null}]`,
		},
		{name: "additionalProperties nulls without default are dropped", obj: `{"m":{"x":null,"y":1}}`, schema: `{"properties":{"m":{"additionalProperties":{"type":"integer"}}}}`, want: `{"m":{"y":1}}`},
		{name: "additionalProperties true keeps nulls", obj: `{"x":null}`, schema: `{"additionalProperties":true}`, want: `{"x":null}`},
		{name: "nested in lists", obj: `{"l":[{"a":null,"b":null}]}`, schema: `{"properties":{"l":{"items":{"properties":{"a":{},"b":{"nullable":true}}}}}}`, want: `{"l":[{"b":null}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s *schema.Structural
			if tt.schema != "" {
				s = sch(t, tt.schema)
			}
			obj := decode(t, tt.obj)
			PruneNonNullableNullsWithoutDefaults(obj, s)
			if want := decode(t, tt.want); !reflect.DeepEqual(obj, want) {
				t.Errorf("got\n%s\nwant\n%s", encode(t, obj), encode(t, want))
			}
		})
	}
}

package listtype

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/schema"
)

func mustSchema(t *testing.T, js string) *schema.Structural {
	t.Helper()
	var p crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	s, err := schema.NewStructural(&p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustObject decodes JSON the way unstructured does: integers as int64.
func mustObject(t *testing.T, js string) map[string]interface{} {
	t.Helper()
	if js == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(js))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return convert(v).(map[string]interface{})
}

func convert(v interface{}) interface{} {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	case map[string]interface{}:
		for k, x := range v {
			v[k] = convert(x)
		}
	case []interface{}:
		for i, x := range v {
			v[i] = convert(x)
		}
	}
	return v
}

func render(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

const testSchema = `{"type":"object","properties":{
	"set":{"type":"array","x-kubernetes-list-type":"set","items":{"x-kubernetes-preserve-unknown-fields":true}},
	"atomic":{"type":"array","x-kubernetes-list-type":"atomic","items":{"type":"string"}},
	"map1":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},
	"map2":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k1","k2"],"items":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},
	"nested":{"type":"array","items":{"type":"object","properties":{"inner":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}},
	"byKey":{"type":"object","additionalProperties":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}}}
}}`

func TestValidateListSetsAndMaps(t *testing.T) {
	tests := []struct {
		name string
		obj  string
		want []string
	}{
		{name: "nil object"},
		{name: "unique set", obj: `{"set":["a","b",1,1.5,true,null,{"a":1},[1]]}`},
		{name: "duplicate strings reported once, at the second occurrence", obj: `{"set":["a","b","a","a","b"]}`,
			want: []string{`set[2]: Duplicate value: "a"`, `set[4]: Duplicate value: "b"`}},
		{name: "integers and floats are different scalars", obj: `{"set":[1,1.0,1.5,1.5]}`,
			want: []string{`set[3]: Duplicate value: 1.5`}},
		{name: "duplicate null and booleans", obj: `{"set":[null,true,null,true]}`,
			want: []string{`set[2]: Duplicate value: null`, `set[3]: Duplicate value: true`}},
		{name: "compound items compare by JSON", obj: `{"set":[{"a":1,"b":[2]},{"b":[2],"a":1},[1,{"x":null}],[1,{"x":null}]]}`,
			want: []string{`set[1]: Duplicate value: {"a":1,"b":[2]}`, `set[3]: Duplicate value: [1,{"x":null}]`}},
		{name: "atomic lists may repeat", obj: `{"atomic":["a","a"]}`},
		{name: "map list with one key", obj: `{"map1":[{"k":"a","v":1},{"k":"b"},{"k":"a","v":2}]}`,
			want: []string{`map1[2]: Duplicate value: {"k":"a"}`}},
		{name: "map list: missing key and null item are the same unspecified key", obj: `{"map1":[{"v":1},null,{"k":null},{"k":null}]}`,
			want: []string{`map1[1]: Duplicate value: {}`, `map1[3]: Duplicate value: {"k":null}`}},
		{name: "map list with a non-object item", obj: `{"map1":[{"k":"a"},"x",{"k":"a"}]}`,
			want: []string{`map1[1]: Invalid value: "x": must be an object for an array of list-type map`}},
		{name: "map list with two keys", obj: `{"map2":[{"k1":"a","k2":1},{"k1":"a","k2":2},{"k1":"a","k2":1,"x":3},{"k2":1},{"k2":1},null,{}]}`,
			want: []string{`map2[2]: Duplicate value: {"k1":"a","k2":1}`, `map2[4]: Duplicate value: {"k2":1}`, `map2[6]: Duplicate value: {}`}},
		{name: "lists inside list items", obj: `{"nested":[{"inner":["x","x"]},{"inner":["y","z","y"]}]}`,
			want: []string{`nested[0].inner[1]: Duplicate value: "x"`, `nested[1].inner[2]: Duplicate value: "y"`}},
		{name: "additionalProperties in sorted key order", obj: `{"byKey":{"b":[1,1],"a":[2,2]}}`,
			want: []string{`byKey[a][1]: Duplicate value: 2`, `byKey[b][1]: Duplicate value: 1`}},
		{name: "fields in sorted key order", obj: `{"set":["a","a"],"map1":[{"k":1},{"k":1}],"atomic":["x"]}`,
			want: []string{`map1[1]: Duplicate value: {"k":1}`, `set[1]: Duplicate value: "a"`}},
		{name: "unknown fields are not checked", obj: `{"other":["a","a"]}`},
	}
	s := mustSchema(t, testSchema)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(ValidateListSetsAndMaps(nil, s, mustObject(t, tt.obj)))
			// The first walk, which skips the ordered one, finds an error
			// exactly when there is one.
			if obj := mustObject(t, tt.obj); obj != nil && mapHasErrors(s, obj) != (len(tt.want) > 0) {
				t.Errorf("mapHasErrors = %v with %d errors", !(len(tt.want) > 0), len(tt.want))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

func TestDuplicateErrorsCarryTypeAndValue(t *testing.T) {
	s := mustSchema(t, testSchema)
	errs := ValidateListSetsAndMaps(field.NewPath("spec"), s, mustObject(t, `{"map1":[{"k":"a"},{"k":"a"}]}`))
	if len(errs) != 1 {
		t.Fatalf("got %v", errs)
	}
	if errs[0].Type != field.ErrorTypeDuplicate || errs[0].Field != "spec.map1[1]" ||
		!reflect.DeepEqual(errs[0].BadValue, map[string]interface{}{"k": "a"}) {
		t.Errorf("got %#v", errs[0])
	}
}

func TestValidateListSetsAndMapsNilSchema(t *testing.T) {
	if errs := ValidateListSetsAndMaps(nil, nil, map[string]interface{}{"a": []interface{}{1, 1}}); errs != nil {
		t.Errorf("got %v", errs)
	}
}

func TestValidateListSetsAndMapsUpdateRatchets(t *testing.T) {
	s := mustSchema(t, testSchema)
	tests := []struct {
		name, obj, old string
		want           []string
	}{
		{name: "valid old: new duplicates are reported", obj: `{"set":["a","a"]}`, old: `{"set":["a"]}`,
			want: []string{`set[1]: Duplicate value: "a"`}},
		{name: "invalid old: new duplicates are tolerated", obj: `{"set":["a","a"],"map1":[{"k":1},{"k":1}]}`, old: `{"set":["b","b"]}`},
		{name: "valid new, invalid old", obj: `{"set":["a"]}`, old: `{"set":["b","b"]}`},
		{name: "valid new, valid old", obj: `{"set":["a"]}`, old: `{"set":["b"]}`},
		{name: "no old object", obj: `{"set":["a","a"]}`,
			want: []string{`set[1]: Duplicate value: "a"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(ValidateListSetsAndMapsUpdate(nil, s, mustObject(t, tt.obj), mustObject(t, tt.old)))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

package unstructured

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDeepCopyIsEqualAndSharesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   interface{}
	}{
		{"nil", nil},
		{"string", "a"},
		{"bool", true},
		{"int64", int64(7)},
		{"float64", 1.5},
		{"json.Number", json.Number("12345678901234567890")},
		{"empty object", map[string]interface{}{}},
		{"empty list", []interface{}{}},
		{"nested", map[string]interface{}{
			"a": []interface{}{map[string]interface{}{"b": int64(1)}, []interface{}{"c", nil}},
			"d": map[string]interface{}{"e": map[string]interface{}{"f": 2.5}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := DeepCopy(tc.in)
			if !reflect.DeepEqual(got, tc.in) {
				t.Fatalf("DeepCopy(%v) = %v", tc.in, got)
			}
			// Writing into every map and list of the copy leaves the input as it was.
			want := DeepCopy(tc.in)
			scribble(got)
			if !reflect.DeepEqual(tc.in, want) {
				t.Errorf("writing into the copy changed the input: %v, want %v", tc.in, want)
			}
		})
	}
}

// scribble changes every map and list of v in place.
func scribble(v interface{}) {
	switch t := v.(type) {
	case map[string]interface{}:
		for _, x := range t {
			scribble(x)
		}
		t["scribbled"] = true
	case []interface{}:
		for i, x := range t {
			scribble(x)
			t[i] = "scribbled"
		}
	}
}

func TestDeepCopyOfNilMapOrListIsEmpty(t *testing.T) {
	if m, ok := DeepCopy(map[string]interface{}(nil)).(map[string]interface{}); !ok || m == nil {
		t.Errorf("DeepCopy(nil map) = %#v, want an empty map", m)
	}
	if l, ok := DeepCopy([]interface{}(nil)).([]interface{}); !ok || l == nil {
		t.Errorf("DeepCopy(nil list) = %#v, want an empty list", l)
	}
}

func TestDeepCopyObject(t *testing.T) {
	if got := DeepCopyObject(nil); got != nil {
		t.Errorf("DeepCopyObject(nil) = %#v, want nil", got)
	}
	in := map[string]interface{}{"spec": map[string]interface{}{"x": int64(1)}}
	got := DeepCopyObject(in)
	got["spec"].(map[string]interface{})["x"] = int64(2)
	if in["spec"].(map[string]interface{})["x"] != int64(1) {
		t.Error("DeepCopyObject's copy shares a map with its input")
	}
}

func TestEqualAndSemanticEqual(t *testing.T) {
	obj := func() interface{} {
		return map[string]interface{}{"a": []interface{}{int64(1), 2.5, "s", true, nil}, "b": map[string]interface{}{}}
	}
	for _, tc := range []struct {
		name            string
		a, b            interface{}
		equal, semantic bool
	}{
		{"same tree", obj(), obj(), true, true},
		{"nil and nil", nil, nil, true, true},
		{"int64 and float64 of the same number", int64(1), float64(1), false, false},
		{"different strings", "a", "b", false, false},
		{"nil and empty map", map[string]interface{}(nil), map[string]interface{}{}, false, true},
		{"nil and empty list", []interface{}(nil), []interface{}{}, false, true},
		{"nil map inside", map[string]interface{}{"a": map[string]interface{}(nil)}, map[string]interface{}{"a": map[string]interface{}{}}, false, true},
		{"missing key", map[string]interface{}{"a": nil}, map[string]interface{}{"b": nil}, false, false},
		{"list order", []interface{}{"a", "b"}, []interface{}{"b", "a"}, false, false},
		{"map and list", map[string]interface{}{}, []interface{}{}, false, false},
		{"json.Number", json.Number("1"), json.Number("1"), true, true},
		{"Go ints", 1, 1, true, true},
		{"nil map and nil", map[string]interface{}(nil), nil, false, false},
		{"lists of other lengths", []interface{}{"x"}, []interface{}{"x", "y"}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Equal(tc.a, tc.b); got != tc.equal {
				t.Errorf("Equal = %v, want %v", got, tc.equal)
			}
			if got := Equal(tc.a, tc.b); got != reflect.DeepEqual(tc.a, tc.b) {
				t.Errorf("Equal = %v, reflect.DeepEqual = %v", got, !got)
			}
			if got := SemanticEqual(tc.a, tc.b); got != tc.semantic {
				t.Errorf("SemanticEqual = %v, want %v", got, tc.semantic)
			}
		})
	}
}

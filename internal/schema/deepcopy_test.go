package schema

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDeepCopyJSONValue(t *testing.T) {
	tests := []struct {
		name string
		in   interface{}
		want interface{}
	}{
		{name: "nil", in: nil, want: nil},
		{name: "int64 kept", in: int64(3), want: int64(3)},
		{name: "float64 kept", in: 3.5, want: 3.5},
		{name: "integral float64 kept", in: 5.0, want: 5.0},
		{name: "Go int becomes int64", in: 7, want: int64(7)},
		{name: "Go int32 becomes int64", in: int32(7), want: int64(7)},
		{name: "integral json.Number becomes int64", in: json.Number("12"), want: int64(12)},
		{name: "other json.Number becomes float64", in: json.Number("1.5"), want: 1.5},
		{name: "json.Number beyond int64 becomes float64", in: json.Number("9223372036854775808"), want: 9223372036854775808.0},
		{name: "typed nil map stays a typed nil map", in: map[string]interface{}(nil), want: map[string]interface{}(nil)},
		{name: "typed nil slice stays a typed nil slice", in: []interface{}(nil), want: []interface{}(nil)},
		{name: "unknown type returned as is instead of panicking", in: struct{ A int }{1}, want: struct{ A int }{1}},
		{name: "nested", in: map[string]interface{}{"a": []interface{}{1, "x", nil}}, want: map[string]interface{}{"a": []interface{}{int64(1), "x", nil}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DeepCopyJSONValue(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestDeepCopyJSONValueSharesNoMemory(t *testing.T) {
	in := map[string]interface{}{"a": []interface{}{map[string]interface{}{"b": int64(1)}}}
	out := DeepCopyJSONValue(in).(map[string]interface{})
	out["a"].([]interface{})[0].(map[string]interface{})["b"] = int64(2)
	out["c"] = true
	want := map[string]interface{}{"a": []interface{}{map[string]interface{}{"b": int64(1)}}}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("the copy shares memory with the original: %#v", in)
	}
}

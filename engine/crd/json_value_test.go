package crd

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// decodedJSONValue is what Value does without the literal shortcut.
func decodedJSONValue(raw []byte) (interface{}, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return convertNumbers(v)
}

var plainJSONInputs = []struct {
	name  string
	raw   string
	plain bool
}{
	{"string", `"Exact"`, true},
	{"empty string", `""`, true},
	{"string with multi-byte characters", `"héllo ✓"`, true},
	{"escaped string is decoded", `"a\"b"`, false},
	{"unicode escape is decoded", `"\u003cx\u003e"`, false},
	{"invalid UTF-8 is decoded", "\"a\xffb\"", false},
	{"control character is decoded", "\"a\tb\"", false},
	{"unterminated string is decoded", `"abc`, false},
	{"two strings are decoded", `"a" "b"`, false},
	{"true", `true`, true},
	{"false", `false`, true},
	{"truex is decoded", `truex`, false},
	{"integer", `42`, true},
	{"negative integer", `-7`, true},
	{"zero", `0`, true},
	{"negative zero", `-0`, true},
	{"leading zero is decoded", `012`, false},
	{"float is decoded", `1.5`, false},
	{"exponent is decoded", `1e3`, false},
	{"19 digits are decoded", `9223372036854775807`, false},
	{"lone minus is decoded", `-`, false},
	{"object is decoded", `{"a":1}`, false},
	{"array is decoded", `["a"]`, false},
	{"leading space is decoded", ` "a"`, false},
}

func TestPlainJSONValueMatchesTheDecoder(t *testing.T) {
	for _, tc := range plainJSONInputs {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := plainJSONValue([]byte(tc.raw))
			if ok != tc.plain {
				t.Fatalf("shortcut taken = %v, want %v", ok, tc.plain)
			}
			if !ok {
				return
			}
			want, err := decodedJSONValue([]byte(tc.raw))
			if err != nil {
				t.Fatalf("the decoder fails where the shortcut succeeds: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("shortcut %#v, decoder %#v", got, want)
			}
		})
	}
}

func FuzzPlainJSONValue(f *testing.F) {
	for _, tc := range plainJSONInputs {
		f.Add([]byte(tc.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) == 0 {
			return
		}
		got, ok := plainJSONValue(raw)
		if !ok {
			return
		}
		want, err := decodedJSONValue(raw)
		if err != nil {
			t.Fatalf("the decoder fails on %q where the shortcut succeeds: %v", raw, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: shortcut %#v, decoder %#v", raw, got, want)
		}
	})
}

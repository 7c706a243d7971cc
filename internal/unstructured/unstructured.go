// Package unstructured is the one home of the helpers over decoded JSON
// values (map[string]interface{} trees): it reads and writes nested fields
// as k8s.io/apimachinery's unstructured Nested* helpers do, including their
// error messages, converts decoded numbers as upstream's JSON decoding does
// (ConvertNumbers), and copies and compares values (DeepCopy,
// DeepCopyObject, Equal, SemanticEqual). Sorted map keys are
// internal/keys.Sorted and membership in a list is slices.Contains: no
// package keeps a private copy of these.
package unstructured

import (
	"encoding/json"
	"fmt"
	"strings"
)

func jsonPath(fields []string) string { return "." + strings.Join(fields, ".") }

// NestedFieldNoCopy mirrors unstructured.NestedFieldNoCopy: the value at
// fields, whether it was found, and an error when a value on the way is
// not an object.
func NestedFieldNoCopy(obj map[string]interface{}, fields ...string) (interface{}, bool, error) {
	var val interface{} = obj
	for i, f := range fields {
		if val == nil {
			return nil, false, nil
		}
		m, ok := val.(map[string]interface{})
		if !ok {
			return nil, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected map[string]interface{}", jsonPath(fields[:i+1]), val, val)
		}
		if val, ok = m[f]; !ok {
			return nil, false, nil
		}
	}
	return val, true, nil
}

// NestedString mirrors unstructured.NestedString.
func NestedString(obj map[string]interface{}, fields ...string) (string, bool, error) {
	val, found, err := NestedFieldNoCopy(obj, fields...)
	if !found || err != nil {
		return "", found, err
	}
	s, ok := val.(string)
	if !ok {
		return "", false, fmt.Errorf("%v accessor error: %v is of the type %T, expected string", jsonPath(fields), val, val)
	}
	return s, true, nil
}

// NestedInt64 mirrors unstructured.NestedInt64.
func NestedInt64(obj map[string]interface{}, fields ...string) (int64, bool, error) {
	val, found, err := NestedFieldNoCopy(obj, fields...)
	if !found || err != nil {
		return 0, found, err
	}
	i, ok := val.(int64)
	if !ok {
		return 0, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected int64", jsonPath(fields), val, val)
	}
	return i, true, nil
}

// SetNestedField mirrors unstructured.SetNestedField without its deep copy:
// intermediate maps are created (and non-map values replaced), and value is
// stored as is.
func SetNestedField(obj map[string]interface{}, value interface{}, fields ...string) {
	m := obj
	for _, f := range fields[:len(fields)-1] {
		if next, ok := m[f].(map[string]interface{}); ok {
			m = next
			continue
		}
		next := map[string]interface{}{}
		m[f] = next
		m = next
	}
	m[fields[len(fields)-1]] = value
}

// RemoveNestedField mirrors unstructured.RemoveNestedField.
func RemoveNestedField(obj map[string]interface{}, fields ...string) {
	m := obj
	for _, f := range fields[:len(fields)-1] {
		next, ok := m[f].(map[string]interface{})
		if !ok {
			return
		}
		m = next
	}
	delete(m, fields[len(fields)-1])
}

// SetGeneration mirrors Unstructured.SetGeneration: 0 removes
// metadata.generation.
func SetGeneration(obj map[string]interface{}, g int64) {
	if g == 0 {
		RemoveNestedField(obj, "metadata", "generation")
		return
	}
	SetNestedField(obj, g, "metadata", "generation")
}

// ConvertNumbers replaces, in place, every json.Number of a value decoded
// with json.Decoder.UseNumber by an int64 when it is an integer that fits,
// else by a float64: the numbers of upstream's unstructured JSON decoding
// (k8s.io/apimachinery/pkg/util/json's convertMapNumbers and
// convertSliceNumbers). It returns the converted value.
func ConvertNumbers(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			t[k] = ConvertNumbers(x)
		}
	case []interface{}:
		for i, x := range t {
			t[i] = ConvertNumbers(x)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

package unstructured

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestNestedAccessorsReportUpstreamsErrors(t *testing.T) {
	obj := map[string]interface{}{"spec": map[string]interface{}{"replicas": "3", "list": []interface{}{}}, "status": nil}
	if _, _, err := NestedInt64(obj, "spec", "replicas"); err == nil || err.Error() != ".spec.replicas accessor error: 3 is of the type string, expected int64" {
		t.Errorf("NestedInt64: %v", err)
	}
	if _, _, err := NestedString(obj, "spec", "list", "x"); err == nil || err.Error() != ".spec.list.x accessor error: [] is of the type []interface {}, expected map[string]interface{}" {
		t.Errorf("NestedString through a list: %v", err)
	}
	if v, found, err := NestedFieldNoCopy(obj, "status", "replicas"); v != nil || found || err != nil {
		t.Errorf("through null: %v %v %v", v, found, err)
	}
	if s, found, err := NestedString(obj, "metadata", "name"); s != "" || found || err != nil {
		t.Errorf("missing: %q %v %v", s, found, err)
	}
}

func TestSetAndRemoveNestedField(t *testing.T) {
	obj := map[string]interface{}{"metadata": "not an object"}
	SetNestedField(obj, int64(1), "metadata", "generation")
	RemoveNestedField(obj, "spec", "x") // missing parent: nothing to do
	want := map[string]interface{}{"metadata": map[string]interface{}{"generation": int64(1)}}
	if !reflect.DeepEqual(obj, want) {
		t.Fatalf("got %#v", obj)
	}
	RemoveNestedField(obj, "metadata", "generation")
	if !reflect.DeepEqual(obj, map[string]interface{}{"metadata": map[string]interface{}{}}) {
		t.Fatalf("got %#v", obj)
	}
}

func TestSetGenerationZeroRemoves(t *testing.T) {
	obj := map[string]interface{}{}
	SetGeneration(obj, 2)
	if g, _, _ := NestedInt64(obj, "metadata", "generation"); g != 2 {
		t.Fatalf("got %#v", obj)
	}
	SetGeneration(obj, 0)
	if _, found, _ := NestedFieldNoCopy(obj, "metadata", "generation"); found {
		t.Fatalf("got %#v", obj)
	}
}

func TestConvertNumbersAsUnstructuredJSON(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"i": 3, "big": 9223372036854775808, "f": 1.5, "e": 1e3, "l": [1, {"n": -2}], "s": "4"}`))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	got := ConvertNumbers(v)
	want := map[string]interface{}{
		"i": int64(3), "big": float64(9223372036854775808), "f": 1.5, "e": float64(1000),
		"l": []interface{}{int64(1), map[string]interface{}{"n": int64(-2)}}, "s": "4",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ConvertNumbers = %#v, want %#v", got, want)
	}
}

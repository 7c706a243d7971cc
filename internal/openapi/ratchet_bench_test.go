package openapi

import (
	"strconv"
	"testing"

	"github.com/crdlab/crdlab/internal/unstructured"
)

// ratchetBenchInputs is a map list of 100 items and a map of 100 entries
// whose every value is invalid, so ValidateUpdate compares (and ratchets)
// each of them.
func ratchetBenchInputs(b *testing.B) (*Validator, map[string]interface{}) {
	v := mustValidator(b, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
			"items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"integer","maximum":-1},
				"tags":{"type":"array","items":{"type":"string"}}}}},
		"m":{"type":"object","additionalProperties":{"type":"string","maxLength":1}}}}}}`)
	items := make([]interface{}, 100)
	m := make(map[string]interface{}, 100)
	for i := range items {
		items[i] = map[string]interface{}{"k": "key" + strconv.Itoa(i), "v": int64(i), "tags": []interface{}{"a", "b"}}
		m["key"+strconv.Itoa(i)] = "value"
	}
	return v, map[string]interface{}{"spec": map[string]interface{}{"l": items, "m": m}}
}

func BenchmarkValidateUpdateRatchetUnchanged(b *testing.B) {
	v, obj := ratchetBenchInputs(b)
	old := unstructured.DeepCopy(obj)
	if errs := v.ValidateUpdate(nil, obj, old); len(errs) != 0 {
		b.Fatalf("unexpected errors: %v", render(errs))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		v.ValidateUpdate(nil, obj, old)
	}
}

func BenchmarkValidateUpdateRatchetOneChanged(b *testing.B) {
	v, obj := ratchetBenchInputs(b)
	old := unstructured.DeepCopy(obj).(map[string]interface{})
	spec := old["spec"].(map[string]interface{})
	spec["l"].([]interface{})[50].(map[string]interface{})["v"] = int64(1000)
	spec["m"].(map[string]interface{})["key50"] = "other"
	if errs := v.ValidateUpdate(nil, obj, old); len(errs) != 2 {
		b.Fatalf("want 2 errors, got %v", render(errs))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		v.ValidateUpdate(nil, obj, old)
	}
}

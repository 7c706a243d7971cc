package cel

import (
	"testing"

	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

// ratchetBenchInputs is a map list of 100 items and a map of 100 entries
// whose every value breaks a rule, so ratcheting compares each of them with
// its old value.
func ratchetBenchInputs(b *testing.B) (*Validator, *schema.Structural, map[string]interface{}, map[string]interface{}) {
	s := mustSchema(b, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"l":{"type":"array","maxItems":100,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
			"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string","maxLength":16},"v":{"type":"integer"},
				"tags":{"type":"array","maxItems":4,"items":{"type":"string","maxLength":8}}},
				"x-kubernetes-validations":[{"rule":"self.v < 0"}]}},
		"m":{"type":"object","maxProperties":100,"additionalProperties":{"type":"string","maxLength":8,
			"x-kubernetes-validations":[{"rule":"self.size() < 2"}]}}}}}}`)
	v := NewValidator(s, true, limits.PerCallLimit)
	mk := func() map[string]interface{} {
		items := make([]interface{}, 100)
		m := make(map[string]interface{}, 100)
		for i := range items {
			items[i] = map[string]interface{}{"k": "key" + itoaInt(i), "v": int64(i), "tags": []interface{}{"a", "b"}}
			m["key"+itoaInt(i)] = "value"
		}
		return map[string]interface{}{"spec": map[string]interface{}{"l": items, "m": m}}
	}
	return v, s, mk(), mk()
}

func BenchmarkValidateRatchetUnchanged(b *testing.B) {
	v, s, obj, old := ratchetBenchInputs(b)
	if errs, _, _ := v.Validate(nil, obj, old, limits.RuntimeCELCostBudget, WithRatcheting(NewCorrelatedObject(obj, old, s))); len(errs) != 0 {
		b.Fatalf("unexpected errors: %v", errs)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Validate(nil, obj, old, limits.RuntimeCELCostBudget, WithRatcheting(NewCorrelatedObject(obj, old, s)))
	}
}

func BenchmarkValidateRatchetOneChanged(b *testing.B) {
	v, s, obj, old := ratchetBenchInputs(b)
	spec := old["spec"].(map[string]interface{})
	spec["l"].([]interface{})[50].(map[string]interface{})["v"] = int64(1000)
	spec["m"].(map[string]interface{})["key50"] = "other"
	if errs, _, _ := v.Validate(nil, obj, old, limits.RuntimeCELCostBudget, WithRatcheting(NewCorrelatedObject(obj, old, s))); len(errs) != 2 {
		b.Fatalf("want 2 errors, got %v", errs)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Validate(nil, obj, old, limits.RuntimeCELCostBudget, WithRatcheting(NewCorrelatedObject(obj, old, s)))
	}
}

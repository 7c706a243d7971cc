package objectmeta

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestFastObjectMetaMatchesJSONRoundTrip pins the shortcut to what the JSON
// round trip it skips decodes, and checks that it declines what it cannot
// reproduce.
func TestFastObjectMetaMatchesJSONRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name     string
		meta     map[string]interface{}
		shortcut bool
	}{
		{"strings", map[string]interface{}{"name": "a", "generateName": "b-", "namespace": "ns", "selfLink": "/x", "uid": "u", "resourceVersion": "7"}, true},
		{"html characters", map[string]interface{}{"name": "<a&b>"}, true},
		{"generation and grace period", map[string]interface{}{"generation": int64(3), "deletionGracePeriodSeconds": int64(30)}, true},
		{"maps and lists", map[string]interface{}{"labels": map[string]interface{}{"a": "b"}, "annotations": map[string]interface{}{}, "finalizers": []interface{}{"f", "g"}}, true},
		{"empty list", map[string]interface{}{"finalizers": []interface{}{}}, true},
		{"nulls", map[string]interface{}{"creationTimestamp": nil, "labels": nil, "name": nil, "finalizers": nil, "generation": nil}, true},
		{"empty", map[string]interface{}{}, true},
		{"timestamp declines", map[string]interface{}{"creationTimestamp": "2020-01-01T00:00:00Z"}, false},
		{"owner references decline", map[string]interface{}{"ownerReferences": []interface{}{map[string]interface{}{"name": "x"}}}, false},
		{"float generation declines", map[string]interface{}{"generation": 1.5}, false},
		{"number as name declines", map[string]interface{}{"name": int64(1)}, false},
		{"label of another type declines", map[string]interface{}{"labels": map[string]interface{}{"a": int64(1)}}, false},
		{"invalid UTF-8 declines", map[string]interface{}{"name": "a\xffb"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := fastObjectMeta(tc.meta)
			if ok != tc.shortcut {
				t.Fatalf("shortcut taken = %v, want %v", ok, tc.shortcut)
			}
			if !ok {
				return
			}
			data, err := json.Marshal(tc.meta)
			if err != nil {
				t.Fatal(err)
			}
			want := &ObjectMeta{}
			if err := json.Unmarshal(data, want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("shortcut gives %+v, round trip %+v", got, want)
			}
		})
	}
}

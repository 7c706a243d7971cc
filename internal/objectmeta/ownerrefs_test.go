package objectmeta

import (
	"reflect"
	"testing"
)

func TestDedupOwnerReferences(t *testing.T) {
	ref := func(name, uid string, controller interface{}) map[string]interface{} {
		m := map[string]interface{}{"apiVersion": "v1", "kind": "Pod", "name": name, "uid": uid}
		if controller != nil {
			m["controller"] = controller
		}
		return m
	}
	obj := map[string]interface{}{"metadata": map[string]interface{}{"ownerReferences": []interface{}{
		ref("p", "u1", nil), ref("p", "u1", nil), ref("q", "u1", nil), ref("p", "u1", true), ref("p", "u1", nil),
	}}}
	got := DedupOwnerReferences(obj)
	want := []string{".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: u1, u1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("warnings %q", got)
	}
	kept := obj["metadata"].(map[string]interface{})["ownerReferences"]
	if !reflect.DeepEqual(kept, []interface{}{ref("p", "u1", nil), ref("q", "u1", nil), ref("p", "u1", true)}) {
		t.Fatalf("kept %#v", kept)
	}

	for _, obj := range []map[string]interface{}{
		{},
		{"metadata": "x"},
		{"metadata": map[string]interface{}{"ownerReferences": "x"}},
		{"metadata": map[string]interface{}{"ownerReferences": []interface{}{ref("p", "u", nil), "x", ref("p", "u", nil)}}},
	} {
		before := len(obj)
		if w := DedupOwnerReferences(obj); w != nil || len(obj) != before {
			t.Errorf("%v: warnings %q", obj, w)
		}
	}
}

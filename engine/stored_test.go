package engine

import (
	"reflect"
	"strings"
	"testing"
)

func TestReadStoredMisuse(t *testing.T) {
	invalid, err := Compile([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec: {group: example.com, scope: Namespaced, names: {plural: widgets, kind: Widget}, versions: []}
`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := invalid.ReadStored([]byte(`{}`), ""); err == nil || !strings.Contains(err.Error(), "is invalid") {
		t.Errorf("invalid CRD: %v", err)
	}
	c, err := Compile([]byte(storedTestCRD))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReadStored([]byte(`{}`), "v9"); err == nil || !strings.Contains(err.Error(), `"v9"`) {
		t.Errorf("unknown version: %v", err)
	}
	for _, bad := range []string{"a: [", "[1]", `{"apiVersion":"example.com/v1"}`, `{"apiVersion":"a/b/c","kind":"Widget"}`} {
		r, err := c.ReadStored([]byte(bad), "")
		if err != nil || r.Error == "" || r.Object != nil {
			t.Errorf("%q: %+v, %v: want a read error", bad, r, err)
		}
	}
}

const storedTestCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`

func TestChangedPaths(t *testing.T) {
	before := map[string]interface{}{"a": int64(1), "l": []interface{}{map[string]interface{}{}}, "m": map[string]interface{}{"x": "y"}}
	after := map[string]interface{}{"a": int64(2), "b": true, "l": []interface{}{map[string]interface{}{"d": "D"}}, "m": map[string]interface{}{"x": "y"}, "n": map[string]interface{}{}}
	got := changedPaths(before, after, "")
	want := []string{"a", "b", "l[0].d", "n"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

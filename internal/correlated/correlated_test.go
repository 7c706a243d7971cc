package correlated

import (
	"encoding/json"
	"testing"
)

// ts is a minimal schema view for the tests.
type ts struct {
	typ, listType string
	keys          []string
	props         map[string]*ts
	addl          *ts
	items         *ts
}

func (s *ts) PropertySchema(name string) (*ts, bool) {
	if p, ok := s.props[name]; ok {
		return p, true
	}
	if s.addl != nil {
		return s.addl, true
	}
	return nil, false
}
func (s *ts) ItemSchema() *ts       { return s.items }
func (s *ts) SchemaType() string    { return s.typ }
func (s *ts) ListType() string      { return s.listType }
func (s *ts) ListMapKeys() []string { return s.keys }

func obj(t *testing.T, js string) interface{} {
	t.Helper()
	var v interface{}
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

var (
	str     = &ts{typ: "string"}
	item    = &ts{typ: "object", props: map[string]*ts{"k": str, "v": str}}
	mapList = &ts{typ: "array", listType: "map", keys: []string{"k"}, items: item}
	root    = &ts{typ: "object", props: map[string]*ts{
		"ml":     mapList,
		"set":    {typ: "array", listType: "set", items: str},
		"atomic": {typ: "array", items: str},
		"noitem": {typ: "array", listType: "map", keys: []string{"k"}},
		"notarr": {typ: "object", listType: "map", keys: []string{"k"}, items: item},
		"labels": {typ: "object", addl: str},
		"closed": {typ: "object", props: map[string]*ts{"a": str}},
	}}
)

func TestKey(t *testing.T) {
	o := New(obj(t, `{"labels":{"a":"1","b":"2"},"closed":{"a":"x","z":"y"},"ml":[],"newonly":1}`),
		obj(t, `{"labels":{"a":"1"},"closed":{"a":"x","z":"y"},"ml":"x"}`), root)
	l := o.Key("labels")
	if l == nil || l.Schema != root.props["labels"] {
		t.Fatalf("labels: %+v", l)
	}
	if o.Key("labels") != l {
		t.Error("Key is not memoized")
	}
	if a := l.Key("a"); a == nil || a.Schema != str || a.Value != "1" || a.OldValue != "1" {
		t.Errorf("additionalProperties entry: %+v", a)
	}
	if l.Key("b") != nil {
		t.Error("entry missing from the old value correlated")
	}
	c := o.Key("closed")
	if c.Key("a") == nil || c.Key("z") != nil {
		t.Error("closed object: want a correlated, z (no schema) not")
	}
	if ml := o.Key("ml"); ml == nil || ml.Key("x") != nil {
		t.Error("non-object values correlated by key")
	}
	if o.Key("newonly") != nil || o.Key("absent") != nil {
		t.Error("property missing from a side correlated")
	}
	var nilObj *Object[*ts]
	if nilObj.Key("a") != nil || New(obj(t, `{"a":1}`), obj(t, `{"a":1}`), (*ts)(nil)).Key("a") != nil {
		t.Error("nil object or schema correlated")
	}
}

func TestIndex(t *testing.T) {
	o := New(obj(t, `{"ml":[{"k":"b","v":"2"},{"k":"a","v":"1"},{"k":"c"},{"v":"nokey"},"scalar"],
		"set":["a"],"atomic":["a"],"noitem":[{"k":"a"}],"notarr":[{"k":"a"}]}`),
		obj(t, `{"ml":[{"k":"a","v":"first"},{"k":"a","v":"second"},{"k":"b","v":"2"},{"v":"nokey"}],
		"set":["a"],"atomic":["a"],"noitem":[{"k":"a"}],"notarr":[{"k":"a"}]}`), root)
	ml := o.Key("ml")
	if c := ml.Index(0); c == nil || c.OldValue.(map[string]interface{})["v"] != "2" || c.Schema != item {
		t.Errorf("index 0: %+v", c)
	}
	if c := ml.Index(1); c == nil || c.OldValue.(map[string]interface{})["v"] != "first" {
		t.Errorf("index 1 must correlate with the first old item of its key: %+v", c)
	}
	if ml.Index(1) != ml.Index(1) {
		t.Error("Index is not memoized")
	}
	for _, i := range []int{2, 3, 4, 5, 99} {
		if c := ml.Index(i); c != nil {
			t.Errorf("index %d correlated: %+v", i, c)
		}
	}
	for _, k := range []string{"set", "atomic", "noitem", "notarr"} {
		if c := o.Key(k).Index(0); c != nil {
			t.Errorf("%s: item correlated: %+v", k, c)
		}
	}
}

func TestCachedDeepEqual(t *testing.T) {
	for _, tc := range []struct {
		key, new, old string
		want          bool
	}{
		{"ml", `[{"k":"a","v":"1"},{"k":"b"}]`, `[{"k":"b"},{"k":"a","v":"1"}]`, true}, // reordered map list
		{"ml", `[{"k":"a","v":"1"},{"k":"b"}]`, `[{"k":"b"},{"k":"a","v":"2"}]`, false},
		{"ml", `[{"k":"a"},{"k":"a"}]`, `[{"k":"a"},{"k":"b"}]`, true}, // both correlate with the first "a"
		{"ml", `[{"v":"nokey"}]`, `[{"v":"nokey"}]`, false},            // a map list item without key never equals
		{"ml", `[]`, `[]`, true},
		{"ml", `[{"k":"a"}]`, `[]`, false},
		{"set", `["a","b"]`, `["b","a"]`, false}, // other lists compare by position
		{"set", `["a","b"]`, `["a","b"]`, true},
		{"atomic", `["a"]`, `["a"]`, true},
		{"noitem", `[{"k":"a"}]`, `[{"k":"a"}]`, false}, // map list without items schema
		{"labels", `{"a":"1","b":"2"}`, `{"b":"2","a":"1"}`, true},
		{"labels", `{"a":"1"}`, `{"b":"1"}`, false},
		{"closed", `{"z":"1"}`, `{"z":"1"}`, false}, // a property without schema never equals
		{"closed", `{"a":null}`, `{"a":null}`, true},
		{"closed", `{"a":null}`, `{"a":"x"}`, false},
		{"closed", `{"a":1}`, `{"a":1.0}`, true},
		{"closed", `{"a":[]}`, `{"a":{}}`, false},
		{"closed", `{"a":"x"}`, `{}`, false},
	} {
		o := New(obj(t, `{"`+tc.key+`":`+tc.new+`}`), obj(t, `{"`+tc.key+`":`+tc.old+`}`), root)
		if got := o.Key(tc.key).CachedDeepEqual(); got != tc.want {
			t.Errorf("%s: %s vs %s: got %v", tc.key, tc.new, tc.old, got)
		}
		if got := o.CachedDeepEqual(); got != tc.want {
			t.Errorf("root %s: %s vs %s: got %v", tc.key, tc.new, tc.old, got)
		}
	}
	var nilObj *Object[*ts]
	if nilObj.CachedDeepEqual() {
		t.Error("nil object equal")
	}
	if !New(nil, nil, root).CachedDeepEqual() || New(obj(t, `{}`), nil, root).CachedDeepEqual() {
		t.Error("nil values")
	}
	if New(obj(t, `{"x":[1]}`), obj(t, `{"x":[1]}`), (*ts)(nil)).CachedDeepEqual() {
		t.Error("no schema: an object with entries never equals")
	}
	// memoized: a later change to the values is not seen
	n := obj(t, `{"labels":{"a":"1"}}`)
	o := New(n, obj(t, `{"labels":{"a":"1"}}`), root)
	if !o.CachedDeepEqual() {
		t.Fatal("want equal")
	}
	n.(map[string]interface{})["labels"].(map[string]interface{})["a"] = "2"
	if !o.CachedDeepEqual() || !o.Key("labels").CachedDeepEqual() {
		t.Error("result not memoized")
	}
}

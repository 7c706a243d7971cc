package engine

import (
	"reflect"
	"testing"
)

// TestJSONBodyShortcutMatchesYAMLToJSON pins the YAML shortcut of
// toJSONBody to the path it skips: toJSON (kubectl's YAMLToJSON), then
// interpret and jsonstrict.Decode on that text.
func TestJSONBodyShortcutMatchesYAMLToJSON(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		shortcut  bool
	}{
		{"plain object", "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {replicas: 3, image: x}\n", true},
		{"floats and integers", "apiVersion: a/v1\nkind: K\nspec: {a: 1.0, b: 1.5, c: 1e21, e: 9223372036854775807, f: 1e3, g: 0.000001, h: 1e-7}\n", true},
		{"negative zero falls back", "apiVersion: a/v1\nkind: K\nspec: {d: -0.0}\n", false},
		{"YAML 1.1 scalars", "apiVersion: a/v1\nkind: K\nspec: {a: yes, b: off, c: ~, d: 0x1F, e: 0755}\n", true},
		{"HTML characters and unicode", "apiVersion: a/v1\nkind: K\nspec: {a: '<&>', b: \"\\u2028é\"}\n", true},
		{"duplicate keys: the last wins", "apiVersion: a/v1\nkind: K\nspec: {a: 1, a: 2}\n", true},
		{"kind spelled in another case", "apiVersion: a/v1\nKIND: K\n", true},
		{"apiVersion and a case variant", "apiVersion: a/v1\nAPIVERSION: b/v2\nkind: K\n", true},
		{"kelvin sign folds to k", "apiVersion: a/v1\n\u212aind: K\n", true},
		{"non-string apiVersion", "apiVersion: 5\nkind: K\n", true},
		{"object as kind", "apiVersion: a/v1\nkind: {a: 1}\n", true},
		{"missing kind", "apiVersion: a/v1\nspec: {}\n", true},
		{"integer beyond int64 falls back", "apiVersion: a/v1\nkind: K\nspec: {a: 18446744073709551615}\n", false},
		{"non-string key falls back", "apiVersion: a/v1\nkind: K\nspec: {1: a}\n", false},
		{"top-level list falls back", "- a\n- b\n", false},
		{"JSON is read as JSON", `{"apiVersion": "a/v1", "kind": "K"}`, false},
		{"syntax error falls back", "a: [\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fast := toJSONBody([]byte(tc.doc))
			if got := fast.value != nil; got != tc.shortcut {
				t.Fatalf("shortcut taken = %v, want %v", got, tc.shortcut)
			}
			slowText, slowErr := toJSON([]byte(tc.doc))
			slow := &jsonBody{json: slowText, err: slowErr}
			g1, e1 := fast.interpret()
			g2, e2 := slow.interpret()
			if !reflect.DeepEqual(g1, g2) || (e1 == nil) != (e2 == nil) || (e1 != nil && e1.Error() != e2.Error()) {
				t.Fatalf("interpret: shortcut %v %v, YAMLToJSON %v %v", g1, e1, g2, e2)
			}
			if string(fast.text()) != string(slow.text()) {
				t.Fatalf("text: shortcut %s, YAMLToJSON %s", fast.text(), slow.text())
			}
			v1, s1, err1 := fast.decode(true)
			v2, s2, err2 := slow.decode(true)
			if !reflect.DeepEqual(v1, v2) || len(s1) != len(s2) || (err1 == nil) != (err2 == nil) {
				t.Fatalf("decode: shortcut %#v %v %v, YAMLToJSON %#v %v %v", v1, s1, err1, v2, s2, err2)
			}
		})
	}
}

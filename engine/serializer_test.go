package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
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

// Issue 16: a JSON-looking document nesting deeper than encoding/json's
// 10,000 levels skips YAMLToJSON (goyaml.v2 recurses once per level and
// fails at the same depth), with the result YAMLToJSON's failure gave.
func TestToJSONTooDeep(t *testing.T) {
	reference := func(doc []byte) ([]byte, error) { // toJSON without the shortcut
		trimmed := bytes.TrimSpace(doc)
		looksJSON := len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
		if looksJSON && json.Valid(trimmed) {
			return trimmed, nil
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil && looksJSON {
			return trimmed, nil
		}
		return js, err
	}
	deep := func(depth int, open, close, mid string) []byte {
		return []byte(` {"spec":{"x":` + strings.Repeat(open, depth) + mid + strings.Repeat(close, depth) + "}}\n")
	}
	for _, tt := range []struct {
		name    string
		doc     []byte
		skipped bool // YAMLToJSON not run
	}{
		{"10,000 levels (valid JSON)", deep(9998, "[", "]", ""), false},
		{"10,001 levels", deep(9999, "[", "]", ""), true},
		{"100,000 levels of objects", deep(100000, `{"a":`, "}", "1"), true},
		{"100,000 levels, unclosed", []byte(strings.Repeat("[", 100000)), true},
		{"JSON-looking YAML", []byte(`{a: [1, b], "c": {d: e}}`), false},
		{"JSON-looking YAML nesting 10,000 levels", deep(9998, "[", "]", "a"), false},
		{"JSON-looking YAML nesting 10,001 levels", deep(9999, "[", "]", "a"), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toJSON(tt.doc)
			want, wantErr := reference(tt.doc)
			if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("toJSON = %.80q, %v; want %.80q, %v", got, err, want, wantErr)
			}
			if skipped := jsonTooDeep(bytes.TrimSpace(tt.doc)); skipped != tt.skipped {
				t.Errorf("jsonTooDeep = %v, want %v", skipped, tt.skipped)
			}
		})
	}
}

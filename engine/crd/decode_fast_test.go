package crd

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"
	yamlv3 "sigs.k8s.io/yaml/goyaml.v3"
)

// slowJSONValue is what decodeDocument did before the shortcut:
// YAMLToJSON, then decoding with json.Number numbers.
func slowJSONValue(data []byte) (interface{}, error) {
	jsonBytes, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	var v interface{}
	dec := json.NewDecoder(bytes.NewReader(jsonBytes))
	dec.UseNumber()
	err = dec.Decode(&v)
	return v, err
}

var fastPathInputs = []struct {
	name     string
	in       string
	fastPath bool
}{
	{"crd", validCRD, true},
	{"json input", `{"a": [1, -2, "x", true, null, {"b": "<&>"}]}`, true},
	{"yaml 1.1 booleans", "a: yes\nb: off\nc: 'yes'\n", true},
	{"octal and hex integers", "a: 0755\nb: 0x1F\nc: -0\n", true},
	{"merge keys and anchors", "a: &x {p: 1}\nb:\n  <<: *x\n  q: 2\n", true},
	{"block scalars", "a: |-\n  line1\n   line2\nb: >\n  folded\n  text\n\n", true},
	{"empty document", "# only a comment\n", true},
	{"floats", "a: 1.0\nb: 1e3\nc: 1.5\nd: 1e21\ne: -0.0\nf: 0.000001\ng: 1e-7\n", true},
	{"NaN and infinities fall back", "a: .nan\nb: -.inf\n", false},
	{"non-string keys fall back", "1: a\ntrue: b\n", false},
	{"huge integers fall back", "a: 18446744073709551615\n", false},
	{"timestamps", "a: 2001-12-14\n", true},
	{"binary with invalid UTF-8 falls back", "a: !!binary aGVsbG8=\nb: !!binary /w==\n", false},
	{"binary decodes to a string", "a: !!binary aGVsbG8=\n", true},
	{"syntax errors fall back", "a: [\n", false},
	{"null keys fall back", "? ~\n: x\n", false},
}

func TestYAMLToJSONValueMatchesYAMLToJSON(t *testing.T) {
	for _, tc := range fastPathInputs {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := yamlToJSONValue([]byte(tc.in))
			if ok != tc.fastPath {
				t.Fatalf("fast path taken = %v, want %v", ok, tc.fastPath)
			}
			if !ok {
				return
			}
			want, err := slowJSONValue([]byte(tc.in))
			if err != nil {
				t.Fatalf("YAMLToJSON failed where the fast path succeeded: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("fast path %#v\nYAMLToJSON %#v", got, want)
			}
		})
	}
}

func FuzzYAMLToJSONValue(f *testing.F) {
	for _, tc := range fastPathInputs {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := yamlToJSONValue(data)
		if !ok {
			return
		}
		want, err := slowJSONValue(data)
		if err != nil {
			t.Fatalf("YAMLToJSON failed where the fast path succeeded: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("fast path %#v\nYAMLToJSON %#v", got, want)
		}
	})
}

// nodeValue parses data with goyaml.v3 as decodeDocument does and reads the
// value from the tree; ok is false when the shortcut does not apply.
func nodeValue(data []byte) (interface{}, bool) {
	var root yamlv3.Node
	if err := yamlv3.Unmarshal(data, &root); err != nil {
		return nil, false
	}
	if root.Kind == 0 || (root.Kind == yamlv3.DocumentNode && len(root.Content) == 0) {
		return nil, false
	}
	if !treeShortcutApplies(data, resolve(&root)) {
		return nil, false
	}
	return nodeJSONValue(resolve(&root), 0)
}

var nodePathInputs = []struct {
	name     string
	in       string
	fastPath bool
}{
	{"crd", validCRD, true},
	{"json input", `{"a": [1, -2, "x", true, null, {"b": "<&>"}]}`, true},
	{"yaml 1.1 booleans", "a: yes\nb: off\nc: 'yes'\nd: Y\ne: n\n", true},
	{"nulls", "a: ~\nb:\nc: null\nd: \"null\"\n", true},
	{"plain strings", "a: hello world\nb: x-kubernetes\nc: foo:bar\nd: a#b\n", true},
	{"quoted digits stay strings", "a: \"1\"\nb: '0755'\n", true},
	{"integers", "a: 0\nb: -12\nc: 123456789012345678\n", true},
	{"octal, hex, underscores and negative zero", "a: 0755\nb: 0x1F\nc: 1_000\nd: -0\ne: +12\n", true},
	{"strings that start like numbers", "a: 30s\nb: .spec.version\nc: -foo\nd: 1.2.3\n", true},
	{"timestamps fall back", "a: 2001-12-14\n", false},
	{"dot floats fall back", "a: .5\n", false},
	{"infinities fall back", "a: -.inf\n", false},
	{"unsigned infinity falls back", "a: .inf\n", false},
	{"unsigned infinity, other spellings", "a: .Inf\n", false},
	{"big unsigned integers fall back", "a: 18446744073709551615\n", false},
	{"binary integers", "a: 0b101\nb: -0b11\n", true},
	{"floats fall back", "a: 1.5\n", false},
	{"anchors fall back", "a: &x 1\nb: *x\n", false},
	{"merge keys fall back", "a: {p: 1}\nb:\n  <<: {q: 1}\n", false},
	{"tags fall back", "a: !!str 1\n", false},
	{"non-specific tags fall back", "! 0", false},
	{"local tags fall back", "a: !foo bar\n", false},
	{"non-specific tag on a value falls back", "a: ! 0\nb: x\n", false},
	{"non-specific tag on a key falls back", "! 1: x\n", false},
	{"non-specific tag in a flow sequence falls back", "a: [x, ! 0]\n", false},
	{"non-specific tag on a mapping falls back", "a: !\n  b: 1\n", false},
	{"non-specific tag after multi-byte characters falls back", "a: [é, ü, ! 0]\n", false},
	{"non-specific tag after a CR line break falls back", "a: x\r\nb: ! 0\r\n", false},
	{"CEL negations in strings", "rule: '!has(self.x)'\nmessage: \"not here!\"\nr2: self.a != 1\nd: |\n  ! at a line start\n", true},
	{"bang inside a plain scalar after multi-byte characters", "a: [é, x!, ü!y]\n", true},
	{"bang in a JSON document on one line", `{"rule": "!has(self.x)", "n": 1, "m": "é!"}`, true},
	{"bang with a CR line break falls back", "rule: '!has(x)'\r\n", false},
	{"directives fall back", "%YAML 1.1\n---\na: 1\n", false},
	{"duplicate keys fall back", "a: 1\na: 2\n", false},
	{"non-string keys fall back", "1: a\n", false},
	{"boolean keys fall back", "yes: a\n", false},
	{"block scalars", "a: |-\n  line1\n   line2\nb: >\n  folded\n  text\n\nc: |+\n  keep\n\n", true},
	{"multi-line plain", "a: one\n  two\n\n  three\n", true},
	{"flow with quotes", "a: [\"x\\ty\", 'it''s', {k: v}]\n", true},
}

func TestNodeJSONValueMatchesYAMLToJSON(t *testing.T) {
	for _, tc := range nodePathInputs {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := nodeValue([]byte(tc.in))
			if ok != tc.fastPath {
				t.Fatalf("tree shortcut taken = %v, want %v", ok, tc.fastPath)
			}
			if !ok {
				return
			}
			want, err := slowJSONValue([]byte(tc.in))
			if err != nil {
				t.Fatalf("YAMLToJSON failed where the shortcut succeeded: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("tree %#v\nYAMLToJSON %#v", got, want)
			}
		})
	}
}

func FuzzNodeJSONValue(f *testing.F) {
	for _, tc := range nodePathInputs {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := nodeValue(data)
		if !ok {
			return
		}
		want, err := slowJSONValue(data)
		if err != nil {
			t.Fatalf("YAMLToJSON failed where the shortcut succeeded: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("tree %#v\nYAMLToJSON %#v", got, want)
		}
	})
}

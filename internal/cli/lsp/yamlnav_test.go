package lsp

import (
	"strings"
	"testing"

	yaml "sigs.k8s.io/yaml/goyaml.v3"
)

type yamlNode = yaml.Node

// TestScalarWalkMapsValueRunesToTheirSource: for each style of scalar, each
// rune of the value is reported where the source holds it (escapes and
// line breaks aside), so that a CEL error's column lands on its character.
func TestScalarWalkMapsValueRunesToTheirSource(t *testing.T) {
	for _, c := range []struct {
		name, yaml string
		value      string
	}{
		{"plain", "rule: self.a > 1 # comment\n", "self.a > 1"},
		{"single-quoted", "rule: 'self.a == ''x'''\n", "self.a == 'x'"},
		{"double-quoted", "rule: \"self.a == \\\"é\\\" && self.b\"\n", `self.a == "é" && self.b`},
		{"literal block", "rule: |\n  self.a > 1 &&\n    self.b\nnext: 1\n", "self.a > 1 &&\n  self.b\n"},
		{"literal strip", "x:\n  rule: |-\n    self.a\n    || self.b\n", "self.a\n|| self.b"},
		{"folded block", "rule: >\n  self.a > 1 &&\n  self.b\n", "self.a > 1 && self.b\n"},
		{"plain multi-line", "rule: self.a > 1 &&\n  self.b\nnext: 1\n", "self.a > 1 && self.b"},
		{"in a list item", "- rule: \"self.x\"\n  message: m\n", "self.x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, err := parseNode([]byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(c.yaml, "\n")
			n := findScalar(root, "rule")
			if n == nil || n.Value != c.value {
				t.Fatalf("value %q, want %q", n.Value, c.value)
			}
			var got []rune
			scalarWalk(lines, n, func(l, col int, r rune) bool {
				got = append(got, r)
				src := []rune(lines[l-1])
				if r != '\n' && r != ' ' && r != '\'' && r != '"' {
					if col-1 >= len(src) || src[col-1] != r {
						t.Errorf("%q reported at %d:%d, the source has %q there", r, l, col, string(src[col-1:]))
					}
				}
				return true
			})
			if string(got) != c.value {
				t.Errorf("walked %q, value %q", string(got), c.value)
			}
			// the prefix up to every rune's position is the value up to it
			for k := range []rune(c.value) {
				l, col, ok := scalarRunePos(lines, n, k)
				if !ok {
					t.Fatalf("rune %d has no position", k)
				}
				before, inside := scalarPrefix(lines, n, l, col)
				if !inside || before != string([]rune(c.value)[:k]) {
					t.Errorf("prefix at rune %d (%d:%d): %q inside=%v", k, l, col, before, inside)
				}
			}
		})
	}
}

func findScalar(n *yamlNode, key string) *yamlNode {
	if n == nil {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	for _, c := range n.Content {
		if f := findScalar(c, key); f != nil {
			return f
		}
	}
	return nil
}

func TestIndentPathFindsTheMappingAtTheCursor(t *testing.T) {
	doc := `apiVersion: x/v1
kind: K
spec:
  ports:
    - name: a
      port: 1
    - name: b
      
  template:
    metadata:
      labels:
        
  list:
  - x: 1
    
`
	lines := strings.Split(doc, "\n")
	for _, c := range []struct {
		line, indent int
		dash         bool
		want         string
	}{
		{8, 6, false, "spec.ports.[]"},
		{12, 8, false, "spec.template.metadata.labels"},
		{15, 4, false, "spec.list.[]"},
		{4, 2, false, "spec"},
		{3, 0, false, ""},
		{7, 6, true, "spec.ports.[]"},
	} {
		got := strings.Join(indentPath(lines, c.line, c.indent, c.dash), ".")
		if got != c.want {
			t.Errorf("line %d indent %d: %q, want %q", c.line, c.indent, got, c.want)
		}
	}
}

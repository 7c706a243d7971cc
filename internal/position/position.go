// Package position maps field paths to source positions: the line and
// column of the YAML or JSON node a field error or warning names.
//
// The engine decodes bodies without positions (the fast paths of
// internal/yamljson and goyaml.v2); positions are computed only when a
// result has something to point at, by parsing the document once more with
// goyaml.v3 (JSON is YAML) into a node tree and walking it along each path.
// engine/crd's strict decoder walks the same tree with the helpers here
// (Resolve, Lookup, Index).
//
// Paths are the rendered field paths of the API server's errors
// (`spec.versions[0].schema.openAPIV3Schema.properties[spec]`,
// `metadata.labels[app.kubernetes.io/name]`) and the dotted paths of its
// strict-decoding messages (`spec.template.foo`). Field names and map keys
// may hold dots and brackets, so a path is split along the tree: at each
// mapping the longest key that the path continues with wins, backtracking
// when the rest does not resolve. A path that leaves the tree (a missing
// field of a Required error, say) resolves to its nearest existing ancestor.
package position

import (
	"bytes"
	"strconv"
	"strings"

	yaml "sigs.k8s.io/yaml/goyaml.v3"
)

// Position is a 1-based line and column; the zero Position is "unknown".
type Position struct {
	Line, Column int
}

// Known reports whether p is a position.
func (p Position) Known() bool { return p.Line > 0 }

// Tree is one parsed document. It is not safe for concurrent use.
type Tree struct {
	root *yaml.Node                    // the document's content node, aliases not resolved
	keys map[*yaml.Node]map[string]int // per mapping: key → index of its last occurrence
}

// Parse parses the first document of data (YAML or JSON). It returns nil
// when data does not parse with goyaml.v3 (kubectl's YAML 1.1 parser accepts
// a few documents it rejects): there are no positions then.
//
// It also returns nil, without parsing, for a JSON document (one that
// starts with '{' or '[') nesting deeper than MaxDepth: goyaml.v3's parser
// recurses once per level, and in the WebAssembly module the call stack is
// the JavaScript engine's (about 1 MB in V8, where goyaml.v3 overflows
// between 4,000 and 5,000 levels); the API server's JSON decoder accepts
// 10,000. YAML documents are not bounded here: the engine's YAML decoder
// recurses as deep before positions are asked for.
func Parse(data []byte) *Tree {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if jsonDeeperThan(data, MaxDepth) {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	return &Tree{root: doc.Content[0], keys: map[*yaml.Node]map[string]int{}}
}

// MaxDepth is the deepest nesting of arrays and objects a JSON document
// may have for Parse to index it.
const MaxDepth = 1000

// jsonDeeperThan reports whether data, when it is JSON (its first
// non-blank byte is '{' or '['), nests arrays and objects more than max
// levels deep at some point. It scans without recursion, skipping
// strings; bytes that are not JSON are passed over (goyaml.v3 or the
// decoder reports them).
func jsonDeeperThan(data []byte, max int) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	depth := 0
	var prev byte // the last byte outside strings that is not blank
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '"':
			// a string where a value or key may start (as goyaml.v3
			// reads a flow collection; elsewhere '"' is a plain scalar's)
			if prev == '{' || prev == '[' || prev == ',' || prev == ':' {
				for i++; i < len(t) && t[i] != '"'; i++ {
					if t[i] == '\\' {
						i++
					}
				}
			}
		case '{', '[':
			if depth++; depth > max {
				return true
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
		prev = c
	}
	return false
}

// maxSteps bounds the backtracking of one Find (keys that are prefixes of
// each other, level after level, could make it exponential).
const maxSteps = 10000

// Find returns the position of the node path names, and whether the whole
// path was found (false: the position is that of its nearest existing
// ancestor). The empty path and "<nil>" (a nil field.Path) name the
// document's root. Positions of map entries are those of their keys; of
// list items, those of the items.
func (t *Tree) Find(path string) (Position, bool) {
	if t == nil {
		return Position{}, false
	}
	if path == "<nil>" {
		path = ""
	}
	path = strings.TrimPrefix(path, ".")
	steps := 0
	n, ok := t.walk(t.root, t.root, path, &steps)
	return Position{Line: n.Line, Column: n.Column}, ok
}

// walk follows path from at (the node whose position stands for the path
// so far) and v (its value). It returns the node found and whether path was
// consumed entirely.
func (t *Tree) walk(at, v *yaml.Node, path string, steps *int) (*yaml.Node, bool) {
	if path == "" {
		return at, true
	}
	if *steps++; *steps > maxSteps {
		return at, false
	}
	m := Resolve(v)
	if m == nil {
		return at, false
	}
	bracket := path[0] == '['
	var name string
	if bracket {
		name = path[1:]
	} else {
		name = strings.TrimPrefix(path, ".")
	}
	switch m.Kind {
	case yaml.SequenceNode:
		if !bracket {
			return at, false
		}
		end := strings.IndexByte(name, ']')
		if end < 0 {
			return at, false
		}
		i, err := strconv.Atoi(name[:end])
		if err != nil || i < 0 || i >= len(m.Content) {
			return at, false
		}
		return t.walk(m.Content[i], m.Content[i], name[end+1:], steps)
	case yaml.MappingNode:
		keys := t.index(m)
		var first *yaml.Node
		// Candidate keys end where an element may end: longest first.
		for end := len(name); end >= 0; end-- {
			var rest string
			if bracket {
				if end == len(name) || name[end] != ']' {
					continue
				}
				rest = name[end+1:]
			} else {
				if end == 0 || (end < len(name) && name[end] != '.' && name[end] != '[') {
					continue
				}
				rest = name[end:]
			}
			if rest != "" && rest[0] != '.' && rest[0] != '[' {
				continue
			}
			i, ok := keys[name[:end]]
			if !ok {
				continue
			}
			n, ok := t.walk(m.Content[i], m.Content[i+1], rest, steps)
			if ok {
				return n, true
			}
			if first == nil {
				first = n
			}
		}
		if first != nil {
			return first, false
		}
	}
	return at, false
}

// index returns the keys of the mapping m (last occurrences: the ones
// YAMLToJSON keeps).
func (t *Tree) index(m *yaml.Node) map[string]int {
	keys, ok := t.keys[m]
	if !ok {
		keys = make(map[string]int, len(m.Content)/2)
		for i := 0; i+1 < len(m.Content); i += 2 {
			keys[m.Content[i].Value] = i
		}
		t.keys[m] = keys
	}
	return keys
}

// Resolve returns the node n stands for: the content of a document, the
// target of an alias (nil for an empty document).
func Resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && i < 100; i++ {
		switch n.Kind {
		case yaml.DocumentNode:
			if len(n.Content) == 0 {
				return nil
			}
			n = n.Content[0]
		case yaml.AliasNode:
			n = n.Alias
		default:
			return n
		}
	}
	return n
}

// Lookup returns the key and value nodes of the last occurrence of key in
// the mapping n (the one YAMLToJSON keeps), or nil, nil.
func Lookup(n *yaml.Node, key string) (k, v *yaml.Node) {
	m := Resolve(n)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			k, v = m.Content[i], m.Content[i+1]
		}
	}
	return k, v
}

// Index returns the i-th item of the sequence n, or nil.
func Index(n *yaml.Node, i int) *yaml.Node {
	s := Resolve(n)
	if s == nil || s.Kind != yaml.SequenceNode || i < 0 || i >= len(s.Content) {
		return nil
	}
	return s.Content[i]
}

// Quoted returns the paths a warning or decoding message names: the quoted
// paths of its "unknown field" and "duplicate field" parts, in the order of
// the text.
func Quoted(msg string) []string {
	var out []string
	for {
		i, n := -1, 0
		for _, prefix := range []string{`unknown field "`, `duplicate field "`} {
			if j := strings.Index(msg, prefix); j >= 0 && (i < 0 || j < i) {
				i, n = j, len(prefix)
			}
		}
		if i < 0 {
			return out
		}
		msg = msg[i+n-1:]
		q, err := strconv.QuotedPrefix(msg)
		if err != nil {
			return out
		}
		s, _ := strconv.Unquote(q)
		out = append(out, s)
		msg = msg[len(q):]
	}
}

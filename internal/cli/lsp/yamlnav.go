package lsp

import (
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "sigs.k8s.io/yaml/goyaml.v3"

	yamlpos "github.com/crdlab/crdlab/internal/position"
)

// parseNode parses one YAML document into its content node (nil when it
// does not parse).
func parseNode(data []byte) (n *yaml.Node, err error) {
	defer func() {
		if recover() != nil { // goyaml.v3 on hostile input
			n, err = nil, errPanic
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

type panicError struct{}

func (panicError) Error() string { return "the YAML parser failed on this document" }

var errPanic error = panicError{}

func resolve(n *yaml.Node) *yaml.Node {
	for depth := 0; n != nil && n.Kind == yaml.AliasNode && depth < 100; depth++ {
		n = n.Alias
	}
	return n
}

// lookup returns the key and value nodes of the last occurrence of key in
// mapping n (internal/position's Lookup, the one YAMLToJSON keeps).
func lookup(n *yaml.Node, key string) (k, v *yaml.Node) { return yamlpos.Lookup(n, key) }

func scalarAt(n *yaml.Node, key string) string {
	if _, v := lookup(n, key); v != nil && resolve(v).Kind == yaml.ScalarNode {
		return resolve(v).Value
	}
	return ""
}

// walkPath follows steps (mapping keys, "[i]" for sequence items) from n.
func walkPath(n *yaml.Node, steps []string) *yaml.Node {
	for _, s := range steps {
		n = resolve(n)
		if n == nil {
			return nil
		}
		if strings.HasPrefix(s, "[") && n.Kind == yaml.SequenceNode {
			i, err := strconv.Atoi(strings.Trim(s, "[]"))
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil
			}
			n = n.Content[i]
			continue
		}
		_, n = lookup(n, s)
	}
	return resolve(n)
}

// ruleRef is a rule or messageExpression scalar of a CRD document.
type ruleRef struct {
	schemaSteps []string // to the schema node carrying the rule
	index       int      // in x-kubernetes-validations
	field       string   // "rule" or "messageExpression"
	key, value  *yaml.Node
}

// findRules lists the rule and messageExpression scalars under
// openAPIV3Schema nodes, in document order.
func findRules(root *yaml.Node) []ruleRef {
	var out []ruleRef
	var walk func(n *yaml.Node, steps []string, inSchema bool, depth int)
	walk = func(n *yaml.Node, steps []string, inSchema bool, depth int) {
		if n == nil || depth > 200 {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if inSchema && k.Value == "x-kubernetes-validations" && v.Kind == yaml.SequenceNode {
					for j, item := range v.Content {
						for _, f := range []string{"rule", "messageExpression"} {
							if rk, rv := lookup(item, f); rv != nil && rv.Kind == yaml.ScalarNode {
								out = append(out, ruleRef{schemaSteps: append([]string(nil), steps...), index: j, field: f, key: rk, value: rv})
							}
						}
					}
					continue
				}
				walk(v, append(steps, k.Value), inSchema || k.Value == "openAPIV3Schema", depth+1)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, append(steps, "["+strconv.Itoa(i)+"]"), inSchema, depth+1)
			}
		}
	}
	walk(root, nil, false, 0)
	return out
}

// scalarWalk calls f with the source position (1-based line, 1-based
// column in runes, counted in the document) of each rune of the value of
// scalar node n, in order, with the rune; f returns false to stop. lines
// are the document's lines. Line breaks of multi-line scalars are
// reported at the end of the line they end. Escapes of double-quoted
// scalars are decoded for the common forms (\n, \t, \\, \", \xHH, \uHHHH);
// other escapes count as the escaped character.
func scalarWalk(lines []string, n *yaml.Node, f func(line, col int, r rune) bool) {
	if n == nil || n.Line < 1 || n.Line > len(lines) {
		return
	}
	// never more runes than the value has (the walk does not know every
	// way a scalar ends)
	left := utf8.RuneCountInString(n.Value)
	inner := f
	f = func(line, col int, r rune) bool {
		if left <= 0 {
			return false
		}
		left--
		return inner(line, col, r)
	}
	switch n.Style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		blockWalk(lines, n, f)
		return
	}
	line, col := n.Line, n.Column
	quote := rune(0)
	switch n.Style {
	case yaml.DoubleQuotedStyle:
		quote = '"'
		col++
	case yaml.SingleQuotedStyle:
		quote = '\''
		col++
	}
	rs := []rune(lines[line-1])
	for {
		i := col - 1
		for i < len(rs) {
			r := rs[i]
			switch {
			case quote == 0 && (r == '#' && i > 0 && (rs[i-1] == ' ' || rs[i-1] == '\t')):
				return
			case quote != 0 && r == quote:
				if quote == '\'' && i+1 < len(rs) && rs[i+1] == '\'' {
					if !f(line, i+1, '\'') {
						return
					}
					i += 2
					continue
				}
				return
			case quote == '"' && r == '\\' && i+1 < len(rs):
				v, width := unescape(rs[i+1:])
				if !f(line, i+1, v) {
					return
				}
				i += 1 + width
				continue
			}
			if !f(line, i+1, r) {
				return
			}
			i++
		}
		// the line ends inside the scalar: a line break folds to a space
		if line >= len(lines) {
			return
		}
		next := []rune(lines[line])
		trim := strings.TrimLeft(string(next), " \t")
		if quote == 0 && (trim == "" || len(next)-utf8.RuneCountInString(trim) <= keyIndent(lines, n)) {
			// a plain scalar continues on lines indented more than its key
			return
		}
		if !f(line, len(rs)+1, ' ') {
			return
		}
		line++
		rs = next
		col = len(next) - utf8.RuneCountInString(trim) + 1
	}
}

func unescape(rs []rune) (rune, int) {
	switch rs[0] {
	case 'n':
		return '\n', 1
	case 't':
		return '\t', 1
	case 'r':
		return '\r', 1
	case '0':
		return 0, 1
	case 'x', 'u', 'U':
		w := map[rune]int{'x': 2, 'u': 4, 'U': 8}[rs[0]]
		if len(rs) > w {
			if v, err := strconv.ParseUint(string(rs[1:1+w]), 16, 32); err == nil {
				return rune(v), 1 + w
			}
		}
	}
	return rs[0], 1
}

// blockWalk is scalarWalk for literal (|) and folded (>) scalars: the
// value's lines are the lines after the indicator, less their
// indentation.
func blockWalk(lines []string, n *yaml.Node, f func(line, col int, r rune) bool) {
	indent := -1
	for l := n.Line + 1; l <= len(lines); l++ {
		s := lines[l-1]
		trim := strings.TrimLeft(s, " ")
		if strings.TrimSpace(s) == "" {
			if indent >= 0 && !f(l, 1, '\n') {
				return
			}
			continue
		}
		ind := len(s) - len(trim)
		if indent < 0 {
			if ind < n.Column && n.Column > 1 && ind <= keyIndent(lines, n) {
				return
			}
			indent = ind
		}
		if ind < indent {
			return
		}
		rs := []rune(strings.TrimRight(s, "\r"))
		for i := indent; i < len(rs); i++ {
			if !f(l, i+1, rs[i]) {
				return
			}
		}
		br := '\n'
		if n.Style == yaml.FoldedStyle && l < len(lines) {
			// folded: a line break between two lines of the same
			// indentation is a space
			next := lines[l]
			nt := strings.TrimLeft(next, " ")
			if strings.TrimSpace(next) != "" && len(next)-len(nt) == indent && ind == indent {
				br = ' '
			}
		}
		if !f(l, len(rs)+1, br) {
			return
		}
	}
}

// keyIndent is the indentation of the line holding the block scalar's
// indicator (its key).
func keyIndent(lines []string, n *yaml.Node) int {
	s := lines[n.Line-1]
	return len(s) - len(strings.TrimLeft(s, " "))
}

// scalarRunePos returns the source position of the value rune at index k
// (0-based) of scalar n, or of the value's last rune when k is past it;
// ok is false when the scalar has no runes.
func scalarRunePos(lines []string, n *yaml.Node, k int) (line, col int, ok bool) {
	i := 0
	scalarWalk(lines, n, func(l, c int, _ rune) bool {
		line, col, ok = l, c, true
		i++
		return i <= k
	})
	return line, col, ok
}

// scalarPrefix returns the value of scalar n up to the source position
// (line, col: 1-based, col in runes), and whether the position is inside
// the scalar (from its first rune to one past its last).
func scalarPrefix(lines []string, n *yaml.Node, line, col int) (string, bool) {
	var b strings.Builder
	inside, started, lastLine, lastCol := false, false, 0, 0
	before := func(l, c int) bool { return l < line || l == line && c < col }
	scalarWalk(lines, n, func(l, c int, r rune) bool {
		if !started {
			started = true
			if !before(l, c) {
				// the cursor is at the first rune (inside) or before it
				inside = l == line && c == col
				return false
			}
		}
		if !before(l, c) {
			inside = true
			return false
		}
		lastLine, lastCol = l, c
		b.WriteRune(r)
		return true
	})
	if !inside && started && lastLine == line && lastCol == col-1 {
		inside = true // just after the last rune
	}
	if !started && n.Line == line && n.Column == col-quoteWidth(n) {
		inside = true // an empty scalar
	}
	return b.String(), inside
}

func quoteWidth(n *yaml.Node) int {
	if n.Style == yaml.DoubleQuotedStyle || n.Style == yaml.SingleQuotedStyle {
		return 1
	}
	return 0
}

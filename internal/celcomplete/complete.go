package celcomplete

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/limits"
)

type token struct {
	t    byte // 'i' identifier, 's' string, 'n' number, 'p' punctuation
	v    string
	s, e int
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isWord(c byte) bool       { return isIdentStart(c) || isDigit(c) }
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// tokenize splits CEL source into tokens (a lexer good enough for
// completion: it never fails).
func tokenize(src string) []token {
	var out []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case isSpace(c):
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		}
		s := i
		switch {
		case isIdentStart(c):
			for i < len(src) && isWord(src[i]) {
				i++
			}
			v := src[s:i]
			if len(v) <= 2 && strings.Trim(v, "rRbB") == "" && i < len(src) && (src[i] == '"' || src[i] == '\'') {
				i = skipString(src, i)
				out = append(out, token{t: 's', s: s, e: i})
				continue
			}
			out = append(out, token{t: 'i', v: v, s: s, e: i})
		case isDigit(c):
			for i < len(src) && strings.IndexByte("0123456789abcdefABCDEFxXuU.eE", src[i]) >= 0 &&
				!(src[i] == '.' && !(i+1 < len(src) && isDigit(src[i+1]))) {
				i++
			}
			out = append(out, token{t: 'n', v: src[s:i], s: s, e: i})
		case c == '"' || c == '\'':
			i = skipString(src, i)
			out = append(out, token{t: 's', s: s, e: i})
		default:
			out = append(out, token{t: 'p', v: string(c), s: s, e: i + 1})
			i++
		}
	}
	return out
}

func skipString(src string, i int) int {
	q := src[i : i+1]
	end := q
	if strings.HasPrefix(src[i:], strings.Repeat(q, 3)) {
		end = strings.Repeat(q, 3)
	}
	i += len(end)
	for i < len(src) {
		if src[i] == '\\' {
			i += 2
			continue
		}
		if strings.HasPrefix(src[i:], end) {
			return i + len(end)
		}
		if len(end) == 1 && src[i] == '\n' {
			return i
		}
		i++
	}
	return len(src)
}

func isP(toks []token, i int, v string) bool {
	return i >= 0 && i < len(toks) && toks[i].t == 'p' && toks[i].v == v
}

var closeOf = map[string]string{")": "(", "]": "[", "}": "{"}
var openClose = map[string]string{"(": ")", "[": "]", "{": "}"}

// chainStart returns the first token of the postfix chain that ends at
// toks[end], or -1.
func chainStart(toks []token, end int) int {
	i := end
	for {
		if i < 0 || i >= len(toks) {
			return -1
		}
		tok := toks[i]
		if open, ok := closeOf[tok.v]; ok && tok.t == 'p' {
			depth := 0
			for ; i >= 0; i-- {
				if isP(toks, i, tok.v) {
					depth++
				} else if isP(toks, i, open) {
					depth--
				}
				if depth == 0 {
					break
				}
			}
			if i < 0 {
				return -1
			}
			if tok.v == "}" {
				return i
			}
			if i > 0 {
				prev := toks[i-1]
				if prev.t == 'i' || isP(toks, i-1, ")") || isP(toks, i-1, "]") {
					i--
					continue
				}
			}
			return i
		}
		if tok.t == 'i' || tok.t == 's' || tok.t == 'n' {
			j := i - 1
			if isP(toks, j, "?") {
				j--
			}
			if tok.t == 'i' && isP(toks, j, ".") && j > 0 {
				i = j - 1
				continue
			}
			return i
		}
		return -1
	}
}

type frame struct {
	vars map[string]*typ
}

func lookup(scope []frame, name string) (*typ, bool) {
	for f := len(scope) - 1; f >= 0; f-- {
		if t, ok := scope[f].vars[name]; ok {
			return t, true
		}
	}
	return nil, false
}

func skipGroup(toks []token, i int) int {
	open := toks[i].v
	cl := openClose[open]
	depth := 0
	for ; i < len(toks); i++ {
		if isP(toks, i, open) {
			depth++
		} else if isP(toks, i, cl) {
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(toks)
}

// chainType is the type of the chain toks[start..end] in scope, env the
// expression's variables (self and oldSelf, or a policy's).
func chainType(toks []token, start, end int, scope []frame, env map[string]*typ) *typ {
	i := start
	var t *typ
	tok := toks[i]
	switch {
	case tok.t == 'i':
		_, shadowed := lookup(scope, tok.v)
		if isP(toks, i+1, ".") && i+2 < len(toks) && toks[i+2].t == 'i' && isP(toks, i+3, "(") && globals[tok.v+"."+toks[i+2].v] != nil && !shadowed {
			t = globals[tok.v+"."+toks[i+2].v]
			i = skipGroup(toks, i+3) + 1
		} else if isP(toks, i+1, "(") {
			t = globals[tok.v]
			i = skipGroup(toks, i+1) + 1
		} else {
			var ok bool
			if t, ok = env[tok.v]; !ok {
				t, _ = lookup(scope, tok.v)
			}
			i++
		}
	case tok.t == 's':
		t = tString
		i++
	case tok.t == 'n':
		switch {
		case strings.ContainsAny(tok.v, ".eE") && !strings.HasPrefix(tok.v, "0x"):
			t = tDouble
		case strings.HasSuffix(tok.v, "u") || strings.HasSuffix(tok.v, "U"):
			t = tUint
		default:
			t = tInt
		}
		i++
	case isP(toks, i, "["):
		t = listOf(tDyn)
		i = skipGroup(toks, i) + 1
	case isP(toks, i, "{"):
		t = mapOf(tDyn, tDyn)
		i = skipGroup(toks, i) + 1
	default:
		return nil
	}
	for i <= end && t != nil {
		switch {
		case isP(toks, i, "."):
			opt := false
			j := i + 1
			if isP(toks, j, "?") {
				opt = true
				j++
			}
			if j >= len(toks) || toks[j].t != 'i' {
				return nil
			}
			call := isP(toks, j+1, "(") && j+1 <= end
			m := member(t, toks[j].v, call)
			if opt && m != nil {
				m = optionalOf(m)
			}
			t = m
			if call {
				i = skipGroup(toks, j+1) + 1
			} else {
				i = j + 1
			}
		case isP(toks, i, "["):
			opt := isP(toks, i+1, "?")
			m := index(t)
			if opt && m != nil {
				m = optionalOf(m)
			}
			t = m
			i = skipGroup(toks, i) + 1
		default:
			return nil
		}
	}
	return t
}

// scopeAtEnd returns the macro variables in scope at the end of toks: a
// frame per open bracket; a macro's frame gets its variables once "(x,"
// or "(i, v," has been read. The receiver types are computed only for the
// frames still open at the end (in order: each one's scope is the frames
// below it), so that a long run of closed macros costs one pass. ok is
// false past the CEL parser's nesting limit (the expression cannot
// compile: nothing is offered).
func scopeAtEnd(toks []token, env map[string]*typ) (_ []frame, ok bool) {
	var frames []frame
	var macroAt []int // per frame: the index of its macro's "(", or -1
	for i, tok := range toks {
		if tok.t != 'p' {
			continue
		}
		switch tok.v {
		case "(", "[", "{":
			if len(frames) >= limits.CELMaxRecursionDepth {
				return nil, false
			}
			at := -1
			if tok.v == "(" && i >= 2 && toks[i-1].t == 'i' && macros[toks[i-1].v] && isP(toks, i-2, ".") &&
				i+2 < len(toks) && toks[i+1].t == 'i' && isP(toks, i+2, ",") {
				at = i
			}
			frames = append(frames, frame{})
			macroAt = append(macroAt, at)
		case ")", "]", "}":
			if len(frames) > 0 {
				frames = frames[:len(frames)-1]
				macroAt = macroAt[:len(macroAt)-1]
			}
		}
	}
	for k, i := range macroAt {
		if i < 0 {
			continue
		}
		name := toks[i-1].v
		var recv *typ
		if rs := chainStart(toks, i-3); rs >= 0 {
			recv = chainType(toks, rs, i-3, frames[:k], env)
		}
		vars := map[string]*typ{}
		two := i+4 < len(toks) && toks[i+3].t == 'i' && isP(toks, i+4, ",") && twoVarMacros[name]
		key, val := tDyn, tDyn
		if recv != nil && recv.kind == "map" {
			key, val = recv.key, recv.elem
		} else if recv != nil && recv.kind == "list" {
			key, val = tInt, recv.elem
		}
		if two {
			vars[toks[i+1].v] = key
			vars[toks[i+3].v] = val
		} else if recv != nil && recv.kind == "map" {
			vars[toks[i+1].v] = key
		} else {
			vars[toks[i+1].v] = val
		}
		frames[k].vars = vars
	}
	return frames, true
}

var memberRE = regexp.MustCompile(`\.(\?)?([A-Za-z_]\w*)?$`)

// Complete returns the completion at the end of before (the CEL text from
// the start of the expression to the cursor) for a rule on schema: nil
// when the cursor is not after "<receiver>." with a known receiver type.
// root says the rule is on the resource's root (openAPIV3Schema), whose
// type has apiVersion, kind and metadata.
func Complete(schema *crd.JSONSchemaProps, before string, root bool) *Result {
	self := schemaType(schema, root || (schema != nil && schema.XEmbeddedResource))
	return complete(map[string]*typ{"self": self, "oldSelf": self}, before, false)
}

// complete is the completion at the end of before with env's variables;
// names says that where an identifier starts, the variables' names (and
// the macro variables in scope) are offered.
func complete(env map[string]*typ, before string, names bool) *Result {
	if utf8.RuneCountInString(before) > limits.CELExpressionSizeCodePoints {
		return nil // over the CEL parser's limit: the rule cannot compile
	}
	m := memberRE.FindStringSubmatchIndex(before)
	if m == nil {
		if names {
			return completeName(env, before)
		}
		return nil
	}
	optSelect := m[2] >= 0
	prefix := ""
	if m[4] >= 0 {
		prefix = before[m[4]:m[5]]
	}
	from := len(before) - len(prefix)
	head := before[:m[0]]
	toks := tokenize(head)
	if len(toks) == 0 {
		return nil
	}
	if last := toks[len(toks)-1]; last.t == 's' && last.e > len(head) {
		return nil
	}
	if last := toks[len(toks)-1]; last.t == 's' && (last.e == len(head) && !closedString(head[last.s:last.e])) {
		return nil // inside an unterminated string literal
	}
	scope, ok := scopeAtEnd(toks, env)
	if !ok {
		return nil
	}
	end := len(toks) - 1
	start := chainStart(toks, end)
	if start < 0 {
		return nil
	}
	recv := chainType(toks, start, end, scope, env)
	if recv == nil {
		return nil
	}
	var opts []Option
	if recv.kind == "object" || recv.fields != nil {
		for _, f := range fields(recv) {
			detail := f.t.String()
			if f.schema.XIntOrString {
				detail += " (int-or-string)"
			}
			info := f.schema.Description
			if info == "" && f.name != f.cel {
				info = `the property "` + f.name + `"`
			}
			opts = append(opts, Option{Label: f.cel, Kind: Property, Detail: detail, Info: info})
		}
	}
	if !optSelect {
		ms := methodsOf(recv)
		names := keys.Sorted(ms)
		for _, n := range names {
			k := Method
			if strings.HasPrefix(ms[n].detail, "macro") {
				k = Macro
			}
			opts = append(opts, Option{Label: n, Kind: k, Detail: ms[n].detail})
		}
	}
	if len(opts) == 0 {
		return nil
	}
	return &Result{From: from, Options: opts, Type: recv.String()}
}

// closedString reports whether a string token's text ends with its
// closing quote.
func closedString(s string) bool {
	s = strings.TrimLeft(s, "rRbB")
	if len(s) < 2 {
		return false
	}
	q := s[:1]
	if strings.HasPrefix(s, strings.Repeat(q, 3)) {
		return len(s) >= 6 && strings.HasSuffix(s, strings.Repeat(q, 3))
	}
	return strings.HasSuffix(s, q) && !strings.HasSuffix(s, `\`+q)
}

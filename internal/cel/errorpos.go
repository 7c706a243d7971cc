package cel

import "strings"

// CompileErrorOffset returns where the first position a CEL compile error
// names ("ERROR: <input>:2:7: undefined field 'x'", 1-based line and column
// in runes) falls in expr, as a rune index; ok is false when msg names no
// position. The language server and crdlab-markers place compile errors
// inside the rule's text with it.
func CompileErrorOffset(expr, msg string) (offset int, ok bool) {
	const prefix = "ERROR: <input>:"
	i := strings.Index(msg, prefix)
	if i < 0 {
		return 0, false
	}
	rest := msg[i+len(prefix):]
	line, rest, ok1 := leadingNumber(rest, ':')
	col, _, ok2 := leadingNumber(rest, ':')
	if !ok1 || !ok2 {
		return 0, false
	}
	k := 0
	rs := []rune(expr)
	for l := 1; l < line && k < len(rs); k++ {
		if rs[k] == '\n' {
			l++
		}
	}
	return k + col - 1, true
}

// leadingNumber reads the decimal number at the start of s, which must be
// followed by sep, and returns the rest after sep.
func leadingNumber(s string, sep byte) (int, string, bool) {
	n, i := 0, 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if n > 1<<24 {
			return 0, "", false
		}
		n = n*10 + int(s[i]-'0')
	}
	if i == 0 || i == len(s) || s[i] != sep {
		return 0, "", false
	}
	return n, s[i+1:], true
}

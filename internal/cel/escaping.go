package cel

import (
	"regexp"
	"strings"
	"sync"
)

// celReservedSymbols are the CEL keywords and reserved words that upstream
// escapes as __{keyword}__ when they are used as property names.
var celReservedSymbols = map[string]bool{
	"true": true, "false": true, "null": true, "in": true,
	"as": true, "break": true, "const": true, "continue": true, "else": true,
	"for": true, "function": true, "if": true, "import": true, "let": true,
	"loop": true, "package": true, "namespace": true, "return": true,
	"var": true, "void": true, "while": true,
}

// expandPattern and unexpandPattern are compiled on first use: most
// property names take the fast paths, and package-level regexps are
// compiled when the wasm module starts.
var expandPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(__|[-./]|[^a-zA-Z0-9-./_])`) })

func isIdentChar(c rune) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// Escape turns a property name into a CEL identifier the way upstream's
// apiserver/pkg/cel.Escape does: keywords become __kw__, "__" becomes
// __underscores__, '.' __dot__, '-' __dash__, '/' __slash__. The boolean is
// false when the name cannot be represented (empty, leading digit, other
// characters); such properties are inaccessible from CEL.
func Escape(ident string) (string, bool) {
	if len(ident) == 0 || ('0' <= ident[0] && ident[0] <= '9') {
		return "", false
	}
	if celReservedSymbols[ident] {
		return "__" + ident + "__", true
	}
	simple := true
	prevUnderscore := false
	for _, c := range ident {
		if c == '/' || c == '-' || c == '.' {
			simple = false
			break
		}
		if !isIdentChar(c) {
			return "", false
		}
		if c == '_' && prevUnderscore {
			simple = false
			break
		}
		prevUnderscore = c == '_'
	}
	if simple {
		return ident, true
	}
	ok := true
	out := expandPattern().ReplaceAllStringFunc(ident, func(s string) string {
		switch s {
		case "__":
			return "__underscores__"
		case ".":
			return "__dot__"
		case "-":
			return "__dash__"
		case "/":
			return "__slash__"
		}
		ok = false
		return ""
	})
	if !ok {
		return "", false
	}
	return out, true
}

var unexpandPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(_{2}[^_]+_{2})`) })

// Unescape reverses Escape.
func Unescape(escaped string) (string, bool) {
	if !strings.Contains(escaped, "__") {
		// Fast path (every field access of an object goes through here):
		// escapes all have the form __x__.
		return escaped, true
	}
	ok := true
	out := unexpandPattern().ReplaceAllStringFunc(escaped, func(s string) string {
		inner := s[2 : len(s)-2]
		switch inner {
		case "underscores":
			return "__"
		case "dot":
			return "."
		case "dash":
			return "-"
		case "slash":
			return "/"
		}
		if celReservedSymbols[inner] {
			if len(s) != len(escaped) {
				ok = false
			}
			return inner
		}
		ok = false
		return ""
	})
	if !ok {
		return "", false
	}
	return out, true
}

// hasNewlines reports whether s contains a line feed (upstream's
// messageExpression check uses [\n]+).
func hasNewlines(s string) bool { return strings.Contains(s, "\n") }

package cel

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/schema"
)

// unescapeMatcher is compiled on first use (not at the wasm module's start-up).
var unescapeMatcher = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\.`) })

func unescapeSingleQuote(s string) (string, error) {
	var err error
	out := unescapeMatcher().ReplaceAllStringFunc(s, func(m string) string {
		switch m[1] {
		case 'a':
			return "\a"
		case 'b':
			return "\b"
		case 'f':
			return "\f"
		case 'n':
			return "\n"
		case 'r':
			return "\r"
		case 't':
			return "\t"
		case 'v':
			return "\v"
		case '\'':
			return "'"
		case '\\':
			return "\\"
		default:
			err = fmt.Errorf("invalid escape char %s", m)
			return ""
		}
	})
	return out, err
}

// tokenizeFieldPath splits a JSON path into ".", "[", "]" delimiters,
// single-quoted strings and names, as upstream's scanner split function.
func tokenizeFieldPath(p string) []string {
	var toks []string
	data := p
	for len(data) > 0 {
		n := len(data)
		for i := 0; i < len(data); i++ {
			if data[0] == '\'' {
				if i > 0 && data[i] == '\'' && data[i-1] != '\\' {
					n = i + 1
					break
				}
				continue
			}
			if data[i] == '.' || data[i] == '[' || data[i] == ']' {
				if i == 0 {
					n = 1
				} else {
					n = i
				}
				break
			}
		}
		toks = append(toks, data[:n])
		data = data[n:]
	}
	return toks
}

// ValidFieldPathOption configures ValidFieldPath.
type ValidFieldPathOption func(*validFieldPathOptions)

type validFieldPathOptions struct{ allowArrayNotation bool }

// WithFieldPathAllowArrayNotation allows or forbids the ['name'] notation
// (allowed by default; selectable fields forbid it).
func WithFieldPathAllowArrayNotation(allow bool) ValidFieldPathOption {
	return func(o *validFieldPathOptions) { o.allowArrayNotation = allow }
}

// ValidFieldPath resolves a JSON path such as ".spec.replicas" or
// ".spec['a.b']" against a structural schema, as upstream's
// schema/cel.ValidFieldPath: it checks that the path only names properties
// and map keys that exist in s and returns it as a field.Path with the
// schema it leads to (same error texts). One implementation serves CRD
// validation (selectable fields, rule fieldPaths) and evaluation.
func ValidFieldPath(jsonPath string, s *schema.Structural, opts ...ValidFieldPathOption) (validFieldPath *field.Path, found *schema.Structural, err error) {
	o := validFieldPathOptions{allowArrayNotation: true}
	for _, f := range opts {
		f(&o)
	}
	allowArrayNotation := o.allowArrayNotation
	var p *field.Path
	appendToPath := func(name string, isNamed bool) error {
		if !isNamed {
			p = p.Key(name)
			s = s.AdditionalProperties.Structural
			return nil
		}
		p = p.Child(name)
		v, ok := s.Properties[name]
		if !ok {
			return fmt.Errorf("does not refer to a valid field")
		}
		s = &v
		return nil
	}
	descend := func(name string) error {
		if s == nil {
			return fmt.Errorf("does not refer to a valid field")
		}
		switch {
		case s.Properties != nil:
			return appendToPath(name, true)
		case s.AdditionalProperties != nil:
			return appendToPath(name, false)
		default:
			return fmt.Errorf("does not refer to a valid field")
		}
	}
	toks := tokenizeFieldPath(jsonPath)
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "[":
			if !allowArrayNotation {
				return nil, nil, fmt.Errorf("array notation is not allowed")
			}
			i++
			if i >= len(toks) {
				return nil, nil, fmt.Errorf("unexpected end of JSON path")
			}
			tok := toks[i]
			if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
				return nil, nil, fmt.Errorf("expected single quoted string but got %s", tok)
			}
			name, err := unescapeSingleQuote(tok[1 : len(tok)-1])
			if err != nil {
				return nil, nil, fmt.Errorf("invalid string literal: %w", err)
			}
			if err := descend(name); err != nil {
				return nil, nil, err
			}
			i++
			if i >= len(toks) {
				return nil, nil, fmt.Errorf("unexpected end of JSON path")
			}
			if toks[i] != "]" {
				return nil, nil, fmt.Errorf("expected ] but got %s", toks[i])
			}
		case ".":
			i++
			if i >= len(toks) {
				return nil, nil, fmt.Errorf("unexpected end of JSON path")
			}
			if err := descend(toks[i]); err != nil {
				return nil, nil, err
			}
		default:
			return nil, nil, fmt.Errorf("expected [ or . but got: %s", toks[i])
		}
	}
	return p, s, nil
}

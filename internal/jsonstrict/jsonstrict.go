// Package jsonstrict decodes a JSON request body into the unstructured value
// shapes (map[string]interface{}, []interface{}, string, int64, float64,
// bool, nil) exactly as the API server's strict decoding does
// (sigs.k8s.io/json's UnmarshalStrict with PreserveInts), reporting
// duplicate fields with their dotted path as sigs.k8s.io/json renders them.
//
// It is the JSON half of reading a request body; internal/yamljson is the
// YAML half.
package jsonstrict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxErrors mirrors sigs.k8s.io/json's cap on accumulated strict errors
// ("prevent excessive numbers of accumulated errors").
const MaxErrors = 100

// The kinds of FieldError.
const (
	UnknownField   = "unknown field"
	DuplicateField = "duplicate field"
)

// FieldError is one strict decoding violation, rendered as sigs.k8s.io/json
// renders it: `unknown field "spec.foo"` or `duplicate field "spec.foo"`.
type FieldError struct {
	Kind string // UnknownField or DuplicateField
	Path string
}

func (e FieldError) Error() string { return e.Kind + " " + strconv.Quote(e.Path) }

var errSyntax = errors.New("invalid JSON")

// Decode decodes data, which the caller has already syntax-checked (the
// API server reads apiVersion and kind with encoding/json first, so its
// syntax errors are the ones reported). With strict, it returns the
// duplicate fields as FieldErrors, each path once, at most MaxErrors. The
// error is for a number out of float64's range, with encoding/json's
// message, or for invalid JSON.
func Decode(data []byte, strict bool) (interface{}, []error, error) {
	d := &decoder{data: data, strict: strict}
	d.skipSpace()
	v, err := d.value()
	if err != nil {
		return nil, nil, err
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return nil, nil, errSyntax
	}
	return v, d.strictErr, nil
}

// Number is a JSON number literal decoded as upstream's unstructured JSON
// decoding does: int64 when it is an integer that fits, else float64.
func Number(s string) (interface{}, bool) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, false
	}
	return f, true
}

type decoder struct {
	data      []byte
	pos       int
	stack     []string
	strict    bool
	strictErr []error
	seen      map[string]bool
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) fieldPath(key string) string {
	if len(d.stack) == 0 {
		return key
	}
	return strings.Join(d.stack, "") + "." + key
}

func (d *decoder) saveStrict(kind, key string) {
	if len(d.strictErr) >= MaxErrors {
		return
	}
	e := FieldError{Kind: kind, Path: d.fieldPath(key)}
	id := e.Error()
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	if d.seen[id] {
		return
	}
	d.seen[id] = true
	d.strictErr = append(d.strictErr, e)
}

func (d *decoder) value() (interface{}, error) {
	if d.pos >= len(d.data) {
		return nil, errSyntax
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		return d.str()
	case c == 't':
		return d.literal("true", true)
	case c == 'f':
		return d.literal("false", false)
	case c == 'n':
		return d.literal("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	default:
		return nil, errSyntax
	}
}

func (d *decoder) literal(lit string, v interface{}) (interface{}, error) {
	if !bytes.HasPrefix(d.data[d.pos:], []byte(lit)) {
		return nil, errSyntax
	}
	d.pos += len(lit)
	return v, nil
}

func (d *decoder) number() (interface{}, error) {
	start := d.pos
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			d.pos++
			continue
		}
		break
	}
	s := string(d.data[start:d.pos])
	if v, ok := Number(s); ok {
		return v, nil
	}
	return nil, fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", s)
}

func (d *decoder) str() (string, error) {
	start := d.pos
	d.pos++ // opening quote
	simple := true
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			raw := d.data[start:d.pos]
			if simple && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", errSyntax
			}
			return s, nil
		case c == '\\':
			simple = false
			d.pos += 2
		case c < 0x20:
			return "", errSyntax
		default:
			if c >= utf8.RuneSelf {
				simple = false
			}
			d.pos++
		}
	}
	return "", errSyntax
}

func (d *decoder) object() (interface{}, error) {
	d.pos++ // {
	m := map[string]interface{}{}
	origLen := len(d.stack)
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return m, nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, errSyntax
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, errSyntax
		}
		d.pos++
		d.skipSpace()
		if d.strict {
			if _, exists := m[key]; exists {
				d.saveStrict(DuplicateField, key)
			}
			if len(d.stack) > 0 {
				d.stack = append(d.stack, ".", key)
			} else {
				d.stack = append(d.stack, key)
			}
		}
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		m[key] = v
		d.stack = d.stack[:origLen]
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, errSyntax
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return m, nil
		default:
			return nil, errSyntax
		}
	}
}

func (d *decoder) array() (interface{}, error) {
	d.pos++ // [
	l := []interface{}{}
	origLen := len(d.stack)
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return l, nil
	}
	for {
		d.skipSpace()
		if d.strict {
			d.stack = append(d.stack, "[", strconv.Itoa(len(l)), "]")
		}
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		l = append(l, v)
		d.stack = d.stack[:origLen]
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, errSyntax
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return l, nil
		default:
			return nil, errSyntax
		}
	}
}

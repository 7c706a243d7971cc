package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crdlab/crdlab/internal/yamljson"
	"sigs.k8s.io/yaml"
)

// maxStrictErrors mirrors sigs.k8s.io/json's cap on accumulated strict
// errors ("prevent excessive numbers of accumulated errors").
const maxStrictErrors = 100

// gvk is a group, version and kind.
type gvk struct{ Group, Version, Kind string }

func (g gvk) groupVersion() string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// toJSON returns the body the API server receives for one object document:
// valid JSON as is (so duplicate fields reach the server), YAML converted as
// kubectl does (sigs.k8s.io/yaml.YAMLToJSON), and a document that looks like
// JSON but is neither valid JSON nor YAML as is (the server reports the JSON
// syntax error).
func toJSON(doc []byte) ([]byte, error) {
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

// jsonBody is one request body as the API server receives it, converted
// once per request: the JSON text (toJSON), or, for YAML documents the
// yamljson shortcut reads with certainty, the decoded object itself, the
// text being written from it only when an error message quotes it.
type jsonBody struct {
	json  []byte
	err   error
	value map[string]interface{} // the shortcut's object: what decodeJSON(json) gives

	interpreted bool
	gvk         gvk
	gvkErr      error
}

func toJSONBody(doc []byte) *jsonBody {
	trimmed := bytes.TrimSpace(doc)
	if len(trimmed) > 0 && trimmed[0] != '{' && trimmed[0] != '[' {
		if v, ok := yamljson.Value(doc, canonicalNumber); ok {
			if m, ok := v.(map[string]interface{}); ok {
				return &jsonBody{value: m}
			}
		}
	}
	js, err := toJSON(doc)
	return &jsonBody{json: js, err: err}
}

// text returns the JSON text. For the shortcut's object it is written
// from the object — the bytes YAMLToJSON writes — so it must be called
// before the decoded object is changed.
func (b *jsonBody) text() []byte {
	if b.json == nil && b.value != nil {
		b.json, _ = json.Marshal(b.value)
	}
	return b.json
}

// decode is decodeJSON(b.text(), strict); the shortcut's object has no
// duplicate fields to report. The caller owns the result.
func (b *jsonBody) decode(strict bool) (interface{}, []error, error) {
	if b.value != nil {
		return b.value, nil, nil
	}
	return decodeJSON(b.json, strict)
}

// interpret is interpret(b.text()), computed once: the caller gets its own
// copy. For the shortcut's object only the top-level keys encoding/json
// could match to apiVersion or kind (it matches names as bytes.EqualFold
// does) are encoded and read.
func (b *jsonBody) interpret() (*gvk, error) {
	if !b.interpreted {
		b.interpreted = true
		text := b.json
		if b.value != nil {
			typeMeta := map[string]interface{}{}
			for k, v := range b.value {
				if strings.EqualFold(k, "apiVersion") || strings.EqualFold(k, "kind") {
					typeMeta[k] = v
				}
			}
			text, _ = json.Marshal(typeMeta)
		}
		g, err := interpret(text)
		if g != nil {
			b.gvk = *g
		}
		b.gvkErr = err
	}
	if b.gvkErr != nil {
		return nil, b.gvkErr
	}
	g := b.gvk
	return &g, nil
}

// parseGroupVersion mirrors schema.ParseGroupVersion.
func parseGroupVersion(gv string) (group, version string, err error) {
	if len(gv) == 0 || gv == "/" {
		return "", "", nil
	}
	switch strings.Count(gv, "/") {
	case 0:
		return "", gv, nil
	case 1:
		i := strings.Index(gv, "/")
		return gv[:i], gv[i+1:], nil
	default:
		return "", "", fmt.Errorf("unexpected GroupVersion string: %v", gv)
	}
}

// interpret mirrors json.SimpleMetaFactory.Interpret: it reads apiVersion and
// kind with encoding/json (whose syntax errors are therefore the ones the API
// server reports).
func interpret(data []byte) (*gvk, error) {
	findKind := struct {
		// +optional
		APIVersion string `json:"apiVersion,omitempty"`
		// +optional
		Kind string `json:"kind,omitempty"`
	}{}
	if err := json.Unmarshal(data, &findKind); err != nil {
		return nil, fmt.Errorf("couldn't get version/kind; json parse error: %v", err)
	}
	g, v, err := parseGroupVersion(findKind.APIVersion)
	if err != nil {
		return nil, err
	}
	return &gvk{Group: g, Version: v, Kind: findKind.Kind}, nil
}

// gvkWithDefaults mirrors the json serializer's helper of the same name.
func gvkWithDefaults(actual, def gvk) gvk {
	if len(actual.Kind) == 0 {
		actual.Kind = def.Kind
	}
	if len(actual.Version) == 0 && len(actual.Group) == 0 {
		actual.Group = def.Group
		actual.Version = def.Version
	}
	if len(actual.Version) == 0 && actual.Group == def.Group {
		actual.Version = def.Version
	}
	return actual
}

// summarizeData mirrors the handlers' summarizeData used in decode errors.
func summarizeData(data []byte, maxLength int) string {
	switch {
	case len(data) == 0:
		return "<empty>"
	case data[0] == '{':
		if len(data) > maxLength {
			return string(data[:maxLength]) + " ..."
		}
		return string(data)
	default:
		const hextable = "0123456789abcdef"
		enc := func(b []byte) string {
			out := make([]byte, 0, 2*len(b))
			for _, c := range b {
				out = append(out, hextable[c>>4], hextable[c&0x0f])
			}
			return string(out)
		}
		if len(data) > maxLength {
			return enc(data[:maxLength]) + " ..."
		}
		return enc(data)
	}
}

// strictError is one strict decoding violation, rendered as sigs.k8s.io/json
// renders it: `unknown field "spec.foo"` or `duplicate field "spec.foo"`.
type strictError struct {
	kind string // "unknown field" or "duplicate field"
	path string
}

func (e strictError) Error() string { return e.kind + " " + strconv.Quote(e.path) }

// jsonDecoder decodes already syntax-checked JSON into the unstructured value
// shapes (map[string]interface{}, []interface{}, string, int64, float64,
// bool, nil) exactly as sigs.k8s.io/json's UnmarshalStrict with PreserveInts
// does, recording duplicate fields with their dotted path.
type jsonDecoder struct {
	data      []byte
	pos       int
	stack     []string
	strict    bool
	strictErr []error
	seen      map[string]bool
}

var errSyntax = errors.New("invalid JSON")

func decodeJSON(data []byte, strict bool) (interface{}, []error, error) {
	d := &jsonDecoder{data: data, strict: strict}
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

func (d *jsonDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *jsonDecoder) fieldPath(key string) string {
	if len(d.stack) == 0 {
		return key
	}
	return strings.Join(d.stack, "") + "." + key
}

func (d *jsonDecoder) saveStrict(kind, key string) {
	if len(d.strictErr) >= maxStrictErrors {
		return
	}
	e := strictError{kind: kind, path: d.fieldPath(key)}
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

func (d *jsonDecoder) value() (interface{}, error) {
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

func (d *jsonDecoder) literal(lit string, v interface{}) (interface{}, error) {
	if !bytes.HasPrefix(d.data[d.pos:], []byte(lit)) {
		return nil, errSyntax
	}
	d.pos += len(lit)
	return v, nil
}

func (d *jsonDecoder) number() (interface{}, error) {
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
	if v, ok := jsonNumber(s); ok {
		return v, nil
	}
	return nil, fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", s)
}

// canonicalNumber is jsonNumber for the literals json.Marshal writes back
// unchanged from the decoded value (not "-0"), so that jsonBody.text of the
// shortcut's object is the text YAMLToJSON writes.
func canonicalNumber(s string) (interface{}, bool) {
	v, ok := jsonNumber(s)
	if i, isInt := v.(int64); ok && isInt && strconv.FormatInt(i, 10) != s {
		return nil, false
	}
	return v, ok
}

// jsonNumber is a JSON number literal decoded as upstream's unstructured
// JSON decoding does: int64 when it is an integer that fits, else float64.
func jsonNumber(s string) (interface{}, bool) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, false
	}
	return f, true
}

func (d *jsonDecoder) str() (string, error) {
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

func (d *jsonDecoder) object() (interface{}, error) {
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
				d.saveStrict("duplicate field", key)
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

func (d *jsonDecoder) array() (interface{}, error) {
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

package builtin

// The schema decoder: what the API server's json decoder (sigs.k8s.io/json
// into k8s.io/api's Go types) says about a body, for the kinds crdlab has
// no Go types for, driven by the release's OpenAPI schema and the Go type
// of each node (schemas.json.gz). It mirrors the decoder's walk: the first
// type error wins (decoding goes on), an UnmarshalJSON error (metav1.Time,
// resource.Quantity, intstr.IntOrString ...) ends it, unknown and
// duplicate fields are collected in document order with their paths
// ("spec.template.spec.containers[0].foo"), at most 100, each once.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/crdlab/crdlab/internal/cel/library"
)

// maxStrictErrors mirrors sigs.k8s.io/json's cap on accumulated strict errors.
const maxStrictErrors = 100

// rfc3339Micro is metav1.RFC3339Micro.
const rfc3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// Definitions whose Go types decode themselves (UnmarshalJSON).
const (
	defTime        = "io.k8s.apimachinery.pkg.apis.meta.v1.Time"
	defMicroTime   = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"
	defDuration    = "io.k8s.apimachinery.pkg.apis.meta.v1.Duration"
	defQuantity    = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	defIntOrString = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
)

// rawDefs keep their JSON as it is (runtime.RawExtension, metav1.FieldsV1,
// apiextensions' JSON and the JSONSchemaProps unions: a CRD is validated
// natively, never by this decoder).
var rawDefs = map[string]bool{
	"io.k8s.apimachinery.pkg.runtime.RawExtension":                                          true,
	"io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1":                                         true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON":                         true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray":       true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool":        true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray": true,
}

// strictError is sigs.k8s.io/json's strict error: `unknown field "a.b"`.
type strictError struct{ kind, path string }

func (e *strictError) Error() string { return e.kind + " " + strconv.Quote(e.path) }

// typeError is encoding/json's UnmarshalTypeError, rendered.
type typeError struct {
	value, goType string
	// structName and field are the error context: the innermost struct
	// and the JSON path of names from the root.
	structName, field string
}

func (e *typeError) Error() string {
	if e.structName != "" || e.field != "" {
		return "json: cannot unmarshal " + e.value + " into Go struct field " + e.structName + "." + e.field + " of type " + e.goType
	}
	return "json: cannot unmarshal " + e.value + " into Go value of type " + e.goType
}

type schemaDecoder struct {
	t       *schemaTable
	data    []byte
	pos     int
	strict  bool
	saved   error
	strictE []error
	seen    map[strictError]bool
	// the json decoder's error context
	ctxStruct string
	ctxFields []string
	// the strict errors' path: "spec", ".", "ports", "[0]" ...
	path []string
}

// errAbort is an error ending the decoding (an UnmarshalJSON's).
type errAbort struct{ err error }

// schemaDecode decodes body (valid JSON) as definition def at table t, as
// kjson.UnmarshalStrict (strict) or UnmarshalCaseSensitivePreserveInts
// does into def's Go type: the strict errors and the decoding error.
func schemaDecode(t *schemaTable, def string, body []byte, strict bool) (strictErrs []error, err error) {
	d := &schemaDecoder{t: t, data: body, strict: strict}
	root := &snode{Ref: def, Go: ""}
	if n := t.defs[def]; n != nil {
		root.Go = n.Go
	}
	if e := d.value(root); e != nil {
		return nil, e.err
	}
	if d.saved != nil {
		return nil, d.saved
	}
	return d.strictE, nil
}

func (d *schemaDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// literal scans a string, number, true, false or null and returns it.
func (d *schemaDecoder) literal() []byte {
	start := d.pos
	if d.pos < len(d.data) && d.data[d.pos] == '"' {
		d.pos++
		for d.pos < len(d.data) {
			c := d.data[d.pos]
			d.pos++
			if c == '\\' {
				d.pos++
			} else if c == '"' {
				break
			}
		}
		return d.data[start:d.pos]
	}
	for d.pos < len(d.data) {
		switch c := d.data[d.pos]; {
		case c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return d.data[start:d.pos]
		}
		d.pos++
	}
	return d.data[start:d.pos]
}

// skip scans over one value and returns it.
func (d *schemaDecoder) skip() []byte {
	d.skipSpace()
	start := d.pos
	if d.pos >= len(d.data) {
		return nil
	}
	switch d.data[d.pos] {
	case '{', '[':
		depth := 0
		for d.pos < len(d.data) {
			c := d.data[d.pos]
			switch c {
			case '"':
				d.literal()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			d.pos++
			if depth == 0 {
				break
			}
		}
		return d.data[start:d.pos]
	}
	return d.literal()
}

// resolve follows a node's reference: the node to decode with, and its
// definition name ("" for an inline node).
func (d *schemaDecoder) resolve(n *snode) (*snode, string) {
	if n == nil || n.Ref == "" {
		return n, ""
	}
	return d.t.defs[n.Ref], n.Ref
}

func (d *schemaDecoder) saveError(err error) {
	if d.saved == nil {
		if te, ok := err.(*typeError); ok && (d.ctxStruct != "" || len(d.ctxFields) > 0) {
			te.structName = d.ctxStruct
			te.field = strings.Join(d.ctxFields, ".")
		}
		d.saved = err
	}
}

func (d *schemaDecoder) saveStrict(kind, key string) {
	if len(d.strictE) >= maxStrictErrors {
		return
	}
	p := key
	if len(d.path) > 0 {
		p = strings.Join(d.path, "") + "." + key
	}
	e := strictError{kind, p}
	if d.seen[e] {
		return
	}
	if d.seen == nil {
		d.seen = map[strictError]bool{}
	}
	d.seen[e] = true
	d.strictE = append(d.strictE, &e)
}

func (d *schemaDecoder) pushKey(key string) {
	if !d.strict {
		return
	}
	if len(d.path) > 0 {
		d.path = append(d.path, ".", key)
	} else {
		d.path = append(d.path, key)
	}
}

func (d *schemaDecoder) pushIndex(i int) {
	if d.strict {
		d.path = append(d.path, "[", strconv.Itoa(i), "]")
	}
}

// value decodes one value into the Go value node n describes (nil: a
// value the Go type has no field for, skipped).
func (d *schemaDecoder) value(n *snode) *errAbort {
	d.skipSpace()
	if n == nil {
		d.skip()
		return nil
	}
	goType := n.Go
	target, def := d.resolve(n)
	if target == nil {
		d.skip()
		return nil
	}
	if goType == "" {
		goType = target.Go
	}
	if def != "" {
		if unmarshal := d.unmarshaler(def); unmarshal != nil {
			raw := d.skip()
			if err := unmarshal(raw); err != nil {
				if te, ok := err.(*json.UnmarshalTypeError); ok && (d.ctxStruct != "" || len(d.ctxFields) > 0) {
					te.Struct = d.ctxStruct
					f := d.ctxFields
					if te.Field != "" {
						f = append(append([]string(nil), f...), te.Field)
					}
					te.Field = strings.Join(f, ".")
				}
				return &errAbort{err}
			}
			return nil
		}
		if rawDefs[def] {
			d.skip()
			return nil
		}
	}
	if d.pos >= len(d.data) {
		return nil
	}
	switch d.data[d.pos] {
	case '{':
		return d.object(target, def, goType)
	case '[':
		return d.array(target, goType)
	}
	d.store(d.literal(), target, goType)
	return nil
}

// isStruct reports whether a node is a Go struct (a definition with
// fields), not a map or a scalar.
func isStruct(n *snode, def string) bool {
	return def != "" && n.Type == "object" && n.Additional == nil
}

func (d *schemaDecoder) object(n *snode, def, goType string) *errAbort {
	isMap := n.Type == "object" && n.Additional != nil
	if !isMap && !isStruct(n, def) {
		d.saveError(&typeError{value: "object", goType: goType})
		d.skip()
		return nil
	}
	d.pos++ // {
	origStruct, origFields, origPath := d.ctxStruct, len(d.ctxFields), len(d.path)
	var seen map[string]bool
	for {
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil
		}
		if d.data[d.pos] == '}' {
			d.pos++
			return nil
		}
		keyLit := d.literal()
		var key string
		if err := json.Unmarshal(keyLit, &key); err != nil {
			return &errAbort{err}
		}
		d.skipSpace()
		d.pos++ // :
		var sub *snode
		if isMap {
			sub = n.Additional
			if d.strict {
				if seen == nil {
					seen = map[string]bool{}
				}
				if seen[key] {
					d.saveStrict("duplicate field", key)
				}
				seen[key] = true
			}
			d.pushKey(key)
		} else if p, ok := n.Properties[key]; ok {
			if d.strict {
				if seen == nil {
					seen = map[string]bool{}
				}
				if seen[key] {
					d.saveStrict("duplicate field", key)
				}
				seen[key] = true
			}
			sub = p
			d.ctxFields = append(d.ctxFields, p.Inline...)
			d.ctxStruct = goName(n.Go)
			d.ctxFields = append(d.ctxFields, key)
			d.pushKey(key)
		} else if d.strict {
			d.saveStrict("unknown field", key)
		}
		if err := d.value(sub); err != nil {
			return err
		}
		d.ctxStruct, d.ctxFields, d.path = origStruct, d.ctxFields[:origFields], d.path[:origPath]
		d.skipSpace()
		if d.pos < len(d.data) && d.data[d.pos] == ',' {
			d.pos++
		}
	}
}

func (d *schemaDecoder) array(n *snode, goType string) *errAbort {
	items := n.Items
	if n.Type == "string" && n.Format == "byte" {
		// []byte decodes an array of numbers
		items = &snode{Type: "integer", Format: "uint8", Go: "uint8"}
	}
	if n.Type != "array" && items == nil {
		d.saveError(&typeError{value: "array", goType: goType})
		d.skip()
		return nil
	}
	if items == nil {
		items = &snode{}
	}
	d.pos++ // [
	origPath := len(d.path)
	for i := 0; ; i++ {
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil
		}
		if d.data[d.pos] == ']' {
			d.pos++
			return nil
		}
		d.pushIndex(i)
		if err := d.value(items); err != nil {
			return err
		}
		d.path = d.path[:origPath]
		d.skipSpace()
		if d.pos < len(d.data) && d.data[d.pos] == ',' {
			d.pos++
		}
	}
}

// store mirrors literalStore: a string, number, bool or null into the
// Go value n describes.
func (d *schemaDecoder) store(item []byte, n *snode, goType string) {
	if len(item) == 0 {
		return
	}
	kind := n.Type
	if kind == "object" || kind == "array" || (kind == "string" && n.Format == "byte") {
		kind = "composite:" + kind
	}
	switch c := item[0]; {
	case c == 'n':
		return
	case c == 't' || c == 'f':
		if kind != "boolean" {
			d.saveError(&typeError{value: "bool", goType: goType})
		}
	case c == '"':
		switch {
		case kind == "string":
		case n.Type == "string" && n.Format == "byte":
			var s string
			if err := json.Unmarshal(item, &s); err != nil {
				d.saveError(err)
				return
			}
			b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
			if _, err := base64.StdEncoding.Decode(b, []byte(s)); err != nil {
				d.saveError(err)
			}
		default:
			d.saveError(&typeError{value: "string", goType: goType})
		}
	default:
		s := string(item)
		switch {
		case kind == "integer":
			bits, unsigned := intBits(n.Format, goType)
			var err error
			if unsigned {
				_, err = strconv.ParseUint(s, 10, bits)
			} else {
				_, err = strconv.ParseInt(s, 10, bits)
			}
			if err != nil {
				d.saveError(&typeError{value: "number " + s, goType: goType})
			}
		case kind == "number":
			bits := 64
			if n.Format == "float" {
				bits = 32
			}
			if _, err := strconv.ParseFloat(s, bits); err != nil {
				d.saveError(&typeError{value: "number " + s, goType: goType})
			}
		default:
			d.saveError(&typeError{value: "number", goType: goType})
		}
	}
}

// intBits is the size of an integer node's Go type.
func intBits(format, goType string) (bits int, unsigned bool) {
	switch goType {
	case "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "int", "uint":
		unsigned = strings.HasPrefix(goType, "u")
		b := strings.TrimLeft(goType, "uint")
		if b == "" {
			return 64, unsigned
		}
		bits, _ = strconv.Atoi(b)
		return bits, unsigned
	}
	switch format {
	case "int32":
		return 32, false
	case "uint8":
		return 8, true
	}
	return 64, false
}

// unmarshaler is the UnmarshalJSON of a definition's Go type, nil when it
// has none.
func (d *schemaDecoder) unmarshaler(def string) func([]byte) error {
	switch def {
	case defTime:
		return func(b []byte) error { return unmarshalTime(b, time.RFC3339) }
	case defMicroTime:
		return func(b []byte) error { return unmarshalTime(b, rfc3339Micro) }
	case defDuration:
		return func(b []byte) error {
			var s string
			if err := json.Unmarshal(b, &s); err != nil {
				return err
			}
			_, err := time.ParseDuration(s)
			return err
		}
	case defIntOrString:
		return func(b []byte) error {
			if len(b) > 0 && b[0] == '"' {
				var s string
				return json.Unmarshal(b, &s)
			}
			var i int32
			return json.Unmarshal(b, &i)
		}
	case defQuantity:
		return unmarshalQuantity
	}
	return nil
}

// unmarshalTime mirrors metav1.Time's (and MicroTime's) UnmarshalJSON.
func unmarshalTime(b []byte, layout string) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	_, err := time.Parse(layout, s)
	return err
}

// unmarshalQuantity mirrors resource.Quantity's UnmarshalJSON: the quotes
// cut (not unescaped), the rest parsed by ParseQuantity.
func unmarshalQuantity(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if l := len(b); l >= 2 && b[0] == '"' && b[l-1] == '"' {
		b = b[1 : l-1]
	}
	_, err := library.ParseQuantity(strings.TrimSpace(string(b)))
	return err
}

// errNoSchema is returned for a kind the release has no schema for.
var errNoSchema = errors.New("no schema")

// schemaCheck runs the schema decoder for a served kind crdlab does not
// model natively, with Serve's field validation: the decode error's
// message ("" when it decodes) and the warnings of Warn.
func schemaCheck(r *Resource, t *schemaTable, body []byte, fv string, out *Outcome) (string, error) {
	g := r.Group
	if g == "" {
		g = "core"
	}
	def, ok := t.kinds[g+"/"+r.Version+"/"+r.Kind]
	if !ok {
		return "", errNoSchema
	}
	strictErrs, err := schemaDecode(t, def, body, fv != Ignore)
	if err != nil {
		return fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", r.Kind, r.Version, r.Kind, err), nil
	}
	if len(strictErrs) > 0 {
		if fv == Strict {
			msgs := make([]string, len(strictErrs))
			for i, e := range strictErrs {
				msgs[i] = e.Error()
			}
			return fmt.Sprintf("%s in version %q cannot be handled as a %s: strict decoding error: %s", r.Kind, r.Version, r.Kind, strings.Join(msgs, ", ")), nil
		}
		for _, e := range strictErrs {
			out.Warnings = append(out.Warnings, e.Error())
		}
	}
	return "", nil
}

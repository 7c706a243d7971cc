package crd

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/crdlab/crdlab/internal/position"
	"github.com/crdlab/crdlab/internal/yamldoc"
	"github.com/crdlab/crdlab/internal/yamljson"
	"sigs.k8s.io/yaml"
	yamlv3 "sigs.k8s.io/yaml/goyaml.v3"
)

// APIVersion is the only apiVersion Decode accepts for a CRD.
const APIVersion = Group + "/v1"

// Kind is the kind of a CustomResourceDefinition.
const Kind = "CustomResourceDefinition"

// DecodeError is a decoding error located in the input: the file, the
// 1-based line and column of the offending key or value (0 when unknown),
// the JSON path of the field (e.g. "spec.versions[0].served") and a message.
type DecodeError struct {
	File         string
	Line, Column int
	Path         string
	Msg          string

	// pathInMsg is set when Msg already names the path (unknown and
	// duplicate fields), so Error does not repeat it.
	pathInMsg bool
}

// Error renders "file:line:column: path: msg", leaving out empty parts.
func (e *DecodeError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(":")
	}
	if e.Line > 0 {
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteString(":")
		if e.Column > 0 {
			b.WriteString(strconv.Itoa(e.Column))
			b.WriteString(":")
		}
	}
	if b.Len() > 0 {
		b.WriteString(" ")
	}
	if e.Path != "" && !e.pathInMsg {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// DecodeOne decodes exactly one CustomResourceDefinition; a stream holding
// none or more than one is an error.
func DecodeOne(data []byte, filename string) (*CustomResourceDefinition, error) {
	crds, err := Decode(data, filename)
	if err != nil {
		return nil, err
	}
	if len(crds) != 1 {
		return nil, &DecodeError{File: filename, Msg: fmt.Sprintf("expected exactly one CustomResourceDefinition, found %d", len(crds))}
	}
	return crds[0], nil
}

// DecodeOneDocument is DecodeDocuments for exactly one CustomResourceDefinition.
func DecodeOneDocument(data []byte, filename string) (Document, error) {
	docs, err := DecodeDocuments(data, filename)
	if err != nil {
		return Document{}, err
	}
	if len(docs) != 1 {
		return Document{}, &DecodeError{File: filename, Msg: fmt.Sprintf("expected exactly one CustomResourceDefinition, found %d", len(docs))}
	}
	return docs[0], nil
}

// Decode reads every CustomResourceDefinition in data: a JSON object, a YAML
// document, a multi-document YAML stream ("---" separated; as in kubectl, a
// line beginning with "---" followed by anything but a comment is an
// error), or a List /
// CustomResourceDefinitionList with items. Decoding is strict: unknown and
// duplicate fields, wrong value types and a wrong apiVersion or kind are
// reported as *DecodeError with the position in the input. YAML is turned
// into JSON exactly as kubectl does it (sigs.k8s.io/yaml.YAMLToJSON, YAML 1.1
// scalars: "yes" is true), and the v1 API defaults are applied (see
// SetDefaults).
//
// Decode is DecodeDocuments failing on the first unknown or duplicate field
// (what the API server does with fieldValidation=Strict, kubectl's default).
func Decode(data []byte, filename string) ([]*CustomResourceDefinition, error) {
	docs, err := DecodeDocuments(data, filename)
	if err != nil {
		return nil, err
	}
	out := make([]*CustomResourceDefinition, 0, len(docs))
	for _, d := range docs {
		if len(d.FieldErrors) > 0 {
			return nil, d.FieldErrors[0].Pos
		}
		out = append(out, d.CRD)
	}
	return out, nil
}

// Document is one CustomResourceDefinition read by DecodeDocuments with its
// unknown and duplicate fields.
type Document struct {
	// CRD is the decoded CRD, with the v1 defaults. Unknown fields are
	// dropped; of duplicate fields the last one is kept.
	CRD *CustomResourceDefinition
	// FieldErrors are the unknown and duplicate fields, in the order the
	// API server's strict JSON decoder reports them.
	FieldErrors []*FieldError
}

// FieldError is an unknown or duplicate field of a CRD as the API server's
// strict JSON decoder (sigs.k8s.io/json, through
// k8s.io/apimachinery/pkg/runtime/serializer/json) reports it: with
// fieldValidation=Strict the request fails with "strict decoding error: "
// and the errors joined by ", ", with Warn each is a warning, with Ignore
// they are dropped silently.
//
// The decoder does not look inside free-form values (default, example,
// enum: apiextensions/v1.JSON reads raw bytes) nor inside the
// schema-or-array/bool/string-array fields (items, additionalProperties,
// additionalItems, dependencies: their UnmarshalJSON decodes with the
// non-strict k8s.io/apimachinery/pkg/util/json), so neither is reported
// there: upstream drops such unknown fields and keeps the last of duplicates.
type FieldError struct {
	// Type is "unknown field" or "duplicate field".
	Type string
	// Path is upstream's path: struct fields and map keys joined with ".",
	// list indexes as "[i]" (spec.versions[0].schema.openAPIV3Schema.properties.spec),
	// relative to the CRD (not to an enclosing List).
	Path string
	// Pos is the same error located in the input: file, line and column of
	// the key, and crdlab's path spelling (map keys as [key]).
	Pos *DecodeError
}

// The FieldError types.
const (
	UnknownField   = "unknown field"
	DuplicateField = "duplicate field"
)

// Error renders the error as upstream does: unknown field "path".
func (e *FieldError) Error() string { return e.Type + " " + strconv.Quote(e.Path) }

// DecodeDocuments reads every CustomResourceDefinition in data as Decode
// does, but reports unknown and duplicate fields per CRD (Document) instead
// of failing on them. The error is any other decoding failure.
func DecodeDocuments(data []byte, filename string) ([]Document, error) {
	var out []Document
	docs, err := yamldoc.Split(data)
	if se, ok := err.(*yamldoc.SeparatorError); ok {
		return nil, &DecodeError{File: filename, Line: se.Line, Msg: se.Error()}
	}
	for _, d := range docs {
		ds, err := decodeDocument(document{data: d.Data, firstLine: d.Line}, filename)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	return out, nil
}

type document struct {
	data      []byte
	firstLine int // 1-based line of data[0] in the input
}

func decodeDocument(doc document, filename string) ([]Document, error) {
	if bytes.HasPrefix(doc.data, []byte("---")) {
		doc.data = doc.data[3:]
	}
	var root yamlv3.Node
	// goyaml.v3 only provides positions; what the API server receives is
	// decided by sigs.k8s.io/yaml.YAMLToJSON (YAML 1.1, as kubectl). YAML
	// and JSON both go through it: kubectl re-encodes every object it reads
	// (JSON included) from decoded values, so e.g. 1.0 reaches the API
	// server as 1.
	var node *yamlv3.Node
	if err := yamlv3.Unmarshal(doc.data, &root); err != nil {
		if _, err2 := yaml.YAMLToJSON(doc.data); err2 != nil {
			return nil, yamlSyntaxError(err, doc.firstLine, filename)
		}
		// accepted by kubectl's parser only: decode without positions
	} else {
		if root.Kind == 0 || (root.Kind == yamlv3.DocumentNode && len(root.Content) == 0) {
			return nil, nil // empty document (comments only)
		}
		node = resolve(&root)
		if node != nil && node.Kind == yamlv3.ScalarNode && node.Tag == "!!null" {
			return nil, nil
		}
	}
	d := &decoder{file: filename, lineOffset: doc.firstLine - 1}
	var value interface{}
	ok := false
	if node != nil && treeShortcutApplies(doc.data, node) {
		value, ok = nodeJSONValue(node, 0)
	}
	if !ok {
		value, ok = yamlToJSONValue(doc.data)
	}
	if !ok {
		jsonBytes, err := yaml.YAMLToJSON(doc.data)
		if err != nil {
			return nil, &DecodeError{File: filename, Line: doc.firstLine, Msg: err.Error()}
		}
		if bytes.Equal(bytes.TrimSpace(jsonBytes), []byte("null")) {
			return nil, nil
		}
		dec := json.NewDecoder(bytes.NewReader(jsonBytes))
		dec.UseNumber()
		if err := dec.Decode(&value); err != nil {
			return nil, d.errAt(node, "", err.Error())
		}
	} else if value == nil {
		return nil, nil
	}
	obj, ok := value.(map[string]interface{})
	if !ok {
		return nil, d.errAt(node, "", "expected an object, got "+describe(value))
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if kind == "List" || kind == "CustomResourceDefinitionList" {
		return d.decodeList(obj, node, apiVersion, kind)
	}
	c, err := d.decodeCRD(obj, node, "")
	if err != nil {
		return nil, err
	}
	return []Document{c}, nil
}

func (d *decoder) decodeList(obj map[string]interface{}, node *yamlv3.Node, apiVersion, kind string) ([]Document, error) {
	if kind == "List" && apiVersion != "v1" {
		return nil, d.errAt(d.valueNode(node, "apiVersion"), "apiVersion", fmt.Sprintf("unsupported apiVersion %q for kind List (expected \"v1\")", apiVersion))
	}
	if kind == "CustomResourceDefinitionList" && apiVersion != APIVersion {
		return nil, d.errAt(d.valueNode(node, "apiVersion"), "apiVersion", fmt.Sprintf("unsupported apiVersion %q (expected %q)", apiVersion, APIVersion))
	}
	if err := d.checkDuplicates(node, "", false); err != nil {
		return nil, err
	}
	for _, k := range keys.Sorted(obj) {
		switch k {
		case "apiVersion", "kind", "items", "metadata":
		default:
			return nil, d.unknownField(d.keyNode(node, k), k)
		}
	}
	items, ok := obj["items"].([]interface{})
	if !ok && obj["items"] != nil {
		return nil, d.errAt(d.valueNode(node, "items"), "items", "expected array, got "+describe(obj["items"]))
	}
	itemsNode := d.valueNode(node, "items")
	var out []Document
	for i, it := range items {
		p := fmt.Sprintf("items[%d]", i)
		itemNode := d.indexNode(itemsNode, i)
		m, ok := it.(map[string]interface{})
		if !ok {
			return nil, d.errAt(itemNode, p, "expected object, got "+describe(it))
		}
		c, err := d.decodeCRD(m, itemNode, p)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (d *decoder) decodeCRD(obj map[string]interface{}, node *yamlv3.Node, prefix string) (Document, error) {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if apiVersion != APIVersion {
		msg := fmt.Sprintf("unsupported apiVersion %q (expected %q)", apiVersion, APIVersion)
		if apiVersion == "" {
			msg = fmt.Sprintf("apiVersion is required (expected %q)", APIVersion)
		}
		return Document{}, d.errAt(d.valueNode(node, "apiVersion"), join(prefix, "apiVersion"), msg)
	}
	if kind != Kind {
		msg := fmt.Sprintf("unsupported kind %q (expected %q)", kind, Kind)
		if kind == "" {
			msg = fmt.Sprintf("kind is required (expected %q)", Kind)
		}
		return Document{}, d.errAt(d.valueNode(node, "kind"), join(prefix, "kind"), msg)
	}
	d.fieldErrors, d.seenFieldErrors = nil, nil
	if err := d.check(obj, node, reflect.TypeOf(CustomResourceDefinition{}), prefix, ""); err != nil {
		return Document{}, err
	}
	c := &CustomResourceDefinition{}
	if err := fill(obj, reflect.ValueOf(c).Elem()); err != nil {
		return Document{}, d.errAt(node, prefix, err.Error())
	}
	SetDefaults(c)
	return Document{CRD: c, FieldErrors: d.fieldErrors}, nil
}

// decoder walks the decoded JSON value and the YAML node tree side by side:
// types come from the JSON (what the API server sees), positions from the
// YAML nodes.
type decoder struct {
	file       string
	lineOffset int

	// fieldErrors are the unknown and duplicate fields of the CRD being
	// decoded; seenFieldErrors dedups them as sigs.k8s.io/json does.
	fieldErrors     []*FieldError
	seenFieldErrors map[FieldError]bool

	// root and aroot start the paths of check's value (crdlab's and
	// upstream's spelling), segs are the levels below it being checked.
	root, aroot string
	segs        []pathSeg
}

// maxFieldErrors mirrors sigs.k8s.io/json's bound on saved strict errors.
const maxFieldErrors = 100

// fieldError records an unknown or duplicate field: k is the key node,
// path crdlab's path, apath upstream's.
func (d *decoder) fieldError(typ string, k *yamlv3.Node, path, apath string) {
	key := FieldError{Type: typ, Path: apath}
	if d.seenFieldErrors[key] || len(d.fieldErrors) >= maxFieldErrors {
		return
	}
	if d.seenFieldErrors == nil {
		d.seenFieldErrors = map[FieldError]bool{}
	}
	d.seenFieldErrors[key] = true
	pos := d.errAt(k, path, fmt.Sprintf("%s %q", typ, path))
	pos.pathInMsg = true
	d.fieldErrors = append(d.fieldErrors, &FieldError{Type: typ, Path: apath, Pos: pos})
}

// keyItem is a key of a mapping to check, or (dup set) the second
// occurrence of a key written more than once.
type keyItem struct {
	key string
	dup *yamlv3.Node
	// value is the value node of the key's last occurrence (the one
	// YAMLToJSON keeps), nil when the tree does not show the key verbatim.
	value *yamlv3.Node
}

// valueNode is the item's value node, or where d.valueNode places a key
// the tree does not show.
func (it *keyItem) valueNode(d *decoder, n *yamlv3.Node) *yamlv3.Node {
	if it.value != nil {
		return it.value
	}
	return d.valueNode(n, it.key)
}

// keyItems returns the keys of obj in document order (then sorted for keys
// the YAML tree does not show verbatim), each once, with a duplicate item
// where a key occurs the second time (not when lenient).
func (d *decoder) keyItems(obj map[string]interface{}, n *yamlv3.Node, lenient bool) []keyItem {
	items := make([]keyItem, 0, len(obj))
	// first is 1 + the index in items of each key's item; twice marks the
	// keys whose duplicate item is added (at their second occurrence).
	var first map[string]int
	if m := resolve(n); m != nil && m.Kind == yamlv3.MappingNode {
		first = make(map[string]int, len(m.Content)/2)
		var twice map[string]bool
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := m.Content[i].Value
			if _, ok := obj[k]; !ok {
				continue
			}
			at := first[k]
			if at == 0 {
				items = append(items, keyItem{key: k, value: m.Content[i+1]})
				first[k] = len(items)
				continue
			}
			items[at-1].value = m.Content[i+1]
			if !twice[k] {
				if twice == nil {
					twice = map[string]bool{}
				}
				twice[k] = true
				if !lenient {
					items = append(items, keyItem{key: k, dup: m.Content[i]})
				}
			}
		}
	}
	if len(first) < len(obj) {
		for _, k := range keys.Sorted(obj) {
			if first[k] == 0 {
				items = append(items, keyItem{key: k})
			}
		}
	}
	return items
}

func yamlSyntaxError(err error, firstLine int, file string) error {
	msg := err.Error()
	line := 0
	// goyaml.v3 messages look like "yaml: line 3: did not find expected key".
	if rest, ok := strings.CutPrefix(msg, "yaml: line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line = n + firstLine - 1
				msg = "yaml: " + strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return &DecodeError{File: file, Line: line, Msg: msg}
}

func (d *decoder) errAt(n *yamlv3.Node, path, msg string) *DecodeError {
	e := &DecodeError{File: d.file, Path: path, Msg: msg}
	if n != nil && n.Line > 0 {
		e.Line = n.Line + d.lineOffset
		e.Column = n.Column
	}
	return e
}

func (d *decoder) unknownField(n *yamlv3.Node, path string) *DecodeError {
	e := d.errAt(n, path, fmt.Sprintf("unknown field %q", path))
	e.pathInMsg = true
	return e
}

// resolve, lookup and indexNode walk the tree with internal/position's
// helpers, the walker the engine's error positions use.
func resolve(n *yamlv3.Node) *yamlv3.Node { return position.Resolve(n) }

// keyNode and valueNode find the last occurrence of key in a mapping node
// (the one YAMLToJSON keeps); they fall back to the mapping itself.
func (d *decoder) keyNode(n *yamlv3.Node, key string) *yamlv3.Node {
	k, _ := d.lookup(n, key)
	return k
}

func (d *decoder) valueNode(n *yamlv3.Node, key string) *yamlv3.Node {
	_, v := d.lookup(n, key)
	return v
}

func (d *decoder) lookup(n *yamlv3.Node, key string) (*yamlv3.Node, *yamlv3.Node) {
	k, v := position.Lookup(n, key)
	if k == nil {
		if m := resolve(n); m != nil && m.Kind == yamlv3.MappingNode {
			return m, m
		}
		return n, n
	}
	return k, v
}

func (d *decoder) indexNode(n *yamlv3.Node, i int) *yamlv3.Node {
	if item := position.Index(n, i); item != nil {
		return item
	}
	return n
}

// checkDuplicates reports the second occurrence of a key in a mapping;
// isMap selects the [key] path notation of maps over .field of structs.
func (d *decoder) checkDuplicates(n *yamlv3.Node, path string, isMap bool) error {
	m := resolve(n)
	if m == nil || m.Kind != yamlv3.MappingNode {
		return nil
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if seen[k] {
			p := join(path, k)
			if isMap {
				p = path + keyPath(k)
			}
			e := d.errAt(m.Content[i], p, fmt.Sprintf("duplicate field %q", p))
			e.pathInMsg = true
			return e
		}
		seen[k] = true
	}
	return nil
}

var (
	jsonType       = reflect.TypeOf(JSON{})
	rawMessageType = reflect.TypeOf(json.RawMessage{})
	orArrayType    = reflect.TypeOf(JSONSchemaPropsOrArray{})
	orBoolType     = reflect.TypeOf(JSONSchemaPropsOrBool{})
	orStringsType  = reflect.TypeOf(JSONSchemaPropsOrStringArray{})
	schemaType     = reflect.TypeOf(JSONSchemaProps{})
	bytesType      = reflect.TypeOf([]byte{})
)

// extraKnownFields lists wire fields that exist upstream but that the
// types here do not keep (they do not influence validation).
var extraKnownFields = map[reflect.Type]map[string]bool{
	reflect.TypeOf(ObjectMeta{}):                     {"selfLink": true, "deletionGracePeriodSeconds": true},
	reflect.TypeOf(CustomResourceDefinitionStatus{}): {"observedGeneration": true},
}

// check verifies that v (a JSON value with json.Number numbers) fits the Go
// type t the way the API server's strict decoder requires; path is crdlab's
// spelling of the field path, apath upstream's (FieldError.Path). Unknown
// and duplicate fields are recorded (fieldError), everything else fails.
func (d *decoder) check(v interface{}, n *yamlv3.Node, t reflect.Type, path, apath string) error {
	d.root, d.aroot, d.segs = path, apath, d.segs[:0]
	return d.checkIn(v, n, t, false)
}

// pathSeg is one level of the path of the value being checked: a struct
// field, a map key or a list index. The decoder keeps the levels on a
// stack (segs) and spells the path out only when an error names it (most
// documents have none).
type pathSeg struct {
	kind  uint8 // pathField, pathKey, pathIndex
	name  string
	index int
}

const (
	pathField uint8 = iota
	pathKey
	pathIndex
)

// crdlabPath is crdlab's spelling of the current path: fields joined with
// ".", map keys as [key].
func (d *decoder) crdlabPath() string { return d.renderPath(false) }

// upstreamPath is upstream's spelling (FieldError.Path): map keys as fields.
func (d *decoder) upstreamPath() string { return d.renderPath(true) }

func (d *decoder) renderPath(upstream bool) string {
	s := d.root
	if upstream {
		s = d.aroot
	}
	for _, seg := range d.segs {
		switch {
		case seg.kind == pathIndex:
			s += "[" + strconv.Itoa(seg.index) + "]"
		case seg.kind == pathKey && !upstream:
			s += keyPath(seg.name)
		default:
			s = join(s, seg.name)
		}
	}
	return s
}

func (d *decoder) push(seg pathSeg) { d.segs = append(d.segs, seg) }
func (d *decoder) pop()             { d.segs = d.segs[:len(d.segs)-1] }

// The value checked for a key written twice is the last one (YAMLToJSON
// keeps it), where the first one is; the duplicate is reported where the
// second occurrence is. Upstream reports the first value's errors, the
// duplicate, then the second value's (deduplicated): the same when the
// first value has no errors of its own.
//
// checkIn is check; lenient is set inside the fields upstream decodes
// without strictness (the schema-or-something types): unknown fields are
// dropped and duplicates not reported there.
func (d *decoder) checkIn(v interface{}, n *yamlv3.Node, t reflect.Type, lenient bool) error {
	if v == nil {
		return nil // null is accepted everywhere, as by encoding/json
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case jsonType, rawMessageType:
		// Read as raw bytes upstream: nothing inside is a strict error, and
		// of duplicate keys the last one is kept (as YAMLToJSON does).
		return nil
	case orArrayType:
		switch v.(type) {
		case map[string]interface{}:
			return d.checkIn(v, n, schemaType, true)
		case []interface{}:
			return d.checkIn(v, n, reflect.TypeOf([]JSONSchemaProps{}), true)
		}
		return d.errAt(n, d.crdlabPath(), "expected object or array, got "+describe(v))
	case orBoolType:
		switch v.(type) {
		case map[string]interface{}:
			return d.checkIn(v, n, schemaType, true)
		case bool:
			return nil
		}
		return d.errAt(n, d.crdlabPath(), "expected object or boolean, got "+describe(v))
	case orStringsType:
		switch v.(type) {
		case map[string]interface{}:
			return d.checkIn(v, n, schemaType, true)
		case []interface{}:
			return d.checkIn(v, n, reflect.TypeOf([]string{}), true)
		}
		return d.errAt(n, d.crdlabPath(), "expected object or array, got "+describe(v))
	case bytesType:
		s, ok := v.(string)
		if !ok {
			return d.errAt(n, d.crdlabPath(), "expected base64 string, got "+describe(v))
		}
		if _, err := base64.StdEncoding.DecodeString(s); err != nil {
			return d.errAt(n, d.crdlabPath(), "expected base64 string, got "+describe(v)+": "+err.Error())
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]interface{})
		if !ok {
			return d.errAt(n, d.crdlabPath(), "expected object, got "+describe(v))
		}
		fields := jsonFields(t)
		for _, it := range d.keyItems(obj, n, lenient) {
			k := it.key
			f, ok := fields[k]
			if it.dup != nil {
				if ok || extraKnownFields[t][k] {
					d.push(pathSeg{kind: pathField, name: k})
					d.fieldError(DuplicateField, it.dup, d.crdlabPath(), d.upstreamPath())
					d.pop()
				}
				continue
			}
			if !ok {
				if !lenient && !extraKnownFields[t][k] {
					d.push(pathSeg{kind: pathField, name: k})
					d.fieldError(UnknownField, d.keyNode(n, k), d.crdlabPath(), d.upstreamPath())
					d.pop()
				}
				continue // dropped (fill skips it)
			}
			d.push(pathSeg{kind: pathField, name: k})
			if err := d.checkIn(obj[k], it.valueNode(d, n), f.typ, lenient); err != nil {
				return err
			}
			d.pop()
		}
	case reflect.Map:
		obj, ok := v.(map[string]interface{})
		if !ok {
			return d.errAt(n, d.crdlabPath(), "expected object, got "+describe(v))
		}
		for _, it := range d.keyItems(obj, n, lenient) {
			k := it.key
			d.push(pathSeg{kind: pathKey, name: k})
			if it.dup != nil {
				d.fieldError(DuplicateField, it.dup, d.crdlabPath(), d.upstreamPath())
				d.pop()
				continue
			}
			if err := d.checkIn(obj[k], it.valueNode(d, n), t.Elem(), lenient); err != nil {
				return err
			}
			d.pop()
		}
	case reflect.Slice:
		arr, ok := v.([]interface{})
		if !ok {
			return d.errAt(n, d.crdlabPath(), "expected array, got "+describe(v))
		}
		for i, e := range arr {
			d.push(pathSeg{kind: pathIndex, index: i})
			if err := d.checkIn(e, d.indexNode(n, i), t.Elem(), lenient); err != nil {
				return err
			}
			d.pop()
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return d.errAt(n, d.crdlabPath(), "expected string, got "+describe(v))
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return d.errAt(n, d.crdlabPath(), "expected boolean, got "+describe(v))
		}
	case reflect.Int32, reflect.Int64:
		num, ok := v.(json.Number)
		if !ok {
			return d.errAt(n, d.crdlabPath(), "expected integer, got "+describe(v))
		}
		i, err := strconv.ParseInt(string(num), 10, 64)
		if err != nil {
			return d.errAt(n, d.crdlabPath(), "expected integer, got "+describe(v))
		}
		if t.Kind() == reflect.Int32 && (i > math.MaxInt32 || i < math.MinInt32) {
			return d.errAt(n, d.crdlabPath(), "expected 32-bit integer, got "+describe(v))
		}
	case reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return d.errAt(n, d.crdlabPath(), "expected number, got "+describe(v))
		}
	}
	return nil
}

// jsonField is a struct field as encoding/json sees it.
type jsonField struct {
	index int
	typ   reflect.Type
}

var fieldCache sync.Map // reflect.Type -> map[string]jsonField

// jsonFields maps the JSON names of t's fields to their index and type.
func jsonFields(t reflect.Type) map[string]jsonField {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]jsonField)
	}
	fields := map[string]jsonField{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name := sf.Name
		if tag, ok := sf.Tag.Lookup("json"); ok {
			if tag == "-" {
				continue
			}
			if n, _, _ := strings.Cut(tag, ","); n != "" {
				name = n
			}
		}
		fields[name] = jsonField{index: i, typ: sf.Type}
	}
	fieldCache.Store(t, fields)
	return fields
}

func describe(v interface{}) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return "string " + strconv.Quote(t)
	case bool:
		return "boolean " + strconv.FormatBool(t)
	case json.Number:
		return "number " + string(t)
	case map[string]interface{}:
		return "object"
	case []interface{}:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// keyPath renders a map key the way field paths do: [key].
func keyPath(k string) string {
	return "[" + k + "]"
}

// yamlToJSONValue is sigs.k8s.io/yaml.YAMLToJSON followed by decoding the
// JSON with json.Number numbers, without the JSON round trip, where the
// result is provably the same (see yamljson.Value); ok false sends the
// caller down the YAMLToJSON path, errors included.
func yamlToJSONValue(data []byte) (v interface{}, ok bool) {
	return yamljson.Value(data, func(lit string) (interface{}, bool) { return json.Number(lit), true })
}

// nodeJSONValue reads what YAMLToJSON would give straight from the goyaml.v3
// tree, for the documents where goyaml.v2's YAML 1.1 reading is certain:
// no anchors, aliases, explicit tags or merge keys, no duplicate keys,
// string keys, valid UTF-8, and plain scalars that are strings, decimal
// integers without leading zeros, YAML 1.1 booleans or nulls. Anything else
// returns ok false (the caller then asks goyaml.v2).
func nodeJSONValue(n *yamlv3.Node, depth int) (interface{}, bool) {
	if n == nil || depth > 10000 || !plainNode(n) {
		return nil, false
	}
	switch n.Kind {
	case yamlv3.MappingNode:
		m := make(map[string]interface{}, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yamlv3.ScalarNode || !plainNode(k) || k.Value == "<<" {
				return nil, false
			}
			ks, ok := scalarJSONValue(k)
			key, isString := ks.(string)
			if !ok || !isString {
				return nil, false
			}
			if _, dup := m[key]; dup {
				return nil, false
			}
			v, ok := nodeJSONValue(n.Content[i+1], depth+1)
			if !ok {
				return nil, false
			}
			m[key] = v
		}
		return m, true
	case yamlv3.SequenceNode:
		a := make([]interface{}, len(n.Content))
		for i, c := range n.Content {
			v, ok := nodeJSONValue(c, depth+1)
			if !ok {
				return nil, false
			}
			a[i] = v
		}
		return a, true
	case yamlv3.ScalarNode:
		return scalarJSONValue(n)
	}
	return nil, false
}

// treeShortcutApplies rules out what the goyaml.v3 tree n (parsed from data)
// does not show: directives, and the non-specific tag "!" ("! 0" is the
// string "0" for goyaml.v2 but a plain !!int node for goyaml.v3, which drops
// that tag). Any other tag marks its node (plainNode).
//
// A '!' in data is most often inside a string (a CEL rule's "!has(...)", a
// description), not a tag: goyaml.v3 places a node written with a tag at
// its tag (the event's start mark is the tag's), so only a node that starts
// with '!' can carry one, and the shortcut stays open when none does. Node
// columns count characters after goyaml.v3's line breaks; data with other
// breaks than "\n" (CR, NEL, LS, PS) or a byte-order mark is left to
// goyaml.v2.
func treeShortcutApplies(data []byte, n *yamlv3.Node) bool {
	if bytes.HasPrefix(data, []byte("%")) || bytes.Contains(data, []byte("\n%")) {
		return false
	}
	if bytes.IndexByte(data, '!') < 0 {
		return true
	}
	if n == nil || bytes.IndexByte(data, '\r') >= 0 || !utf8.Valid(data) ||
		bytes.Contains(data, []byte("\u0085")) || bytes.Contains(data, []byte("\u2028")) ||
		bytes.Contains(data, []byte("\u2029")) || bytes.Contains(data, []byte("\ufeff")) {
		return false
	}
	c := &nodeCursor{data: data, line: 1, col: 1}
	return !c.startsWithBang(n, 0)
}

// nodeCursor finds the byte at a node's line and column, moving forward
// through data as the nodes come in document order.
type nodeCursor struct {
	data      []byte
	off       int // byte offset of (line, col)
	line, col int
}

// startsWithBang reports whether n or a node under it starts with '!'
// (or cannot be placed, which is treated the same: no shortcut).
func (c *nodeCursor) startsWithBang(n *yamlv3.Node, depth int) bool {
	if depth > 10000 {
		return true
	}
	switch n.Kind {
	case yamlv3.ScalarNode, yamlv3.MappingNode, yamlv3.SequenceNode:
		off, ok := c.seek(n.Line, n.Column)
		if !ok || c.data[off] == '!' {
			return true
		}
	}
	for _, ch := range n.Content {
		if c.startsWithBang(ch, depth+1) {
			return true
		}
	}
	return false
}

// seek returns the byte offset of the 1-based line and column (in
// characters); ok is false past the end of data or of the line.
func (c *nodeCursor) seek(line, col int) (int, bool) {
	if line < c.line || (line == c.line && col < c.col) {
		c.off, c.line, c.col = 0, 1, 1
	}
	for c.line < line {
		i := bytes.IndexByte(c.data[c.off:], '\n')
		if i < 0 {
			return 0, false
		}
		c.off += i + 1
		c.line++
		c.col = 1
	}
	for c.col < col {
		if c.off >= len(c.data) || c.data[c.off] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRune(c.data[c.off:])
		c.off += size
		c.col++
	}
	if c.off >= len(c.data) {
		return 0, false
	}
	return c.off, true
}

// yamlStyleFloat is goyaml.v2's float syntax, compiled on first use (not
// at the wasm module's start-up).
var yamlStyleFloat = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
})

// looksLikeTimestamp is goyaml.v2's quick timestamp check (YYYY-).
func looksLikeTimestamp(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i == 4 && i < len(s) && s[i] == '-'
}

// plainNode reports a node without anchor and without any tag written in
// the document (goyaml.v3 then holds the implicit "!!" tag it resolved).
func plainNode(n *yamlv3.Node) bool {
	return n.Anchor == "" && n.Style&yamlv3.TaggedStyle == 0 && strings.HasPrefix(n.Tag, "!!")
}

func scalarJSONValue(n *yamlv3.Node) (interface{}, bool) {
	v := n.Value
	if !utf8.ValidString(v) {
		return nil, false
	}
	if n.Style&(yamlv3.DoubleQuotedStyle|yamlv3.SingleQuotedStyle|yamlv3.LiteralStyle|yamlv3.FoldedStyle) != 0 {
		return v, true
	}
	if v == "" {
		return nil, true
	}
	switch v {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE":
		return true, true
	case "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE":
		return false, true
	case "~", "null", "Null", "NULL":
		return nil, true
	}
	switch c := v[0]; {
	case c == '.':
		// goyaml.v2 reads it as a float when strconv does, and .inf and
		// .nan in its three spellings.
		if _, err := strconv.ParseFloat(v, 64); err == nil || v == ".nan" || v == ".NaN" || v == ".NAN" || v == ".inf" || v == ".Inf" || v == ".INF" {
			return nil, false
		}
	case c >= '0' && c <= '9', c == '-', c == '+':
		// goyaml.v2's order: timestamp, int, uint, float, binary int.
		if looksLikeTimestamp(v) || v == "+.inf" || v == "+.Inf" || v == "+.INF" || v == "-.inf" || v == "-.Inf" || v == "-.INF" {
			return nil, false
		}
		plain := strings.ReplaceAll(v, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return json.Number(strconv.FormatInt(i, 10)), true
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return nil, false
		}
		if yamlStyleFloat().MatchString(plain) || strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") {
			return nil, false
		}
	case c == '<', c == '=', c == '!', c == '&', c == '*', c == '%', c == '@', c == '`':
		return nil, false
	}
	return v, true
}

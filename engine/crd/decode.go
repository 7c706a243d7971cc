package crd

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
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
func Decode(data []byte, filename string) ([]*CustomResourceDefinition, error) {
	var out []*CustomResourceDefinition
	docs, err := yamldoc.Split(data)
	if se, ok := err.(*yamldoc.SeparatorError); ok {
		return nil, &DecodeError{File: filename, Line: se.Line, Msg: se.Error()}
	}
	for _, d := range docs {
		crds, err := decodeDocument(document{data: d.Data, firstLine: d.Line}, filename)
		if err != nil {
			return nil, err
		}
		out = append(out, crds...)
	}
	return out, nil
}

type document struct {
	data      []byte
	firstLine int // 1-based line of data[0] in the input
}

func decodeDocument(doc document, filename string) ([]*CustomResourceDefinition, error) {
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
	if node != nil && treeShortcutApplies(doc.data) {
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
	return []*CustomResourceDefinition{c}, nil
}

func (d *decoder) decodeList(obj map[string]interface{}, node *yamlv3.Node, apiVersion, kind string) ([]*CustomResourceDefinition, error) {
	if kind == "List" && apiVersion != "v1" {
		return nil, d.errAt(d.valueNode(node, "apiVersion"), "apiVersion", fmt.Sprintf("unsupported apiVersion %q for kind List (expected \"v1\")", apiVersion))
	}
	if kind == "CustomResourceDefinitionList" && apiVersion != APIVersion {
		return nil, d.errAt(d.valueNode(node, "apiVersion"), "apiVersion", fmt.Sprintf("unsupported apiVersion %q (expected %q)", apiVersion, APIVersion))
	}
	if err := d.checkDuplicates(node, "", false); err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
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
	var out []*CustomResourceDefinition
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

func (d *decoder) decodeCRD(obj map[string]interface{}, node *yamlv3.Node, prefix string) (*CustomResourceDefinition, error) {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if apiVersion != APIVersion {
		msg := fmt.Sprintf("unsupported apiVersion %q (expected %q)", apiVersion, APIVersion)
		if apiVersion == "" {
			msg = fmt.Sprintf("apiVersion is required (expected %q)", APIVersion)
		}
		return nil, d.errAt(d.valueNode(node, "apiVersion"), join(prefix, "apiVersion"), msg)
	}
	if kind != Kind {
		msg := fmt.Sprintf("unsupported kind %q (expected %q)", kind, Kind)
		if kind == "" {
			msg = fmt.Sprintf("kind is required (expected %q)", Kind)
		}
		return nil, d.errAt(d.valueNode(node, "kind"), join(prefix, "kind"), msg)
	}
	if err := d.check(obj, node, reflect.TypeOf(CustomResourceDefinition{}), prefix); err != nil {
		return nil, err
	}
	c := &CustomResourceDefinition{}
	if err := fill(obj, reflect.ValueOf(c).Elem()); err != nil {
		return nil, d.errAt(node, prefix, err.Error())
	}
	SetDefaults(c)
	return c, nil
}

// decoder walks the decoded JSON value and the YAML node tree side by side:
// types come from the JSON (what the API server sees), positions from the
// YAML nodes.
type decoder struct {
	file       string
	lineOffset int
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
// type t the way the API server's strict decoder requires.
func (d *decoder) check(v interface{}, n *yamlv3.Node, t reflect.Type, path string) error {
	if v == nil {
		return nil // null is accepted everywhere, as by encoding/json
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case jsonType, rawMessageType:
		return d.checkAnyDuplicates(v, n, path)
	case orArrayType:
		switch v.(type) {
		case map[string]interface{}:
			return d.check(v, n, schemaType, path)
		case []interface{}:
			return d.check(v, n, reflect.TypeOf([]JSONSchemaProps{}), path)
		}
		return d.errAt(n, path, "expected object or array, got "+describe(v))
	case orBoolType:
		switch v.(type) {
		case map[string]interface{}:
			return d.check(v, n, schemaType, path)
		case bool:
			return nil
		}
		return d.errAt(n, path, "expected object or boolean, got "+describe(v))
	case orStringsType:
		switch v.(type) {
		case map[string]interface{}:
			return d.check(v, n, schemaType, path)
		case []interface{}:
			return d.check(v, n, reflect.TypeOf([]string{}), path)
		}
		return d.errAt(n, path, "expected object or array, got "+describe(v))
	case bytesType:
		s, ok := v.(string)
		if !ok {
			return d.errAt(n, path, "expected base64 string, got "+describe(v))
		}
		if _, err := base64.StdEncoding.DecodeString(s); err != nil {
			return d.errAt(n, path, "expected base64 string, got "+describe(v)+": "+err.Error())
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]interface{})
		if !ok {
			return d.errAt(n, path, "expected object, got "+describe(v))
		}
		if err := d.checkDuplicates(n, path, false); err != nil {
			return err
		}
		fields := jsonFields(t)
		for _, k := range d.orderedKeys(obj, n) {
			p := join(path, k)
			f, ok := fields[k]
			if !ok {
				if extraKnownFields[t][k] {
					continue
				}
				return d.unknownField(d.keyNode(n, k), p)
			}
			if err := d.check(obj[k], d.valueNode(n, k), f.typ, p); err != nil {
				return err
			}
		}
	case reflect.Map:
		obj, ok := v.(map[string]interface{})
		if !ok {
			return d.errAt(n, path, "expected object, got "+describe(v))
		}
		if err := d.checkDuplicates(n, path, true); err != nil {
			return err
		}
		for _, k := range d.orderedKeys(obj, n) {
			if err := d.check(obj[k], d.valueNode(n, k), t.Elem(), path+keyPath(k)); err != nil {
				return err
			}
		}
	case reflect.Slice:
		arr, ok := v.([]interface{})
		if !ok {
			return d.errAt(n, path, "expected array, got "+describe(v))
		}
		for i, e := range arr {
			if err := d.check(e, d.indexNode(n, i), t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return d.errAt(n, path, "expected string, got "+describe(v))
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return d.errAt(n, path, "expected boolean, got "+describe(v))
		}
	case reflect.Int32, reflect.Int64:
		num, ok := v.(json.Number)
		if !ok {
			return d.errAt(n, path, "expected integer, got "+describe(v))
		}
		i, err := strconv.ParseInt(string(num), 10, 64)
		if err != nil {
			return d.errAt(n, path, "expected integer, got "+describe(v))
		}
		if t.Kind() == reflect.Int32 && (i > math.MaxInt32 || i < math.MinInt32) {
			return d.errAt(n, path, "expected 32-bit integer, got "+describe(v))
		}
	case reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return d.errAt(n, path, "expected number, got "+describe(v))
		}
	}
	return nil
}

// checkAnyDuplicates reports duplicate keys inside free-form JSON values.
func (d *decoder) checkAnyDuplicates(v interface{}, n *yamlv3.Node, path string) error {
	switch t := v.(type) {
	case map[string]interface{}:
		if err := d.checkDuplicates(n, path, true); err != nil {
			return err
		}
		for _, k := range d.orderedKeys(t, n) {
			if err := d.checkAnyDuplicates(t[k], d.valueNode(n, k), path+keyPath(k)); err != nil {
				return err
			}
		}
	case []interface{}:
		for i, e := range t {
			if err := d.checkAnyDuplicates(e, d.indexNode(n, i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// orderedKeys returns the keys of obj in document order (then sorted for
// keys the YAML tree does not show verbatim), so the first error reported is
// the first in the file.
func (d *decoder) orderedKeys(obj map[string]interface{}, n *yamlv3.Node) []string {
	var keys []string
	seen := map[string]bool{}
	if m := resolve(n); m != nil && m.Kind == yamlv3.MappingNode {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := m.Content[i].Value
			if _, ok := obj[k]; ok && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	return keys
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

// treeShortcutApplies rules out what the goyaml.v3 tree does not show:
// tags ("! 0" is the string "0" for goyaml.v2 but a plain !!int node for
// goyaml.v3) and directives.
func treeShortcutApplies(data []byte) bool {
	return bytes.IndexByte(data, '!') < 0 && !bytes.HasPrefix(data, []byte("%")) && !bytes.Contains(data, []byte("\n%"))
}

// yamlStyleFloat is goyaml.v2's float syntax.
var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

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
		// goyaml.v2 reads it as a float when strconv does.
		if _, err := strconv.ParseFloat(v, 64); err == nil || v == ".nan" || v == ".NaN" || v == ".NAN" {
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
		if yamlStyleFloat.MatchString(plain) || strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") {
			return nil, false
		}
	case c == '<', c == '=', c == '!', c == '&', c == '*', c == '%', c == '@', c == '`':
		return nil, false
	}
	return v, true
}

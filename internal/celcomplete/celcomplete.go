// Package celcomplete proposes what may follow "<receiver>." inside a CEL
// rule (x-kubernetes-validations rule or messageExpression) given the
// schema node that carries the rule: the node's fields, then the functions
// and macros of the receiver's type.
//
// It is the Go implementation of the playground's schema-aware completion
// (playground/src/celcomplete.js), moved here so that one implementation
// serves the language server and, through the wasm ABI, the playground.
//
// Types follow upstream's conversion of a structural schema to a CEL type
// (k8s.io/apiserver/pkg/cel/common.SchemaDeclType): objects with
// properties, maps for additionalProperties (string keys), lists for items,
// timestamps for format date/date-time, durations for format duration,
// bytes for format byte, dyn for x-kubernetes-int-or-string; the root of
// the resource and of each x-kubernetes-embedded-resource object has
// apiVersion, kind and metadata.name/generateName whatever its schema says.
// Property names are offered as CEL spells them (escaped: "x-y" ->
// "x__dash__y", "namespace" -> "__namespace__").
//
// CompletePolicy completes an admission policy's expression instead
// (ValidatingAdmissionPolicy, MutatingAdmissionPolicy): its variables
// object, oldObject (typed by the schema of the kind the policy matches),
// request, namespaceObject, params, variables (the policy's, each typed
// when its expression is a select chain of a known type), authorizer and
// authorizer.requestResource, offered as names where an identifier starts
// too.
//
// Receivers: self and oldSelf (a policy's variables), a macro's variable (self.items.all(x, x.),
// the two-variable forms), field selects (.f and .?f), indexes, and calls
// whose result type is known (self.items.filter(...)., quantity('1').).
// Functions offered are those of kube-apiserver 1.37's CEL environment:
// cel-go's standard library, its strings, lists, sets and two-variable
// comprehension extensions, and the Kubernetes libraries.
package celcomplete

import (
	"regexp"
	"sort"
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
)

// Kind is the kind of a proposal.
type Kind string

// Proposal kinds.
const (
	Property Kind = "property"
	Method   Kind = "method"
	Macro    Kind = "macro"
)

// Option is one proposal.
type Option struct {
	Label  string `json:"label"`
	Kind   Kind   `json:"kind"`
	Detail string `json:"detail"`
	// Info is the property's description, or the property's name when
	// CEL spells it differently.
	Info string `json:"info,omitempty"`
}

// Result is the completion at the end of the text given.
type Result struct {
	// From is the byte offset in the text where the completed name starts.
	From    int      `json:"from"`
	Options []Option `json:"options"`
	// Type is the receiver's CEL type, e.g. "list(string)".
	Type string `json:"type"`
}

// reserved are CEL's reserved words: a property so named is spelled
// __name__.
var reserved = map[string]bool{
	"true": true, "false": true, "null": true, "in": true, "as": true, "break": true, "const": true,
	"continue": true, "else": true, "for": true, "function": true, "if": true, "import": true,
	"let": true, "loop": true, "package": true, "namespace": true, "return": true, "var": true,
	"void": true, "while": true,
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_./-]*$`)

// EscapeName returns a property name as CEL expressions spell it, and
// false when it cannot be accessed from CEL.
func EscapeName(name string) (string, bool) {
	if reserved[name] {
		return "__" + name + "__", true
	}
	if !identRE.MatchString(name) {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		switch {
		case strings.HasPrefix(name[i:], "__"):
			b.WriteString("__underscores__")
			i++
		case name[i] == '.':
			b.WriteString("__dot__")
		case name[i] == '-':
			b.WriteString("__dash__")
		case name[i] == '/':
			b.WriteString("__slash__")
		default:
			b.WriteByte(name[i])
		}
	}
	return b.String(), true
}

// typ is a CEL type as far as completion needs it.
type typ struct {
	kind   string // dyn string int uint double bool bytes duration timestamp Quantity URL IP CIDR Semver Format list map object optional, and the authorizer's Authorizer GroupCheck ResourceCheck PathCheck Decision
	elem   *typ   // list element, map value, optional inner
	key    *typ   // map key
	schema *crd.JSONSchemaProps
	root   bool // object with apiVersion, kind, metadata
	// fields are the fields of a type declared here rather than by a
	// schema (a policy's request, namespaceObject, variables), and of
	// authorizer (authorizer.requestResource).
	fields map[string]*typ
	// name is the type's CEL name when it has one (kubernetes.AdmissionRequest).
	name string
}

func simple(k string) *typ { return &typ{kind: k} }

var (
	tDyn       = simple("dyn")
	tString    = simple("string")
	tInt       = simple("int")
	tUint      = simple("uint")
	tDouble    = simple("double")
	tBool      = simple("bool")
	tBytes     = simple("bytes")
	tDuration  = simple("duration")
	tTimestamp = simple("timestamp")
	tQuantity  = simple("Quantity")
	tURL       = simple("URL")
	tIP        = simple("IP")
	tCIDR      = simple("CIDR")
	tSemver    = simple("Semver")
	tFormat    = simple("Format")
)

func listOf(e *typ) *typ {
	if e == nil {
		e = tDyn
	}
	return &typ{kind: "list", elem: e}
}

func mapOf(k, v *typ) *typ {
	if k == nil {
		k = tString
	}
	if v == nil {
		v = tDyn
	}
	return &typ{kind: "map", key: k, elem: v}
}

func optionalOf(t *typ) *typ {
	if t == nil {
		t = tDyn
	}
	return &typ{kind: "optional", elem: t}
}

var metaSchema = &crd.JSONSchemaProps{Type: "object", Properties: map[string]crd.JSONSchemaProps{
	"name": {Type: "string"}, "generateName": {Type: "string"},
}}

// schemaType is the CEL type of a schema node; nil when upstream does not
// expose it (an array without items, a node without type).
func schemaType(s *crd.JSONSchemaProps, resourceRoot bool) *typ {
	if s == nil {
		return nil
	}
	if s.XIntOrString {
		return tDyn
	}
	switch s.Type {
	case "array":
		if s.Items == nil || s.Items.Schema == nil {
			return nil
		}
		e := schemaType(s.Items.Schema, s.Items.Schema.XEmbeddedResource)
		if e == nil {
			return nil
		}
		t := listOf(e)
		t.schema = s
		return t
	case "object":
		if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
			v := schemaType(ap.Schema, ap.Schema.XEmbeddedResource)
			if v == nil {
				return nil
			}
			t := mapOf(tString, v)
			t.schema = s
			return t
		}
		return &typ{kind: "object", schema: s, root: resourceRoot}
	case "string":
		switch s.Format {
		case "byte":
			return tBytes
		case "duration":
			return tDuration
		case "date", "date-time":
			return tTimestamp
		}
		return tString
	case "integer":
		return tInt
	case "number":
		return tDouble
	case "boolean":
		return tBool
	}
	return nil
}

type fieldInfo struct {
	name   string // as in the schema
	cel    string // as CEL spells it
	t      *typ
	schema *crd.JSONSchemaProps
}

// fields returns an object type's fields sorted by their CEL names.
func fields(t *typ) []fieldInfo {
	if t.fields != nil {
		out := make([]fieldInfo, 0, len(t.fields))
		for name, ft := range t.fields {
			out = append(out, fieldInfo{name: name, cel: name, t: ft, schema: &crd.JSONSchemaProps{}})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].cel < out[j].cel })
		return out
	}
	props := map[string]crd.JSONSchemaProps{}
	if t.schema != nil {
		for k, v := range t.schema.Properties {
			props[k] = v
		}
	}
	if t.root {
		props["apiVersion"] = crd.JSONSchemaProps{Type: "string"}
		props["kind"] = crd.JSONSchemaProps{Type: "string"}
		props["metadata"] = *metaSchema
	}
	var out []fieldInfo
	for name, ps := range props {
		ps := ps
		ft := schemaType(&ps, ps.XEmbeddedResource)
		esc, ok := EscapeName(name)
		if ft != nil && ok {
			out = append(out, fieldInfo{name: name, cel: esc, t: ft, schema: &ps})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cel < out[j].cel })
	return out
}

func field(t *typ, name string) *typ {
	for _, f := range fields(t) {
		if f.cel == name {
			return f.t
		}
	}
	return nil
}

// TypeName renders a type as CEL does: list(string), map(string, int).
func (t *typ) String() string {
	if t == nil {
		return ""
	}
	if t.name != "" {
		return t.name
	}
	switch t.kind {
	case "list":
		return "list(" + t.elem.String() + ")"
	case "map":
		return "map(" + t.key.String() + ", " + t.elem.String() + ")"
	case "optional":
		return "optional(" + t.elem.String() + ")"
	}
	return t.kind
}

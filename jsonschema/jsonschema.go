// Package jsonschema converts a CustomResourceDefinition into JSON Schema
// documents (draft 2020-12 or draft-07), one per served version, for editors
// (yaml-language-server, VS Code) and schema-only validators (kubeconform,
// flux-schema).
//
// The translation follows what kube-apiserver 1.37 does with an object sent
// to the custom resource endpoint, not only what the CRD's OpenAPI schema
// says, so that a JSON Schema validator accepts exactly the objects the API
// server accepts, as far as JSON Schema can express it:
//
//   - x-kubernetes-int-or-string becomes type [integer, string];
//   - nullable adds "null" to the type;
//   - a non-nullable property whose value is null is dropped by the API
//     server before validation (or replaced by its default), so such a
//     property accepts null unless it is required and has no default; a
//     required property with a default is not required in the JSON Schema
//     (the API server fills it in before validating);
//   - x-kubernetes-list-type: set becomes uniqueItems;
//   - x-kubernetes-embedded-resource requires apiVersion and kind (strings,
//     apiVersion with at most one "/", kind a mixed-case DNS-1035 label) and
//     types metadata as ObjectMeta;
//   - apiVersion and kind of the resource are constants and required;
//     metadata is the subset of ObjectMeta whose types the API server
//     checks while decoding;
//   - formats the API server checks with a regular expression (uuid*,
//     hexcolor, rgbcolor, byte, ssn, k8s-short-name, k8s-long-name) become
//     patterns; the others are kept as x-kubernetes-format annotations,
//     because JSON Schema's format vocabulary does not match kube-openapi's
//     checkers (e.g. date-time, hostname, uuid without dashes);
//   - defaults and examples are kept as annotations (default, examples);
//   - Options.Strict adds additionalProperties: false wherever the API
//     server would prune an unknown field: it models
//     --field-validation=Strict, where unknown fields are rejected. Without
//     Strict, unknown fields are allowed, as with --field-validation=Ignore
//     (the API server drops them).
//
// What JSON Schema cannot express is kept as x-kubernetes-* annotations and
// listed in the root schema's description: CEL rules
// (x-kubernetes-validations, including transition rules), the uniqueness of
// list-map keys (x-kubernetes-list-type: map), ratcheting of unchanged
// invalid values on update, the formats above, and the ObjectMeta rules
// (name, namespace, label and annotation syntax).
package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/openapi"
)

// Draft is a JSON Schema dialect.
type Draft string

// The supported drafts.
const (
	Draft2020 Draft = "2020-12"
	Draft07   Draft = "07"
)

// URI returns the draft's meta-schema URI (the value of $schema).
func (d Draft) URI() string {
	if d == Draft07 {
		return "http://json-schema.org/draft-07/schema#"
	}
	return "https://json-schema.org/draft/2020-12/schema"
}

// ParseDraft accepts "2020-12", "07", "draft-07", "7", "draft2020-12".
func ParseDraft(s string) (Draft, error) {
	switch strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(s), "draft"), "-") {
	case "", "2020-12", "202012":
		return Draft2020, nil
	case "07", "7":
		return Draft07, nil
	}
	return "", fmt.Errorf("unknown JSON Schema draft %q (want 2020-12 or 07)", s)
}

// Options select the output.
type Options struct {
	// Draft is the dialect; "" is Draft2020.
	Draft Draft
	// Strict adds additionalProperties: false where the API server would
	// prune unknown fields (--field-validation=Strict rejects them).
	Strict bool
}

// Schema is the JSON Schema of one served version of a CRD.
type Schema struct {
	Group, Version, Kind string
	// Document is the JSON Schema as decoded JSON (maps, slices, strings,
	// float64/json.Number, bool, nil).
	Document map[string]interface{}
	// Unexpressed lists, one line each, what the API server checks that the
	// document cannot (also in the document's description).
	Unexpressed []string
}

// JSON returns the document, indented, with a trailing newline.
func (s *Schema) JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s.Document); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Layout names the files of a schema directory.
type Layout string

// The layouts.
const (
	// LayoutKubeconform is kubeconform's {kind}_{version}.json, lower-case.
	LayoutKubeconform Layout = "kubeconform"
	// LayoutCatalog is datreeio/CRDs-catalog's {group}/{kind}_{version}.json.
	LayoutCatalog Layout = "catalog"
)

// FileName returns the schema's path in the layout (slash-separated).
func (s *Schema) FileName(l Layout) string {
	name := strings.ToLower(s.Kind + "_" + s.Version + ".json")
	if l == LayoutCatalog {
		return strings.ToLower(s.Group) + "/" + name
	}
	return name
}

// Convert returns one JSON Schema per served version of def, in the order of
// spec.versions. A version without a schema gets a schema that only checks
// apiVersion, kind and metadata. It does not validate def: compile it with
// the engine first to reject invalid CRDs.
func Convert(def *crd.CustomResourceDefinition, opts Options) ([]Schema, error) {
	if def == nil {
		return nil, fmt.Errorf("jsonschema: nil CustomResourceDefinition")
	}
	if opts.Draft == "" {
		opts.Draft = Draft2020
	}
	if opts.Draft != Draft2020 && opts.Draft != Draft07 {
		return nil, fmt.Errorf("jsonschema: unknown draft %q", opts.Draft)
	}
	var out []Schema
	for i := range def.Spec.Versions {
		v := &def.Spec.Versions[i]
		if !v.Served {
			continue
		}
		s, err := convertVersion(def, v, opts)
		if err != nil {
			return nil, fmt.Errorf("spec.versions[%d] (%s): %v", i, v.Name, err)
		}
		out = append(out, s)
	}
	return out, nil
}

type converter struct {
	opts        Options
	unexpressed []string
	// statusDropped: the status subresource is enabled, so a create drops
	// .status after decoding: only its unknown fields matter (strict).
	statusDropped bool
	// lossy counts the checks left out (formats JSON Schema cannot express)
	lossy int
}

func (c *converter) note(path, what string) {
	if path == "" {
		path = "<root>"
	}
	c.unexpressed = append(c.unexpressed, path+": "+what)
}

func convertVersion(def *crd.CustomResourceDefinition, v *crd.CustomResourceDefinitionVersion, opts Options) (Schema, error) {
	c := &converter{opts: opts, statusDropped: v.Subresources != nil && v.Subresources.Status != nil}
	var root *crd.JSONSchemaProps
	if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
		root = v.Schema.OpenAPIV3Schema
	} else {
		// no schema (preserveUnknownFields CRDs of old): everything is kept
		t := true
		root = &crd.JSONSchemaProps{Type: "object", XPreserveUnknownFields: &t}
	}
	doc, err := c.node(root, "", nodeCtx{root: true})
	if err != nil {
		return Schema{}, err
	}
	gv := def.Spec.Group + "/" + v.Name
	kind := def.Spec.Names.Kind
	props, _ := doc["properties"].(map[string]interface{})
	if props == nil {
		props = map[string]interface{}{}
		doc["properties"] = props
	}
	props["apiVersion"] = withDescription(props["apiVersion"], c.constant(gv))
	props["kind"] = withDescription(props["kind"], c.constant(kind))
	props["metadata"] = c.objectMeta(props["metadata"], "metadata")
	// the API server sets metadata.generation before validating: metadata
	// is never missing
	doc["required"] = mergeRequired([]string{"apiVersion", "kind"}, without(doc["required"], "metadata"))
	if v.Subresources != nil && v.Subresources.Scale != nil {
		sc := v.Subresources.Scale
		c.scaleReplicas(doc, sc.SpecReplicasPath)
		if !c.statusDropped {
			c.scaleReplicas(doc, sc.StatusReplicasPath)
			if sc.LabelSelectorPath != nil {
				c.scaleConstraint(doc, *sc.LabelSelectorPath, "string", nil)
			}
		}
	}
	doc["type"] = "object"
	if c.opts.Strict && !preserves(root) {
		doc["additionalProperties"] = false
	}
	doc["$schema"] = opts.Draft.URI()
	if _, ok := doc["title"]; !ok {
		doc["title"] = fmt.Sprintf("%s (%s)", kind, gv)
	}
	c.note("metadata", "ObjectMeta rules (name, generateName, namespace, labels, annotations, finalizers syntax)")
	c.note("", "ratcheting: on update, unchanged invalid values are accepted")
	sort.Strings(c.unexpressed)
	desc, _ := doc["description"].(string)
	if desc != "" {
		desc += "\n\n"
	}
	desc += "Not checked by this JSON Schema (kube-apiserver checks them; see the x-kubernetes-* annotations):\n- " + strings.Join(c.unexpressed, "\n- ")
	doc["description"] = desc
	doc["x-kubernetes-group-version-kind"] = []interface{}{map[string]interface{}{"group": def.Spec.Group, "version": v.Name, "kind": kind}}
	return Schema{Group: def.Spec.Group, Version: v.Name, Kind: kind, Document: doc, Unexpressed: c.unexpressed}, nil
}

// constant is the schema of apiVersion or kind: a string equal to value.
func (c *converter) constant(value string) map[string]interface{} {
	return map[string]interface{}{"type": "string", "enum": []interface{}{value}}
}

// withDescription keeps the description of the CRD's own schema of a field.
func withDescription(prev interface{}, s map[string]interface{}) map[string]interface{} {
	if m, ok := prev.(map[string]interface{}); ok {
		if d, ok := m["description"]; ok {
			s["description"] = d
		}
	}
	return s
}

func mergeRequired(first []string, rest interface{}) []interface{} {
	seen := map[string]bool{}
	var out []interface{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, s := range first {
		add(s)
	}
	if l, ok := rest.([]interface{}); ok {
		for _, s := range l {
			add(s.(string))
		}
	}
	return out
}

func preserves(s *crd.JSONSchemaProps) bool {
	return s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
}

// nodeCtx says where a schema node is.
type nodeCtx struct {
	root bool
	// junctor: below allOf/anyOf/oneOf/not, where the API server neither
	// prunes nor defaults (value validations only).
	junctor bool
	// acceptNull: the API server drops or defaults a null value here before
	// validating, so null is valid whatever the schema says.
	acceptNull bool
	// defaulted are the properties of the enclosing object that have a
	// default (for required lists under allOf/anyOf/oneOf), with the
	// default values.
	defaulted map[string]*crd.JSON
	// structureOnly: the value is dropped after decoding (status on
	// create with the status subresource): only unknown fields matter.
	structureOnly bool
}

// node converts one schema node.
func (c *converter) node(s *crd.JSONSchemaProps, path string, ctx nodeCtx) (map[string]interface{}, error) {
	out := map[string]interface{}{}
	if s.Ref != nil {
		return nil, fmt.Errorf("%s: $ref is not supported", orRoot(path))
	}
	if ctx.structureOnly {
		return c.structure(s), nil
	}
	if s.Description != "" {
		out["description"] = s.Description
	}
	if s.Title != "" {
		out["title"] = s.Title
	}
	var types []interface{}
	switch {
	case s.XIntOrString:
		types = []interface{}{"integer", "string"}
		out["x-kubernetes-int-or-string"] = true
	case s.Type != "":
		types = []interface{}{s.Type}
	}
	if len(types) > 0 && (s.Nullable || ctx.acceptNull) {
		types = append(types, "null")
	}
	if s.Nullable {
		out["nullable"] = true
	}
	switch len(types) {
	case 0:
	case 1:
		out["type"] = types[0]
	default:
		out["type"] = types
	}
	if len(s.Enum) > 0 {
		enum := make([]interface{}, 0, len(s.Enum)+1)
		for i := range s.Enum {
			v, err := rawValue(s.Enum[i].Raw)
			if err != nil {
				return nil, fmt.Errorf("%s.enum[%d]: %v", orRoot(path), i, err)
			}
			if v == nil {
				continue // upstream never matches a null enum entry
			}
			enum = append(enum, v)
		}
		if ctx.acceptNull {
			enum = append(enum, nil)
		}
		out["enum"] = enum
	}
	if s.Default != nil && len(s.Default.Raw) > 0 {
		v, err := rawValue(s.Default.Raw)
		if err != nil {
			return nil, fmt.Errorf("%s.default: %v", orRoot(path), err)
		}
		out["default"] = v
	}
	if s.Example != nil && len(s.Example.Raw) > 0 {
		if v, err := rawValue(s.Example.Raw); err == nil {
			out["examples"] = []interface{}{v}
		}
	}
	if s.Maximum != nil {
		if s.ExclusiveMaximum {
			out["exclusiveMaximum"] = *s.Maximum
		} else {
			out["maximum"] = *s.Maximum
		}
	}
	if s.Minimum != nil {
		if s.ExclusiveMinimum {
			out["exclusiveMinimum"] = *s.Minimum
		} else {
			out["minimum"] = *s.Minimum
		}
	}
	if s.MultipleOf != nil {
		out["multipleOf"] = *s.MultipleOf
	}
	if s.Format == "int32" && s.Type == "integer" {
		// kube-openapi checks that the value fits the format, and so its
		// bounds: a bound out of range fails every number
		con := map[string]interface{}{"minimum": int64(-1 << 31), "maximum": int64(1<<31 - 1)}
		for _, b := range []*float64{s.Minimum, s.Maximum, s.MultipleOf} {
			if b != nil && (*b < -(1<<31) || *b > 1<<31-1 || *b != float64(int64(*b))) {
				con = map[string]interface{}{"type": "null"}
				c.note(path, "bounds out of the int32 range: the API server rejects every number")
			}
		}
		out["allOf"] = c.combine(out["allOf"], []interface{}{con})
	}
	setInt(out, "maxLength", s.MaxLength)
	setInt(out, "minLength", s.MinLength)
	setInt(out, "maxItems", s.MaxItems)
	setInt(out, "minItems", s.MinItems)
	setInt(out, "maxProperties", s.MaxProperties)
	setInt(out, "minProperties", s.MinProperties)
	if s.Pattern != "" {
		out["pattern"] = s.Pattern
	}
	if s.Format != "" {
		out["x-kubernetes-format"] = s.Format
		if formatChecked(s) {
			if s.Type == "" {
				// an untyped node with a format the API server knows
				// rejects every value that is not a string (a type error
				// naming the format, whatever the format checks)
				out["allOf"] = c.combine(out["allOf"], []interface{}{map[string]interface{}{"type": []interface{}{"string", "null"}}})
			}
			if fc, ok := formatConstraint(s.Format); ok {
				if fc != nil {
					out["allOf"] = c.combine(out["allOf"], []interface{}{fc})
				}
			} else {
				c.lossy++
				c.note(path, fmt.Sprintf("format %q", s.Format))
			}
		}
	}
	if s.UniqueItems {
		out["uniqueItems"] = true
	}
	if s.XListType != nil {
		out["x-kubernetes-list-type"] = *s.XListType
		switch *s.XListType {
		case "set":
			out["uniqueItems"] = true
		case "map":
			c.note(path, fmt.Sprintf("list-map keys %v are unique", s.XListMapKeys))
		}
	}
	if len(s.XListMapKeys) > 0 {
		out["x-kubernetes-list-map-keys"] = toInterfaces(s.XListMapKeys)
	}
	if s.XMapType != nil {
		out["x-kubernetes-map-type"] = *s.XMapType
	}
	if preserves(s) {
		out["x-kubernetes-preserve-unknown-fields"] = true
	}
	if s.XEmbeddedResource {
		out["x-kubernetes-embedded-resource"] = true
	}
	if len(s.XValidations) > 0 {
		rules := make([]interface{}, len(s.XValidations))
		for i, r := range s.XValidations {
			b, _ := json.Marshal(r)
			var m interface{}
			_ = json.Unmarshal(b, &m)
			rules[i] = m
			c.note(path, "CEL rule "+strconv.Quote(r.Rule))
		}
		out["x-kubernetes-validations"] = rules
	}

	// defaulted properties are not required: the API server fills them in
	defaulted := map[string]*crd.JSON{}
	for k, p := range s.Properties {
		if !ctx.junctor && p.Default != nil && len(p.Default.Raw) > 0 {
			defaulted[k] = p.Default
		}
	}
	requiredSet := map[string]bool{}
	if len(s.Required) > 0 {
		var req []interface{}
		for _, r := range s.Required {
			requiredSet[r] = true
			if defaulted[r] != nil || ctx.defaulted[r] != nil {
				continue
			}
			req = append(req, r)
		}
		if len(req) > 0 {
			out["required"] = req
		}
	}

	// children
	if s.Items != nil {
		if s.Items.Schema != nil {
			it := s.Items.Schema
			child, err := c.node(it, path+"[*]", nodeCtx{junctor: ctx.junctor,
				acceptNull: !ctx.junctor && !it.Nullable && it.Default != nil && len(it.Default.Raw) > 0})
			if err != nil {
				return nil, err
			}
			out["items"] = child
		} else if len(s.Items.JSONSchemas) > 0 {
			var list []interface{}
			for i := range s.Items.JSONSchemas {
				child, err := c.node(&s.Items.JSONSchemas[i], fmt.Sprintf("%s[%d]", path, i), nodeCtx{junctor: true})
				if err != nil {
					return nil, err
				}
				list = append(list, child)
			}
			if c.opts.Draft == Draft07 {
				out["items"] = list
			} else {
				out["prefixItems"] = list
			}
		}
	}
	if len(s.Properties) > 0 {
		props := map[string]interface{}{}
		for _, k := range keys.Sorted(s.Properties) {
			p := s.Properties[k]
			childCtx := nodeCtx{junctor: ctx.junctor}
			if !ctx.junctor && !p.Nullable {
				childCtx.acceptNull = defaulted[k] != nil || !requiredSet[k]
			}
			if ctx.root && k == "status" && c.statusDropped {
				childCtx.structureOnly = true
				c.note(".status", "values (the status subresource is enabled: a create drops .status; only unknown fields are checked, with --strict)")
			}
			child, err := c.node(&p, join(path, k), childCtx)
			if err != nil {
				return nil, err
			}
			props[k] = child
		}
		out["properties"] = props
		if ctx.junctor {
			// the API server validates after defaulting: an absent property
			// with a default is its default value here
			var req []interface{}
			for _, k := range keys.Sorted(s.Properties) {
				d := ctx.defaulted[k]
				if d == nil {
					continue
				}
				p := s.Properties[k]
				if !valueValid(&p, d) {
					req = append(req, k)
				}
			}
			if len(req) > 0 {
				out["required"] = mergeRequired(nil, append(asInterfaces(out["required"]), req...))
			}
		}
	}
	if len(s.PatternProperties) > 0 {
		props := map[string]interface{}{}
		for _, k := range keys.Sorted(s.PatternProperties) {
			p := s.PatternProperties[k]
			child, err := c.node(&p, path+"["+k+"]", nodeCtx{junctor: true})
			if err != nil {
				return nil, err
			}
			props[k] = child
		}
		out["patternProperties"] = props
	}
	if ap := s.AdditionalProperties; ap != nil {
		if ap.Schema != nil {
			child, err := c.node(ap.Schema, path+"[*]", nodeCtx{junctor: ctx.junctor, acceptNull: !ctx.junctor && !ap.Schema.Nullable})
			if err != nil {
				return nil, err
			}
			out["additionalProperties"] = child
		} else {
			out["additionalProperties"] = ap.Allows
		}
	}
	if ap := s.AdditionalItems; ap != nil {
		if ap.Schema != nil {
			child, err := c.node(ap.Schema, path+"[*]", nodeCtx{junctor: true})
			if err != nil {
				return nil, err
			}
			out[c.additionalItemsKeyword()] = child
		} else {
			out[c.additionalItemsKeyword()] = ap.Allows
		}
	}
	if len(s.Dependencies) > 0 {
		if err := c.dependencies(out, s, path); err != nil {
			return nil, err
		}
	}
	junctorCtx := nodeCtx{junctor: true, defaulted: defaulted}
	if ctx.junctor {
		junctorCtx.defaulted = ctx.defaulted // nested junctors: the same object
	}
	for _, kw := range []struct {
		name string
		list []crd.JSONSchemaProps
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		if len(kw.list) == 0 {
			continue
		}
		var list []interface{}
		before := c.lossy
		for i := range kw.list {
			child, err := c.node(&kw.list[i], path, junctorCtx)
			if err != nil {
				return nil, err
			}
			list = append(list, child)
		}
		name := kw.name
		if name == "oneOf" && c.lossy > before {
			// a check left out could make two branches match: anyOf never
			// rejects what the API server accepts
			name = "anyOf"
			c.note(path, "oneOf exclusivity (a branch holds a check JSON Schema cannot express)")
		}
		out[name] = c.combine(out[name], list)
	}
	if s.Not != nil {
		before := c.lossy
		child, err := c.node(s.Not, path, junctorCtx)
		if err != nil {
			return nil, err
		}
		if c.lossy > before {
			c.note(path, "not (it holds a check JSON Schema cannot express)")
		} else {
			out["not"] = child
		}
	}

	// on null, the API server checks only type and enum: keep the
	// junctors (and format patterns) away from null values
	if nullAllowed(out) {
		j := map[string]interface{}{}
		for _, kw := range []string{"allOf", "anyOf", "oneOf", "not"} {
			if v, ok := out[kw]; ok {
				j[kw] = v
				delete(out, kw)
			}
		}
		if len(j) > 0 {
			out["anyOf"] = []interface{}{map[string]interface{}{"type": "null"}, j}
		}
	}

	// embedded resources: apiVersion, kind and metadata as the API server
	// checks them
	if s.XEmbeddedResource {
		props, _ := out["properties"].(map[string]interface{})
		if props == nil {
			props = map[string]interface{}{}
			out["properties"] = props
		}
		props["apiVersion"] = c.addAll(props["apiVersion"], map[string]interface{}{
			"type": "string", "minLength": 1, "pattern": `^[^/]*/?[^/]*$`})
		props["kind"] = c.addAll(props["kind"], map[string]interface{}{
			"type": "string", "minLength": 1, "maxLength": 63, "pattern": `^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$`})
		props["metadata"] = c.objectMeta(props["metadata"], join(path, "metadata"))
		if !ctx.root {
			out["required"] = mergeRequired([]string{"apiVersion", "kind"}, out["required"])
		}
	}
	if c.opts.Strict && !ctx.junctor && !preserves(s) && prunes(s) {
		if _, ok := out["additionalProperties"]; !ok {
			out["additionalProperties"] = false
		}
	}
	return out, nil
}

// structure is the schema of a value the API server drops after decoding:
// with Strict, its unknown fields still fail the request.
func (c *converter) structure(s *crd.JSONSchemaProps) map[string]interface{} {
	out := map[string]interface{}{}
	if s.Description != "" {
		out["description"] = s.Description
	}
	if !c.opts.Strict {
		return out
	}
	if s.Items != nil && s.Items.Schema != nil {
		if it := c.structure(s.Items.Schema); len(it) > 0 {
			out["items"] = it
		}
	}
	if len(s.Properties) > 0 {
		props := map[string]interface{}{}
		for _, k := range keys.Sorted(s.Properties) {
			p := s.Properties[k]
			props[k] = c.structure(&p)
		}
		out["properties"] = props
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		out["additionalProperties"] = c.structure(s.AdditionalProperties.Schema)
	}
	if s.XEmbeddedResource {
		props, _ := out["properties"].(map[string]interface{})
		if props == nil {
			props = map[string]interface{}{}
			out["properties"] = props
		}
		for _, k := range []string{"apiVersion", "kind"} {
			if _, ok := props[k]; !ok {
				props[k] = map[string]interface{}{}
			}
		}
		props["metadata"] = c.objectMeta(nil, "")
	}
	if prunes(s) && !preserves(s) {
		out["additionalProperties"] = false
	}
	return out
}

// scaleReplicas adds the check of the scale subresource's replicas paths:
// an integer between 0 and 2^31-1 when present.
func (c *converter) scaleReplicas(doc map[string]interface{}, path string) {
	c.scaleConstraint(doc, path, "integer", map[string]interface{}{"minimum": 0, "maximum": 2147483647})
}

// scaleConstraint adds a type (and more) to the node at a scale path
// (.spec.replicas), when the API server keeps values there.
func (c *converter) scaleConstraint(doc map[string]interface{}, path, typ string, more map[string]interface{}) {
	node := doc
	for _, seg := range strings.Split(strings.TrimPrefix(path, "."), ".") {
		props, _ := node["properties"].(map[string]interface{})
		next, ok := props[seg].(map[string]interface{})
		if !ok {
			if node["x-kubernetes-preserve-unknown-fields"] != true {
				return // pruned: never checked
			}
			if props == nil {
				props = map[string]interface{}{}
				node["properties"] = props
			}
			next = map[string]interface{}{"x-kubernetes-preserve-unknown-fields": true}
			props[seg] = next
		}
		node = next
	}
	con := map[string]interface{}{"type": typ}
	if hasNullType(node) && node["nullable"] != true {
		con["type"] = []interface{}{typ, "null"} // a null is pruned before the check
	}
	for k, v := range more {
		con[k] = v
	}
	node["allOf"] = c.combine(node["allOf"], []interface{}{con})
}

// nullAllowed reports whether the type keyword of out accepts null.
func nullAllowed(out map[string]interface{}) bool {
	return hasNullType(out)
}

func hasNullType(node map[string]interface{}) bool {
	switch t := node["type"].(type) {
	case []interface{}:
		for _, e := range t {
			if e == "null" {
				return true
			}
		}
	case nil:
		return true
	}
	return false
}

// prunes reports whether the API server drops unknown fields of an object
// value of s: everything that is not a property when there is no
// additionalProperties schema.
func prunes(s *crd.JSONSchemaProps) bool {
	if s.AdditionalProperties != nil {
		return false
	}
	return s.Type == "object" || len(s.Properties) > 0 || s.XEmbeddedResource
}

// addAll combines a schema the CRD gives for a field with the one the API
// server imposes.
func (c *converter) addAll(prev interface{}, s map[string]interface{}) map[string]interface{} {
	m, ok := prev.(map[string]interface{})
	if !ok || len(m) == 0 {
		return s
	}
	return map[string]interface{}{"allOf": []interface{}{s, m}}
}

func (c *converter) combine(prev interface{}, list []interface{}) interface{} {
	if l, ok := prev.([]interface{}); ok {
		return append(l, list...)
	}
	return list
}

func (c *converter) additionalItemsKeyword() string {
	if c.opts.Draft == Draft07 {
		return "additionalItems"
	}
	return "items"
}

func (c *converter) dependencies(out map[string]interface{}, s *crd.JSONSchemaProps, path string) error {
	schemas, props := map[string]interface{}{}, map[string]interface{}{}
	for _, k := range keys.Sorted(s.Dependencies) {
		d := s.Dependencies[k]
		if d.Schema != nil {
			child, err := c.node(d.Schema, path, nodeCtx{junctor: true})
			if err != nil {
				return err
			}
			schemas[k] = child
		} else {
			props[k] = toInterfaces(d.Property)
		}
	}
	if c.opts.Draft == Draft07 {
		all := map[string]interface{}{}
		for k, v := range schemas {
			all[k] = v
		}
		for k, v := range props {
			all[k] = v
		}
		out["dependencies"] = all
		return nil
	}
	if len(schemas) > 0 {
		out["dependentSchemas"] = schemas
	}
	if len(props) > 0 {
		out["dependentRequired"] = props
	}
	return nil
}

// objectMeta is the schema of metadata (of the resource or of an embedded
// resource): the ObjectMeta fields with the JSON types the API server's
// decoding accepts (a wrong type fails the request; null is ignored), the
// CRD's own constraints on them added. Unknown fields are dropped by the
// API server (rejected in strict mode).
func (c *converter) objectMeta(prev interface{}, path string) map[string]interface{} {
	str := func() map[string]interface{} { return map[string]interface{}{"type": []interface{}{"string", "null"}} }
	strMap := func() map[string]interface{} {
		return map[string]interface{}{"type": []interface{}{"object", "null"}, "additionalProperties": str()}
	}
	props := map[string]interface{}{
		"name":                       str(),
		"generateName":               str(),
		"namespace":                  str(),
		"uid":                        str(),
		"resourceVersion":            str(),
		"selfLink":                   str(),
		"generation":                 map[string]interface{}{"type": []interface{}{"integer", "null"}},
		"deletionGracePeriodSeconds": map[string]interface{}{"type": []interface{}{"integer", "null"}},
		"labels":                     strMap(),
		"annotations":                strMap(),
		"finalizers":                 map[string]interface{}{"type": []interface{}{"array", "null"}, "items": str()},
		"creationTimestamp":          map[string]interface{}{"type": []interface{}{"string", "null"}},
		"deletionTimestamp":          map[string]interface{}{"type": []interface{}{"string", "null"}},
		"ownerReferences": map[string]interface{}{"type": []interface{}{"array", "null"}, "items": map[string]interface{}{
			"type": []interface{}{"object", "null"},
			"properties": map[string]interface{}{
				"apiVersion": str(), "kind": str(), "name": str(), "uid": str(),
				"controller":         map[string]interface{}{"type": []interface{}{"boolean", "null"}},
				"blockOwnerDeletion": map[string]interface{}{"type": []interface{}{"boolean", "null"}},
			},
		}},
		"managedFields": map[string]interface{}{"type": []interface{}{"array", "null"}},
	}
	out := map[string]interface{}{"type": "object", "properties": props}
	if m, ok := prev.(map[string]interface{}); ok {
		if d, ok := m["description"]; ok {
			out["description"] = d
		}
		// the CRD's own constraints on metadata fields (name, generateName)
		// are not enforced by the API server: ObjectMeta rules apply
		if own, ok := m["properties"].(map[string]interface{}); ok && len(own) > 0 {
			out["x-kubernetes-ignored-properties"] = own
		}
	}
	if c.opts.Strict {
		out["additionalProperties"] = false
	}
	return out
}

func without(req interface{}, name string) []interface{} {
	var out []interface{}
	for _, r := range asInterfaces(req) {
		if r != name {
			out = append(out, r)
		}
	}
	return out
}

func asInterfaces(v interface{}) []interface{} {
	l, _ := v.([]interface{})
	return l
}

// valueValid reports whether the API server's OpenAPI validation accepts v
// against s (value validations: the junctor branches of a schema).
func valueValid(s *crd.JSONSchemaProps, v *crd.JSON) bool {
	val, err := v.Value()
	if err != nil {
		return true
	}
	validator, err := openapi.NewSchemaValidator(s, nil)
	if err != nil {
		return true
	}
	return len(validator.Validate(nil, val)) == 0
}

func setInt(out map[string]interface{}, key string, v *int64) {
	if v != nil {
		out[key] = *v
	}
}

func rawValue(raw []byte) (interface{}, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func toInterfaces(l []string) []interface{} {
	out := make([]interface{}, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

func join(path, k string) string {
	if path == "" {
		return "." + k
	}
	return path + "." + k
}

func orRoot(path string) string {
	if path == "" {
		return "openAPIV3Schema"
	}
	return "openAPIV3Schema" + path
}

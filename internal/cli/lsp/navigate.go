package lsp

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine/crd"
	yaml "sigs.k8s.io/yaml/goyaml.v3"
)

// schemaSteps splits the steps of a path through a CRD document at its
// openAPIV3Schema: the version index and the steps inside the schema.
func schemaSteps(steps []string) (version int, inside []string, ok bool) {
	version = -1
	for i, s := range steps {
		if s == "versions" && i+1 < len(steps) {
			if v, err := strconv.Atoi(strings.Trim(steps[i+1], "[]")); err == nil {
				version = v
			}
		}
		if s == "openAPIV3Schema" {
			return version, steps[i+1:], version >= 0
		}
	}
	return 0, nil, false
}

// schemaAt follows steps inside a schema (properties/NAME, items,
// additionalProperties) from root.
func schemaAt(root *crd.JSONSchemaProps, inside []string) *crd.JSONSchemaProps {
	s := root
	for i := 0; s != nil && i < len(inside); i++ {
		switch inside[i] {
		case "properties":
			if i+1 >= len(inside) {
				return nil
			}
			p, ok := s.Properties[inside[i+1]]
			if !ok {
				return nil
			}
			s = &p
			i++
		case "items":
			if s.Items == nil {
				return nil
			}
			s = s.Items.Schema
		case "additionalProperties":
			if s.AdditionalProperties == nil {
				return nil
			}
			s = s.AdditionalProperties.Schema
		default:
			return nil
		}
	}
	return s
}

// versionSchema is the openAPIV3Schema of version i of def.
func versionSchema(def *crd.CustomResourceDefinition, i int) *crd.JSONSchemaProps {
	if def == nil || i < 0 || i >= len(def.Spec.Versions) {
		return nil
	}
	v := def.Spec.Versions[i]
	if v.Schema == nil {
		return nil
	}
	return v.Schema.OpenAPIV3Schema
}

// costSuffix renders steps inside a schema as the cost report's paths
// spell them: .properties[NAME], .items, .additionalProperties.
func costSuffix(inside []string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(inside); i++ {
		switch inside[i] {
		case "properties":
			if i+1 >= len(inside) {
				return "", false
			}
			b.WriteString(".properties[" + inside[i+1] + "]")
			i++
		case "items", "additionalProperties":
			b.WriteString("." + inside[i])
		default:
			return "", false
		}
	}
	return b.String(), true
}

var versionedSchemaRE = regexp.MustCompile(`^spec\.versions\[(\d+)\]\.schema\.openAPIV3Schema`)

const hoistedSchema = "spec.validation.openAPIV3Schema"

// splitCostPath splits a cost report path into the version it belongs to
// (-1: the schema shared by every version) and its suffix.
func splitCostPath(p string) (version int, suffix string, ok bool) {
	if rest, found := strings.CutPrefix(p, hoistedSchema); found {
		return -1, rest, true
	}
	if m := versionedSchemaRE.FindStringSubmatch(p); m != nil {
		v, _ := strconv.Atoi(m[1])
		return v, p[len(m[0]):], true
	}
	return 0, "", false
}

// parseCostSuffix is costSuffix's inverse.
func parseCostSuffix(s string) ([]string, bool) {
	var out []string
	for s != "" {
		switch {
		case strings.HasPrefix(s, ".properties["):
			rest := s[len(".properties["):]
			// the name ends at the "]" followed by "." or the end
			end := -1
			for i := 0; i < len(rest); i++ {
				if rest[i] == ']' && (i+1 == len(rest) || rest[i+1] == '.') {
					end = i
					break
				}
			}
			if end < 0 {
				return nil, false
			}
			out = append(out, "properties", rest[:end])
			s = rest[end+1:]
		case strings.HasPrefix(s, ".items"):
			out = append(out, "items")
			s = s[len(".items"):]
		case strings.HasPrefix(s, ".additionalProperties"):
			out = append(out, "additionalProperties")
			s = s[len(".additionalProperties"):]
		default:
			return nil, false
		}
	}
	return out, true
}

// costRuleOf returns the cost report's entry for a rule of the document.
func costRuleOf(rep *cost.Report, ref ruleRef) *cost.Rule {
	if rep == nil {
		return nil
	}
	version, inside, ok := schemaSteps(ref.schemaSteps)
	if !ok {
		return nil
	}
	suffix, ok := costSuffix(inside)
	if !ok {
		return nil
	}
	for i := range rep.Rules {
		r := &rep.Rules[i]
		v, sfx, ok := splitCostPath(r.Path)
		if ok && (v == -1 || v == version) && sfx == suffix && r.Index == ref.index && r.Field == ref.field {
			return r
		}
	}
	return nil
}

// describeSchema renders a schema node's type, constraints and
// description (markdown).
func describeSchema(name string, s *crd.JSONSchemaProps) string {
	var b strings.Builder
	typ := s.Type
	switch {
	case s.XIntOrString:
		typ = "int-or-string"
	case typ == "array" && s.Items != nil && s.Items.Schema != nil && s.Items.Schema.Type != "":
		typ = "array of " + s.Items.Schema.Type
	case typ == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		typ = "map of " + s.AdditionalProperties.Schema.Type
	case typ == "":
		typ = "any"
	}
	if s.Format != "" {
		typ += " (" + s.Format + ")"
	}
	fmt.Fprintf(&b, "**%s**: `%s`", name, typ)
	var cs []string
	num := func(k string, v *float64, excl bool) {
		if v != nil {
			op := k
			if excl {
				op += " (exclusive)"
			}
			cs = append(cs, fmt.Sprintf("%s: %s", op, strconv.FormatFloat(*v, 'g', -1, 64)))
		}
	}
	num("minimum", s.Minimum, s.ExclusiveMinimum)
	num("maximum", s.Maximum, s.ExclusiveMaximum)
	for _, c := range []struct {
		k string
		v *int64
	}{{"minLength", s.MinLength}, {"maxLength", s.MaxLength}, {"minItems", s.MinItems}, {"maxItems", s.MaxItems}, {"minProperties", s.MinProperties}, {"maxProperties", s.MaxProperties}} {
		if c.v != nil {
			cs = append(cs, fmt.Sprintf("%s: %d", c.k, *c.v))
		}
	}
	if s.Pattern != "" {
		cs = append(cs, "pattern: `"+s.Pattern+"`")
	}
	if len(s.Enum) > 0 {
		var vs []string
		for _, e := range s.Enum {
			vs = append(vs, string(e.Raw))
		}
		cs = append(cs, "enum: "+strings.Join(vs, ", "))
	}
	if s.Default != nil {
		cs = append(cs, "default: "+string(s.Default.Raw))
	}
	if len(s.Required) > 0 {
		cs = append(cs, "required: "+strings.Join(s.Required, ", "))
	}
	if s.Nullable {
		cs = append(cs, "nullable")
	}
	if s.XListType != nil {
		cs = append(cs, "x-kubernetes-list-type: "+*s.XListType)
	}
	if len(s.XValidations) > 0 {
		cs = append(cs, fmt.Sprintf("%d x-kubernetes-validations rule(s)", len(s.XValidations)))
	}
	for _, c := range cs {
		b.WriteString("\n- " + c)
	}
	if s.Description != "" {
		b.WriteString("\n\n" + s.Description)
	}
	return b.String()
}

// keyAt returns the path (keys, "[i]" for items) of the mapping key whose
// text spans the 1-based line and rune column, and the key node.
func keyAt(root *yaml.Node, line, col int) ([]string, *yaml.Node) {
	var found []string
	var key *yaml.Node
	var walk func(n *yaml.Node, steps []string, depth int)
	walk = func(n *yaml.Node, steps []string, depth int) {
		if n == nil || depth > 200 || key != nil {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Line == line && col >= k.Column && col <= k.Column+len([]rune(k.Value)) {
					found, key = append(append([]string(nil), steps...), k.Value), k
					return
				}
				walk(n.Content[i+1], append(steps, k.Value), depth+1)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, append(steps, "["+strconv.Itoa(i)+"]"), depth+1)
			}
		}
	}
	walk(root, nil, 0)
	return found, key
}

// objectSchema is the schema of a custom resource's version (from its
// apiVersion) in def.
func objectSchema(def *crd.CustomResourceDefinition, apiVersion string) *crd.JSONSchemaProps {
	_, v, _ := strings.Cut(apiVersion, "/")
	for i := range def.Spec.Versions {
		if def.Spec.Versions[i].Name == v {
			return versionSchema(def, i)
		}
	}
	return nil
}

// objectSchemaAt follows an object path (keys, "[i]" or "[]" for items)
// through a schema.
func objectSchemaAt(s *crd.JSONSchemaProps, path []string) *crd.JSONSchemaProps {
	for _, p := range path {
		if s == nil {
			return nil
		}
		if strings.HasPrefix(p, "[") {
			if s.Items == nil {
				return nil
			}
			s = s.Items.Schema
			continue
		}
		if ps, ok := s.Properties[p]; ok {
			s = &ps
			continue
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			s = s.AdditionalProperties.Schema
			continue
		}
		return nil
	}
	return s
}

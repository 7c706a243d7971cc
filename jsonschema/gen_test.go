package jsonschema_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/keys"
)

// Objects generated from a schema: a minimal one (required fields only), a
// full one (every property down to a depth) and mutations of the full one
// (wrong types, nulls, missing required fields, out-of-range numbers,
// lengths and sizes, bad formats and patterns, values outside enums,
// duplicates, unknown fields).

const maxGenDepth = 6

func rawValue(j *crd.JSON) (interface{}, bool) {
	if j == nil || len(j.Raw) == 0 {
		return nil, false
	}
	var v interface{}
	if err := json.Unmarshal(j.Raw, &v); err != nil {
		return nil, false
	}
	return v, true
}

var formatSamples = map[string]string{
	"date-time": "2024-01-02T03:04:05Z", "datetime": "2024-01-02T03:04:05Z", "date": "2024-01-02",
	"duration": "1h", "uri": "https://example.com/x", "email": "a@example.com", "hostname": "example.com",
	"ipv4": "10.0.0.1", "ipv6": "::1", "cidr": "10.0.0.0/8", "mac": "00:11:22:33:44:55",
	"uuid": "123e4567-e89b-12d3-a456-426614174000", "uuid3": "123e4567-e89b-32d3-a456-426614174000",
	"uuid4": "123e4567-e89b-42d3-a456-426614174000", "uuid5": "123e4567-e89b-52d3-a456-426614174000",
	"byte": "aGVsbG8=", "hexcolor": "#fff", "rgbcolor": "rgb(1, 2, 3)", "ssn": "123-45-6789",
	"k8s-short-name": "abc", "k8s-long-name": "a.b-c", "int-or-string": "1",
}

func gen(s *crd.JSONSchemaProps, depth int, full bool) interface{} {
	if s == nil {
		return "x"
	}
	if v, ok := rawValue(s.Default); ok {
		if !full {
			return v
		}
	}
	if len(s.Enum) > 0 {
		if v, ok := rawValue(&s.Enum[0]); ok {
			return v
		}
	}
	if s.XIntOrString {
		return 1
	}
	if s.XEmbeddedResource {
		obj := map[string]interface{}{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]interface{}{"name": "x"}}
		for k, v := range genProps(s, depth, full) {
			if k != "apiVersion" && k != "kind" && k != "metadata" {
				obj[k] = v
			}
		}
		return obj
	}
	switch s.Type {
	case "string":
		if f, ok := formatSamples[s.Format]; ok {
			return f
		}
		n := int64(1)
		if s.MinLength != nil && *s.MinLength > n {
			n = *s.MinLength
		}
		if s.MaxLength != nil && *s.MaxLength < n {
			n = *s.MaxLength
		}
		return strings.Repeat("a", int(n))
	case "integer", "number":
		n := 1.0
		if s.Minimum != nil {
			n = *s.Minimum
			if s.ExclusiveMinimum {
				n++
			}
		}
		if s.Maximum != nil && *s.Maximum < n {
			n = *s.Maximum
		}
		if s.MultipleOf != nil && *s.MultipleOf > 0 {
			n = float64(int64(n / *s.MultipleOf)) * *s.MultipleOf
		}
		if s.Type == "integer" {
			return int64(n)
		}
		return n
	case "boolean":
		return true
	case "array":
		n := int64(0)
		if full && depth < maxGenDepth {
			n = 1
		}
		if s.MinItems != nil && *s.MinItems > n {
			n = *s.MinItems
		}
		if n > 3 {
			n = 3
		}
		var items *crd.JSONSchemaProps
		if s.Items != nil {
			items = s.Items.Schema
		}
		arr := []interface{}{}
		for i := int64(0); i < n; i++ {
			v := gen(items, depth+1, full)
			if str, ok := v.(string); ok && i > 0 && items != nil && len(items.Enum) == 0 && items.Format == "" {
				v = str + fmt.Sprint(i) // distinct set and map entries
			}
			arr = append(arr, v)
		}
		return arr
	case "object":
		return genProps(s, depth, full)
	}
	if len(s.Properties) > 0 {
		return genProps(s, depth, full)
	}
	return map[string]interface{}{}
}

func genProps(s *crd.JSONSchemaProps, depth int, full bool) map[string]interface{} {
	obj := map[string]interface{}{}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	for k, p := range s.Properties {
		p := p
		if req[k] || (full && depth < maxGenDepth) {
			obj[k] = gen(&p, depth+1, full)
		}
	}
	if full && depth < maxGenDepth && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		obj["key"] = gen(s.AdditionalProperties.Schema, depth+1, full)
	}
	return obj
}

// site is a place in an object with the schema that describes it.
type site struct {
	path   []interface{} // string keys and int indexes
	schema *crd.JSONSchemaProps
	value  interface{}
}

func collectSites(v interface{}, s *crd.JSONSchemaProps, path []interface{}, out *[]site) {
	*out = append(*out, site{path: append([]interface{}{}, path...), schema: s, value: v})
	if s == nil {
		return
	}
	switch x := v.(type) {
	case map[string]interface{}:
		keys := keys.Sorted(x)
		for _, k := range keys {
			var child *crd.JSONSchemaProps
			if p, ok := s.Properties[k]; ok {
				p := p
				child = &p
			} else if s.AdditionalProperties != nil {
				child = s.AdditionalProperties.Schema
			}
			if child != nil {
				collectSites(x[k], child, append(path, k), out)
			}
		}
	case []interface{}:
		if s.Items != nil && s.Items.Schema != nil {
			for i, e := range x {
				collectSites(e, s.Items.Schema, append(path, i), out)
			}
		}
	}
}

type mutation struct {
	name  string
	value interface{}
	del   bool
}

// mutationsAt lists the mutations of one site.
func mutationsAt(st site) []mutation {
	s := st.schema
	var out []mutation
	add := func(name string, v interface{}) { out = append(out, mutation{name: name, value: v}) }
	switch x := st.value.(type) {
	case string:
		add("wrong type (number)", 12345)
		add("empty string", "")
		add("bad format/pattern", "%not valid%")
		if s.MaxLength != nil {
			add("too long", strings.Repeat("a", int(*s.MaxLength)+1))
		}
		if len(s.Enum) > 0 {
			add("not in enum", "notInEnum")
		}
		if s.Format != "" {
			add("bad format", "not-a-"+s.Format)
		}
	case bool:
		add("wrong type (string)", "true")
	case float64, int64, int:
		add("wrong type (string)", "1")
		add("fraction", 0.5)
		add("negative", -1)
		if s.Minimum != nil {
			add("below minimum", *s.Minimum-1)
			add("at minimum", *s.Minimum)
		}
		if s.Maximum != nil {
			add("above maximum", *s.Maximum+1)
			add("at maximum", *s.Maximum)
		}
		add("large", 3e9)
	case []interface{}:
		add("wrong type (object)", map[string]interface{}{})
		add("empty list", []interface{}{})
		if len(x) > 0 {
			add("duplicate item", append(append([]interface{}{}, x...), x[0]))
		}
		if s.MaxItems != nil && len(x) > 0 {
			long := []interface{}{}
			for i := int64(0); i <= *s.MaxItems && i < 50; i++ {
				long = append(long, x[0])
			}
			add("too many items", long)
		}
	case map[string]interface{}:
		add("wrong type (string)", "x")
		withUnknown := map[string]interface{}{"zzUnknown": "x"}
		for k, v := range x {
			withUnknown[k] = v
		}
		add("unknown field", withUnknown)
		for _, r := range s.Required {
			if _, ok := x[r]; ok {
				without := map[string]interface{}{}
				for k, v := range x {
					if k != r {
						without[k] = v
					}
				}
				add("missing required "+r, without)
			}
		}
		if s.XEmbeddedResource {
			add("embedded without kind", map[string]interface{}{"apiVersion": "v1"})
			add("embedded bad kind", map[string]interface{}{"apiVersion": "v1", "kind": "-x"})
			add("embedded bad apiVersion", map[string]interface{}{"apiVersion": "a/b/c", "kind": "X"})
		}
	}
	if len(st.path) > 0 {
		add("null", nil)
		out = append(out, mutation{name: "deleted", del: true})
	}
	return out
}

func setAt(obj interface{}, path []interface{}, m mutation) interface{} {
	if len(path) == 0 {
		return m.value
	}
	switch x := obj.(type) {
	case map[string]interface{}:
		k := path[0].(string)
		if len(path) == 1 && m.del {
			delete(x, k)
			return x
		}
		x[k] = setAt(x[k], path[1:], m)
	case []interface{}:
		i := path[0].(int)
		if len(path) == 1 && m.del {
			return append(x[:i:i], x[i+1:]...)
		}
		x[i] = setAt(x[i], path[1:], m)
	}
	return obj
}

func pathString(path []interface{}) string {
	var b strings.Builder
	for _, p := range path {
		switch p := p.(type) {
		case string:
			b.WriteString("." + p)
		case int:
			fmt.Fprintf(&b, "[%d]", p)
		}
	}
	return b.String()
}

// generated returns the generated objects of one version of a CRD, at most
// limit mutations (spread over the sites).
func generated(group, version, kind string, s *crd.JSONSchemaProps, limit int) []objInput {
	base := func(full bool) map[string]interface{} {
		var obj map[string]interface{}
		if s != nil {
			obj, _ = gen(s, 0, full).(map[string]interface{})
		}
		if obj == nil {
			obj = map[string]interface{}{}
		}
		obj["apiVersion"] = group + "/" + version
		obj["kind"] = kind
		obj["metadata"] = map[string]interface{}{"name": "generated", "namespace": "default"}
		return obj
	}
	minimal, full := base(false), base(true)
	out := []objInput{{name: "generated minimal", data: mustJSON(minimal)}, {name: "generated full", data: mustJSON(full)}}
	var sites []site
	collectSites(full, s, nil, &sites)
	var muts []objInput
	for _, st := range sites {
		if len(st.path) > 0 && (st.path[0] == "apiVersion" || st.path[0] == "kind" || st.path[0] == "metadata") {
			continue
		}
		for _, m := range mutationsAt(st) {
			obj := setAt(copyValue(full), st.path, m)
			muts = append(muts, objInput{name: fmt.Sprintf("%s: %s", orRoot(pathString(st.path)), m.name), data: mustJSON(obj)})
		}
	}
	if len(muts) > limit {
		stride := float64(len(muts)) / float64(limit)
		picked := make([]objInput, 0, limit)
		for i := 0; i < limit; i++ {
			picked = append(picked, muts[int(float64(i)*stride)])
		}
		muts = picked
	}
	return append(out, muts...)
}

func orRoot(p string) string {
	if p == "" {
		return "<root>"
	}
	return p
}

func mustJSON(v interface{}) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func copyValue(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		c := make(map[string]interface{}, len(x))
		for k, e := range x {
			c[k] = copyValue(e)
		}
		return c
	case []interface{}:
		c := make([]interface{}, len(x))
		for i, e := range x {
			c[i] = copyValue(e)
		}
		return c
	}
	return v
}

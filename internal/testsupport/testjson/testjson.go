// Package testjson holds test helpers shared by the engine's packages:
// decoding JSON as kube-apiserver decodes request bodies, encoding values
// for comparison, and building structural schemas from a compact JSON form.
// Only tests import it.
package testjson

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/schema"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// Decode decodes JSON the way kube-apiserver decodes request bodies
// (integers as int64, other numbers as float64).
func Decode(t testing.TB, s string) interface{} {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		t.Fatalf("bad test JSON %q: %v", s, err)
	}
	return unstructured.ConvertNumbers(v)
}

// Encode renders v as indented JSON.
func Encode(t testing.TB, v interface{}) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// Schema builds a Structural from a compact JSON schema (type, nullable,
// default, properties, items, additionalProperties as bool or schema,
// x-kubernetes-preserve-unknown-fields, x-kubernetes-embedded-resource,
// minimum, enum). It is a test helper, not the CRD conversion.
func Schema(t testing.TB, js string) *schema.Structural {
	t.Helper()
	return toStructural(t, Decode(t, js))
}

func toStructural(t testing.TB, v interface{}) *schema.Structural {
	m, ok := v.(map[string]interface{})
	if !ok {
		t.Fatalf("schema must be an object, got %T", v)
	}
	s := &schema.Structural{}
	vv := func() *schema.ValueValidation {
		if s.ValueValidation == nil {
			s.ValueValidation = &schema.ValueValidation{}
		}
		return s.ValueValidation
	}
	for k, x := range m {
		switch k {
		case "type":
			s.Type = x.(string)
		case "nullable":
			s.Nullable = x.(bool)
		case "default":
			s.Default.Object = x
		case "x-kubernetes-preserve-unknown-fields":
			s.XPreserveUnknownFields = x.(bool)
		case "x-kubernetes-embedded-resource":
			s.XEmbeddedResource = x.(bool)
		case "items":
			s.Items = toStructural(t, x)
		case "additionalProperties":
			if b, ok := x.(bool); ok {
				s.AdditionalProperties = &schema.StructuralOrBool{Bool: b}
			} else {
				s.AdditionalProperties = &schema.StructuralOrBool{Bool: true, Structural: toStructural(t, x)}
			}
		case "properties":
			s.Properties = map[string]schema.Structural{}
			for pk, pv := range x.(map[string]interface{}) {
				s.Properties[pk] = *toStructural(t, pv)
			}
		case "minimum":
			var f float64
			switch x := x.(type) {
			case int64:
				f = float64(x)
			case float64:
				f = x
			}
			vv().Minimum = &f
		case "enum":
			for _, e := range x.([]interface{}) {
				vv().Enum = append(vv().Enum, schema.JSON{Object: e})
			}
		default:
			t.Fatalf("unsupported schema keyword %q", k)
		}
	}
	return s
}

package cel

import "testing"

func TestEscapeFollowsUpstreamRules(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"foo", "foo", true},
		{"namespace", "__namespace__", true},
		{"in", "__in__", true},
		{"a-b", "a__dash__b", true},
		{"a.b", "a__dot__b", true},
		{"a/b", "a__slash__b", true},
		{"a__b", "a__underscores__b", true},
		{"_x_y", "_x_y", true},
		{"1abc", "", false},
		{"", "", false},
		{"a b", "", false},
		{"a-b c", "", false},
		{"ü", "", false},
	}
	for _, c := range cases {
		got, ok := Escape(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Escape(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
		if ok {
			back, ok2 := Unescape(got)
			if !ok2 || back != c.in {
				t.Errorf("Unescape(%q) = %q, %v; want %q", got, back, ok2, c.in)
			}
		}
	}
	if _, ok := Unescape("__namespace__x"); ok {
		t.Errorf("Unescape accepted a keyword escape that is not the whole name")
	}
}

func TestSchemaDeclTypeEstimatesMatchUpstream(t *testing.T) {
	// MaxElements and MinSerializedSize drive static costs; the numbers are
	// upstream's (checked in conformance/cel_test.go through costs).
	cases := []struct {
		name, schema    string
		typeName        string
		maxElems, minSz int64
	}{
		{"string unbounded", `{"type":"string"}`, "string", 3145726, 2},
		{"string maxLength x4", `{"type":"string","maxLength":10}`, "string", 40, 2},
		{"string enum longest", `{"type":"string","enum":["a","abcd"]}`, "string", 4, 2},
		{"bytes maxLength", `{"type":"string","format":"byte","maxLength":10}`, "bytes", 10, 2},
		{"duration", `{"type":"string","format":"duration"}`, "duration", 32, 3},
		{"date", `{"type":"string","format":"date"}`, "timestamp", 12, 12},
		{"date-time", `{"type":"string","format":"date-time"}`, "timestamp", 32, 21},
		{"int-or-string", `{"x-kubernetes-int-or-string":true}`, "dyn", 3145726, 1},
		{"list of strings", `{"type":"array","items":{"type":"string"}}`, "list", 1048575, 2},
		{"list maxItems", `{"type":"array","maxItems":7,"items":{"type":"integer"}}`, "list", 7, 2},
		{"list negative maxItems", `{"type":"array","maxItems":-1,"items":{"type":"integer"}}`, "list", 0, 2},
		{"map of ints", `{"type":"object","additionalProperties":{"type":"integer"}}`, "map", 449389, 2},
		{"object required adds size", `{"type":"object","required":["ab"],"properties":{"ab":{"type":"string"}}}`, "object", 0, 10},
		{"object required with default", `{"type":"object","required":["ab"],"properties":{"ab":{"type":"string","default":"x"}}}`, "object", 0, 2},
		{"boolean", `{"type":"boolean"}`, "bool", 0, 4},
		{"number", `{"type":"number"}`, "double", 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dt := SchemaDeclType(mustSchema(t, c.schema), false)
			if dt == nil {
				t.Fatal("nil DeclType")
			}
			if dt.TypeName() != c.typeName || dt.MaxElements != c.maxElems || dt.MinSerializedSize != c.minSz {
				t.Errorf("got %s max=%d min=%d; want %s max=%d min=%d", dt.TypeName(), dt.MaxElements, dt.MinSerializedSize, c.typeName, c.maxElems, c.minSz)
			}
		})
	}
}

func TestSchemaDeclTypeResourceRootAddsImplicitFields(t *testing.T) {
	dt := SchemaDeclType(mustSchema(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{"1x":{"type":"string"},"a-b":{"type":"string"}}}}}`), true)
	for _, f := range []string{"apiVersion", "kind", "metadata", "spec"} {
		if _, ok := dt.Fields[f]; !ok {
			t.Errorf("root type lacks field %q", f)
		}
	}
	meta := dt.Fields["metadata"].Type
	if got := meta.Fields["name"].Type.MaxElements; got != 253*4 {
		t.Errorf("metadata.name MaxElements = %d, want %d", got, 253*4)
	}
	if got := meta.Fields["generateName"].Type.MaxElements; got != 252*4 {
		t.Errorf("metadata.generateName MaxElements = %d, want %d", got, 252*4)
	}
	spec := dt.Fields["spec"].Type
	if _, ok := spec.Fields["a__dash__b"]; !ok {
		t.Errorf("escaped property missing: %v", spec.Fields)
	}
	if len(spec.Fields) != 1 {
		t.Errorf("unescapable property should be inaccessible, fields: %v", spec.Fields)
	}
	named := dt.MaybeAssignTypeName("selfType0")
	if got := named.Fields["spec"].Type.TypeName(); got != "selfType0.spec" {
		t.Errorf("nested type name = %q, want selfType0.spec", got)
	}
}

func TestSchemaDeclTypeWithoutRepresentationIsNil(t *testing.T) {
	for _, js := range []string{`{"type":"array"}`, `{"x-kubernetes-preserve-unknown-fields":true}`} {
		var s = mustSchema(t, js)
		if dt := SchemaDeclType(s, false); dt != nil {
			t.Errorf("%s: got %s, want nil", js, dt.TypeName())
		}
	}
}

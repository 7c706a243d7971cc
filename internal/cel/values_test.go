package cel

import (
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

func TestUnstructuredToValConvertsByType(t *testing.T) {
	cases := []struct {
		name, schema, value string
		want                string // Go %v of Value() or the error text
	}{
		{"null without nullable", `{"type":"string"}`, `null`, "invalid data, got null for schema with nullable=false"},
		{"null with nullable", `{"type":"string","nullable":true}`, `null`, "NULL_VALUE"},
		{"int-or-string int", `{"x-kubernetes-int-or-string":true}`, `3`, "3"},
		{"int-or-string float", `{"x-kubernetes-int-or-string":true}`, `3.5`, "invalid data, expected XIntOrString value to be either a string or integer"},
		{"number from integer", `{"type":"number"}`, `3`, "3"},
		{"integer from float", `{"type":"integer"}`, `3.5`, "invalid data, expected int, got float64"},
		{"object from list", `{"type":"object"}`, `[]`, "invalid data, expected a map for the provided schema with type=object"},
		{"bad list type", `{"type":"array","items":{"type":"string"}}`, `"x"`, "invalid data, expected an array for the provided schema with type=array"},
		{"duration", `{"type":"string","format":"duration"}`, `"1h30m"`, "1h30m0s"},
		{"strfmt duration units", `{"type":"string","format":"duration"}`, `"2 days"`, "48h0m0s"},
		{"bad duration", `{"type":"string","format":"duration"}`, `"x"`, "Invalid duration x: unable to parse x as duration"},
		{"date", `{"type":"string","format":"date"}`, `"2024-02-03"`, "2024-02-03 00:00:00 +0000 UTC"},
		{"byte", `{"type":"string","format":"byte"}`, `"YWJj"`, "[97 98 99]"},
		{"preserved", `{"x-kubernetes-preserve-unknown-fields":true}`, `{"a":1}`, "map[a:1]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := UnstructuredToVal(mustObject(t, c.value), mustSchema(t, c.schema))
			got := ""
			if e, ok := v.(*types.Err); ok {
				got = e.Error()
			} else {
				got = fmtVal(v)
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func fmtVal(v ref.Val) string {
	if v == types.NullValue {
		return "NULL_VALUE"
	}
	switch x := v.(type) {
	case types.Duration:
		return x.Duration.String()
	case types.Timestamp:
		return x.Time.String()
	}
	return sprint(v.Value())
}

func TestListTypeSemantics(t *testing.T) {
	set := mustSchema(t, `{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}`)
	a := UnstructuredToVal(mustObject(t, `["a","b"]`), set)
	b := UnstructuredToVal(mustObject(t, `["b","a"]`), set)
	if a.Equal(b) != types.True {
		t.Errorf("set lists with the same elements differ")
	}
	sum := a.(traits.Adder).Add(types.NewStringList(types.DefaultTypeAdapter, []string{"c", "a"}))
	if got := sprint(listValues(sum)); got != "[a b c]" {
		t.Errorf("set union %s", got)
	}
	atomic := mustSchema(t, `{"type":"array","items":{"type":"string"}}`)
	if UnstructuredToVal(mustObject(t, `["a","b"]`), atomic).Equal(UnstructuredToVal(mustObject(t, `["b","a"]`), atomic)) != types.False {
		t.Errorf("atomic lists ignore order")
	}
	ml := mustSchema(t, `{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"integer"}}}}`)
	x := UnstructuredToVal(mustObject(t, `[{"k":"a","v":1},{"k":"b","v":2}]`), ml)
	y := UnstructuredToVal(mustObject(t, `[{"k":"b","v":3},{"k":"c","v":4}]`), ml)
	merged := x.(traits.Adder).Add(y)
	var vs []interface{}
	for _, e := range listValues(merged) {
		vs = append(vs, e.(map[string]interface{})["v"])
	}
	if got := sprint(vs); got != "[1 3 4]" {
		t.Errorf("map-list merge values %s, want [1 3 4]", got)
	}
	if x.Equal(UnstructuredToVal(mustObject(t, `[{"k":"b","v":2},{"k":"a","v":1}]`), ml)) != types.True {
		t.Errorf("map lists with the same keyed items differ")
	}
}

func listValues(v ref.Val) []interface{} {
	l := v.(traits.Lister)
	var out []interface{}
	for it := l.Iterator(); it.HasNext() == types.True; {
		out = append(out, it.Next().Value())
	}
	return out
}

func TestObjectFieldsAbsentWhenNull(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"a":{"type":"string","nullable":true},"x-y":{"type":"string"}}}`)
	m := UnstructuredToVal(mustObject(t, `{"a":null,"x-y":"v"}`), s).(traits.Mapper)
	if _, found := m.Find(types.String("a")); found {
		t.Errorf("null field is present")
	}
	if v, found := m.Find(types.String("x__dash__y")); !found || v.Value() != "v" {
		t.Errorf("escaped field lookup: %v %v", v, found)
	}
	// As upstream, a name without escape sequences passes Unescape unchanged
	// (the type checker rejects such field names before evaluation).
	if _, found := m.Find(types.String("x-y")); !found {
		t.Errorf("raw name lookup differs from upstream")
	}
}

package casefile

import (
	"fmt"
	"testing"
)

func TestMergePatch(t *testing.T) {
	target := map[string]interface{}{"a": 1, "b": map[string]interface{}{"c": 2, "d": 3}}
	got := MergePatch(target, map[string]interface{}{"a": nil, "b": map[string]interface{}{"c": 5}, "e": []interface{}{1}})
	want := `map[b:map[c:5 d:3] e:[1]]`
	if s := fmt.Sprint(got); s != want {
		t.Fatalf("got %s, want %s", s, want)
	}
}

func TestEncodeJSON(t *testing.T) {
	raw := "not json"
	for _, c := range []struct {
		v    interface{}
		raw  *string
		want string
	}{
		{nil, nil, ""},
		{nil, &raw, "not json"},
		{map[string]interface{}{"a": "<&>"}, nil, `{"a":"<&>"}`},
	} {
		got, err := EncodeJSON(c.v, c.raw)
		if err != nil || string(got) != c.want {
			t.Errorf("EncodeJSON(%v, %v) = %q, %v; want %q", c.v, c.raw, got, err, c.want)
		}
	}
}

func TestLoadConformanceCases(t *testing.T) {
	cases, err := Load("../../../conformance/testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("only %d cases loaded", len(cases))
	}
	for _, c := range cases {
		if len(c.Request.CRD) == 0 {
			t.Errorf("%s: no CRD", c.ID)
		}
	}
}

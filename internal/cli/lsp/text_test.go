package lsp

import "testing"

func TestJSONTopLevelReadsOnlyTheTopLevel(t *testing.T) {
	for in, want := range map[string][2]string{
		`{"kind":"A","apiVersion":"x/v1"}`:                                   {"x/v1", "A"},
		`{"spec":{"kind":"Inner","apiVersion":"no"},"kind":"Outer"}`:         {"", "Outer"},
		`{"a":[{"kind":"no"}],"b":{"c":[1,2]},"apiVersion":"v1","kind":"K"}`: {"v1", "K"},
		`[{"kind":"K"}]`:              {"", ""},
		`{"kind":`:                    {"", ""},
		`{"kind":3,"apiVersion":"v"}`: {"v", ""},
	} {
		if a, k := jsonTopLevel([]byte(in)); a != want[0] || k != want[1] {
			t.Errorf("%s: %q %q, want %q", in, a, k, want)
		}
	}
}

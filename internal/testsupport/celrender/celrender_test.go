package celrender

import (
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
)

func TestEvalRender(t *testing.T) {
	env, err := cel.NewEnv(append(VarDecls(), cel.OptionalTypes())...)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ src, result, compileErr string }{
		{`[1, 2u, 1.5, "a", b"x", true, null]`, `[1, 2u, double(1.5), "a", b"x", true, NULL_VALUE]`, ""},
		{`{"b": 1, "a": 2}`, `{"a": 2, "b": 1}`, ""},
		{`optional.none()`, `optional.none()`, ""},
		{`optional.of(m["abc"])`, `optional.of("0123456789")`, ""},
		{`1 / 0`, `error(division by zero)`, ""},
		{`strs.size() + ints[0]`, `6`, ""},
		{`nope`, ``, "undeclared reference"},
	} {
		var row Row
		if err := Eval(&row, env, c.src, Vars(), VarSizes{}); err != nil {
			t.Fatal(err)
		}
		if c.compileErr != "" {
			if row.CompileError == "" || !strings.Contains(row.CompileError, c.compileErr) {
				t.Errorf("%s: compile error %q, want %q", c.src, row.CompileError, c.compileErr)
			}
			continue
		}
		if row.CompileError != "" || row.Result != c.result {
			t.Errorf("%s: got %q (compile error %q), want %q", c.src, row.Result, row.CompileError, c.result)
		}
	}
}

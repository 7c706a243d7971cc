package library

import (
	"testing"

	"github.com/google/cel-go/cel"
)

func TestScientificNotationSpacedBeforeKubernetes133(t *testing.T) {
	tests := []struct {
		minor uint
		expr  string
		want  string
	}{
		{32, `'%e'.format([3.14])`, "3.140000\u202f×\u202f10⁰⁰"},
		{33, `'%e'.format([3.14])`, "3.140000×10⁰⁰"},
		{storedMinor, `'%e'.format([3.14])`, "3.140000×10⁰⁰"},
		// only the %e clauses (cel-go reads %.3e as a width: six digits):
		// literal text, %s arguments and other
		// clauses are left as they are
		{31, `'×10 %s %.2f|%.3e|%d%%'.format(['a×b', 1234.5, -12345.678, 7])`, "×10 a×b 1,234.50|-1.234568\u202f×\u202f10⁰⁴|7%"},
		{31, `'%s'.format([1.5])`, "1.5"},
	}
	for _, tt := range tests {
		env, err := cel.NewEnv(EnvOptionsAt(tt.minor)...)
		if err != nil {
			t.Fatal(err)
		}
		ast, iss := env.Compile(tt.expr)
		if iss.Err() != nil {
			t.Fatal(iss.Err())
		}
		prg, err := env.Program(ast)
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := prg.Eval(cel.NoVars())
		if err != nil {
			t.Fatalf("%d %s: %v", tt.minor, tt.expr, err)
		}
		if got := v.Value(); got != tt.want {
			t.Errorf("1.%d %s: got %q, want %q", tt.minor, tt.expr, got, tt.want)
		}
	}
}

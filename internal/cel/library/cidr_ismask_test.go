package library

import (
	"testing"

	"github.com/google/cel-go/cel"
)

func TestCIDRIsMaskIsInTheCIDRLibraryVersion1Only(t *testing.T) {
	tests := []struct {
		minor   uint
		expr    string
		want    bool
		compile bool
	}{
		{38, `cidr('192.168.0.0/24').isMask()`, true, true},
		{38, `cidr('192.168.0.1/24').isMask()`, false, true},
		{38, `cidr('::1/128').isMask()`, true, true},
		{38, `cidr('2001:db8::1/32').isMask()`, false, true},
		{37, `cidr('192.168.0.0/24').isMask()`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			env, err := cel.NewEnv(EnvOptionsAt(tt.minor)...)
			if err != nil {
				t.Fatal(err)
			}
			ast, iss := env.Compile(tt.expr)
			if !tt.compile {
				if iss == nil {
					t.Fatalf("at 1.%d %s compiles, want an undeclared reference", tt.minor, tt.expr)
				}
				return
			}
			if iss != nil {
				t.Fatalf("at 1.%d: %v", tt.minor, iss)
			}
			prg, err := env.Program(ast)
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := prg.Eval(cel.NoVars())
			if err != nil {
				t.Fatal(err)
			}
			if out.Value() != tt.want {
				t.Errorf("%s = %v, want %v", tt.expr, out.Value(), tt.want)
			}
		})
	}
}

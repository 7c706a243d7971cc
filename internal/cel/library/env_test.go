package library

import (
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
)

func compileIn(t *testing.T, opt cel.EnvOption, expr string) error {
	t.Helper()
	env, err := cel.NewEnv(opt)
	if err != nil {
		t.Fatal(err)
	}
	_, iss := env.Compile(expr)
	return iss.Err()
}

func TestEnvironmentVersionsGateFunctions(t *testing.T) {
	tests := []struct {
		name   string
		opt    cel.EnvOption
		expr   string
		wantOK bool
	}{
		{"lists v0 has no includes at 1.36", BaseLib(), `[1].includes(1)`, false},
		{"stored env has includes (lists v1, 1.37)", StoredBaseLib(), `[1].includes(1)`, true},
		{"semver normalize overload (semver v1, 1.33)", BaseLib(), `semver("v1", true).major() == 1`, true},
		{"ext.Lists v3 sortBy (1.34)", BaseLib(), `[2, 1].sortBy(x, x) == [1, 2]`, true},
		{"two-variable comprehensions (1.32)", BaseLib(), `[1].all(i, v, i < v)`, true},
		{"strings v2 quote", BaseLib(), `strings.quote("a") == "\"a\""`, true},
		{"ip library before 1.30 is absent", cel.Lib(&baseLoader{env: EnvOptionsAt(29)}), `isIP("1.2.3.4")`, false},
		{"format library at 1.31", cel.Lib(&baseLoader{env: EnvOptionsAt(31)}), `format.dns1123Label().validate("a").hasValue()`, true},
		{"heterogeneous list literal rejected", BaseLib(), `[1, "a"]`, false},
		{"invalid regex literal rejected", BaseLib(), `"a".matches("(")`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := compileIn(t, tt.opt, tt.expr)
			if (err == nil) != tt.wantOK {
				t.Errorf("compile %q: err = %v, wantOK %v", tt.expr, err, tt.wantOK)
			}
		})
	}
}

func TestProgramOptionsEnforcePerCallLimit(t *testing.T) {
	env, err := cel.NewEnv(BaseLib())
	if err != nil {
		t.Fatal(err)
	}
	ast, iss := env.Compile(`lists.range(2000).all(i, lists.range(2000).all(j, i + j >= 0))`)
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	prg, err := env.Program(ast)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = prg.Eval(cel.NoVars())
	if err == nil || !strings.Contains(err.Error(), "operation cancelled: actual cost limit exceeded") {
		t.Fatalf("want cost limit error, got %v", err)
	}
}

func TestPresenceTestHasNoCost(t *testing.T) {
	env, err := cel.NewEnv(BaseLib(), cel.Variable("m", cel.MapType(cel.StringType, cel.IntType)))
	if err != nil {
		t.Fatal(err)
	}
	ast, _ := env.Compile(`has(m.a)`)
	est, err := env.EstimateCost(ast, &CostEstimator{})
	if err != nil {
		t.Fatal(err)
	}
	// the map variable costs 1 to read; has() itself costs 0 (PresenceTestHasCost(false))
	if est.Min != 1 || est.Max != 1 {
		t.Errorf("estimate = %+v, want 1..1", est)
	}
}

func TestEnvOptionsMatchBaseLib(t *testing.T) {
	// EnvOptions plus ProgramOptions behave like BaseLib.
	env, err := cel.NewEnv(EnvOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	ast, iss := env.Compile(`"abc".find("b") == "b" && quantity("1").isInteger()`)
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	prg, err := env.Program(ast, ProgramOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	v, det, err := prg.Eval(cel.NoVars())
	if err != nil || v != types.True {
		t.Fatalf("got %v, %v", v, err)
	}
	if det.ActualCost() == nil || *det.ActualCost() == 0 {
		t.Errorf("cost tracking not enabled")
	}
}

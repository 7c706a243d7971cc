package library_test

import (
	"fmt"

	"github.com/google/cel-go/cel"

	"github.com/crdlab/crdlab/internal/cel/library"
)

// BaseLib builds the environment kube-apiserver 1.37 uses for new CRD
// validation rules (compatibility version 1.36), program options included.
func ExampleBaseLib() {
	env, _ := cel.NewEnv(library.BaseLib())
	ast, iss := env.Compile(`quantity("1.5Gi").isGreaterThan(quantity("1G")) && url("https://example.com:8443").getPort() == "8443"`)
	if iss.Err() != nil {
		fmt.Println(iss.Err())
		return
	}
	prg, _ := env.Program(ast)
	out, det, _ := prg.Eval(cel.NoVars())
	fmt.Println(out, *det.ActualCost())
	// Output: true 8
}

// EnvOptions and ProgramOptions give the same environment as separate lists,
// to be combined with CRD-specific declarations.
func ExampleEnvOptions() {
	opts := append(library.EnvOptions(), cel.Variable("self", cel.StringType))
	env, _ := cel.NewEnv(opts...)
	ast, _ := env.Compile(`isIP(self) && ip(self).family() == 6`)
	prg, _ := env.Program(ast, library.ProgramOptions()...)
	out, _, _ := prg.Eval(map[string]any{"self": "2001:db8::1"})
	fmt.Println(out)
	// Output: true
}

// CostEstimator gives upstream's static estimates; SizeEstimator would supply
// the sizes of schema-typed variables.
func ExampleCostEstimator() {
	env, _ := cel.NewEnv(library.BaseLib())
	ast, _ := env.Compile(`"abc 123".find("[0-9]+")`)
	est, _ := env.EstimateCost(ast, &library.CostEstimator{})
	fmt.Println(est.Min, est.Max)
	// Output: 2 2
}

// Runtime errors carry upstream's messages.
func ExampleURLs() {
	env, _ := cel.NewEnv(library.BaseLib())
	ast, _ := env.Compile(`url("not a url")`)
	prg, _ := env.Program(ast)
	_, _, err := prg.Eval(cel.NoVars())
	fmt.Println(err)
	// Output: URL parse error during conversion from string: parse "not a url": invalid URI for request
}

func ExampleParseQuantity() {
	q, _ := library.ParseQuantity("1.5")
	_, isInt := q.AsInt64()
	fmt.Println(q.String(), isInt, q.AsApproximateFloat64())
	// Output: 1500m false 1.5
}

func ExampleParseSemver() {
	v, err := library.ParseSemver("1.2.3-rc.1+build")
	fmt.Println(v.Major, v.Minor, v.Patch, v.String(), err)
	// Output: 1 2 3 1.2.3-rc.1+build <nil>
}

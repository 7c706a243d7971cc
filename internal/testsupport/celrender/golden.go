package celrender

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
)

// Row is one line of internal/cel/library/testdata/costs.golden: an
// expression's compile error or rendered result, its static cost estimate
// (min, max) and its runtime cost. conformance/cellib_test.go replays every
// row against upstream's base environment.
type Row struct {
	Expr         string    `json:"expr"`
	Stored       bool      `json:"stored,omitempty"`
	CompileError string    `json:"compileError,omitempty"`
	Result       string    `json:"result,omitempty"`
	Static       [2]uint64 `json:"static"`
	Runtime      uint64    `json:"runtime"`
}

// VarSizes is a stand-in for the CRD schema size estimator: every node with
// a path (variables and their "@items") is 0..20 long.
type VarSizes struct{}

// EstimateSize implements checker.CostEstimator.
func (VarSizes) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if len(n.Path()) > 0 {
		return &checker.SizeEstimate{Min: 0, Max: 20}
	}
	return nil
}

// EstimateCallCost implements checker.CostEstimator.
func (VarSizes) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// Vars are the values of the variables of a "vars:" golden expression.
func Vars() map[string]any {
	return map[string]any{
		"str":  "hello world",
		"strs": []string{"a", "bb", "ccc"},
		"ints": []int64{3, 1, 2},
		"objs": []map[string]int64{{"a": 1}, {"a": 2}},
		"m":    map[string]string{"abc": "0123456789", "u": "https://example.com/x"},
	}
}

// VarDecls declares the variables of Vars.
func VarDecls() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Variable("str", cel.StringType),
		cel.Variable("strs", cel.ListType(cel.StringType)),
		cel.Variable("ints", cel.ListType(cel.IntType)),
		cel.Variable("objs", cel.ListType(cel.MapType(cel.StringType, cel.IntType))),
		cel.Variable("m", cel.MapType(cel.StringType, cel.StringType)),
	}
}

// Eval compiles src in env, estimates its cost with est, evaluates it with
// vars and fills row's CompileError or Static, Result and Runtime. The error
// is the cost estimator's (a test failure).
func Eval(row *Row, env *cel.Env, src string, vars any, est checker.CostEstimator) error {
	ast, iss := env.Compile(src)
	if iss.Err() != nil {
		row.CompileError = iss.Err().Error()
		return nil
	}
	e, err := env.EstimateCost(ast, est)
	if err != nil {
		return err
	}
	row.Static = [2]uint64{e.Min, e.Max}
	prg, err := env.Program(ast)
	if err != nil {
		row.CompileError = "program: " + err.Error()
		return nil
	}
	val, det, err := prg.Eval(vars)
	if err != nil {
		row.Result = "error(" + err.Error() + ")"
	} else {
		row.Result = Render(val)
	}
	if det != nil && det.ActualCost() != nil {
		row.Runtime = *det.ActualCost()
	}
	return nil
}

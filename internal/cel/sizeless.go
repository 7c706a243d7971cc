package cel

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/ast"
)

// sizelessDyn is the name a dyn(x) call is given while the cost of an
// expression is estimated as cel-go before v0.23 does (Kubernetes 1.32 and
// older, kubeversion.DynSizePropagation): there, dyn is an ordinary call,
// costing 1 plus its argument like any O(1) function, whose result has no
// size; cel-go v0.23 and later recognise a call named dyn and give it the
// size of its argument. No function has this name, so no estimator prices it.
const sizelessDyn = "dyn@sizeless"

// estimateCost is env.EstimateCost(a, est); when est.SizelessDyn, the dyn
// calls of a are renamed sizelessDyn for the estimate and restored after it
// (a is the caller's own, compiled for this rule).
func estimateCost(env *cel.Env, a *cel.Ast, est *costEstimator) (checker.CostEstimate, error) {
	if !est.SizelessDyn {
		return env.EstimateCost(a, est)
	}
	calls := dynCalls(a.NativeRep().Expr())
	if len(calls) == 0 {
		return env.EstimateCost(a, est)
	}
	fac := ast.NewExprFactory()
	for _, c := range calls {
		c.SetKindCase(fac.NewCall(0, sizelessDyn, c.AsCall().Args()...))
	}
	defer func() {
		for _, c := range calls {
			c.SetKindCase(fac.NewCall(0, "dyn", c.AsCall().Args()...))
		}
	}()
	return env.EstimateCost(a, est)
}

// dynCalls returns the calls of the global dyn function in e.
func dynCalls(e ast.Expr) []ast.Expr {
	var out []ast.Expr
	ast.PostOrderVisit(e, ast.NewExprVisitor(func(x ast.Expr) {
		if x.Kind() == ast.CallKind {
			if c := x.AsCall(); c.FunctionName() == "dyn" && !c.IsMemberFunction() && len(c.Args()) == 1 {
				out = append(out, x)
			}
		}
	}))
	return out
}

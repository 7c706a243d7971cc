package cel

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"

	"github.com/crdlab/crdlab/internal/cel/library"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// This file exports, for environments built outside this package (the
// Dynamic Resource Allocation selectors of internal/dra), the pieces a
// compile shares with CRD rules: a release's cost estimator, its static
// estimate, its compile-issue text and the program options.

// QuantityDeclType is upstream's apiservercel.QuantityDeclType: a
// kubernetes.Quantity with a minimum serialized size of 8.
var QuantityDeclType = newSimpleType("quantity", library.QuantityType, 8)

// CostEstimatorAt is release rel's library.CostEstimator over size (nil:
// no size estimator, as upstream's runtime cost tracker).
func CostEstimatorAt(size checker.CostEstimator, rel kubeversion.Release) *library.CostEstimator {
	return &library.CostEstimator{
		SizeEstimator:       size,
		NoTypeEquality:      !rel.Has(kubeversion.KubernetesTypeEqualityCost),
		NoGlobalMatchesCost: !rel.Has(kubeversion.GlobalMatchesCost),
		NoURLResultSize:     !rel.Has(kubeversion.URLResultSize),
		SizelessDyn:         !rel.Has(kubeversion.DynSizePropagation),
		SizelessOptionals:   !rel.Has(kubeversion.DynSizePropagation),
		URLAccessorSizes:    rel.Has(kubeversion.URLAccessorSize),
	}
}

// EstimateCostAt is env.EstimateCost(a, est) as the release est was made
// for estimates (cel-go before v0.23 gives dyn(x) no size).
func EstimateCostAt(env *cel.Env, a *cel.Ast, est *library.CostEstimator) (checker.CostEstimate, error) {
	return estimateCost(env, a, est)
}

// IssuesText is the text of the issues of compiling expr in env as release
// rel's cel-go writes it (from 1.38 with the catalog's suggestions).
func IssuesText(expr string, issues *cel.Issues, env *cel.Env, rel kubeversion.Release) string {
	return issuesText(expr, issues, env, rel)
}

// ProgramOptionsAt is the base environment's program options with est as
// the runtime cost tracker and perCallLimit as the cost limit.
func ProgramOptionsAt(est *library.CostEstimator, perCallLimit uint64) []cel.ProgramOption {
	return programOptions(est, perCallLimit)
}

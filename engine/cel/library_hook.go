package cel

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
)

// This file is the single point where the Kubernetes CEL libraries
// (engine/cel/library) plug into the environment. Until that package exports
// EnvOptions, ProgramOptions and CostEstimator, the cel-go parts of upstream's
// base environment (environment/base.go) are used here and the Kubernetes
// libraries (URLs, regex, lists, quantity, IP, CIDR, format, semver) are absent.

func baseEnvOptions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		cel.ASTValidators(
			cel.ValidateDurationLiterals(),
			cel.ValidateTimestampLiterals(),
			cel.ValidateRegexLiterals(),
			cel.ValidateHomogeneousAggregateLiterals(),
		),
		ext.Strings(ext.StringsVersion(2)),
		ext.Sets(),
		ext.TwoVarComprehensions(),
		ext.Lists(ext.ListsVersion(3)),
	}
}

func baseProgramOptions() []cel.ProgramOption {
	return []cel.ProgramOption{
		cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost),
		cel.CostLimit(PerCallLimit),
		cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
	}
}

// costEstimator is the static and runtime cost estimator: upstream's
// library.CostEstimator with the schema's size estimator.
type costEstimator struct {
	size *sizeEstimator
}

func newCostEstimator(root *DeclType) *costEstimator {
	return &costEstimator{size: &sizeEstimator{root: root}}
}

func (c *costEstimator) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	return c.size.EstimateSize(n)
}

func (c *costEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

func (c *costEstimator) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	return nil
}

var (
	_ checker.CostEstimator           = (*costEstimator)(nil)
	_ interpreter.ActualCostEstimator = (*costEstimator)(nil)
)

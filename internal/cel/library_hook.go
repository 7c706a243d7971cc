package cel

import (
	"github.com/google/cel-go/cel"

	"github.com/crdlab/crdlab/internal/cel/library"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// This file is the single point where the Kubernetes CEL libraries
// (internal/cel/library) plug into the environment.

// EnvKind selects one of upstream's two environments of an EnvSet.
type EnvKind int

const (
	// StoredExpressions is the environment of expressions already persisted
	// (every library not removed); upstream's runtime Validator uses it.
	StoredExpressions EnvKind = iota
	// NewExpressions is the environment at compatibility version 1.36 used
	// to compile expressions on CRD create (and new expressions on update).
	NewExpressions
)

func baseEnvOptions(kind EnvKind, rel kubeversion.Release) []cel.EnvOption {
	return library.EnvOptionsAt(envMinor(kind, rel))
}

// envMinor is the compatibility version whose options build kind's base
// environment at release rel: Kubernetes 1.N compiles new expressions at
// compatibility version 1.N-1 and stored ones with every library the 1.N
// binary declares (every option introduced by 1.N and not removed).
func envMinor(kind EnvKind, rel kubeversion.Release) uint {
	if kind == NewExpressions {
		return uint(rel.Minor() - 1)
	}
	return uint(rel.Minor())
}

func baseProgramOptions() []cel.ProgramOption { return library.ProgramOptions() }

// costEstimator is upstream's library.CostEstimator with the schema's size
// estimator: static estimates (checker.CostEstimator) and runtime costs
// (interpreter.ActualCostEstimator).
type costEstimator = library.CostEstimator

func newCostEstimator(root *DeclType, rel kubeversion.Release) *costEstimator {
	return CostEstimatorAt(&sizeEstimator{root: root}, rel)
}

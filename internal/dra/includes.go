package dra

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/crdlab/crdlab/internal/cel/library"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// includesOption is the includes member function of list-type attributes:
// 1.36's own (overload dra_includes_dyn_dyn, refusing lists longer than 48
// values) or, from 1.37, upstream's library.IncludesOption
// (list_includes_dyn_dyn, no bound).
func includesOption(rel kubeversion.Release) cel.EnvOption {
	id, bounded := "list_includes_dyn_dyn", false
	if rel.Minor() == 36 {
		id, bounded = "dra_includes_dyn_dyn", true
	}
	return cel.Function("includes", cel.MemberOverload(id, []*cel.Type{cel.DynType, cel.DynType}, cel.BoolType,
		cel.BinaryBinding(func(target, arg ref.Val) ref.Val { return includes(target, arg, bounded) })))
}

func includes(target, arg ref.Val, bounded bool) ref.Val {
	list, ok := target.(traits.Lister)
	if !ok {
		return types.Bool(target.Equal(arg) == types.True)
	}
	i := 0
	for it := list.Iterator(); it.HasNext() == types.True; i++ {
		if bounded && i >= maxAttributeValuesPerDevice {
			return types.NewErr("'includes' function cannot be applied to lists longer than %d values", maxAttributeValuesPerDevice)
		}
		if it.Next().Equal(arg) == types.True {
			return types.True
		}
	}
	return types.False
}

// includesEstimator is 1.36's draCostEstimator: its includes costs as
// "arg in target" over a list of at most 48 values (Min 0, Max 48);
// everything else is the library's.
type includesEstimator struct {
	base *library.CostEstimator
}

func (e includesEstimator) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	return e.base.EstimateSize(element)
}

func (e includesEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if function == "includes" && overloadID == "dra_includes_dyn_dyn" && target != nil {
		size := checker.SizeEstimate{Min: 0, Max: maxAttributeValuesPerDevice}
		return &checker.CallEstimate{CostEstimate: size.MultiplyByCost(checker.CostEstimate{Min: 1, Max: 1})}
	}
	return e.base.EstimateCallCost(function, overloadID, target, args)
}

// unpricedIncludes is the runtime cost of 1.36, whose library has no
// cost for includes (the call costs cel-go's default, 1).
type unpricedIncludes struct {
	base *library.CostEstimator
}

func (e unpricedIncludes) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	if function == "includes" {
		return nil
	}
	return e.base.CallCost(function, overloadID, args, result)
}

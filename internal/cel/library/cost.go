package library

import (
	"math"

	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	"github.com/crdlab/crdlab/internal/limits"
)

// CostEstimator mirrors upstream's library.CostEstimator: static estimates
// (checker.CostEstimator) and runtime costs (interpreter.ActualCostEstimator)
// of the Kubernetes library functions and of the cel-go string extensions
// Kubernetes re-prices. SizeEstimator, when set, supplies sizes of schema
// nodes (the CRD schema size estimator).
type CostEstimator struct {
	SizeEstimator checker.CostEstimator
	// NoTypeEquality leaves `==` on Kubernetes types to cel-go's estimate,
	// as before Kubernetes 1.32 (kubeversion.KubernetesTypeEqualityCost).
	// The runtime charge is not switched.
	NoTypeEquality bool
	// NoGlobalMatchesCost prices the global `matches(s, re)` as an O(1)
	// call (1, statically and at runtime), as cel-go before v0.29 does
	// (Kubernetes 1.36 and older: kubeversion.GlobalMatchesCost); the
	// member form `s.matches(re)` is not affected.
	NoGlobalMatchesCost bool
	// NoURLResultSize gives url(s) no result size (unknown, the largest),
	// as before Kubernetes 1.32 (kubeversion.URLResultSize).
	NoURLResultSize bool
	// SizelessDyn and SizelessOptionals estimate as cel-go before v0.23
	// (Kubernetes 1.32 and older: kubeversion.DynSizePropagation): a dyn(x)
	// call has no size (the caller renames the calls while estimating,
	// internal/cel's estimateCost), nor has an optional of a scalar (cel-go
	// v0.23 sizes it as the scalar, 1) unless the SizeEstimator knows it.
	SizelessDyn, SizelessOptionals bool
	// URLAccessorSizes gives the URL accessors (getScheme, getHost, …,
	// getEscapedPath) their target's size as their result's size (three
	// times it for getEscapedPath), so that a string operation on the
	// result is priced by it; without it, the result is a string of
	// unknown size (Kubernetes 1.37 and older, kubeversion.URLAccessorSize).
	URLAccessorSizes bool
}

var (
	_ checker.CostEstimator           = (*CostEstimator)(nil)
	_ interpreter.ActualCostEstimator = (*CostEstimator)(nil)
)

const (
	// selectorLengthToRequirementCount estimates requirements per selector character.
	selectorLengthToRequirementCount = float64(.5)
	// costPerRequirement is the cost of one parsed selector requirement.
	costPerRequirement = float64(common.ListCreateBaseCost + common.StructCreateBaseCost)
)

var baseSelectorCost = checker.CostEstimate{Min: common.ListCreateBaseCost, Max: common.ListCreateBaseCost}

func selectorCostEstimate(length checker.SizeEstimate) checker.CostEstimate {
	parse := length.MultiplyByCostFactor(common.StringTraversalCostFactor)
	reqs := length.MultiplyByCostFactor(selectorLengthToRequirementCount)
	return baseSelectorCost.Add(parse).Add(reqs.MultiplyByCostFactor(costPerRequirement))
}

func u64(v uint64) *uint64 { return &v }

func ceilCost(f float64) uint64 { return uint64(math.Ceil(f)) }

// CallCost implements interpreter.ActualCostEstimator.
func (l *CostEstimator) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	if l.NoGlobalMatchesCost && overloadID == overloads.Matches {
		return u64(1)
	}
	stf := common.StringTraversalCostFactor
	switch function {
	case "check":
		return u64(350000)
	case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed", "reason", "error", "errored":
		return u64(1)
	case "fieldSelector", "labelSelector":
		if len(args) >= 2 {
			n := actualSize(args[1])
			c := selectorCostEstimate(checker.SizeEstimate{Min: n, Max: n})
			return u64(c.Max)
		}
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		var c uint64
		if len(args) > 0 {
			c += traversalCost(args[0])
		}
		return &c
	case "url", "lowerAscii", "upperAscii", "substring", "trim", "jsonpatch.escapeKey":
		if len(args) >= 1 {
			return u64(ceilCost(float64(actualSize(args[0])) * stf))
		}
	case "replace", "split":
		if len(args) >= 1 {
			return u64(ceilCost(float64(actualSize(args[0])) * 2 * stf))
		}
	case "join":
		if len(args) >= 1 {
			return u64(ceilCost(float64(actualSize(result)) * 2 * stf))
		}
	case "find", "findAll":
		if len(args) >= 2 {
			strCost := ceilCost((1.0 + float64(actualSize(args[0]))) * stf)
			regexCost := ceilCost(float64(actualSize(args[1])) * common.RegexStringLengthCostFactor)
			return u64(strCost * regexCost)
		}
	case "cidr", "isIP", "isCIDR":
		if len(args) >= 1 {
			return u64(ceilCost(float64(actualSize(args[0])) * stf))
		}
	case "ip":
		if len(args) >= 1 {
			if overloadID == "cidr_ip" {
				return u64(1)
			}
			return u64(ceilCost(float64(actualSize(args[0])) * stf))
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return u64(ceilCost(float64(actualSize(args[0])) * 2 * stf))
		}
	case "masked", "isMask", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast":
		return u64(1)
	case "containsIP":
		if len(args) >= 2 {
			cidrSize := actualSize(args[0])
			otherSize := actualSize(args[1])
			c := ceilCost(float64(cidrSize+cidrSize) * stf)
			if overloadID == "cidr_contains_ip_string" {
				c += ceilCost(float64(otherSize) * stf)
			}
			return &c
		}
	case "containsCIDR":
		if len(args) >= 2 {
			cidrSize := actualSize(args[0])
			otherSize := actualSize(args[1])
			c := ceilCost(float64(cidrSize+cidrSize) * stf)
			c += ceilCost(float64(cidrSize)*stf) + 1
			if overloadID == "cidr_contains_cidr_string" {
				c += ceilCost(float64(otherSize) * stf)
			}
			return &c
		}
	case "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return u64(ceilCost(float64(actualSize(args[0])) * stf))
		}
	case "validate":
		if len(args) >= 2 {
			if f, ok := args[0].Value().(Format); ok {
				strCost := ceilCost((1.0 + float64(actualSize(args[1]))) * stf)
				regexCost := ceilCost(float64(f.MaxRegexSize) * common.RegexStringLengthCostFactor)
				return u64(strCost * regexCost)
			}
		}
	case "format.named":
		return u64(1)
	case "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub", "major", "minor", "patch":
		return u64(1)
	case "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return u64(1)
	case "_==_":
		if len(args) == 2 {
			switch args[0].(type) {
			case *Quantity, Quantity, *IP, IP, *CIDR, CIDR, *Format, Format, *URL, URL, *Semver, Semver:
				return u64(1)
			}
		}
	}
	return nil
}

// EstimateCallCost implements checker.CostEstimator.
func (l *CostEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	stf := common.StringTraversalCostFactor
	fixed := func(n uint64) *checker.CallEstimate {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: n, Max: n}}
	}
	if l.NoGlobalMatchesCost && overloadID == overloads.Matches {
		return fixed(1) // cel-go adds the arguments' costs
	}
	switch function {
	case "check":
		return fixed(350000)
	case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed", "reason", "error", "errored":
		return fixed(1)
	case "fieldSelector", "labelSelector":
		if len(args) == 1 {
			return &checker.CallEstimate{CostEstimate: selectorCostEstimate(l.sizeEstimate(args[0]))}
		}
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		if target != nil {
			elCost := checker.CostEstimate{Min: 1, Max: 1}
			if el := l.listElementNode(*target); el != nil {
				k := el.Type().Kind()
				if k == types.StringKind || k == types.BytesKind {
					elCost = elCost.Add(l.sizeEstimate(el).MultiplyByCostFactor(stf))
				}
				return &checker.CallEstimate{CostEstimate: l.sizeEstimate(*target).MultiplyByCost(elCost)}
			} else if function == "includes" {
				return &checker.CallEstimate{CostEstimate: l.sizeEstimate(*target).MultiplyByCost(elCost)}
			}
			return &checker.CallEstimate{CostEstimate: l.sizeEstimate(*target).MultiplyByCostFactor(stf)}
		}
	case "url", "jsonpatch.escapeKey":
		if len(args) == 1 {
			sz := l.sizeEstimate(args[0])
			if l.NoURLResultSize && function == "url" {
				return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(stf)}
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(stf), ResultSize: &sz}
		}
	case "lowerAscii", "upperAscii", "substring", "trim":
		if target != nil {
			sz := l.sizeEstimate(*target)
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(stf), ResultSize: &sz}
		}
	case "replace":
		if target != nil && len(args) >= 2 {
			return l.estimateReplace(*target, args)
		}
	case "split":
		if target != nil {
			sz := l.sizeEstimate(*target)
			max := sz.Max
			if len(args) > 1 {
				if v := args[1].Expr().AsLiteral(); v != nil {
					if i, ok := v.Value().(int64); ok {
						max = uint64(i)
					}
				}
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * stf), ResultSize: &checker.SizeEstimate{Min: 0, Max: max}}
		}
	case "join":
		if target != nil {
			var sz checker.SizeEstimate
			listSize := l.sizeEstimate(*target)
			if el := l.listElementNode(*target); el != nil {
				sz = listSize.Multiply(l.sizeEstimate(el))
			}
			if len(args) > 0 {
				sep := l.sizeEstimate(args[0])
				var minSep, maxSep uint64
				if listSize.Min > 0 {
					minSep = listSize.Min - 1
				}
				if listSize.Max > 0 {
					maxSep = listSize.Max - 1
				}
				sz = sz.Add(sep.Multiply(checker.SizeEstimate{Min: minSep, Max: maxSep}))
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(stf), ResultSize: &sz}
		}
	case "find", "findAll":
		if target != nil && len(args) >= 1 {
			sz := l.sizeEstimate(*target)
			strCost := sz.Add(checker.SizeEstimate{Min: 1, Max: 1}).MultiplyByCostFactor(stf)
			regexCost := l.sizeEstimate(args[0]).MultiplyByCostFactor(common.RegexStringLengthCostFactor)
			return &checker.CallEstimate{CostEstimate: strCost.Multiply(regexCost), ResultSize: &checker.SizeEstimate{Min: 0, Max: sz.Max}}
		}
	case "cidr", "isIP", "isCIDR":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: l.sizeEstimate(args[0]).MultiplyByCostFactor(stf)}
		}
	case "ip":
		if overloadID == "cidr_ip" {
			return fixed(1)
		}
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: l.sizeEstimate(args[0]).MultiplyByCostFactor(stf)}
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: l.sizeEstimate(args[0]).MultiplyByCostFactor(2 * stf)}
		}
	case "masked", "isMask", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast":
		return fixed(1)
	case "containsIP":
		if len(args) >= 1 {
			// worst case: IPv6 (16 bytes); the address comparison walks both addresses.
			sz := checker.SizeEstimate{Min: 4, Max: 16}
			c := sz.Add(sz).MultiplyByCostFactor(stf)
			if overloadID == "cidr_contains_ip_string" {
				c = c.Add(checker.CostEstimate(l.sizeEstimate(args[0])).MultiplyByCostFactor(stf))
			}
			return &checker.CallEstimate{CostEstimate: c}
		}
	case "containsCIDR":
		if len(args) >= 1 {
			sz := checker.SizeEstimate{Min: 4, Max: 16}
			c := sz.Add(sz).MultiplyByCostFactor(stf)
			c = c.Add(sz.MultiplyByCostFactor(stf))
			c = c.Add(checker.CostEstimate{Min: 1, Max: 1})
			if overloadID == "cidr_contains_cidr_string" {
				c = c.Add(checker.CostEstimate(l.sizeEstimate(args[0])).MultiplyByCostFactor(stf))
			}
			return &checker.CallEstimate{CostEstimate: c}
		}
	case "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: l.sizeEstimate(args[0]).MultiplyByCostFactor(stf)}
		}
	case "validate":
		if len(args) >= 1 {
			sz := l.sizeEstimate(args[0])
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(stf).MultiplyByCostFactor(limits.MaxNameFormatRegexSize * common.RegexStringLengthCostFactor)}
		}
	case "format.named":
		return fixed(1)
	case "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub", "major", "minor", "patch":
		return fixed(1)
	case "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		if target != nil && l.URLAccessorSizes {
			// the result is a part of the URL: the target's size, up to
			// three times it for getEscapedPath (percent-encoding)
			sz := l.sizeEstimate(*target)
			if function == "getEscapedPath" {
				sz = sz.Multiply(checker.SizeEstimate{Min: 1, Max: 3})
			}
			return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}, ResultSize: &sz}
		}
		return fixed(1)
	case "_==_":
		if len(args) == 2 && !l.NoTypeEquality {
			return l.estimateEquality(args[0], args[1])
		}
	}
	return nil
}

func (l *CostEstimator) estimateEquality(lhs, rhs checker.AstNode) *checker.CallEstimate {
	if lhs.Type().Equal(rhs.Type()) != types.True {
		return nil
	}
	t := lhs.Type()
	one := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}}
	if t.Kind() == types.OpaqueKind {
		switch t.TypeName() {
		case IPType.TypeName(), CIDRType.TypeName():
			return one
		}
	}
	if t.Kind() == types.StructKind {
		switch t {
		case QuantityType, AuthorizerType, PathCheckType, GroupCheckType, ResourceCheckType, DecisionType, SemverType:
			return one
		case FormatType:
			return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: limits.MaxFormatSize}.MultiplyByCostFactor(common.StringTraversalCostFactor)}
		case URLType:
			size := checker.SizeEstimate{Min: 1, Max: 1}
			// upstream reads the right-hand side's size twice
			rh := rhs.ComputedSize()
			lh := rhs.ComputedSize()
			if rh != nil && lh != nil {
				size = rh.Union(*lh)
			}
			return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: size.Max}.MultiplyByCostFactor(common.StringTraversalCostFactor)}
		}
	}
	return nil
}

func (l *CostEstimator) estimateReplace(target checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	sz := l.sizeEstimate(target)
	toReplace := l.sizeEstimate(args[0])
	replaceWith := l.sizeEstimate(args[1])
	var count, retained checker.SizeEstimate
	// max: the most replacements with the largest growth
	switch {
	case toReplace.Min == 0:
		if sz.Max < math.MaxUint64 {
			count.Max = sz.Max + 1
		} else {
			count.Max = sz.Max
		}
		retained.Max = sz.Max
	case replaceWith.Max <= toReplace.Min:
		count.Max = 0
		retained.Max = sz.Max
	default:
		count.Max = uint64(math.Ceil(float64(sz.Max) / float64(toReplace.Min)))
	}
	// min: the fewest replacements with the most shrinkage
	switch {
	case toReplace.Max == 0:
		if sz.Min < math.MaxUint64 {
			count.Min = sz.Min + 1
		} else {
			count.Min = sz.Min
		}
		retained.Min = sz.Min
	case toReplace.Max <= replaceWith.Min:
		count.Min = 0
		retained.Min = sz.Min
	default:
		count.Min = uint64(math.Ceil(float64(sz.Min) / float64(toReplace.Max)))
	}
	size := count.Multiply(replaceWith).Add(retained)
	return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * common.StringTraversalCostFactor), ResultSize: &size}
}

// EstimateSize implements checker.CostEstimator by delegating to SizeEstimator.
func (l *CostEstimator) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	if l.SizeEstimator != nil {
		if sz := l.SizeEstimator.EstimateSize(element); sz != nil {
			return sz
		}
	}
	if l.SizelessOptionals {
		if t := element.Type(); t != nil && t.Kind() == types.OpaqueKind && t.TypeName() == "optional_type" {
			return &checker.SizeEstimate{Min: 0, Max: math.MaxUint64}
		}
	}
	return nil
}

func (l *CostEstimator) sizeEstimate(t checker.AstNode) checker.SizeEstimate {
	if sz := t.ComputedSize(); sz != nil {
		return *sz
	}
	if sz := l.EstimateSize(t); sz != nil {
		return *sz
	}
	return checker.SizeEstimate{Min: 0, Max: math.MaxUint64}
}

// listElementNode returns a synthetic node for the elements of a list node,
// with the path suffix "@items" that schema size estimators understand.
func (l *CostEstimator) listElementNode(list checker.AstNode) checker.AstNode {
	params := list.Type().Parameters()
	if len(params) == 0 {
		return nil
	}
	if p := list.Path(); p != nil {
		path := make([]string, len(p)+1)
		copy(path, p)
		path[len(p)] = "@items"
		return &itemsNode{path: path, t: params[0]}
	}
	return &itemsNode{t: params[0]}
}

type itemsNode struct {
	path []string
	t    *types.Type
	expr ast.Expr
}

func (i *itemsNode) Path() []string                      { return i.path }
func (i *itemsNode) Type() *types.Type                   { return i.t }
func (i *itemsNode) Expr() ast.Expr                      { return i.expr }
func (i *itemsNode) ComputedSize() *checker.SizeEstimate { return nil }

func actualSize(v ref.Val) uint64 {
	if sz, ok := v.(traits.Sizer); ok {
		if n, ok := sz.Size().(types.Int); ok {
			return uint64(n)
		}
	}
	return 1
}

// traversalCost is the runtime cost of walking a value once.
func traversalCost(v ref.Val) uint64 {
	switch vt := v.(type) {
	case types.String:
		return uint64(float64(len(string(vt))) * common.StringTraversalCostFactor)
	case types.Bytes:
		return uint64(float64(len([]byte(vt))) * common.StringTraversalCostFactor)
	case traits.Lister:
		var c uint64
		for it := vt.Iterator(); it.HasNext() == types.True; {
			c += traversalCost(it.Next())
		}
		return c
	case traits.Mapper:
		var c uint64
		for it := vt.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			c += traversalCost(k) + traversalCost(vt.Get(k))
		}
		return c
	default:
		return 1
	}
}

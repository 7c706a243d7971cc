package library

import (
	"errors"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// QuantityLib returns the kubernetes.quantity library.
func QuantityLib() cel.EnvOption {
	return cel.Lib(newLib("kubernetes.quantity", []*cel.Type{QuantityType}, quantityDecls))
}

func quantityDecls() map[string][]cel.FunctionOpt {
	q := QuantityType
	return map[string][]cel.FunctionOpt{
		"quantity":   {cel.Overload("string_to_quantity", []*cel.Type{cel.StringType}, q, cel.UnaryBinding(stringToQuantity))},
		"isQuantity": {cel.Overload("is_quantity_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(isQuantity))},
		"sign":       {cel.Overload("quantity_sign", []*cel.Type{q}, cel.IntType, cel.UnaryBinding(quantityUnary(func(x *ResourceQuantity) ref.Val { return types.Int(x.Sign()) })))},
		"isGreaterThan": {cel.MemberOverload("quantity_is_greater_than", []*cel.Type{q, q}, cel.BoolType,
			cel.BinaryBinding(quantityBinary(func(a, b *ResourceQuantity) ref.Val { return types.Bool(a.Cmp(*b) == 1) })))},
		"isLessThan": {cel.MemberOverload("quantity_is_less_than", []*cel.Type{q, q}, cel.BoolType,
			cel.BinaryBinding(quantityBinary(func(a, b *ResourceQuantity) ref.Val { return types.Bool(a.Cmp(*b) == -1) })))},
		"compareTo": {cel.MemberOverload("quantity_compare_to", []*cel.Type{q, q}, cel.IntType,
			cel.BinaryBinding(quantityBinary(func(a, b *ResourceQuantity) ref.Val { return types.Int(a.Cmp(*b)) })))},
		"asApproximateFloat": {cel.MemberOverload("quantity_get_float", []*cel.Type{q}, cel.DoubleType,
			cel.UnaryBinding(quantityUnary(func(x *ResourceQuantity) ref.Val { return types.Double(x.AsApproximateFloat64()) })))},
		"asInteger": {cel.MemberOverload("quantity_get_int", []*cel.Type{q}, cel.IntType,
			cel.UnaryBinding(quantityUnary(func(x *ResourceQuantity) ref.Val {
				v, ok := x.AsInt64()
				if !ok {
					return types.WrapErr(errors.New("cannot convert value to integer"))
				}
				return types.Int(v)
			})))},
		"isInteger": {cel.MemberOverload("quantity_is_integer", []*cel.Type{q}, cel.BoolType,
			cel.UnaryBinding(quantityUnary(func(x *ResourceQuantity) ref.Val { _, ok := x.AsInt64(); return types.Bool(ok) })))},
		"add": {
			cel.MemberOverload("quantity_add", []*cel.Type{q, q}, q, cel.BinaryBinding(quantityBinary(func(a, b *ResourceQuantity) ref.Val {
				if !a.arithmeticInRange(b) {
					return types.WrapErr(errQuantityRange)
				}
				c := a.DeepCopy()
				c.Add(*b)
				return &Quantity{ResourceQuantity: &c}
			}))),
			cel.MemberOverload("quantity_add_int", []*cel.Type{q, cel.IntType}, q, cel.BinaryBinding(quantityInt(func(a *ResourceQuantity, b int64) ref.Val {
				bq := NewResourceQuantity(b, DecimalExponent)
				if !a.arithmeticInRange(bq) {
					return types.WrapErr(errQuantityRange)
				}
				c := a.DeepCopy()
				c.Add(*bq)
				return &Quantity{ResourceQuantity: &c}
			}))),
		},
		"sub": {
			cel.MemberOverload("quantity_sub", []*cel.Type{q, q}, q, cel.BinaryBinding(quantityBinary(func(a, b *ResourceQuantity) ref.Val {
				if !a.arithmeticInRange(b) {
					return types.WrapErr(errQuantityRange)
				}
				c := a.DeepCopy()
				c.Sub(*b)
				return &Quantity{ResourceQuantity: &c}
			}))),
			cel.MemberOverload("quantity_sub_int", []*cel.Type{q, cel.IntType}, q, cel.BinaryBinding(quantityInt(func(a *ResourceQuantity, b int64) ref.Val {
				bq := NewResourceQuantity(b, DecimalExponent)
				if !a.arithmeticInRange(bq) {
					return types.WrapErr(errQuantityRange)
				}
				c := a.DeepCopy()
				c.Sub(*bq)
				return &Quantity{ResourceQuantity: &c}
			}))),
		},
	}
}

func quantityUnary(f func(*ResourceQuantity) ref.Val) func(ref.Val) ref.Val {
	return func(arg ref.Val) ref.Val {
		q, ok := arg.Value().(*ResourceQuantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		return f(q)
	}
}

// quantityBinary mirrors upstream, which reports the first argument when the
// second has the wrong type.
func quantityBinary(f func(a, b *ResourceQuantity) ref.Val) func(ref.Val, ref.Val) ref.Val {
	return func(arg, other ref.Val) ref.Val {
		q, ok := arg.Value().(*ResourceQuantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		q2, ok := other.Value().(*ResourceQuantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		return f(q, q2)
	}
}

func quantityInt(f func(a *ResourceQuantity, b int64) ref.Val) func(ref.Val, ref.Val) ref.Val {
	return func(arg, other ref.Val) ref.Val {
		q, ok := arg.Value().(*ResourceQuantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		i, ok := other.Value().(int64)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		return f(q, i)
	}
}

func isQuantity(arg ref.Val) ref.Val {
	if v := guardParse(arg); v != nil {
		return v
	}
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	_, err := ParseQuantity(s)
	return types.Bool(err == nil)
}

func stringToQuantity(arg ref.Val) ref.Val {
	if v := guardParse(arg); v != nil {
		return v
	}
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	q, err := ParseQuantity(s)
	if err != nil {
		return types.WrapErr(err)
	}
	return Quantity{ResourceQuantity: &q}
}

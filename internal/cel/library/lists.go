package library

import (
	"fmt"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Lists returns the kubernetes.lists library at the given version (0: isSorted,
// sum, min, max, indexOf, lastIndexOf; 1: adds includes).
func Lists(version uint32) cel.EnvOption {
	return cel.Lib(newLib("kubernetes.lists", nil, func() map[string][]cel.FunctionOpt { return listsDecls(version) }))
}

type namedCELType struct {
	typeName string
	celType  *cel.Type
}

var summableTypes = []namedCELType{
	{"int", cel.IntType}, {"uint", cel.UintType}, {"double", cel.DoubleType}, {"duration", cel.DurationType},
}

var zeroValuesOfSummableTypes = map[string]ref.Val{
	"int": types.Int(0), "uint": types.Uint(0), "double": types.Double(0.0), "duration": types.Duration{Duration: 0},
}

var comparableTypes = []namedCELType{
	{"int", cel.IntType}, {"uint", cel.UintType}, {"double", cel.DoubleType}, {"bool", cel.BoolType},
	{"duration", cel.DurationType}, {"timestamp", cel.TimestampType}, {"string", cel.StringType}, {"bytes", cel.BytesType},
}

var paramA = cel.TypeParamType("A")

func overloadsFor(ts []namedCELType, f func(name string, t *cel.Type) cel.FunctionOpt) []cel.FunctionOpt {
	out := make([]cel.FunctionOpt, 0, len(ts))
	for _, t := range ts {
		out = append(out, f(t.typeName, t.celType))
	}
	return out
}

func listsDecls(version uint32) map[string][]cel.FunctionOpt {
	d := map[string][]cel.FunctionOpt{
		"isSorted": overloadsFor(comparableTypes, func(name string, t *cel.Type) cel.FunctionOpt {
			return cel.MemberOverload(fmt.Sprintf("list_%s_is_sorted_bool", name),
				[]*cel.Type{cel.ListType(t)}, cel.BoolType, cel.UnaryBinding(listIsSorted))
		}),
		"sum": overloadsFor(summableTypes, func(name string, t *cel.Type) cel.FunctionOpt {
			zero := zeroValuesOfSummableTypes[name]
			return cel.MemberOverload(fmt.Sprintf("list_%s_sum_%s", name, name),
				[]*cel.Type{cel.ListType(t)}, t, cel.UnaryBinding(func(l ref.Val) ref.Val { return listSum(zero, l) }))
		}),
		"max": overloadsFor(comparableTypes, func(name string, t *cel.Type) cel.FunctionOpt {
			return cel.MemberOverload(fmt.Sprintf("list_%s_max_%s", name, name),
				[]*cel.Type{cel.ListType(t)}, t, cel.UnaryBinding(func(l ref.Val) ref.Val { return listExtreme("max", types.IntNegOne, l) }))
		}),
		"min": overloadsFor(comparableTypes, func(name string, t *cel.Type) cel.FunctionOpt {
			return cel.MemberOverload(fmt.Sprintf("list_%s_min_%s", name, name),
				[]*cel.Type{cel.ListType(t)}, t, cel.UnaryBinding(func(l ref.Val) ref.Val { return listExtreme("min", types.IntOne, l) }))
		}),
		"indexOf": {cel.MemberOverload("list_a_index_of_int", []*cel.Type{cel.ListType(paramA), paramA}, cel.IntType,
			cel.BinaryBinding(listIndexOf))},
		"lastIndexOf": {cel.MemberOverload("list_a_last_index_of_int", []*cel.Type{cel.ListType(paramA), paramA}, cel.IntType,
			cel.BinaryBinding(listLastIndexOf))},
	}
	if version >= 1 {
		d["includes"] = []cel.FunctionOpt{cel.MemberOverload("list_includes_dyn_dyn", []*cel.Type{cel.DynType, cel.DynType}, cel.BoolType,
			cel.BinaryBinding(listIncludes))}
	}
	return d
}

func listIsSorted(val ref.Val) ref.Val {
	it, ok := val.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(val)
	}
	var prev traits.Comparer
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		c, ok := next.(traits.Comparer)
		if !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		if prev != nil && prev.Compare(next) == types.IntOne {
			return types.False
		}
		prev = c
	}
	return types.True
}

func listSum(zero ref.Val, val ref.Val) ref.Val {
	acc, ok := zero.(traits.Adder)
	if !ok {
		return types.MaybeNoSuchOverloadErr(zero)
	}
	it, ok := val.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(val)
	}
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		if _, ok := next.(traits.Adder); !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		s := acc.Add(next)
		sa, ok := s.(traits.Adder)
		if !ok {
			return types.MaybeNoSuchOverloadErr(s)
		}
		acc = sa
	}
	return acc.(ref.Val)
}

// listExtreme returns the element e for which every later comparison
// result.Compare(next) == prefer replaced it (min: prefer 1, max: prefer -1).
func listExtreme(opName string, prefer ref.Val, val ref.Val) ref.Val {
	it, ok := val.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(val)
	}
	var result traits.Comparer
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		c, ok := next.(traits.Comparer)
		if !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		if result == nil || result.Compare(next) == prefer {
			result = c
		}
	}
	if result == nil {
		return types.NewErr("%s called on empty list", opName)
	}
	return result.(ref.Val)
}

func listIndexOf(list, item ref.Val) ref.Val {
	l, ok := list.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(list)
	}
	sz := l.Size().(types.Int)
	for i := types.Int(0); i < sz; i++ {
		if l.Get(i).Equal(item) == types.True {
			return i
		}
	}
	return types.Int(-1)
}

func listLastIndexOf(list, item ref.Val) ref.Val {
	l, ok := list.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(list)
	}
	sz := l.Size().(types.Int)
	for i := sz - 1; i >= 0; i-- {
		if l.Get(i).Equal(item) == types.True {
			return i
		}
	}
	return types.Int(-1)
}

func listIncludes(target, arg ref.Val) ref.Val {
	if l, ok := target.(traits.Lister); ok {
		for it := l.Iterator(); it.HasNext() == types.True; {
			if it.Next().Equal(arg) == types.True {
				return types.True
			}
		}
		return types.False
	}
	if target.Equal(arg) == types.True {
		return types.True
	}
	return types.False
}

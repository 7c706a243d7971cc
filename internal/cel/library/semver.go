package library

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// SemverLib returns the kubernetes.Semver library at the given version
// (1 adds the normalize overloads semver(string, bool) and isSemver(string, bool)).
func SemverLib(version uint32) cel.EnvOption {
	return cel.Lib(newLib("kubernetes.Semver", []*cel.Type{SemverType}, func() map[string][]cel.FunctionOpt { return semverDecls(version) }))
}

func semverDecls(version uint32) map[string][]cel.FunctionOpt {
	s := SemverType
	d := map[string][]cel.FunctionOpt{
		"semver":   {cel.Overload("string_to_semver", []*cel.Type{cel.StringType}, s, cel.UnaryBinding(func(a ref.Val) ref.Val { return stringToSemver(a, types.False) }))},
		"isSemver": {cel.Overload("is_semver_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(a ref.Val) ref.Val { return isSemver(a, types.False) }))},
		"isGreaterThan": {cel.MemberOverload("semver_is_greater_than", []*cel.Type{s, s}, cel.BoolType,
			cel.BinaryBinding(semverBinary(func(a, b SemverVersion) ref.Val { return types.Bool(a.Compare(b) == 1) })))},
		"isLessThan": {cel.MemberOverload("semver_is_less_than", []*cel.Type{s, s}, cel.BoolType,
			cel.BinaryBinding(semverBinary(func(a, b SemverVersion) ref.Val { return types.Bool(a.Compare(b) == -1) })))},
		"compareTo": {cel.MemberOverload("semver_compare_to", []*cel.Type{s, s}, cel.IntType,
			cel.BinaryBinding(semverBinary(func(a, b SemverVersion) ref.Val { return types.Int(a.Compare(b)) })))},
		"major": {cel.MemberOverload("semver_major", []*cel.Type{s}, cel.IntType, cel.UnaryBinding(semverUnary(func(v SemverVersion) ref.Val { return types.Int(v.Major) })))},
		"minor": {cel.MemberOverload("semver_minor", []*cel.Type{s}, cel.IntType, cel.UnaryBinding(semverUnary(func(v SemverVersion) ref.Val { return types.Int(v.Minor) })))},
		"patch": {cel.MemberOverload("semver_patch", []*cel.Type{s}, cel.IntType, cel.UnaryBinding(semverUnary(func(v SemverVersion) ref.Val { return types.Int(v.Patch) })))},
	}
	if version >= 1 {
		d["semver"] = append(d["semver"], cel.Overload("string_bool_to_semver", []*cel.Type{cel.StringType, cel.BoolType}, s, cel.BinaryBinding(stringToSemver)))
		d["isSemver"] = append(d["isSemver"], cel.Overload("is_semver_string_bool", []*cel.Type{cel.StringType, cel.BoolType}, cel.BoolType, cel.BinaryBinding(isSemver)))
	}
	return d
}

func parseSemverArgs(arg, normalizeArg ref.Val) (SemverVersion, error, ref.Val) {
	str, ok := arg.Value().(string)
	if !ok {
		return SemverVersion{}, nil, types.MaybeNoSuchOverloadErr(arg)
	}
	normalize, ok := normalizeArg.Value().(bool)
	if !ok {
		return SemverVersion{}, nil, types.MaybeNoSuchOverloadErr(arg)
	}
	if normalize {
		v, err := normalizeAndParseSemver(str)
		return v, err, nil
	}
	v, err := ParseSemver(str)
	return v, err, nil
}

func isSemver(arg, normalizeArg ref.Val) ref.Val {
	if v := guardParse(arg); v != nil {
		return v
	}
	_, err, bad := parseSemverArgs(arg, normalizeArg)
	if bad != nil {
		return bad
	}
	return types.Bool(err == nil)
}

func stringToSemver(arg, normalizeArg ref.Val) ref.Val {
	if v := guardParse(arg); v != nil {
		return v
	}
	v, err, bad := parseSemverArgs(arg, normalizeArg)
	if bad != nil {
		return bad
	}
	if err != nil {
		return types.WrapErr(err)
	}
	return Semver{Version: v}
}

func semverUnary(f func(SemverVersion) ref.Val) func(ref.Val) ref.Val {
	return func(arg ref.Val) ref.Val {
		v, ok := arg.Value().(SemverVersion)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		return f(v)
	}
}

func semverBinary(f func(a, b SemverVersion) ref.Val) func(ref.Val, ref.Val) ref.Val {
	return func(arg, other ref.Val) ref.Val {
		v, ok := arg.Value().(SemverVersion)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		v2, ok := other.Value().(SemverVersion)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		return f(v, v2)
	}
}

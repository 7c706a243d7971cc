package library

import (
	"regexp"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Regex returns the kubernetes.regex library: find and findAll, with the regex
// precompiled when it is a literal (cel.OptimizeRegex).
func Regex() cel.EnvOption {
	l := newLib("kubernetes.regex", nil, regexDecls)
	l.progOpts = []cel.ProgramOption{cel.OptimizeRegex(findRegexOptimization, findAllRegexOptimization)}
	return cel.Lib(l)
}

func regexDecls() map[string][]cel.FunctionOpt {
	return map[string][]cel.FunctionOpt{
		"find": {cel.MemberOverload("string_find_string", []*cel.Type{cel.StringType, cel.StringType}, cel.StringType,
			cel.BinaryBinding(regexFind))},
		"findAll": {
			cel.MemberOverload("string_find_all_string", []*cel.Type{cel.StringType, cel.StringType}, cel.ListType(cel.StringType),
				cel.BinaryBinding(func(str, re ref.Val) ref.Val { return regexFindAll(str, re, types.Int(-1)) })),
			cel.MemberOverload("string_find_all_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType}, cel.ListType(cel.StringType),
				cel.FunctionBinding(regexFindAll)),
		},
	}
}

func regexFind(strVal, regexVal ref.Val) ref.Val {
	if v := guardRegex(strVal, regexVal); v != nil {
		return v
	}
	str, ok := strVal.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(strVal)
	}
	pattern, ok := regexVal.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(regexVal)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return types.NewErr("Illegal regex: %v", err.Error())
	}
	return types.String(re.FindString(str))
}

func regexFindAll(args ...ref.Val) ref.Val {
	if len(args) < 2 || len(args) > 3 {
		return types.NoSuchOverloadErr()
	}
	str, ok := args[0].Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(args[0])
	}
	pattern, ok := args[1].Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(args[1])
	}
	n := int64(-1)
	if len(args) == 3 {
		n, ok = args[2].Value().(int64)
		if !ok {
			return types.MaybeNoSuchOverloadErr(args[2])
		}
	}
	if v := guardRegex(args[0], args[1]); v != nil {
		return v
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return types.NewErr("Illegal regex: %v", err.Error())
	}
	return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(str, int(n)))
}

var findRegexOptimization = &interpreter.RegexOptimization{
	Function:   "find",
	RegexIndex: 1,
	Factory: func(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, err
		}
		pat := types.String(pattern)
		return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(args ...ref.Val) ref.Val {
			if len(args) != 2 {
				return types.NoSuchOverloadErr()
			}
			in, ok := args[0].Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(args[0])
			}
			if v := guardRegex(args[0], pat); v != nil {
				return v
			}
			return types.String(re.FindString(in))
		}), nil
	},
}

var findAllRegexOptimization = &interpreter.RegexOptimization{
	Function:   "findAll",
	RegexIndex: 1,
	Factory: func(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, err
		}
		pat := types.String(pattern)
		return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(args ...ref.Val) ref.Val {
			if len(args) < 2 || len(args) > 3 {
				return types.NoSuchOverloadErr()
			}
			str, ok := args[0].Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(args[0])
			}
			n := int64(-1)
			if len(args) == 3 {
				n, ok = args[2].Value().(int64)
				if !ok {
					return types.MaybeNoSuchOverloadErr(args[2])
				}
			}
			if v := guardRegex(args[0], pat); v != nil {
				return v
			}
			return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(str, int(n)))
		}), nil
	},
}

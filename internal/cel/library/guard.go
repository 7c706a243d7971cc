package library

import (
	"math"
	"reflect"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/functions"

	"github.com/crdlab/crdlab/internal/limits"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// Cost guards: memory and time bounded before they are spent.
//
// The interpreter charges a call's runtime cost after the call has returned
// (interpreter.CostTracker's observer), so a single call whose charge is far
// above the per-call limit (a regex over megabytes, a join building a huge
// string) runs to completion — minutes, or gigabytes — before the evaluation
// is cancelled. The guards compute, from the evaluated arguments and before
// running the function, the cost the call will be charged (the same numbers:
// CostEstimator.CallCost for the functions Kubernetes prices, cel-go's
// defaults for its own). When that charge alone exceeds limits.PerCallLimit the
// evaluation is certain to be cancelled, so the function is not run: it
// returns an overLimit placeholder that carries the size the real result
// would have had. The cost observer then charges exactly what it would have
// charged for the real result and cancels the evaluation with cel-go's
// "operation cancelled: actual cost limit exceeded" — same error, same actual
// cost, hence the same field error as the API server. Below the limit the
// function runs unchanged: results and costs are identical.
//
// Upstream prices some functions by their input although their result can be
// much larger (string replace with an empty pattern: a 100,000-character
// string becomes 10^10 bytes, charged 20,000). Such calls kill the API
// server's process (out of memory) before any cost is charged; crdlab instead
// refuses to build a string whose traversal alone would cost more than the
// per-call limit (more than 10,000,000 characters, well beyond the 3 MiB a
// request body may hold) and cancels the evaluation with the same error. That
// is the only divergence, and only where upstream would allocate such a
// string.
//
// The guards rely on the program options every base environment carries:
// OptTrackCost and CostLimit(at most limits.PerCallLimit); an overLimit value never
// survives the cost observer.

// maxResultSize is the largest string (in code points) a guarded function
// builds: one more character would cost more than limits.PerCallLimit to traverse.
const maxResultSize = uint64(limits.PerCallLimit / common.StringTraversalCostFactor)

// overLimit stands for the result of a call that was not run because its
// charge exceeds the per-call limit. Size is the size the result would have
// had (some charges depend on it).
type overLimit struct{ size uint64 }

var (
	_ ref.Val      = overLimit{}
	_ traits.Sizer = overLimit{}
)

func (o overLimit) err() error {
	return interpreter.EvalCancelledError{Cause: interpreter.CostLimitExceeded, Message: costLimitMessage}
}
func (o overLimit) ConvertToNative(reflect.Type) (any, error) { return nil, o.err() }
func (o overLimit) ConvertToType(ref.Type) ref.Val            { return types.WrapErr(o.err()) }
func (o overLimit) Equal(ref.Val) ref.Val                     { return types.WrapErr(o.err()) }
func (o overLimit) Type() ref.Type                            { return types.ErrType }
func (o overLimit) Value() any                                { return o.err() }
func (o overLimit) Size() ref.Val                             { return types.Int(clampInt(o.size)) }

const costLimitMessage = "operation cancelled: actual cost limit exceeded"

func clampInt(v uint64) int64 {
	if v > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// cancelEvaluation aborts the evaluation as the cost tracker does when the
// limit is exceeded.
func cancelEvaluation() {
	panic(interpreter.EvalCancelledError{Cause: interpreter.CostLimitExceeded, Message: costLimitMessage})
}

// overCharge returns the placeholder when charge exceeds the per-call limit.
func overCharge(charge, resultSize uint64) ref.Val {
	if charge > limits.PerCallLimit {
		return overLimit{size: resultSize}
	}
	return nil
}

// checkResultSize cancels the evaluation before a string of size code points
// is built when traversing it would exceed the per-call limit (see above).
func checkResultSize(size uint64) {
	if size > maxResultSize {
		cancelEvaluation()
	}
}

func strSize(v ref.Val) uint64 {
	if s, ok := v.(types.String); ok {
		return uint64(utf8.RuneCountInString(string(s)))
	}
	return actualSize(v)
}

func traversal(n uint64) uint64 { return ceilCost(float64(n) * common.StringTraversalCostFactor) }

// regexCharge is what matches, find and findAll are charged.
func regexCharge(str, pattern ref.Val) uint64 {
	strCost := ceilCost((1.0 + float64(strSize(str))) * common.StringTraversalCostFactor)
	regexCost := ceilCost(float64(strSize(pattern)) * common.RegexStringLengthCostFactor)
	if regexCost != 0 && strCost > math.MaxUint64/regexCost {
		return math.MaxUint64
	}
	return strCost * regexCost
}

// guardRegex is the pre-check of matches, find and findAll.
func guardRegex(str, pattern ref.Val) ref.Val {
	if _, ok := str.(types.String); !ok {
		return nil
	}
	if _, ok := pattern.(types.String); !ok {
		return nil
	}
	return overCharge(regexCharge(str, pattern), 1)
}

// guardParse is the pre-check of quantity, isQuantity, semver and isSemver:
// charged one tenth of the input's size.
func guardParse(arg ref.Val) ref.Val {
	if _, ok := arg.(types.String); !ok {
		return nil
	}
	return overCharge(traversal(strSize(arg)), 1)
}

// ---- cel-go's ext.Strings functions, re-bound with a pre-check ----

// stringGuards re-declares the ext.Strings overloads whose cost or result
// size depends on the data, with the same signatures and the same
// implementation behind a pre-check. It must follow ext.Strings.
func stringGuards() cel.EnvOption {
	return func(e *cel.Env) (*cel.Env, error) {
		fns := e.Functions()
		var opts []cel.EnvOption
		for _, name := range []string{"replace", "split", "join", "lowerAscii", "upperAscii", "format"} {
			fn, ok := fns[name]
			if !ok {
				continue
			}
			bindings, err := fn.Bindings()
			if err != nil {
				return nil, err
			}
			byID := map[string]*functions.Overload{}
			for _, b := range bindings {
				byID[b.Operator] = b
			}
			var fopts []cel.FunctionOpt
			for _, o := range fn.OverloadDecls() {
				b := byID[o.ID()]
				pre := stringPreCheck(o.ID())
				if b == nil || pre == nil {
					continue
				}
				fopts = append(fopts, rebind(o, b, pre))
			}
			if len(fopts) > 0 {
				opts = append(opts, cel.Function(name, fopts...))
			}
		}
		for _, o := range opts {
			var err error
			if e, err = o(e); err != nil {
				return nil, err
			}
		}
		return e, nil
	}
}

// rebind declares overload o again with binding b behind pre (and post, a
// check of the result size for functions whose result cannot be sized in
// advance).
func rebind(o *decls.OverloadDecl, b *functions.Overload, pre func(args []ref.Val) ref.Val) cel.FunctionOpt {
	var binding cel.OverloadOpt
	switch {
	case b.Unary != nil:
		f := b.Unary
		binding = cel.UnaryBinding(func(a ref.Val) ref.Val {
			if v := pre([]ref.Val{a}); v != nil {
				return v
			}
			return f(a)
		})
	case b.Binary != nil:
		f := b.Binary
		binding = cel.BinaryBinding(func(a, c ref.Val) ref.Val {
			if v := pre([]ref.Val{a, c}); v != nil {
				return v
			}
			return f(a, c)
		})
	default:
		f := b.Function
		binding = cel.FunctionBinding(func(args ...ref.Val) ref.Val {
			if v := pre(args); v != nil {
				return v
			}
			return postCheck(f(args...))
		})
	}
	if o.IsMemberFunction() {
		return cel.MemberOverload(o.ID(), o.ArgTypes(), o.ResultType(), binding)
	}
	return cel.Overload(o.ID(), o.ArgTypes(), o.ResultType(), binding)
}

// postCheck bounds results that cannot be sized before the call (format:
// its arguments are already in memory, so the result is at most their sum).
func postCheck(v ref.Val) ref.Val {
	if s, ok := v.(types.String); ok && uint64(len(s)) > maxResultSize {
		checkResultSize(uint64(utf8.RuneCountInString(string(s))))
	}
	return v
}

func stringPreCheck(id string) func(args []ref.Val) ref.Val {
	switch id {
	case "string_replace_string_string", "string_replace_string_string_int":
		return preReplace
	case "string_split_string", "string_split_string_int":
		return func(args []ref.Val) ref.Val { // charged 2 × 0.1 × size
			if _, ok := args[0].(types.String); !ok {
				return nil
			}
			return overCharge(ceilCost(float64(strSize(args[0]))*2*common.StringTraversalCostFactor), 1)
		}
	case "list_join", "list_join_string":
		return preJoin
	case "string_lower_ascii", "string_upper_ascii":
		return func(args []ref.Val) ref.Val {
			if _, ok := args[0].(types.String); !ok {
				return nil
			}
			n := strSize(args[0])
			return overCharge(traversal(n), n)
		}
	case "string_format":
		return func(args []ref.Val) ref.Val { // cel-go's ExtFormatString charge
			if _, ok := args[0].(types.String); !ok {
				return nil
			}
			return overCharge(traversal(strSize(args[0])), 1)
		}
	}
	return nil
}

// preReplace: charged 2 × 0.1 × size of the receiver; the result's size is
// computed (a count, no allocation) and bounded.
func preReplace(args []ref.Val) ref.Val {
	if len(args) < 3 {
		return nil
	}
	s, ok1 := args[0].(types.String)
	old, ok2 := args[1].(types.String)
	repl, ok3 := args[2].(types.String)
	if !ok1 || !ok2 || !ok3 {
		return nil
	}
	n := int64(-1)
	if len(args) == 4 {
		i, ok := args[3].(types.Int)
		if !ok {
			return nil
		}
		n = int64(i)
	}
	size := uint64(utf8.RuneCountInString(string(s)))
	if v := overCharge(ceilCost(float64(size)*2*common.StringTraversalCostFactor), 1); v != nil {
		return v
	}
	if n == 0 || len(old) == 0 && len(repl) == 0 {
		return nil
	}
	count := uint64(strings.Count(string(s), string(old)))
	if n > 0 && uint64(n) < count {
		count = uint64(n)
	}
	oldSize := uint64(utf8.RuneCountInString(string(old)))
	replSize := uint64(utf8.RuneCountInString(string(repl)))
	if replSize <= oldSize {
		return nil
	}
	grow := replSize - oldSize
	if count != 0 && grow > (math.MaxUint64-size)/count {
		cancelEvaluation()
	}
	checkResultSize(size + count*grow)
	return nil
}

// preJoin: charged 2 × 0.1 × size of the result, which is the sum of the
// elements' sizes and of the separators'.
func preJoin(args []ref.Val) ref.Val {
	l, ok := args[0].(traits.Lister)
	if !ok {
		return nil
	}
	var sep uint64
	if len(args) > 1 {
		s, ok := args[1].(types.String)
		if !ok {
			return nil
		}
		sep = uint64(utf8.RuneCountInString(string(s)))
	}
	n, ok := l.Size().(types.Int)
	if !ok || n <= 0 {
		return nil
	}
	size := sep * uint64(n-1)
	for it := l.Iterator(); it.HasNext() == types.True; {
		s, ok := it.Next().(types.String)
		if !ok {
			return nil // the join fails with its own error
		}
		size += uint64(utf8.RuneCountInString(string(s)))
	}
	if v := overCharge(ceilCost(float64(size)*2*common.StringTraversalCostFactor), size); v != nil {
		return v
	}
	checkResultSize(size)
	return nil
}

// ---- cel-go's standard string + and matches ----

// costGuardDecorator wraps string concatenation and matches with a
// non-literal pattern (a literal pattern is handled by matchesOptimization,
// which replaces cel-go's own precompilation).
func costGuardDecorator(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	call, ok := i.(interpreter.InterpretableCall)
	if !ok {
		return i, nil
	}
	args := call.Args()
	if len(args) != 2 {
		return i, nil
	}
	switch {
	case call.Function() == "_+_" && call.OverloadID() == overloads.AddString:
		return &guardedBinary{InterpretableCall: call, lhs: args[0], rhs: args[1], trait: traits.AdderType,
			impl: func(l, r ref.Val) ref.Val { return l.(traits.Adder).Add(r) }, pre: preAddString}, nil
	case call.Function() == overloads.Matches:
		if _, isConst := args[1].(interpreter.InterpretableConst); isConst {
			return i, nil
		}
		return &guardedBinary{InterpretableCall: call, lhs: args[0], rhs: args[1], trait: traits.MatcherType,
			impl: func(l, r ref.Val) ref.Val { return l.(traits.Matcher).Match(r) }, pre: guardRegex}, nil
	}
	return i, nil
}

func preAddString(l, r ref.Val) ref.Val {
	a, ok1 := l.(types.String)
	b, ok2 := r.(types.String)
	if !ok1 || !ok2 {
		return nil
	}
	size := uint64(utf8.RuneCountInString(string(a))) + uint64(utf8.RuneCountInString(string(b)))
	if v := overCharge(traversal(size), size); v != nil {
		return v
	}
	checkResultSize(size)
	return nil
}

// guardedBinary evaluates as cel-go's evalBinary does (strict, single
// binding with an operand trait), with a pre-check before the binding.
type guardedBinary struct {
	interpreter.InterpretableCall
	lhs, rhs interpreter.InterpretableV2
	trait    int
	impl     func(l, r ref.Val) ref.Val
	pre      func(l, r ref.Val) ref.Val
}

func (g *guardedBinary) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	lVal := g.lhs.Exec(frame)
	rVal := g.rhs.Exec(frame)
	if types.IsUnknownOrError(lVal) {
		return lVal
	}
	if types.IsUnknownOrError(rVal) {
		return rVal
	}
	id := g.ID()
	if lVal.Type().HasTrait(g.trait) {
		if v := g.pre(lVal, rVal); v != nil {
			return v
		}
		return types.LabelErrNode(id, g.impl(lVal, rVal))
	}
	if lVal.Type().HasTrait(traits.ReceiverType) {
		return types.LabelErrNode(id, lVal.(traits.Receiver).Receive(g.Function(), g.OverloadID(), []ref.Val{rVal}))
	}
	return types.NewErrWithNodeID(id, "no such overload: %s", g.Function())
}

func (g *guardedBinary) Eval(act interpreter.Activation) ref.Val {
	return g.Exec(interpreter.AsFrame(act))
}

// matchesOptimization replaces cel-go's MatchesRegexOptimization (same
// compilation, same evaluation) with the pre-check in front. It is keyed by
// overload id, which cel-go's regex optimizer consults before the function
// name its own optimization is registered under.
func matchesOptimization(overloadID string) *interpreter.RegexOptimization {
	return &interpreter.RegexOptimization{
		Function:   overloads.Matches,
		OverloadID: overloadID,
		RegexIndex: 1,
		Factory: func(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
			re, err := regexp.Compile(pattern)
			if err != nil {
				return nil, err
			}
			pat := types.String(pattern)
			return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(values ...ref.Val) ref.Val {
				if len(values) != 2 {
					return types.NoSuchOverloadErr()
				}
				in, ok := values[0].Value().(string)
				if !ok {
					return types.NoSuchOverloadErr()
				}
				if v := guardRegex(values[0], pat); v != nil {
					return v
				}
				return types.Bool(re.MatchString(in))
			}), nil
		},
	}
}

// costGuardProgramOptions are the program options of the guards.
func costGuardProgramOptions() []cel.ProgramOption {
	return []cel.ProgramOption{
		cel.CustomDecoratorV2(costGuardDecorator),
		cel.OptimizeRegex(matchesOptimization(overloads.Matches), matchesOptimization(overloads.MatchesString)),
	}
}

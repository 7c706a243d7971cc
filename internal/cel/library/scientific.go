package library

import (
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// string.format's %e renders through golang.org/x/text/message, whose
// superscript exponent ("2.500000×10⁰⁰") was written with a narrow no-break
// space on each side of the "×" ("2.500000\u202f×\u202f10⁰⁰") before x/text
// v0.23 (internal/number/format.go). Kubernetes 1.32 and older resolve an
// older x/text (1.32: v0.19.0, 1.31: v0.16.0), 1.33 v0.23.0; crdlab links
// v0.40.0. scientificSpaces re-binds string.format so that its %e clauses
// render as the older x/text does (kubeversion.ScientificWithoutSpaces).

// scientificSpaces re-declares string.format (after stringGuards) with %e
// clauses rendered with the spaces.
func scientificSpaces() cel.EnvOption {
	return func(e *cel.Env) (*cel.Env, error) {
		fn, ok := e.Functions()["format"]
		if !ok {
			return e, nil
		}
		bindings, err := fn.Bindings()
		if err != nil {
			return nil, err
		}
		var fopts []cel.FunctionOpt
		for _, o := range fn.OverloadDecls() {
			for _, b := range bindings {
				if b.Operator == o.ID() && (b.Binary != nil || b.Function != nil) && o.IsMemberFunction() && len(o.ArgTypes()) == 2 {
					fopts = append(fopts, withScientificSpaces(o, b))
				}
			}
		}
		if len(fopts) == 0 {
			return e, nil
		}
		return cel.Function("format", fopts...)(e)
	}
}

func withScientificSpaces(o *decls.OverloadDecl, b *functions.Overload) cel.FunctionOpt {
	format := b.Binary
	if format == nil {
		call := b.Function
		format = func(recv, args ref.Val) ref.Val { return call(recv, args) }
	}
	return cel.MemberOverload(o.ID(), o.ArgTypes(), o.ResultType(), cel.BinaryBinding(func(recv, args ref.Val) ref.Val {
		out := format(recv, args)
		f, ok := recv.(types.String)
		list, isList := args.(traits.Lister)
		if !ok || !isList || types.IsError(out) || !strings.Contains(string(f), "e") {
			return out
		}
		return spacedScientific(string(f), list, format, out)
	}))
}

// spacedScientific formats f with each %e clause rendered alone (the
// clause with its argument, through format) and spaced, then given to the
// whole format as a %s string. Anything unexpected returns plain, the
// unchanged result.
func spacedScientific(f string, list traits.Lister, format func(ref.Val, ref.Val) ref.Val, plain ref.Val) ref.Val {
	n, ok := list.Size().(types.Int)
	if !ok {
		return plain
	}
	var rewritten strings.Builder
	var vals []ref.Val
	changed := false
	arg := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			rewritten.WriteByte(f[i])
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			rewritten.WriteString("%%")
			i++
			continue
		}
		// a clause: '%', an optional precision ".<digits>", the verb
		j := i + 1
		if j < len(f) && f[j] == '.' {
			j++
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				j++
			}
		}
		if j >= len(f) || int64(arg) >= int64(n) {
			return plain
		}
		clause := f[i : j+1]
		v := list.Get(types.Int(arg))
		if f[j] == 'e' {
			alone, ok := format(types.String(clause), types.NewRefValList(types.DefaultTypeAdapter, []ref.Val{v})).(types.String)
			if !ok {
				return plain
			}
			v = types.String(strings.Replace(string(alone), "×", "\u202f×\u202f", 1))
			clause = "%s"
			changed = true
		}
		rewritten.WriteString(clause)
		vals = append(vals, v)
		arg++
		i = j
	}
	if !changed {
		return plain
	}
	for ; arg < int(n); arg++ {
		vals = append(vals, list.Get(types.Int(arg)))
	}
	return format(types.String(rewritten.String()), types.NewRefValList(types.DefaultTypeAdapter, vals))
}

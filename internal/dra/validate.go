package dra

import (
	"github.com/crdlab/crdlab/engine/field"
	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// Validator validates the selectors of one request (one object) at a
// release: it builds the NewExpressions environment on first use and keeps
// it for the object's other selectors. It is not safe for concurrent use.
type Validator struct {
	rel kubeversion.Release
	env *Env
	err error
}

// NewValidator returns the validator of release rel, with its default
// feature gates.
func NewValidator(rel kubeversion.Release) *Validator { return &Validator{rel: rel} }

// ValidateExpression is the registry validation of one selector's
// expression on create (upstream's validateCELExpression, or
// validateCELSelector before 1.35): longer than 10 KiB is too long and not
// compiled; otherwise it is compiled in the NewExpressions environment with
// the release's default gates, and a compile error is Invalid (the
// expression as the value), an internal error InternalError, and an
// estimated cost over 1,000,000 Forbidden ("too complex, exceeds cost
// limit"). path is the expression's own path
// (spec.selectors[0].cel.expression).
func (v *Validator) ValidateExpression(expr string, path *field.Path) field.ErrorList {
	if len(expr) > MaxExpressionLength {
		return field.ErrorList{field.TooLong(path, "", MaxExpressionLength)}
	}
	if v.env == nil && v.err == nil {
		v.env, v.err = NewEnv(v.rel, kcel.NewExpressions, Defaults(v.rel))
	}
	if v.err != nil {
		return field.ErrorList{field.InternalError(path, v.err)}
	}
	sel, cerr := v.env.Compile(expr)
	switch {
	case cerr != nil && cerr.Type == kcel.ErrorTypeInternal:
		return field.ErrorList{field.InternalError(path, cerr)}
	case cerr != nil:
		return field.ErrorList{field.Invalid(path, expr, cerr.Detail)}
	case sel.MaxCost > MaxCost:
		return field.ErrorList{field.Forbidden(path, "too complex, exceeds cost limit")}
	}
	return nil
}

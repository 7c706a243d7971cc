package cel

import (
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/defaults"
	"github.com/crdlab/crdlab/internal/schema"
)

// ValidateDefault checks a default value against the rules of s and below, as
// upstream's defaulting validation does with
// cel.NewValidator(s, isResourceRoot, PerCallLimit).Validate(ctx, pth, s, obj,
// oldObj, costBudget): no ratcheting, nil validator when s has no rules.
func ValidateDefault(pth *field.Path, s *schema.Structural, isResourceRoot bool, obj, oldObj interface{}, costBudget int64) (field.ErrorList, int64) {
	v := NewValidator(s, isResourceRoot, PerCallLimit)
	errs, remaining, _ := v.Validate(pth, obj, oldObj, costBudget)
	return errs, remaining
}

func init() {
	// internal/defaults cannot import this package (it would be a cycle
	// through internal/crdvalidation); it exposes a hook instead.
	defaults.CELValidator = ValidateDefault
}

package builtin

// The int-or-percent checks of pkg/apis/apps/validation, which a
// PodDisruptionBudget's minAvailable and maxUnavailable share with a
// Deployment's rolling update.

import (
	"regexp"
	"strconv"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// percentFmt is util/validation's percent format.
const percentFmt = "[0-9]+%"

var percentRegexp = regexp.MustCompile("^" + percentFmt + "$")

// isValidPercent mirrors util/validation's IsValidPercent.
func isValidPercent(s string) []string {
	if !percentRegexp.MatchString(s) {
		return []string{names.RegexError("a valid percent string must be a numeric string followed by an ending '%'", percentFmt, "1%", "93%")}
	}
	return nil
}

// validatePositiveIntOrPercent mirrors ValidatePositiveIntOrPercent.
func validatePositiveIntOrPercent(v v1.IntOrString, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch v.Type {
	case v1.String:
		for _, msg := range isValidPercent(v.StrVal) {
			errs = append(errs, field.Invalid(p, v, msg))
		}
	case v1.Int:
		errs = append(errs, objectmeta.ValidateNonnegativeField(int64(v.IntVal), p)...)
	default:
		errs = append(errs, field.Invalid(p, v, "must be an integer or percentage (e.g '5%%')"))
	}
	return errs
}

// isNotMoreThan100Percent mirrors IsNotMoreThan100Percent.
func isNotMoreThan100Percent(v v1.IntOrString, p *field.Path) field.ErrorList {
	if v.Type != v1.String || len(isValidPercent(v.StrVal)) != 0 {
		return nil
	}
	if n, _ := strconv.Atoi(v.StrVal[:len(v.StrVal)-1]); n <= 100 {
		return nil
	}
	return field.ErrorList{field.Invalid(p, v, "must not be greater than 100%")}
}

package kubeversion

import (
	"strings"

	"github.com/crdlab/crdlab/engine/field"
)

// ErrorsAt returns errs as release rel renders them: unchanged from 1.34;
// before, bad values in Go syntax (FieldValueJSON) and "1
// bytes", "1 items" (SingularUnits); before 1.32, TooLong's
// `must have at most N bytes` (TooLongBytes). The errors are copied,
// never changed in place (a CompileShare's compilations share them).
func ErrorsAt(rel Release, errs field.ErrorList) field.ErrorList {
	if len(errs) == 0 || rel.Has(FieldValueJSON) && rel.Has(SingularUnits) && rel.Has(TooLongBytes) {
		return errs
	}
	if !rel.Has(FieldValueJSON) {
		errs = errs.WithGoSyntaxValues()
	} else {
		errs = append(field.ErrorList(nil), errs...)
	}
	for i, e := range errs {
		d := e.Detail
		if !rel.Has(SingularUnits) {
			switch {
			case e.Type == field.ErrorTypeTooLong && d == "may not be more than 1 byte":
				d = "may not be more than 1 bytes"
			case e.Type == field.ErrorTypeTooMany && d == "must have at most 1 item":
				d = "must have at most 1 items"
			}
		}
		if !rel.Has(TooLongBytes) && e.Type == field.ErrorTypeTooLong {
			// field.TooLong's text (a schema's maxLength is worded at its
			// source, internal/openapi)
			if n, ok := strings.CutPrefix(d, "may not be more than "); ok {
				d = "must have at most " + strings.TrimSuffix(strings.TrimSuffix(n, "s"), " byte") + " bytes"
			}
		}
		if d != e.Detail {
			c := *e
			c.Detail = d
			errs[i] = &c
		}
	}
	return errs
}

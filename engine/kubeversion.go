package engine

import (
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// DefaultKubeVersion is the Kubernetes release reproduced when
// CompileOptions.KubeVersion is empty.
const DefaultKubeVersion = "1.37"

// SupportedKubeVersions returns the Kubernetes releases crdlab reproduces
// exactly (each is green on its differential suite), newest first, as
// "1.<minor>".
func SupportedKubeVersions() []string {
	rs := kubeversion.Supported()
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}

// ParseKubeVersions reads a selection of Kubernetes releases: "1.36", a
// range "1.35-1.37", a comma-separated list of either, or "supported". The
// result is newest first; an unsupported release is an error naming the
// supported ones.
func ParseKubeVersions(s string) ([]string, error) {
	rs, err := kubeversion.ParseSet(s)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out, nil
}

// KubeVersion is the Kubernetes release c was compiled for ("1.<minor>").
func (c *CRD) KubeVersion() string { return c.release.String() }

// errorsAt returns errs as release rel renders them: unchanged from 1.34;
// before, bad values in Go syntax (kubeversion.FieldValueJSON) and "1
// bytes", "1 items" (kubeversion.SingularUnits); before 1.32, TooLong's
// `must have at most N bytes` (kubeversion.TooLongBytes). The errors are copied,
// never changed in place (a CompileShare's compilations share them).
func errorsAt(rel kubeversion.Release, errs field.ErrorList) field.ErrorList {
	if len(errs) == 0 || rel.Has(kubeversion.FieldValueJSON) && rel.Has(kubeversion.SingularUnits) && rel.Has(kubeversion.TooLongBytes) {
		return errs
	}
	if !rel.Has(kubeversion.FieldValueJSON) {
		errs = errs.WithGoSyntaxValues()
	} else {
		errs = append(field.ErrorList(nil), errs...)
	}
	for i, e := range errs {
		d := e.Detail
		if !rel.Has(kubeversion.SingularUnits) {
			switch {
			case e.Type == field.ErrorTypeTooLong && d == "may not be more than 1 byte":
				d = "may not be more than 1 bytes"
			case e.Type == field.ErrorTypeTooMany && d == "must have at most 1 item":
				d = "must have at most 1 items"
			}
		}
		if !rel.Has(kubeversion.TooLongBytes) && e.Type == field.ErrorTypeTooLong {
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

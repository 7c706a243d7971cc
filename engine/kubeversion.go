package engine

import (
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

// errorsAt returns errs as release rel renders them (kubeversion.ErrorsAt).
func errorsAt(rel kubeversion.Release, errs field.ErrorList) field.ErrorList {
	return kubeversion.ErrorsAt(rel, errs)
}

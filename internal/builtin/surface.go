package builtin

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/internal/kubeversion"
)

// surfaceData is tools/builtinsurface's output: one line per resource and
// run of releases serving it identically.
//
//go:embed surface.tsv
var surfaceData string

// Resource is one built-in resource a release serves by default.
type Resource struct {
	Group, Version, Kind string
	// Resource is the plural resource name (configmaps).
	Resource   string
	Namespaced bool
	ShortNames []string
	// Subresources are the resource's subresources (status, scale, ...).
	Subresources []string
	// Verbs are the discovery verbs; a resource without "create" cannot be
	// created (tokenreviews can, componentstatuses cannot).
	Verbs []string
	// Deprecated and Removed are the release ("1.29") the version was
	// deprecated in and is removed in, "" when none; Replacement is
	// "group/version Kind".
	Deprecated, Removed, Replacement string
}

// GroupVersion renders the group and version as an apiVersion.
func (r *Resource) GroupVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// ResourceGroup renders "configmaps" or "deployments.apps", as kubectl
// names a resource type.
func (r *Resource) ResourceGroup() string {
	if r.Group == "" {
		return r.Resource
	}
	return r.Resource + "." + r.Group
}

// Creatable reports whether the resource accepts create requests.
func (r *Resource) Creatable() bool {
	for _, v := range r.Verbs {
		if v == "create" {
			return true
		}
	}
	return false
}

// DeprecationWarning is the API server's warning for a request to a
// deprecated version at release rel (k8s.io/apiserver's
// deprecation.WarningMessage, when deprecation.IsDeprecated), "" when none.
func (r *Resource) DeprecationWarning(rel kubeversion.Release) string {
	if r.Deprecated == "" {
		return ""
	}
	var dmaj, dmin int
	if _, err := fmt.Sscanf(r.Deprecated, "%d.%d", &dmaj, &dmin); err != nil {
		return ""
	}
	if dmaj > 1 || (dmaj == 1 && dmin > rel.Minor()) {
		return ""
	}
	w := fmt.Sprintf("%s %s is deprecated in v%s+", r.GroupVersion(), r.Kind, r.Deprecated)
	if r.Removed != "" {
		w += fmt.Sprintf(", unavailable in v%s+", r.Removed)
	}
	if r.Replacement != "" {
		w += "; use " + r.Replacement
	}
	return w
}

type gvk struct{ group, version, kind string }

// surface is the parsed data: per minor release, the resources by group,
// version and kind; and every group any release serves.
type surface struct {
	byRelease map[int]map[gvk]*Resource
	groups    map[string]bool
}

var (
	parsed     *surface
	parsedOnce sync.Once
)

func load() *surface {
	parsedOnce.Do(func() { parsed = parseSurface(surfaceData) })
	return parsed
}

// parseSurface reads surface.tsv (generated: a malformed line is a bug of
// the generator and panics in the tests that load it).
func parseSurface(data string) *surface {
	s := &surface{byRelease: map[int]map[gvk]*Resource{}, groups: map[string]bool{}}
	split := func(f string) []string {
		if f == "-" {
			return nil
		}
		return strings.Split(f, ",")
	}
	dash := func(f string) string {
		if f == "-" {
			return ""
		}
		return f
	}
	for _, line := range strings.Split(data, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 12 {
			panic(fmt.Sprintf("surface.tsv: %d fields in %q", len(f), line))
		}
		group := f[1]
		if group == "core" {
			group = ""
		}
		r := &Resource{Group: group, Version: f[2], Kind: f[3], Resource: f[4], Namespaced: f[5] == "Namespaced",
			ShortNames: split(f[6]), Subresources: split(f[7]), Verbs: split(f[8]),
			Deprecated: dash(f[9]), Removed: dash(f[10]), Replacement: dash(f[11])}
		s.groups[group] = true
		for _, run := range strings.Split(f[0], ",") {
			first, last, ok := strings.Cut(run, "-")
			if !ok {
				last = first
			}
			var a, b int
			fmt.Sscanf(first, "1.%d", &a)
			fmt.Sscanf(last, "1.%d", &b)
			for m := a; m <= b; m++ {
				if s.byRelease[m] == nil {
					s.byRelease[m] = map[gvk]*Resource{}
				}
				s.byRelease[m][gvk{group, r.Version, r.Kind}] = r
			}
		}
	}
	return s
}

// Lookup returns the resource release rel serves for an apiVersion and
// kind, or nil.
func Lookup(rel kubeversion.Release, apiVersion, kind string) *Resource {
	s := load()
	minor := rel.Minor()
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	return s.byRelease[minor][gvk{group, version, kind}]
}

// IsBuiltinGroup reports whether a group is one of kube-apiserver's own:
// a group some release described serves, or a historical group
// (extensions) and the groups of versions removed before 1.31.
func IsBuiltinGroup(group string) bool {
	if load().groups[group] {
		return true
	}
	switch group {
	case "extensions", "settings.k8s.io", "auditregistration.k8s.io":
		return true
	}
	return false
}

// NoMatchError is kubectl's error for an object whose apiVersion and kind
// the cluster does not serve (k8s.io/cli-runtime's mapper, with
// apimachinery's NoKindMatchError for one searched version): name and
// namespace are the object's metadata as written, source the file name
// kubectl read it from.
func NoMatchError(name, namespace, source, apiVersion, kind string) string {
	return fmt.Sprintf("resource mapping not found for name: %q namespace: %q from %q: no matches for kind %q in version %q\nensure CRDs are installed first",
		name, namespace, source, kind, apiVersion)
}

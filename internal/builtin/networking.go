package builtin

// networking.k8s.io/v1 IngressClass: its scheme default
// (pkg/apis/networking/v1/defaults.go), registry strategy
// (pkg/registry/networking/ingressclass) and validation
// (pkg/apis/networking/validation).

import (
	"reflect"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
)

// maxLenIngressClassController mirrors the validation's bound on
// spec.controller.
const maxLenIngressClassController = 250

// The parameters' scopes.
const (
	scopeNamespace = "Namespace"
	scopeCluster   = "Cluster"
)

// httpPathFmt is util/validation's path format of IsDomainPrefixedPath.
const httpPathFmt = `[A-Za-z0-9/\-._~%!$&'()*+,;=:]+`

func isHTTPPathChar(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte(`/-._~%!$&'()*+,;=:`, c) >= 0
}

// isDomainPrefixedPath mirrors util/validation's IsDomainPrefixedPath.
func isDomainPrefixedPath(p *field.Path, s string) field.ErrorList {
	if s == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	host, path, ok := strings.Cut(s, "/")
	if !ok || host == "" || path == "" {
		return field.ErrorList{field.Invalid(p, s, `must be a domain-prefixed path (such as "acme.io/foo")`)}
	}
	var errs field.ErrorList
	for _, msg := range names.IsDNS1123Subdomain(host) {
		errs = append(errs, field.Invalid(p, host, msg))
	}
	for i := 0; i < len(path); i++ {
		if !isHTTPPathChar(path[i]) {
			return append(errs, field.Invalid(p, path, names.RegexError("Invalid path", httpPathFmt)))
		}
	}
	return errs
}

// ingressClassStrategy is pkg/registry/networking/ingressclass's strategy.
type ingressClassStrategy struct{}

func (ingressClassStrategy) NamespaceScoped() bool { return false }
func (ingressClassStrategy) New() Object           { return &v1.IngressClass{} }

// Decoded mirrors SetDefaults_IngressClass: parameters without a scope are
// cluster-scoped.
func (ingressClassStrategy) Decoded(o Object) {
	if p := o.(*v1.IngressClass).Spec.Parameters; p != nil && p.Scope == nil {
		s := scopeCluster
		p.Scope = &s
	}
}

// PrepareForCreate sets the generation to 1.
func (ingressClassStrategy) PrepareForCreate(o Object) { o.Meta().Generation = 1 }

// PrepareForUpdate bumps the generation when the spec changes.
func (ingressClassStrategy) PrepareForUpdate(o, old Object) {
	ic, oldIC := o.(*v1.IngressClass), old.(*v1.IngressClass)
	if !reflect.DeepEqual(ic.Spec, oldIC.Spec) {
		ic.ObjectMeta.Generation = oldIC.ObjectMeta.Generation + 1
	}
}
func (ingressClassStrategy) Canonicalize(Object) {}
func (ingressClassStrategy) WarningsOnCreate(kubeversion.Release, Object) []string {
	return nil
}
func (ingressClassStrategy) WarningsOnUpdate(kubeversion.Release, Object, Object) []string {
	return nil
}

// Validate mirrors ValidateIngressClass.
func (ingressClassStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	ic := o.(*v1.IngressClass)
	errs := validateObjectMeta(rel, &ic.ObjectMeta, false, names.NameIsDNSSubdomain)
	spec := field.NewPath("spec")
	if len(ic.Spec.Controller) > maxLenIngressClassController {
		errs = append(errs, field.TooLong(spec.Child("controller"), "", maxLenIngressClassController))
	}
	errs = append(errs, isDomainPrefixedPath(spec.Child("controller"), ic.Spec.Controller)...)
	return append(errs, validateIngressClassParameters(ic.Spec.Parameters, spec.Child("parameters"))...)
}

// validateIngressClassParameters mirrors validateIngressClassParametersReference.
func validateIngressClassParameters(p *v1.IngressClassParametersReference, path *field.Path) field.ErrorList {
	if p == nil {
		return nil
	}
	var errs field.ErrorList
	if p.APIGroup != nil {
		for _, msg := range names.IsDNS1123Subdomain(*p.APIGroup) {
			errs = append(errs, field.Invalid(path.Child("apiGroup"), *p.APIGroup, msg))
		}
	}
	for _, f := range []struct{ name, value string }{{"kind", p.Kind}, {"name", p.Name}} {
		if f.value == "" {
			errs = append(errs, field.Required(path.Child(f.name), ""))
			continue
		}
		for _, msg := range names.IsPathSegmentName(f.value) {
			errs = append(errs, field.Invalid(path.Child(f.name), f.value, msg))
		}
	}
	if p.Scope == nil {
		return append(errs, field.Required(path.Child("scope"), ""))
	}
	switch *p.Scope {
	case scopeNamespace:
		if p.Namespace == nil {
			errs = append(errs, field.Required(path.Child("namespace"), "`parameters.scope` is set to 'Namespace'"))
		} else {
			for _, msg := range names.ValidateNamespaceName(*p.Namespace, false) {
				errs = append(errs, field.Invalid(path.Child("namespace"), *p.Namespace, msg))
			}
		}
	case scopeCluster:
		if p.Namespace != nil {
			errs = append(errs, field.Forbidden(path.Child("namespace"), "`parameters.scope` is set to 'Cluster'"))
		}
	default:
		errs = append(errs, field.NotSupported(path.Child("scope"), *p.Scope, []string{scopeCluster, scopeNamespace}))
	}
	return errs
}

// ValidateUpdate mirrors ValidateIngressClassUpdate.
func (s ingressClassStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	ic, oldIC := o.(*v1.IngressClass), old.(*v1.IngressClass)
	errs := validateObjectMetaUpdate(rel, &ic.ObjectMeta, &oldIC.ObjectMeta)
	if ic.Spec.Controller != oldIC.Spec.Controller {
		errs = append(errs, field.Invalid(field.NewPath("spec", "controller"), ic.Spec.Controller, "field is immutable"))
	}
	return append(errs, s.Validate(rel, o)...)
}

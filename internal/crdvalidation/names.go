package crdvalidation

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// The name rules are internal/names' (upstream's
// k8s.io/apimachinery/pkg/util/validation and api/validate/content, with
// their messages), under the names this package's validation uses.
var (
	isDNS1123Subdomain = names.IsDNS1123Subdomain
	isDNS1035Label     = names.IsDNS1035Label
	nameIsDNSSubdomain = names.NameIsDNSSubdomain
)

// validateObjectMeta is upstream's ValidateObjectMeta for the CRD itself, a
// cluster-scoped object, on create: objectmeta.ValidateObjectMetaAt (name,
// generateName, namespace, generation, labels, annotations, finalizers; map
// keys in sorted order where upstream's order is random) on the fields of
// crd.ObjectMeta it reads. ownerReferences and managedFields, which
// crd.ObjectMeta keeps as raw JSON, are not checked.
func validateObjectMeta(rel kubeversion.Release, m *crd.ObjectMeta, nameFn names.ValidateNameFunc, fldPath *field.Path) field.ErrorList {
	meta := &objectmeta.ObjectMeta{
		Name:         m.Name,
		GenerateName: m.GenerateName,
		Namespace:    m.Namespace,
		Generation:   m.Generation,
		Labels:       m.Labels,
		Annotations:  m.Annotations,
		Finalizers:   m.Finalizers,
	}
	return objectmeta.ValidateObjectMetaAt(rel, meta, false, nameFn, fldPath)
}

// validateWebhookURL is upstream's webhook.ValidateWebhookURL.
func validateWebhookURL(fldPath *field.Path, raw string, forceHTTPS bool) field.ErrorList {
	var allErrs field.ErrorList
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(raw)
	if err != nil {
		return append(allErrs, field.Required(fldPath, "url must be a valid URL: "+err.Error()+form))
	}
	if forceHTTPS && u.Scheme != "https" {
		allErrs = append(allErrs, field.Invalid(fldPath, u.Scheme, "'https' is the only allowed URL scheme"+form))
	}
	if len(u.Host) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, u.Host, "host must be specified"+form))
	}
	if u.User != nil {
		allErrs = append(allErrs, field.Invalid(fldPath, u.User.String(), "user information is not permitted in the URL"))
	}
	if len(u.Fragment) != 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, u.Fragment, "fragments are not permitted in the URL"))
	}
	if len(u.RawQuery) != 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return allErrs
}

// validateWebhookService is upstream's webhook.ValidateWebhookService.
func validateWebhookService(fldPath *field.Path, namespace, name string, path *string, port int32) field.ErrorList {
	var allErrs field.ErrorList
	if len(name) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), ""))
	}
	if len(namespace) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("namespace"), ""))
	}
	if port < 1 || port > 65535 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("port"), port, "port is not valid: must be between 1 and 65535, inclusive"))
	}
	if path == nil {
		return allErrs
	}
	p := *path
	if p == "/" || len(p) == 0 {
		return allErrs
	}
	if p == "//" {
		return append(allErrs, field.Invalid(fldPath.Child("path"), p, "segment[0] may not be empty"))
	}
	if !strings.HasPrefix(p, "/") {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("path"), p, "must start with a '/'"))
	}
	check := p[1:]
	check = strings.TrimSuffix(check, "/")
	for i, step := range strings.Split(check, "/") {
		if len(step) == 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("path"), p, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, failure := range isDNS1123Subdomain(step) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("path"), p, fmt.Sprintf("segment[%d]: %v", i, failure)))
		}
	}
	return allErrs
}

package objectmeta

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/names"
)

var metadataPath = field.NewPath("metadata")

// FromCustomResource reads the metadata of a custom resource as the custom
// resource validator does before validating it (getObjectMeta in upstream's
// pkg/registry/customresource/validator.go): absent or null metadata is an
// empty ObjectMeta, metadata that is not an object or does not decode is an
// Invalid error at "metadata".
func FromCustomResource(obj map[string]interface{}) (*ObjectMeta, field.ErrorList) {
	raw := obj["metadata"]
	if raw == nil {
		return &ObjectMeta{}, nil
	}
	m, ok := raw.(map[string]interface{})
	if !ok {
		return nil, field.ErrorList{field.Invalid(metadataPath, raw, fmt.Sprintf("expected map[string]interface{}, got %T", raw))}
	}
	meta, _, err := decodeObjectMeta(m, false)
	if err != nil {
		return nil, field.ErrorList{field.Invalid(metadataPath, raw, err.Error())}
	}
	return meta, nil
}

// ValidateCustomResourceCreate is the metadata validation of the custom
// resource strategy on create: names must be DNS subdomains.
func ValidateCustomResourceCreate(meta *ObjectMeta, namespaced bool) field.ErrorList {
	return ValidateCustomResourceCreateAt(kubeversion.Release{}, meta, namespaced)
}

// ValidateCustomResourceCreateAt is ValidateCustomResourceCreate at release rel.
func ValidateCustomResourceCreateAt(rel kubeversion.Release, meta *ObjectMeta, namespaced bool) field.ErrorList {
	return DeclarativeBeta(rel, ValidateObjectMetaAt(rel, meta, namespaced, names.NameIsDNSSubdomain, metadataPath), meta, nil, metadataPath)
}

// ValidateCustomResourceUpdate is the metadata validation of the custom
// resource strategy on update.
func ValidateCustomResourceUpdate(meta, old *ObjectMeta) field.ErrorList {
	return ValidateCustomResourceUpdateAt(kubeversion.Release{}, meta, old)
}

// ValidateCustomResourceUpdateAt is ValidateCustomResourceUpdate at release rel.
func ValidateCustomResourceUpdateAt(rel kubeversion.Release, meta, old *ObjectMeta) field.ErrorList {
	return DeclarativeBeta(rel, ValidateObjectMetaUpdateAt(rel, meta, old, metadataPath), meta, old, metadataPath)
}

// ValidateRegistryCreate is the common metadata validation the generic
// registry (k8s.io/apiserver rest.ValidateCreate) runs after the strategy,
// and only when the strategy reported no error at all: names must be
// path segments.
func ValidateRegistryCreate(meta *ObjectMeta, namespaced bool) field.ErrorList {
	return ValidateRegistryCreateAt(kubeversion.Release{}, meta, namespaced)
}

// ValidateRegistryCreateAt is ValidateRegistryCreate at release rel.
func ValidateRegistryCreateAt(rel kubeversion.Release, meta *ObjectMeta, namespaced bool) field.ErrorList {
	return ValidateObjectMetaAt(rel, meta, namespaced, names.ValidatePathSegmentName, metadataPath)
}

// ValidateRegistryUpdate is the common metadata validation the generic
// registry (rest.ValidateUpdate) runs before the strategy's ValidateUpdate;
// its errors come first in the list.
func ValidateRegistryUpdate(meta, old *ObjectMeta, namespaced bool) field.ErrorList {
	return ValidateRegistryUpdateAt(kubeversion.Release{}, meta, old, namespaced)
}

// ValidateRegistryUpdateAt is ValidateRegistryUpdate at release rel.
func ValidateRegistryUpdateAt(rel kubeversion.Release, meta, old *ObjectMeta, namespaced bool) field.ErrorList {
	allErrs := field.ErrorList{}
	allErrs = append(allErrs, ValidateObjectMetaAt(rel, meta, namespaced, names.ValidatePathSegmentName, metadataPath)...)
	allErrs = append(allErrs, ValidateObjectMetaUpdateAt(rel, meta, old, metadataPath)...)
	return allErrs
}

// WarningsOnCreate returns the custom resource strategy's warnings for the
// finalizers of a new object.
func WarningsOnCreate(rel kubeversion.Release, meta *ObjectMeta) []string {
	return finalizerWarnings(rel, meta, nil)
}

// WarningsOnUpdate returns the warnings for the finalizers added by an
// update.
func WarningsOnUpdate(rel kubeversion.Release, meta, old *ObjectMeta) []string {
	if old == nil {
		old = &ObjectMeta{}
	}
	return finalizerWarnings(rel, meta, old)
}

func finalizerWarnings(rel kubeversion.Release, meta, old *ObjectMeta) []string {
	if meta == nil {
		return nil
	}
	added := map[string]bool{}
	for _, f := range meta.Finalizers {
		added[f] = true
	}
	if old != nil {
		for _, f := range old.Finalizers {
			delete(added, f)
		}
	}
	list := keys.Sorted(added)
	var warnings []string
	fldPath := metadataPath.Child("finalizers")
	for _, f := range list {
		warnings = append(warnings, FinalizerNameWarnings(rel, f, fldPath)...)
	}
	return warnings
}

// FinalizerNameWarnings returns the warnings for one finalizer name: the
// qualified-name messages, and a hint to use a domain-qualified name with a
// path unless it is a standard finalizer.
func FinalizerNameWarnings(rel kubeversion.Release, name string, fldPath *field.Path) []string {
	var warnings []string
	for _, msg := range names.IsQualifiedNameAt(rel, name) {
		warnings = append(warnings, fmt.Sprintf("%s: %q: %s", fldPath.String(), name, msg))
	}
	if len(strings.Split(name, "/")) == 1 {
		switch name {
		case FinalizerOrphanDependents, FinalizerDeleteDependents, FinalizerKubernetes:
		default:
			if strings.Contains(name, ".") && rel.Has(kubeversion.FinalizerPathHint) {
				warnings = append(warnings, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers", fldPath.String(), name))
			} else {
				warnings = append(warnings, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers", fldPath.String(), name))
			}
		}
	}
	return warnings
}

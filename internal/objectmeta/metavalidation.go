package objectmeta

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"strings"
	"unicode"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/names"
)

// Limits of ObjectMeta validation.
const (
	// TotalAnnotationSizeLimitB is api/validation.TotalAnnotationSizeLimitB (256 KiB).
	TotalAnnotationSizeLimitB = 256 * (1 << 10)
	// FieldManagerMaxLength is meta/v1/validation.FieldManagerMaxLength.
	FieldManagerMaxLength = 128
	// MaxSubresourceNameLength is meta/v1/validation.MaxSubresourceNameLength.
	MaxSubresourceNameLength = 256
)

// Messages shared with upstream.
const (
	// FieldImmutableErrorMsg is api/validation.FieldImmutableErrorMsg.
	FieldImmutableErrorMsg = `field is immutable`
	// IsNegativeErrorMsg is api/validation.IsNegativeErrorMsg.
	IsNegativeErrorMsg = `must be greater than or equal to 0`
)

// ValidateObjectMetaAt validates metadata on creation as Kubernetes
// release rel does
// (api/validation.ValidateObjectMetaAccessor): generateName and name with
// nameFn, the namespace against the scope, generation, labels, annotations,
// owner references, finalizers and managed fields. Map entries are checked
// in sorted key order (upstream: random order). It serves custom resources
// and embedded resources here and, through internal/crdvalidation, the
// CustomResourceDefinition's own metadata.
func ValidateObjectMetaAt(rel kubeversion.Release, meta *ObjectMeta, requiresNamespace bool, nameFn names.ValidateNameFunc, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(meta.GenerateName) != 0 {
		for _, msg := range nameFn(meta.GenerateName, true) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("generateName"), meta.GenerateName, msg))
		}
	}
	if len(meta.Name) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(meta.Name, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("name"), meta.Name, msg))
		}
	}
	return append(allErrs, validateObjectMetaCommon(rel, meta, requiresNamespace, fldPath)...)
}

func validateObjectMetaCommon(rel kubeversion.Release, meta *ObjectMeta, isNamespaced bool, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if isNamespaced {
		if len(meta.Namespace) == 0 {
			allErrs = append(allErrs, field.Required(fldPath.Child("namespace"), ""))
		} else {
			for _, msg := range names.ValidateNamespaceName(meta.Namespace, false) {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("namespace"), meta.Namespace, msg))
			}
		}
	} else if len(meta.Namespace) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("namespace"), "not allowed on this type"))
	}
	allErrs = append(allErrs, ValidateNonnegativeField(meta.Generation, fldPath.Child("generation"))...)
	allErrs = append(allErrs, ValidateLabels(rel, meta.Labels, fldPath.Child("labels"))...)
	allErrs = append(allErrs, ValidateAnnotations(rel, meta.Annotations, fldPath.Child("annotations"))...)
	allErrs = append(allErrs, ValidateOwnerReferencesAt(rel, meta.OwnerReferences, fldPath.Child("ownerReferences"))...)
	allErrs = append(allErrs, ValidateFinalizers(rel, meta.Finalizers, fldPath.Child("finalizers"))...)
	allErrs = append(allErrs, ValidateManagedFields(meta.ManagedFields, fldPath.Child("managedFields"))...)
	return allErrs
}

// ValidateNonnegativeField reports a negative value.
func ValidateNonnegativeField(value int64, fldPath *field.Path) field.ErrorList {
	if value < 0 {
		return field.ErrorList{field.Invalid(fldPath, value, IsNegativeErrorMsg)}
	}
	return field.ErrorList{}
}

// ValidateLabels validates label keys (qualified names) and values.
func ValidateLabels(rel kubeversion.Release, labels map[string]string, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	for _, k := range keys.Sorted(labels) {
		allErrs = append(allErrs, ValidateLabelName(rel, k, fldPath)...)
		v := labels[k]
		for _, msg := range names.IsValidLabelValueAt(rel, v) {
			allErrs = append(allErrs, field.Invalid(fldPath, v, msg))
		}
	}
	return allErrs
}

// ValidateLabelName validates a label key.
func ValidateLabelName(rel kubeversion.Release, labelName string, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	for _, msg := range names.IsQualifiedNameAt(rel, labelName) {
		allErrs = append(allErrs, field.Invalid(fldPath, labelName, msg))
	}
	return allErrs
}

// ValidateAnnotations validates annotation keys (qualified names, case
// ignored) and the total size of keys and values.
func ValidateAnnotations(rel kubeversion.Release, annotations map[string]string, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	var total int64
	for _, k := range keys.Sorted(annotations) {
		for _, msg := range names.IsQualifiedNameAt(rel, strings.ToLower(k)) {
			allErrs = append(allErrs, field.Invalid(fldPath, k, msg))
		}
		total += int64(len(k)) + int64(len(annotations[k]))
	}
	if total > TotalAnnotationSizeLimitB {
		allErrs = append(allErrs, field.TooLong(fldPath, "", TotalAnnotationSizeLimitB))
	}
	return allErrs
}

func validateOwnerReference(ref OwnerReference, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	group, version, err := ParseGroupVersion(ref.APIVersion)
	if len(ref.APIVersion) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("apiVersion"), "must not be empty"))
	} else if err != nil || len(version) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("apiVersion"), ref.APIVersion, "must be <group>/<version> or <version>"))
	}
	if len(ref.Kind) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("kind"), "must not be empty"))
	}
	if len(ref.Name) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), "must not be empty"))
	}
	if len(ref.UID) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("uid"), "must not be empty"))
	}
	// BannedOwners: core/v1 Event may not own anything
	if group == "" && version == "v1" && ref.Kind == "Event" {
		gvk := group + "/" + version + ", Kind=" + ref.Kind
		allErrs = append(allErrs, field.Invalid(fldPath, ref, fmt.Sprintf("%s is disallowed from being an owner", gvk)))
	}
	return allErrs
}

// validateOwnerReferenceBefore137 is validateOwnerReference of
// k8s.io/apimachinery before v0.37 (pkg/api/validation/objectmeta.go):
// every reference is checked at the path of the list (no index), a
// missing kind, name or uid is `Invalid value: "": must not be empty`,
// and the group and version come from schema.FromAPIVersionAndKind (an
// unparsable apiVersion gives neither: "version must not be empty").
func validateOwnerReferenceBefore137(rel kubeversion.Release, ref OwnerReference, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	// before 1.34 the detail names the field (kubeversion.DetailWithoutFieldName)
	empty := func(name string) string {
		if rel.Has(kubeversion.DetailWithoutFieldName) {
			return "must not be empty"
		}
		return name + " must not be empty"
	}
	group, version, err := ParseGroupVersion(ref.APIVersion)
	if err != nil {
		group, version = "", ""
	}
	if len(version) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("apiVersion"), ref.APIVersion, "version must not be empty"))
	}
	if len(ref.Kind) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("kind"), ref.Kind, empty("kind")))
	}
	if len(ref.Name) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("name"), ref.Name, empty("name")))
	}
	if len(ref.UID) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("uid"), string(ref.UID), empty("uid")))
	}
	if group == "" && version == "v1" && ref.Kind == "Event" {
		gvk := group + "/" + version + ", Kind=" + ref.Kind
		allErrs = append(allErrs, field.Invalid(fldPath, ref, fmt.Sprintf("%s is disallowed from being an owner", gvk)))
	}
	return allErrs
}

// ValidateOwnerReferences validates each owner reference and that at most
// one is the controller.
func ValidateOwnerReferences(refs []OwnerReference, fldPath *field.Path) field.ErrorList {
	return ValidateOwnerReferencesAt(kubeversion.Release{}, refs, fldPath)
}

// ValidateOwnerReferencesAt is ValidateOwnerReferences as Kubernetes
// release rel validates (before 1.37: validateOwnerReferenceBefore137).
func ValidateOwnerReferencesAt(rel kubeversion.Release, refs []OwnerReference, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	firstController := ""
	for i, ref := range refs {
		if rel.Has(kubeversion.OwnerReferenceRequired) {
			allErrs = append(allErrs, validateOwnerReference(ref, fldPath.Index(i))...)
		} else {
			allErrs = append(allErrs, validateOwnerReferenceBefore137(rel, ref, fldPath)...)
		}
		if ref.Controller != nil && *ref.Controller {
			cur := ref.Kind + "/" + ref.Name
			if firstController != "" {
				allErrs = append(allErrs, field.Invalid(fldPath, refs,
					fmt.Sprintf("Only one reference can have Controller set to true. Found \"true\" in references for %v and %v", firstController, cur)))
			} else {
				firstController = cur
			}
		}
	}
	return allErrs
}

// ValidateFinalizerName validates a finalizer name (a qualified name).
func ValidateFinalizerName(rel kubeversion.Release, name string, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	for _, msg := range names.IsQualifiedNameAt(rel, name) {
		allErrs = append(allErrs, field.Invalid(fldPath, name, msg))
	}
	return allErrs
}

// ValidateFinalizers validates finalizer names and that orphan and
// foregroundDeletion are not both set.
func ValidateFinalizers(rel kubeversion.Release, finalizers []string, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	hasOrphan, hasDelete := false, false
	for _, f := range finalizers {
		allErrs = append(allErrs, ValidateFinalizerName(rel, f, fldPath)...)
		hasOrphan = hasOrphan || f == FinalizerOrphanDependents
		hasDelete = hasDelete || f == FinalizerDeleteDependents
	}
	if hasOrphan && hasDelete {
		allErrs = append(allErrs, field.Invalid(fldPath, finalizers, fmt.Sprintf("finalizer %s and %s cannot be both set", FinalizerOrphanDependents, FinalizerDeleteDependents)))
	}
	return allErrs
}

// ValidateManagedFields validates the operation, fieldsType, manager and
// subresource of each managed fields entry.
func ValidateManagedFields(entries []ManagedFieldsEntry, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, e := range entries {
		p := fldPath.Index(i)
		switch e.Operation {
		case "":
			allErrs = append(allErrs, field.Required(p.Child("operation"), "must not be empty"))
		case ManagedFieldsOperationApply, ManagedFieldsOperationUpdate:
		default:
			allErrs = append(allErrs, field.NotSupported(p.Child("operation"), e.Operation, []ManagedFieldsOperationType{ManagedFieldsOperationApply, ManagedFieldsOperationUpdate}))
		}
		if len(e.FieldsType) > 0 && e.FieldsType != "FieldsV1" {
			allErrs = append(allErrs, field.Invalid(p.Child("fieldsType"), e.FieldsType, "must be `FieldsV1`"))
		}
		allErrs = append(allErrs, ValidateFieldManager(e.Manager, p.Child("manager"))...)
		if len(e.Subresource) > MaxSubresourceNameLength {
			allErrs = append(allErrs, field.TooLong(p.Child("subresource"), "", MaxSubresourceNameLength))
		}
	}
	return allErrs
}

// ValidateFieldManager validates a field manager name: at most 128 bytes,
// printable characters only.
func ValidateFieldManager(fieldManager string, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if len(fieldManager) > FieldManagerMaxLength {
		allErrs = append(allErrs, field.TooLong(fldPath, "", FieldManagerMaxLength))
	}
	for i, r := range fieldManager {
		if !unicode.IsPrint(r) {
			allErrs = append(allErrs, field.Invalid(fldPath, fieldManager, fmt.Sprintf("invalid character %#U (at position %d)", r, i)))
		}
	}
	return allErrs
}

// ValidateNoNewFinalizers forbids finalizers that old does not have.
func ValidateNoNewFinalizers(newFinalizers, oldFinalizers []string, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	old := map[string]bool{}
	for _, f := range oldFinalizers {
		old[f] = true
	}
	extraSet := map[string]bool{}
	for _, f := range newFinalizers {
		if !old[f] {
			extraSet[f] = true
		}
	}
	if len(extraSet) != 0 {
		extra := keys.Sorted(extraSet)
		allErrs = append(allErrs, field.Forbidden(fldPath, fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %#v", extra)))
	}
	return allErrs
}

func immutable(equal bool, newVal interface{}, fldPath *field.Path) field.ErrorList {
	if equal {
		return field.ErrorList{}
	}
	return field.ErrorList{field.Invalid(fldPath, newVal, FieldImmutableErrorMsg)}
}

func timesEqual(a, b *Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.UTC() == b.UTC()
}

func int64PtrsEqual(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// ValidateObjectMetaUpdateAt validates metadata on update as Kubernetes
// release rel does
// (api/validation.ValidateObjectMetaAccessorUpdate): no new finalizers
// while deleting, resourceVersion set, generation not negative nor
// decremented, name, namespace, uid and the deletion fields immutable,
// then labels, annotations, owner references and managed fields.
func ValidateObjectMetaUpdateAt(rel kubeversion.Release, newMeta, oldMeta *ObjectMeta, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if oldMeta.DeletionTimestamp != nil {
		allErrs = append(allErrs, ValidateNoNewFinalizers(newMeta.Finalizers, oldMeta.Finalizers, fldPath.Child("finalizers"))...)
	}
	if len(newMeta.ResourceVersion) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("resourceVersion"), newMeta.ResourceVersion, "must be specified for an update"))
	}
	allErrs = append(allErrs, ValidateNonnegativeField(newMeta.Generation, fldPath.Child("generation"))...)
	if newMeta.Generation < oldMeta.Generation {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("generation"), newMeta.Generation, "must not be decremented"))
	}
	allErrs = append(allErrs, immutable(newMeta.Name == oldMeta.Name, newMeta.Name, fldPath.Child("name"))...)
	allErrs = append(allErrs, immutable(newMeta.Namespace == oldMeta.Namespace, newMeta.Namespace, fldPath.Child("namespace"))...)
	allErrs = append(allErrs, immutable(newMeta.UID == oldMeta.UID, newMeta.UID, fldPath.Child("uid"))...)
	allErrs = append(allErrs, immutable(timesEqual(&newMeta.CreationTimestamp, &oldMeta.CreationTimestamp), newMeta.CreationTimestamp, fldPath.Child("creationTimestamp"))...)
	allErrs = append(allErrs, immutable(timesEqual(newMeta.DeletionTimestamp, oldMeta.DeletionTimestamp), newMeta.DeletionTimestamp, fldPath.Child("deletionTimestamp"))...)
	allErrs = append(allErrs, immutable(int64PtrsEqual(newMeta.DeletionGracePeriodSeconds, oldMeta.DeletionGracePeriodSeconds), newMeta.DeletionGracePeriodSeconds, fldPath.Child("deletionGracePeriodSeconds"))...)
	allErrs = append(allErrs, ValidateLabels(rel, newMeta.Labels, fldPath.Child("labels"))...)
	allErrs = append(allErrs, ValidateAnnotations(rel, newMeta.Annotations, fldPath.Child("annotations"))...)
	allErrs = append(allErrs, ValidateOwnerReferencesAt(rel, newMeta.OwnerReferences, fldPath.Child("ownerReferences"))...)
	allErrs = append(allErrs, ValidateManagedFields(newMeta.ManagedFields, fldPath.Child("managedFields"))...)
	return allErrs
}

package objectmeta

import (
	"regexp"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// ownerRefRequiredRE matches the path of an owner reference's required
// field: "<prefix>.ownerReferences[<i>].<field>".
var ownerRefRequiredRE = regexp.MustCompile(`\.ownerReferences\[[0-9]+\]\.(apiVersion|kind|name|uid)$`)

// DeclarativeBeta is apimachinery's ValidateObjectMetaDeclaratively around
// the handwritten checks (k8s.io/apimachinery v0.38 pkg/api/validation/
// objectmeta.go, FilterCoveredHandwrittenErrors and
// FilterEnforcedDeclarativeErrors with DeclarativeValidationBeta on): from
// 1.38, the ObjectMeta validations marked beta replace the handwritten
// errors they cover, and their errors come after every handwritten one, in
// the field order of ObjectMeta (which the handwritten checks share). The
// ones a custom resource can reach: an owner reference's missing
// apiVersion, kind, name or uid (`Required value`, no detail) and, on
// update, a changed uid, creationTimestamp, deletionTimestamp or
// deletionGracePeriodSeconds (`Invalid value: null: field is immutable`;
// none for a uid or deletion field the update clears: the declarative
// check stops at the optional value). Before 1.38 the declarative errors
// are alpha (not enforced) and errs is returned as is.
//
// old is nil on create. refsChanged reports whether the owner references
// differ from the old object's (declarative validation does not revisit
// unchanged data on update).
func DeclarativeBeta(rel kubeversion.Release, errs field.ErrorList, meta, old *ObjectMeta, fldPath *field.Path) field.ErrorList {
	if !rel.Has(kubeversion.DeclarativeValidationBeta) || len(errs) == 0 {
		return errs
	}
	refsChanged := old == nil || !ownerReferencesEqual(meta.OwnerReferences, old.OwnerReferences)
	prefix := fldPath.String() + "."
	kept := make(field.ErrorList, 0, len(errs))
	var moved field.ErrorList
	for _, e := range errs {
		if dv := declarativeForm(e, meta, old, prefix, refsChanged); dv != nil {
			moved = append(moved, dv)
			continue
		}
		kept = append(kept, e)
	}
	return append(kept, moved...)
}

// declarativeForm is the beta declarative error that replaces the
// handwritten error e, or nil when e stays.
func declarativeForm(e *field.Error, meta, old *ObjectMeta, prefix string, refsChanged bool) *field.Error {
	if !strings.HasPrefix(e.Field, prefix) {
		return nil
	}
	switch {
	case e.Type == field.ErrorTypeRequired && e.Detail == "must not be empty" && refsChanged && ownerRefRequiredRE.MatchString(e.Field):
		return &field.Error{Type: field.ErrorTypeRequired, Field: e.Field}
	case old != nil && e.Type == field.ErrorTypeInvalid && e.Detail == FieldImmutableErrorMsg:
		switch strings.TrimPrefix(e.Field, prefix) {
		case "uid":
			if meta.UID == "" {
				return nil
			}
		case "deletionTimestamp":
			if meta.DeletionTimestamp == nil {
				return nil
			}
		case "deletionGracePeriodSeconds":
			if meta.DeletionGracePeriodSeconds == nil {
				return nil
			}
		case "creationTimestamp":
		default:
			return nil
		}
		return &field.Error{Type: field.ErrorTypeInvalid, Field: e.Field, BadValue: nil, Detail: FieldImmutableErrorMsg}
	}
	return nil
}

func ownerReferencesEqual(a, b []OwnerReference) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !ownerReferenceEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

func ownerReferenceEqual(a, b OwnerReference) bool {
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		boolPtrsEqual(a.Controller, b.Controller) && boolPtrsEqual(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

func boolPtrsEqual(a, b *bool) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

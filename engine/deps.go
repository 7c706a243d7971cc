package engine

// This file is the single place where the request pipeline calls the
// algorithm packages (objectmeta, prune, defaults, openapi, listtype). Each
// adapter names the upstream function it stands for.

import (
	"github.com/crdlab/crdlab/engine/defaults"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/engine/listtype"
	"github.com/crdlab/crdlab/engine/objectmeta"
	"github.com/crdlab/crdlab/engine/prune"
	"github.com/crdlab/crdlab/engine/schema"
	"github.com/crdlab/crdlab/engine/validation/names"
)

// getObjectMeta stands for schemaobjectmeta.GetObjectMetaWithOptions.
func getObjectMeta(obj map[string]interface{}, dropMalformed, returnUnknown bool) (*objectmeta.ObjectMeta, bool, []string, error) {
	return objectmeta.GetObjectMetaWithOptions(obj, objectmeta.ObjectMetaOptions{
		DropMalformedFields:     dropMalformed,
		ReturnUnknownFieldPaths: returnUnknown,
	})
}

// setObjectMeta stands for schemaobjectmeta.SetObjectMeta.
func setObjectMeta(obj map[string]interface{}, m *objectmeta.ObjectMeta) error {
	return objectmeta.SetObjectMeta(obj, m)
}

// coerceObjectMeta stands for schemaobjectmeta.CoerceWithOptions at the root.
func coerceObjectMeta(obj map[string]interface{}, s *schema.Structural, dropInvalid, returnUnknown bool) (*field.Error, []string) {
	return objectmeta.CoerceWithOptions(nil, obj, s, false, objectmeta.CoerceOptions{
		DropInvalidFields:       dropInvalid,
		ReturnUnknownFieldPaths: returnUnknown,
	})
}

// pruneObject stands for structuralpruning.PruneWithOptions(obj, s, true, {TrackUnknownFieldPaths: true}).
func pruneObject(obj map[string]interface{}, s *schema.Structural) []string {
	return prune.Prune(obj, s, true)
}

// pruneNulls stands for structuraldefaulting.PruneNonNullableNullsWithoutDefaults.
func pruneNulls(obj map[string]interface{}, s *schema.Structural) {
	if s == nil {
		return
	}
	defaults.PruneNonNullableNullsWithoutDefaults(obj, s)
}

// applyDefaults stands for structuraldefaulting.Default.
func applyDefaults(obj map[string]interface{}, s *schema.Structural) {
	if s == nil {
		return
	}
	defaults.Default(obj, s)
}

// validateEmbeddedObjectMeta stands for schemaobjectmeta.Validate(ctx, nil, obj, s, false).
func validateEmbeddedObjectMeta(obj map[string]interface{}, s *schema.Structural) field.ErrorList {
	if s == nil {
		return nil
	}
	return objectmeta.Validate(nil, obj, s, false)
}

// validateListSetsAndMaps stands for structurallisttype.ValidateListSetsAndMaps(nil, s, obj).
func validateListSetsAndMaps(obj map[string]interface{}, s *schema.Structural) field.ErrorList {
	if s == nil {
		return nil
	}
	return listtype.ValidateListSetsAndMaps(nil, s, obj)
}

// validateObjectMetaCreate stands for the customResourceValidator's
// validateObjectMetaDeclaratively (ValidateObjectMeta with
// NameIsDNSSubdomain) when pathSegment is false, and for rest.ValidateCreate's
// ValidateObjectMetaAccessor with validatePathSegment when it is true.
func validateObjectMetaCreate(obj map[string]interface{}, namespaced, pathSegment bool) field.ErrorList {
	m, errs := objectMetaOf(obj)
	if len(errs) > 0 {
		return errs
	}
	nameFn := names.NameIsDNSSubdomain
	if pathSegment {
		nameFn = names.ValidatePathSegmentName
	}
	return objectmeta.ValidateObjectMeta(m, namespaced, nameFn, field.NewPath("metadata"))
}

// validateObjectMetaUpdate stands for ValidateObjectMetaUpdate (the
// validator's declarative variant and rest's validateCommonFields share it).
func validateObjectMetaUpdate(obj, old map[string]interface{}) field.ErrorList {
	m, errs := objectMetaOf(obj)
	if len(errs) > 0 {
		return errs
	}
	o, errs := objectMetaOf(old)
	if len(errs) > 0 {
		return errs
	}
	return objectmeta.ValidateObjectMetaUpdate(m, o, field.NewPath("metadata"))
}

// objectMetaOf mirrors the validator's getObjectMeta: an absent metadata is
// an empty ObjectMeta, a malformed one an Invalid error.
func objectMetaOf(obj map[string]interface{}) (*objectmeta.ObjectMeta, field.ErrorList) {
	raw := obj["metadata"]
	if raw == nil {
		return &objectmeta.ObjectMeta{}, nil
	}
	if _, ok := raw.(map[string]interface{}); !ok {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, "expected map[string]interface{}, got "+typeName(raw))}
	}
	m, _, _, err := getObjectMeta(obj, false, false)
	if err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, err.Error())}
	}
	if m == nil {
		m = &objectmeta.ObjectMeta{}
	}
	return m, nil
}

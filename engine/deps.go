package engine

// This file is the single place where the request pipeline calls the
// algorithm packages (objectmeta, prune, defaults, openapi, listtype). Each
// adapter names the upstream function it stands for.

import (
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/defaults"
	"github.com/crdlab/crdlab/internal/listtype"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/prune"
	"github.com/crdlab/crdlab/internal/schema"
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
// validateObjectMetaDeclaratively on create (ValidateObjectMeta with
// NameIsDNSSubdomain) when registry is false, and for rest.ValidateCreate's
// ValidateObjectMetaAccessor with validatePathSegment when it is true.
func validateObjectMetaCreate(obj map[string]interface{}, namespaced, registry bool) field.ErrorList {
	m, errs := objectmeta.FromCustomResource(obj)
	if len(errs) > 0 {
		return errs
	}
	if registry {
		return objectmeta.ValidateRegistryCreate(m, namespaced)
	}
	return objectmeta.ValidateCustomResourceCreate(m, namespaced)
}

// validateObjectMetaUpdate stands for the customResourceValidator's
// validateObjectMetaUpdateDeclaratively (ValidateObjectMetaUpdate).
func validateObjectMetaUpdate(obj, old map[string]interface{}) field.ErrorList {
	m, errs := objectmeta.FromCustomResource(obj)
	if len(errs) > 0 {
		return errs
	}
	o, errs := objectmeta.FromCustomResource(old)
	if len(errs) > 0 {
		return errs
	}
	return objectmeta.ValidateCustomResourceUpdate(m, o)
}

// validateCommonFields stands for rest's validateCommonFields:
// ValidateObjectMetaAccessor (path-segment names) then
// ValidateObjectMetaAccessorUpdate.
func validateCommonFields(obj, old map[string]interface{}, namespaced bool) field.ErrorList {
	m, errs := objectmeta.FromCustomResource(obj)
	if len(errs) > 0 {
		return errs
	}
	o, errs := objectmeta.FromCustomResource(old)
	if len(errs) > 0 {
		return errs
	}
	return objectmeta.ValidateRegistryUpdate(m, o, namespaced)
}

// finalizerWarnings stands for the strategy's generateWarningsFromObj
// (WarningsOnCreate when old is nil, WarningsOnUpdate otherwise).
func finalizerWarnings(obj, old map[string]interface{}) []string {
	m, errs := objectmeta.FromCustomResource(obj)
	if len(errs) > 0 {
		return nil
	}
	if old == nil {
		return objectmeta.WarningsOnCreate(m)
	}
	o, errs := objectmeta.FromCustomResource(old)
	if len(errs) > 0 {
		return nil
	}
	return objectmeta.WarningsOnUpdate(m, o)
}

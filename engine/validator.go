package engine

// The custom resource validator (pkg/registry/customresource validator.go):
// TypeMeta, ObjectMeta, the OpenAPI schema and the scale subresource's
// replicas and label selector.

import (
	"fmt"
	"math"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// validatorValidate mirrors customResourceValidator.Validate (old == nil) and
// ValidateUpdate.
func (v *Validator) validatorValidate(obj, old map[string]interface{}) field.ErrorList {
	if errs := v.validateTypeMeta(obj); len(errs) > 0 {
		return errs
	}
	var errs field.ErrorList
	if old == nil {
		errs = append(errs, v.validateObjectMetaDeclaratively(obj)...)
		if v.schemaValidator != nil {
			errs = append(errs, v.schemaValidator.Validate(nil, obj)...)
		}
	} else {
		errs = append(errs, v.validateObjectMetaUpdateDeclaratively(obj, old)...)
		if v.schemaValidator != nil {
			errs = append(errs, v.schemaValidator.ValidateUpdate(nil, obj, old)...)
		}
	}
	errs = append(errs, v.validateScaleSpec(obj)...)
	errs = append(errs, v.validateScaleStatus(obj)...)
	return errs
}

// validatorValidateStatusUpdate mirrors
// customResourceValidator.ValidateStatusUpdate.
func (v *Validator) validatorValidateStatusUpdate(obj, old map[string]interface{}, ratchet bool) field.ErrorList {
	if errs := v.validateTypeMeta(obj); len(errs) > 0 {
		return errs
	}
	errs := v.validateObjectMetaUpdateDeclaratively(obj, old)
	if status, ok := obj["status"]; ok && v.statusValidator != nil {
		if ratchet {
			errs = append(errs, v.statusValidator.ValidateUpdate(field.NewPath("status"), status, old["status"])...)
		} else {
			errs = append(errs, v.statusValidator.Validate(field.NewPath("status"), status)...)
		}
	}
	errs = append(errs, v.validateScaleStatus(obj)...)
	return errs
}

// validateTypeMeta mirrors customResourceValidator.ValidateTypeMeta.
func (v *Validator) validateTypeMeta(obj map[string]interface{}) field.ErrorList {
	var errs field.ErrorList
	kind, _ := obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	if kind != v.shared.kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), kind, fmt.Sprintf("must be %v", v.shared.kind)))
	}
	want := v.shared.group + "/" + v.version
	if apiVersion != want {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), apiVersion, fmt.Sprintf("must be %v", want)))
	}
	return errs
}

// validateObjectMetaDeclaratively mirrors the validator's function of the
// same name: ValidateObjectMeta with DNS-subdomain names.
func (v *Validator) validateObjectMetaDeclaratively(obj map[string]interface{}) field.ErrorList {
	m, errs := objectmeta.FromCustomResource(obj)
	if len(errs) > 0 {
		return errs
	}
	return objectmeta.ValidateCustomResourceCreateAt(v.crd.release, m, v.shared.namespaced)
}

// validateObjectMetaUpdateDeclaratively mirrors the validator's function of
// the same name (ValidateObjectMetaUpdate).
func (v *Validator) validateObjectMetaUpdateDeclaratively(obj, old map[string]interface{}) field.ErrorList {
	m, errs := objectmeta.FromCustomResource(obj)
	if len(errs) > 0 {
		return errs
	}
	o, errs := objectmeta.FromCustomResource(old)
	if len(errs) > 0 {
		return errs
	}
	return objectmeta.ValidateCustomResourceUpdateAt(v.crd.release, m, o)
}

// validateScaleSpec mirrors customResourceValidator.ValidateScaleSpec.
func (v *Validator) validateScaleSpec(obj map[string]interface{}) field.ErrorList {
	if v.scale == nil {
		return nil
	}
	return checkReplicas(obj, v.scale.specReplicasPath)
}

// validateScaleStatus mirrors customResourceValidator.ValidateScaleStatus.
func (v *Validator) validateScaleStatus(obj map[string]interface{}) field.ErrorList {
	if v.scale == nil {
		return nil
	}
	errs := checkReplicas(obj, v.scale.statusReplicasPath)
	if v.scale.labelSelectorPath != nil {
		p := *v.scale.labelSelectorPath
		if _, _, err := unstructured.NestedString(obj, strings.Split(strings.TrimPrefix(p, "."), ".")...); err != nil {
			errs = append(errs, field.Invalid(field.NewPath(p), "", err.Error()))
		}
	}
	return errs
}

// checkReplicas mirrors ValidateScaleSpec/ValidateScaleStatus's replicas check.
func checkReplicas(obj map[string]interface{}, path string) field.ErrorList {
	replicas, _, err := unstructured.NestedInt64(obj, strings.Split(strings.TrimPrefix(path, "."), ".")...)
	switch {
	case err != nil:
		return field.ErrorList{field.Invalid(field.NewPath(path), replicas, err.Error())}
	case replicas < 0:
		return field.ErrorList{field.Invalid(field.NewPath(path), replicas, "should be a non-negative integer")}
	case replicas > math.MaxInt32:
		return field.ErrorList{field.Invalid(field.NewPath(path), replicas, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32))}
	}
	return nil
}

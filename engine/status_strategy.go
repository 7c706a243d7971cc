package engine

// The status strategy of the status subresource (pkg/registry/customresource
// status_strategy.go).

import (
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/listtype"
	"github.com/crdlab/crdlab/internal/schema"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// prepareStatusUpdate mirrors statusStrategy.PrepareForUpdate: the stored
// object becomes a copy of the old one with the new status and the new
// managedFields.
func prepareStatusUpdate(obj, old map[string]interface{}) map[string]interface{} {
	status, hasStatus := obj["status"]
	managed, hasManaged, _ := unstructured.NestedFieldNoCopy(obj, "metadata", "managedFields")
	out := schema.DeepCopyJSONValue(old).(map[string]interface{})
	if hasManaged && managed != nil {
		unstructured.SetNestedField(out, managed, "metadata", "managedFields")
	} else {
		unstructured.RemoveNestedField(out, "metadata", "managedFields")
	}
	if hasStatus {
		out["status"] = status
	} else {
		delete(out, "status")
	}
	return out
}

// statusValidateUpdate mirrors statusStrategy.ValidateUpdate: with
// ratcheting of the schema and the rules from 1.33
// (kubeversion.StatusRatcheting).
func (v *Validator) statusValidateUpdate(obj, old map[string]interface{}, res *Result) field.ErrorList {
	ratchet := v.crd.release.Has(kubeversion.StatusRatcheting)
	errs := v.validatorValidateStatusUpdate(obj, old, ratchet)
	errs = append(errs, listtype.ValidateListSetsAndMapsUpdate(nil, v.structural, obj, old)...)
	errs = append(errs, v.validateCEL(errs, obj, old, res, ratchet)...)
	return errs
}

package engine

// The custom resource strategy (pkg/registry/customresource strategy.go):
// PrepareForCreate/PrepareForUpdate, Validate/ValidateUpdate with the CEL
// step, and the warnings on create and update.

import (
	"reflect"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/listtype"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// prepareForCreate mirrors customResourceStrategy.PrepareForCreate.
func (v *Validator) prepareForCreate(obj map[string]interface{}) {
	if v.hasStatus {
		delete(obj, "status")
	}
	unstructured.SetNestedField(obj, int64(1), "metadata", "generation")
}

// prepareForUpdate mirrors customResourceStrategy.PrepareForUpdate.
func (v *Validator) prepareForUpdate(obj, old map[string]interface{}) {
	if v.hasStatus {
		_, newHas := obj["status"]
		oldStatus, oldHas := old["status"]
		switch {
		case oldHas:
			obj["status"] = oldStatus
		case newHas:
			delete(obj, "status")
		}
	}
	if !reflect.DeepEqual(withoutMetadata(obj), withoutMetadata(old)) {
		oldGen, _, _ := unstructured.NestedInt64(old, "metadata", "generation")
		unstructured.SetGeneration(obj, oldGen+1)
	}
}

// withoutMetadata mirrors copyNonMetadata (without copying the values).
func withoutMetadata(m map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(m))
	for k, v := range m {
		if k != "metadata" {
			out[k] = v
		}
	}
	return out
}

// strategyValidate mirrors customResourceStrategy.Validate.
func (v *Validator) strategyValidate(obj map[string]interface{}, res *Result) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, v.validatorValidate(obj, nil)...)
	errs = append(errs, objectmeta.ValidateAt(v.crd.release, nil, obj, v.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, v.structural, obj)...)
	errs = append(errs, v.validateCEL(errs, obj, nil, res, false)...)
	return errs
}

// strategyValidateUpdate mirrors customResourceStrategy.ValidateUpdate.
func (v *Validator) strategyValidateUpdate(obj, old map[string]interface{}, res *Result) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, v.validatorValidate(obj, old)...)
	errs = append(errs, objectmeta.ValidateAt(v.crd.release, nil, obj, v.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMapsUpdate(nil, v.structural, obj, old)...)
	errs = append(errs, v.validateCEL(errs, obj, old, res, true)...)
	return errs
}

// validateCEL is the x-kubernetes-validations step of Validate and
// ValidateUpdate (and of the status strategy's ValidateUpdate): when the
// errors so far contain a blocking error (hasBlockingErr), a single Invalid
// error instead of running the rules.
func (v *Validator) validateCEL(errsSoFar field.ErrorList, obj, old map[string]interface{}, res *Result, ratchet bool) field.ErrorList {
	if v.cel == nil {
		return nil
	}
	if blocking := hasBlockingErr(errsSoFar); blocking != nil {
		return field.ErrorList{blocking}
	}
	return v.runCEL(obj, old, res, ratchet)
}

// runCEL evaluates the rules as the strategies do: on create without an old
// object; on update with the old object and ratcheting (1.37: the
// CRDValidationRatcheting feature is GA), within the per-object runtime
// budget. Ratcheted errors become warnings, as upstream emits them through
// the request context; per-rule runtime costs are kept in the result.
// Without ratchet (a status update before 1.33) an update is validated
// with the old object but without ratcheting.
func (v *Validator) runCEL(obj, old map[string]interface{}, res *Result, ratchet bool) field.ErrorList {
	var (
		errs field.ErrorList
		eval *cel.Evaluation
	)
	var opts []cel.Option
	if res.ctx != nil && res.ctx.Done() != nil {
		opts = append(opts, cel.WithContext(res.ctx))
	}
	if old == nil {
		errs, _, eval = v.cel.Validate(nil, obj, nil, limits.RuntimeCELCostBudget, opts...)
	} else {
		if ratchet {
			opts = append(opts, cel.WithRatcheting(cel.NewCorrelatedObject(obj, old, v.structural)))
		}
		errs, _, eval = v.cel.Validate(nil, obj, old, limits.RuntimeCELCostBudget, opts...)
	}
	if eval != nil {
		res.interrupted = res.interrupted || eval.Interrupted
		res.Warnings = append(res.Warnings, eval.Warnings...)
		if res.Costs == nil && len(eval.Costs) > 0 {
			res.Costs = make([]RuleCost, 0, len(eval.Costs))
		}
		for _, c := range eval.Costs {
			res.Costs = append(res.Costs, RuleCost(c))
		}
	}
	return errs
}

// hasBlockingErr mirrors the strategy's hasBlockingErr.
func hasBlockingErr(errs field.ErrorList) *field.Error {
	for _, err := range errs {
		switch err.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return nil
}

// generateWarningsFromObj mirrors the strategy's function of the same name
// (WarningsOnCreate when old is nil, WarningsOnUpdate otherwise): the
// finalizer name warnings.
func generateWarningsFromObj(rel kubeversion.Release, obj, old map[string]interface{}) []string {
	m, errs := objectmeta.FromCustomResource(obj)
	if len(errs) > 0 {
		return nil
	}
	if old == nil {
		return objectmeta.WarningsOnCreate(rel, m)
	}
	o, errs := objectmeta.FromCustomResource(old)
	if len(errs) > 0 {
		return nil
	}
	return objectmeta.WarningsOnUpdate(rel, m, o)
}

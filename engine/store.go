package engine

// The generic registry store (k8s.io/apiserver/pkg/registry/generic/registry
// store.go) with rest.BeforeCreate/BeforeUpdate and
// rest.ValidateCreate/ValidateUpdate (pkg/registry/rest create.go,
// update.go): what happens to a decoded custom resource around the
// strategy's calls.

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/kubeversion"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// maxGeneratedNameLength mirrors names.maxGeneratedNameLength (63 - 5).
const maxGeneratedNameLength = 58

// create mirrors the create handler (WipeObjectMetaSystemFields), the
// store's name generation, rest.BeforeCreate and rest.ValidateCreate.
func (v *Validator) create(obj map[string]interface{}, res *Result) {
	for _, f := range []string{"creationTimestamp", "uid", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"} {
		unstructured.RemoveNestedField(obj, "metadata", f)
	}
	name, _, _ := unstructured.NestedString(obj, "metadata", "name")
	if gen, _, _ := unstructured.NestedString(obj, "metadata", "generateName"); gen != "" && name == "" {
		if len(gen) > maxGeneratedNameLength {
			gen = gen[:maxGeneratedNameLength]
		}
		unstructured.SetNestedField(obj, gen+GeneratedNameSuffix, "metadata", "name")
	}
	v.prepareForCreate(obj)

	// rest.ValidateCreate: strategy.Validate, then ObjectMeta if it passed
	// (ValidateObjectMetaAccessor with path-segment names).
	errs := v.strategyValidate(obj, res)
	if len(errs) == 0 {
		m, merrs := objectmeta.FromCustomResource(obj)
		if len(merrs) > 0 {
			errs = merrs
		} else {
			errs = objectmeta.ValidateRegistryCreateAt(v.crd.release, m, v.shared.namespaced)
		}
	}
	if len(errs) > 0 {
		res.Errors = errs
		return
	}
	res.Warnings = append(res.Warnings, generateWarningsFromObj(v.crd.release, obj, nil)...)
}

// update mirrors rest.BeforeUpdate with customResourceStrategy.
func (v *Validator) update(obj, old map[string]interface{}, res *Result) {
	v.beforeUpdate(obj, old, false)
	errs := validateCommonFields(v.crd.release, obj, old, v.shared.namespaced)
	errs = append(errs, v.strategyValidateUpdate(obj, old, res)...)
	if len(errs) > 0 {
		res.Errors = errs
		return
	}
	res.Warnings = append(res.Warnings, generateWarningsFromObj(v.crd.release, obj, old)...)
}

// statusUpdate mirrors rest.BeforeUpdate with statusStrategy; it returns the
// object that would be stored (the old object with the new status).
func (v *Validator) statusUpdate(obj, old map[string]interface{}, res *Result) map[string]interface{} {
	obj = v.beforeUpdate(obj, old, true)
	errs := validateCommonFields(v.crd.release, obj, old, v.shared.namespaced)
	errs = append(errs, v.statusValidateUpdate(obj, old, res)...)
	if len(errs) > 0 {
		res.Errors = errs
	}
	return obj
}

// conflict mirrors the optimistic-concurrency check of the registry's
// GuaranteedUpdate: an update carrying a resourceVersion other than the
// stored one fails with 409 Conflict before any validation. (Without one,
// the update is unconditional: custom resources allow it.)
func (v *Validator) conflict(obj, old map[string]interface{}) string {
	rv, _, _ := unstructured.NestedString(obj, "metadata", "resourceVersion")
	orv, _, _ := unstructured.NestedString(old, "metadata", "resourceVersion")
	if rv == "" || rv == orv {
		return ""
	}
	name, _, _ := unstructured.NestedString(obj, "metadata", "name")
	resource := v.crd.def.Spec.Names.Plural + "." + v.shared.group
	return fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", resource, name)
}

// beforeUpdate mirrors the part of rest.BeforeUpdate before validation,
// including the strategy's PrepareForUpdate.
func (v *Validator) beforeUpdate(obj, old map[string]interface{}, status bool) map[string]interface{} {
	if rv, _, _ := unstructured.NestedString(obj, "metadata", "resourceVersion"); rv == "" {
		if orv, _, _ := unstructured.NestedString(old, "metadata", "resourceVersion"); orv != "" {
			unstructured.SetNestedField(obj, orv, "metadata", "resourceVersion")
		}
	}
	oldGen, _, _ := unstructured.NestedInt64(old, "metadata", "generation")
	unstructured.SetGeneration(obj, oldGen)
	if status {
		obj = prepareStatusUpdate(obj, old)
	} else {
		v.prepareForUpdate(obj, old)
	}
	if uid, _, _ := unstructured.NestedString(obj, "metadata", "uid"); uid == "" {
		if ouid, _, _ := unstructured.NestedString(old, "metadata", "uid"); ouid != "" {
			unstructured.SetNestedField(obj, ouid, "metadata", "uid")
		}
	}
	if ts, ok, _ := unstructured.NestedFieldNoCopy(old, "metadata", "creationTimestamp"); ok && ts != nil && ts != "" {
		unstructured.SetNestedField(obj, ts, "metadata", "creationTimestamp")
	}
	if ts, ok, _ := unstructured.NestedFieldNoCopy(old, "metadata", "deletionTimestamp"); ok && ts != nil {
		unstructured.SetNestedField(obj, ts, "metadata", "deletionTimestamp")
	}
	if gp, ok, _ := unstructured.NestedFieldNoCopy(old, "metadata", "deletionGracePeriodSeconds"); ok && gp != nil {
		if cur, ok, _ := unstructured.NestedFieldNoCopy(obj, "metadata", "deletionGracePeriodSeconds"); !ok || cur == nil {
			unstructured.SetNestedField(obj, gp, "metadata", "deletionGracePeriodSeconds")
		}
	}
	return obj
}

// validateCommonFields mirrors rest's validateCommonFields:
// ValidateObjectMetaAccessor (path-segment names) then
// ValidateObjectMetaAccessorUpdate.
func validateCommonFields(rel kubeversion.Release, obj, old map[string]interface{}, namespaced bool) field.ErrorList {
	m, errs := objectmeta.FromCustomResource(obj)
	if len(errs) > 0 {
		return errs
	}
	o, errs := objectmeta.FromCustomResource(old)
	if len(errs) > 0 {
		return errs
	}
	return objectmeta.ValidateRegistryUpdateAt(rel, m, o, namespaced)
}

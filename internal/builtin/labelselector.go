package builtin

// metav1's label selector validation
// (k8s.io/apimachinery/pkg/apis/meta/v1/validation: ValidateLabelSelector
// and its options), which the built-in kinds with a selector share
// (Deployment, PodDisruptionBudget, NetworkPolicy, a ClusterRole's
// aggregationRule ...). Its rules and texts are the same at 1.31 … 1.38;
// what differs per release is the label texts (names, objectmeta).

import (
	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// LabelSelectorValidationOptions mirrors metav1validation's options.
type LabelSelectorValidationOptions struct {
	// AllowInvalidLabelValueInSelector skips the values' label-value
	// check (set on updates whose old selector already had an invalid
	// value: LabelSelectorHasInvalidLabelValue).
	AllowInvalidLabelValueInSelector bool
	// AllowUnknownOperatorInRequirement lets an unknown operator pass.
	AllowUnknownOperatorInRequirement bool
}

// LabelSelectorHasInvalidLabelValue mirrors the function of the same
// name: whether a match expression has a value that is not a valid label
// value.
func LabelSelectorHasInvalidLabelValue(rel kubeversion.Release, ls *v1.LabelSelector) bool {
	if ls == nil {
		return false
	}
	for _, e := range ls.MatchExpressions {
		for _, v := range e.Values {
			if len(names.IsValidLabelValueAt(rel, v)) > 0 {
				return true
			}
		}
	}
	return false
}

// ValidateLabelSelector mirrors metav1validation.ValidateLabelSelector:
// matchLabels as labels (keys sorted: upstream ranges over the map), then
// each requirement. A nil selector is valid.
func ValidateLabelSelector(rel kubeversion.Release, ls *v1.LabelSelector, opts LabelSelectorValidationOptions, p *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	if ls == nil {
		return errs
	}
	errs = append(errs, objectmeta.ValidateLabels(rel, ls.MatchLabels, p.Child("matchLabels"))...)
	for i, r := range ls.MatchExpressions {
		errs = append(errs, validateLabelSelectorRequirement(rel, r, opts, p.Child("matchExpressions").Index(i))...)
	}
	return errs
}

// validateLabelSelectorRequirement mirrors ValidateLabelSelectorRequirement:
// the operator against the values, the key, then each value.
func validateLabelSelectorRequirement(rel kubeversion.Release, r v1.LabelSelectorRequirement, opts LabelSelectorValidationOptions, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch r.Operator {
	case v1.LabelSelectorOpIn, v1.LabelSelectorOpNotIn:
		if len(r.Values) == 0 {
			errs = append(errs, field.Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case v1.LabelSelectorOpExists, v1.LabelSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			errs = append(errs, field.Forbidden(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	default:
		if !opts.AllowUnknownOperatorInRequirement {
			errs = append(errs, field.Invalid(p.Child("operator"), r.Operator, "not a valid selector operator"))
		}
	}
	errs = append(errs, objectmeta.ValidateLabelName(rel, r.Key, p.Child("key"))...)
	if !opts.AllowInvalidLabelValueInSelector {
		for i, v := range r.Values {
			for _, msg := range names.IsValidLabelValueAt(rel, v) {
				errs = append(errs, field.Invalid(p.Child("values").Index(i), v, msg))
			}
		}
	}
	return errs
}

package builtin

// policy/v1 PodDisruptionBudget (pkg/registry/policy/poddisruptionbudget,
// pkg/apis/policy/validation) and coordination.k8s.io/v1 Lease
// (pkg/registry/coordination/lease, pkg/apis/coordination/validation).
//
// Both strategies refuse an unconditional update (AllowUnconditionalUpdate
// is false: an update without metadata.resourceVersion is answered
// `metadata.resourceVersion: Invalid value: 0x0: must be specified for an
// update`); crdlab's update path, as kubectl apply's, sends the stored
// object's resourceVersion, so it does not arise.

import (
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// pdbSpecValue is the internal policy.PodDisruptionBudgetSpec an error on
// spec shows (no JSON tags: its keys are the Go field names).
type pdbSpecValue struct {
	MinAvailable               *v1.IntOrString
	Selector                   *v1.LabelSelector
	MaxUnavailable             *v1.IntOrString
	UnhealthyPodEvictionPolicy *v1.UnhealthyPodEvictionPolicyType
}

// GoTypeName is upstream's type name in Go syntax (before 1.34).
func (pdbSpecValue) GoTypeName() string { return "policy.PodDisruptionBudgetSpec" }

// pdbStrategy is pkg/registry/policy/poddisruptionbudget's strategy.
type pdbStrategy struct{}

func (pdbStrategy) NamespaceScoped() bool { return true }
func (pdbStrategy) New() Object           { return &v1.PodDisruptionBudget{} }
func (pdbStrategy) Decoded(Object)        {}

// PrepareForCreate drops the status and sets the generation to 1.
func (pdbStrategy) PrepareForCreate(o Object) {
	pdb := o.(*v1.PodDisruptionBudget)
	pdb.Status = v1.PodDisruptionBudgetStatus{}
	pdb.ObjectMeta.Generation = 1
}

// PrepareForUpdate keeps the old status and bumps the generation when the
// spec changes.
func (pdbStrategy) PrepareForUpdate(o, old Object) {
	pdb, oldPDB := o.(*v1.PodDisruptionBudget), old.(*v1.PodDisruptionBudget)
	pdb.Status = oldPDB.Status
	if !semanticEqualPDBSpec(pdb.Spec, oldPDB.Spec) {
		pdb.ObjectMeta.Generation = oldPDB.ObjectMeta.Generation + 1
	}
}

// semanticEqualPDBSpec is equality.Semantic.DeepEqual of two specs (nil
// and empty matchLabels alike).
func semanticEqualPDBSpec(a, b v1.PodDisruptionBudgetSpec) bool { return semanticDeepEqual(a, b) }

func (pdbStrategy) Canonicalize(Object)                                           {}
func (pdbStrategy) WarningsOnCreate(kubeversion.Release, Object) []string         { return nil }
func (pdbStrategy) WarningsOnUpdate(kubeversion.Release, Object, Object) []string { return nil }

// Validate mirrors ValidatePodDisruptionBudget: the spec only (the
// metadata is checked by the registry's generic rules).
func (pdbStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	return validatePDBSpec(rel, o.(*v1.PodDisruptionBudget).Spec, LabelSelectorValidationOptions{})
}

// ValidateUpdate mirrors the strategy's: the new spec, with label values
// allowed when the old selector had any selector error.
func (pdbStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	oldSel := old.(*v1.PodDisruptionBudget).Spec.Selector
	opts := LabelSelectorValidationOptions{
		AllowInvalidLabelValueInSelector: oldSel != nil && len(ValidateLabelSelector(rel, oldSel, LabelSelectorValidationOptions{}, nil)) > 0,
	}
	return validatePDBSpec(rel, o.(*v1.PodDisruptionBudget).Spec, opts)
}

// unhealthyPodEvictionPolicies are the supported policies, sorted.
var unhealthyPodEvictionPolicies = []string{string(v1.AlwaysAllow), string(v1.IfHealthyBudget)}

// validatePDBSpec mirrors ValidatePodDisruptionBudgetSpec.
func validatePDBSpec(rel kubeversion.Release, spec v1.PodDisruptionBudgetSpec, opts LabelSelectorValidationOptions) field.ErrorList {
	p := field.NewPath("spec")
	errs := field.ErrorList{}
	if spec.MinAvailable != nil && spec.MaxUnavailable != nil {
		errs = append(errs, field.Invalid(p, pdbSpecValue(spec), "minAvailable and maxUnavailable cannot be both set"))
	}
	if spec.MinAvailable != nil {
		errs = append(errs, validatePositiveIntOrPercent(*spec.MinAvailable, p.Child("minAvailable"))...)
		errs = append(errs, isNotMoreThan100Percent(*spec.MinAvailable, p.Child("minAvailable"))...)
	}
	if spec.MaxUnavailable != nil {
		errs = append(errs, validatePositiveIntOrPercent(*spec.MaxUnavailable, p.Child("maxUnavailable"))...)
		errs = append(errs, isNotMoreThan100Percent(*spec.MaxUnavailable, p.Child("maxUnavailable"))...)
	}
	errs = append(errs, ValidateLabelSelector(rel, spec.Selector, opts, p.Child("selector"))...)
	if u := spec.UnhealthyPodEvictionPolicy; u != nil && *u != v1.AlwaysAllow && *u != v1.IfHealthyBudget {
		errs = append(errs, field.NotSupported(p.Child("unhealthyPodEvictionPolicy"), *u, unhealthyPodEvictionPolicies))
	}
	return errs
}

// leaseStrategy is pkg/registry/coordination/lease's strategy (with the
// CoordinatedLeaderElection gate off, its default at 1.31 … 1.38).
type leaseStrategy struct{}

func (leaseStrategy) NamespaceScoped() bool { return true }
func (leaseStrategy) New() Object           { return &v1.Lease{} }
func (leaseStrategy) Decoded(Object)        {}

// PrepareForCreate drops strategy and preferredHolder (gate off).
func (leaseStrategy) PrepareForCreate(o Object) {
	l := o.(*v1.Lease)
	l.Spec.Strategy = nil
	l.Spec.PreferredHolder = nil
}

// PrepareForUpdate drops strategy and preferredHolder unless the old
// lease had them (gate off).
func (leaseStrategy) PrepareForUpdate(o, old Object) {
	l, oldL := o.(*v1.Lease), old.(*v1.Lease)
	if oldL.Spec.Strategy == nil {
		l.Spec.Strategy = nil
	}
	if oldL.Spec.PreferredHolder == nil {
		l.Spec.PreferredHolder = nil
	}
}

func (leaseStrategy) Canonicalize(Object)                                           {}
func (leaseStrategy) WarningsOnCreate(kubeversion.Release, Object) []string         { return nil }
func (leaseStrategy) WarningsOnUpdate(kubeversion.Release, Object, Object) []string { return nil }

// Validate mirrors ValidateLease (apimachinery's ObjectMeta validation,
// without core's finalizer rule).
func (leaseStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	l := o.(*v1.Lease)
	errs := objectmeta.ValidateObjectMetaAt(rel, &l.ObjectMeta, true, names.NameIsDNSSubdomain, metadataPath)
	return append(errs, validateLeaseSpec(rel, &l.Spec)...)
}

// ValidateUpdate mirrors ValidateLeaseUpdate.
func (leaseStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	errs := objectmeta.ValidateObjectMetaUpdateAt(rel, o.Meta(), old.Meta(), metadataPath)
	return append(errs, validateLeaseSpec(rel, &o.(*v1.Lease).Spec)...)
}

// validateLeaseSpec mirrors ValidateLeaseSpec.
func validateLeaseSpec(rel kubeversion.Release, spec *v1.LeaseSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := field.ErrorList{}
	if spec.LeaseDurationSeconds != nil && *spec.LeaseDurationSeconds <= 0 {
		errs = append(errs, field.Invalid(p.Child("leaseDurationSeconds"), spec.LeaseDurationSeconds, "must be greater than 0"))
	}
	if spec.LeaseTransitions != nil && *spec.LeaseTransitions < 0 {
		errs = append(errs, field.Invalid(p.Child("leaseTransitions"), spec.LeaseTransitions, "must be greater than or equal to 0"))
	}
	if spec.Strategy != nil {
		errs = append(errs, validateCoordinatedLeaseStrategy(rel, *spec.Strategy, p.Child("strategy"))...)
	}
	if spec.PreferredHolder != nil && *spec.PreferredHolder != "" && (spec.Strategy == nil || *spec.Strategy == "") {
		errs = append(errs, field.Forbidden(p.Child("preferredHolder"), "may only be specified if `strategy` is defined"))
	}
	return errs
}

// validateCoordinatedLeaseStrategy mirrors ValidateCoordinatedLeaseStrategy
// (whose errors are at strategy.strategy, as upstream's).
func validateCoordinatedLeaseStrategy(rel kubeversion.Release, s v1.CoordinatedLeaseStrategy, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !strings.Contains(string(s), "/") {
		if s != v1.OldestEmulationVersion {
			errs = append(errs, field.NotSupported(p.Child("strategy"), s, []v1.CoordinatedLeaseStrategy{v1.OldestEmulationVersion}))
		}
		return errs
	}
	for _, msg := range names.IsQualifiedNameAt(rel, string(s)) {
		errs = append(errs, field.Invalid(p.Child("strategy"), s, msg))
	}
	return errs
}

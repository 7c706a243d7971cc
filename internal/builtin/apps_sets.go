package builtin

// apps/v1 ReplicaSet and DaemonSet (pkg/registry/apps/replicaset and
// daemonset; pkg/apis/apps/validation).

import (
	"fmt"
	"strconv"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// dnsLabelNameWarning is the warning of a ReplicaSet's or Deployment's
// name that is not a DNS label.
func dnsLabelNameWarning(name string) []string {
	if msgs := names.IsDNS1123Label(name); len(msgs) != 0 {
		return []string{fmt.Sprintf("metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: %v", msgs)}
	}
	return nil
}

// replicaSetStrategy is pkg/registry/apps/replicaset's strategy.
type replicaSetStrategy struct{}

func (replicaSetStrategy) NamespaceScoped() bool { return true }
func (replicaSetStrategy) New() Object           { return &v1.ReplicaSet{} }

// Decoded mirrors SetObjectDefaults_ReplicaSet: replicas 1, then the pod
// template's defaults.
func (replicaSetStrategy) Decoded(o Object) {
	rs := o.(*v1.ReplicaSet)
	if rs.Spec.Replicas == nil {
		one := int32(1)
		rs.Spec.Replicas = &one
	}
	defaultPodSpec(&rs.Spec.Template.Spec)
}

func (replicaSetStrategy) PrepareForCreate(o Object) {
	rs := o.(*v1.ReplicaSet)
	rs.Status = v1.ReplicaSetStatus{}
	rs.ObjectMeta.Generation = 1
}

// PrepareForUpdate keeps the old status and bumps the generation when the
// spec changes.
func (replicaSetStrategy) PrepareForUpdate(o, old Object) {
	rs, oldRS := o.(*v1.ReplicaSet), old.(*v1.ReplicaSet)
	rs.Status = oldRS.Status
	if !semanticEqual(rs.Spec, oldRS.Spec) {
		rs.ObjectMeta.Generation = oldRS.ObjectMeta.Generation + 1
	}
}

func (replicaSetStrategy) Canonicalize(Object) {}

func (replicaSetStrategy) WarningsOnCreate(rel kubeversion.Release, o Object) []string {
	rs := o.(*v1.ReplicaSet)
	return append(dnsLabelNameWarning(rs.ObjectMeta.Name), podTemplateWarnings(rel, templatePath, &rs.Spec.Template)...)
}

func (replicaSetStrategy) WarningsOnUpdate(rel kubeversion.Release, o, old Object) []string {
	rs, oldRS := o.(*v1.ReplicaSet), old.(*v1.ReplicaSet)
	if rs.ObjectMeta.Generation == oldRS.ObjectMeta.Generation {
		return nil
	}
	return podTemplateWarnings(rel, templatePath, &rs.Spec.Template)
}

// Validate mirrors ValidateReplicaSet.
func (replicaSetStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	rs := o.(*v1.ReplicaSet)
	errs := validateObjectMeta(rel, &rs.ObjectMeta, true, names.NameIsDNSSubdomain)
	return append(errs, validateReplicaSetSpec(rel, &rs.Spec, podOptionsAt(rel, nil))...)
}

// ValidateUpdate mirrors ValidateReplicaSetUpdate.
func (replicaSetStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	rs, oldRS := o.(*v1.ReplicaSet), old.(*v1.ReplicaSet)
	errs := validateObjectMetaUpdate(rel, &rs.ObjectMeta, &oldRS.ObjectMeta)
	errs = append(errs, validateReplicaSetSpec(rel, &rs.Spec, podOptionsAt(rel, &oldRS.Spec.Template.Spec))...)
	if !semanticEqual(rs.Spec.Selector, oldRS.Spec.Selector) {
		errs = append(errs, field.Invalid(specPath.Child("selector"), rs.Spec.Selector, objectmeta.FieldImmutableErrorMsg))
	}
	return errs
}

func (replicaSetStrategy) Unmodelled(o Object) []string {
	return podTemplateUnmodelled(&o.(*v1.ReplicaSet).Spec.Template, templatePath)
}

// validateReplicaSetSpec mirrors ValidateReplicaSetSpec.
func validateReplicaSetSpec(rel kubeversion.Release, s *v1.ReplicaSetSpec, opts podOptions) field.ErrorList {
	errs := field.ErrorList{}
	replicas := int32(0)
	if s.Replicas != nil {
		replicas = *s.Replicas
	}
	errs = append(errs, objectmeta.ValidateNonnegativeField(int64(replicas), specPath.Child("replicas"))...)
	errs = append(errs, objectmeta.ValidateNonnegativeField(int64(s.MinReadySeconds), specPath.Child("minReadySeconds"))...)
	return append(errs, validateWorkloadSelector(rel, s.Selector, &s.Template, "deployment", opts)...)
}

// daemonSetStrategy is pkg/registry/apps/daemonset's strategy. A v1
// DaemonSet carries the internal spec.templateGeneration in the
// deprecated.daemonset.template.generation annotation (the conversion
// reads and writes it).
type daemonSetStrategy struct{}

func (daemonSetStrategy) NamespaceScoped() bool { return true }
func (daemonSetStrategy) New() Object           { return &v1.DaemonSet{} }

// Decoded mirrors SetObjectDefaults_DaemonSet: updateStrategy RollingUpdate
// with maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10, then the
// pod template's defaults.
func (daemonSetStrategy) Decoded(o Object) {
	ds := o.(*v1.DaemonSet)
	us := &ds.Spec.UpdateStrategy
	if us.Type == "" {
		us.Type = v1.RollingUpdateDaemonSetStrategyType
	}
	if us.Type == v1.RollingUpdateDaemonSetStrategyType {
		if us.RollingUpdate == nil {
			us.RollingUpdate = &v1.RollingUpdateDaemonSet{}
		}
		if us.RollingUpdate.MaxUnavailable == nil {
			us.RollingUpdate.MaxUnavailable = &v1.IntOrString{IntVal: 1}
		}
		if us.RollingUpdate.MaxSurge == nil {
			us.RollingUpdate.MaxSurge = &v1.IntOrString{}
		}
	}
	if ds.Spec.RevisionHistoryLimit == nil {
		ten := int32(10)
		ds.Spec.RevisionHistoryLimit = &ten
	}
	defaultPodSpec(&ds.Spec.Template.Spec)
}

// templateGeneration is the DaemonSet's internal spec.templateGeneration.
func templateGeneration(ds *v1.DaemonSet) int64 {
	g, _ := strconv.ParseInt(ds.ObjectMeta.Annotations[v1.DeprecatedTemplateGeneration], 10, 64)
	return g
}

func setTemplateGeneration(ds *v1.DaemonSet, g int64) {
	if ds.ObjectMeta.Annotations == nil {
		ds.ObjectMeta.Annotations = map[string]string{}
	}
	ds.ObjectMeta.Annotations[v1.DeprecatedTemplateGeneration] = strconv.FormatInt(g, 10)
}

// PrepareForCreate clears the status, sets generation 1 and a template
// generation of at least 1.
func (daemonSetStrategy) PrepareForCreate(o Object) {
	ds := o.(*v1.DaemonSet)
	ds.Status = v1.DaemonSetStatus{}
	ds.ObjectMeta.Generation = 1
	if templateGeneration(ds) < 1 {
		setTemplateGeneration(ds, 1)
	}
}

// PrepareForUpdate keeps the old status and template generation; a
// template change bumps both generations, another spec change the
// object's.
func (daemonSetStrategy) PrepareForUpdate(o, old Object) {
	ds, oldDS := o.(*v1.DaemonSet), old.(*v1.DaemonSet)
	ds.Status = oldDS.Status
	tg := templateGeneration(oldDS)
	setTemplateGeneration(ds, tg)
	if !semanticEqual(ds.Spec.Template, oldDS.Spec.Template) {
		setTemplateGeneration(ds, tg+1)
		ds.ObjectMeta.Generation = oldDS.ObjectMeta.Generation + 1
		return
	}
	if !semanticEqual(ds.Spec, oldDS.Spec) {
		ds.ObjectMeta.Generation = oldDS.ObjectMeta.Generation + 1
	}
}

func (daemonSetStrategy) Canonicalize(Object) {}

func (daemonSetStrategy) WarningsOnCreate(rel kubeversion.Release, o Object) []string {
	return podTemplateWarnings(rel, templatePath, &o.(*v1.DaemonSet).Spec.Template)
}

func (daemonSetStrategy) WarningsOnUpdate(rel kubeversion.Release, o, old Object) []string {
	ds, oldDS := o.(*v1.DaemonSet), old.(*v1.DaemonSet)
	if templateGeneration(ds) == templateGeneration(oldDS) {
		return nil
	}
	return podTemplateWarnings(rel, templatePath, &ds.Spec.Template)
}

// Validate mirrors ValidateDaemonSet.
func (daemonSetStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	ds := o.(*v1.DaemonSet)
	errs := validateObjectMeta(rel, &ds.ObjectMeta, true, names.NameIsDNSSubdomain)
	return append(errs, validateDaemonSetSpec(rel, ds, LabelSelectorValidationOptions{}, podOptionsAt(rel, nil))...)
}

// ValidateUpdate mirrors ValidateDaemonSetUpdate: the metadata update, the
// selector's immutability (the template generation, which PrepareForUpdate
// set, passes), then the spec.
func (daemonSetStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	ds, oldDS := o.(*v1.DaemonSet), old.(*v1.DaemonSet)
	errs := validateObjectMetaUpdate(rel, &ds.ObjectMeta, &oldDS.ObjectMeta)
	if !semanticEqual(ds.Spec.Selector, oldDS.Spec.Selector) {
		errs = append(errs, field.Invalid(specPath.Child("selector"), ds.Spec.Selector, objectmeta.FieldImmutableErrorMsg))
	}
	selOpts := LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: LabelSelectorHasInvalidLabelValue(rel, oldDS.Spec.Selector)}
	return append(errs, validateDaemonSetSpec(rel, ds, selOpts, podOptionsAt(rel, &oldDS.Spec.Template.Spec))...)
}

func (daemonSetStrategy) Unmodelled(o Object) []string {
	return podTemplateUnmodelled(&o.(*v1.DaemonSet).Spec.Template, templatePath)
}

// validateDaemonSetSpec mirrors ValidateDaemonSetSpec.
func validateDaemonSetSpec(rel kubeversion.Release, ds *v1.DaemonSet, selOpts LabelSelectorValidationOptions, opts podOptions) field.ErrorList {
	s := &ds.Spec
	errs := field.ErrorList{}
	errs = append(errs, ValidateLabelSelector(rel, s.Selector, selOpts, specPath.Child("selector"))...)
	if matches, ok := selectorMatches(rel, s.Selector, s.Template.ObjectMeta.Labels); ok && !matches {
		errs = append(errs, field.Invalid(templatePath.Child("metadata", "labels"), s.Template.ObjectMeta.Labels, "`selector` does not match template `labels`"))
	}
	if s.Selector != nil && len(s.Selector.MatchLabels)+len(s.Selector.MatchExpressions) == 0 {
		errs = append(errs, field.Invalid(specPath.Child("selector"), s.Selector, "empty selector is invalid for daemonset"))
	}
	errs = append(errs, validatePodTemplateSpec(rel, &s.Template, templatePath, opts)...)
	if s.Template.Spec.RestartPolicy != v1.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(templatePath.Child("spec", "restartPolicy"), s.Template.Spec.RestartPolicy, []v1.RestartPolicy{v1.RestartPolicyAlways}))
	}
	if s.Template.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(templatePath.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in DaemonSet is not Supported"))
	}
	errs = append(errs, objectmeta.ValidateNonnegativeField(int64(s.MinReadySeconds), specPath.Child("minReadySeconds"))...)
	errs = append(errs, objectmeta.ValidateNonnegativeField(templateGeneration(ds), specPath.Child("templateGeneration"))...)
	errs = append(errs, validateDaemonSetUpdateStrategy(&s.UpdateStrategy, specPath.Child("updateStrategy"))...)
	if s.RevisionHistoryLimit != nil {
		errs = append(errs, objectmeta.ValidateNonnegativeField(int64(*s.RevisionHistoryLimit), specPath.Child("revisionHistoryLimit"))...)
	}
	return errs
}

// validateDaemonSetUpdateStrategy mirrors ValidateDaemonSetUpdateStrategy
// and ValidateRollingUpdateDaemonSet.
func validateDaemonSetUpdateStrategy(s *v1.DaemonSetUpdateStrategy, p *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	switch s.Type {
	case v1.OnDeleteDaemonSetStrategyType:
	case v1.RollingUpdateDaemonSetStrategyType:
		if s.RollingUpdate == nil {
			return append(errs, field.Required(p.Child("rollingUpdate"), ""))
		}
		rp := p.Child("rollingUpdate")
		mu, ms := intOrStringValue(s.RollingUpdate.MaxUnavailable), intOrStringValue(s.RollingUpdate.MaxSurge)
		errs = append(errs, validatePositiveIntOrPercent(mu, rp.Child("maxUnavailable"))...)
		errs = append(errs, validatePositiveIntOrPercent(ms, rp.Child("maxSurge"))...)
		errs = append(errs, isNotMoreThan100Percent(mu, rp.Child("maxUnavailable"))...)
		errs = append(errs, isNotMoreThan100Percent(ms, rp.Child("maxSurge"))...)
		hasU, hasS := intOrPercentValue(mu) != 0, intOrPercentValue(ms) != 0
		switch {
		case hasU && hasS:
			errs = append(errs, field.Invalid(rp.Child("maxSurge"), ms, "may not be set when maxUnavailable is non-zero"))
		case !hasU && !hasS:
			errs = append(errs, field.Required(rp.Child("maxUnavailable"), "cannot be 0 when maxSurge is 0"))
		}
	default:
		type rolling struct{ MaxUnavailable, MaxSurge v1.IntOrString }
		var ru *rolling
		if s.RollingUpdate != nil {
			ru = &rolling{intOrStringValue(s.RollingUpdate.MaxUnavailable), intOrStringValue(s.RollingUpdate.MaxSurge)}
		}
		internal := struct {
			Type          v1.DaemonSetUpdateStrategyType
			RollingUpdate *rolling
		}{s.Type, ru}
		errs = append(errs, field.NotSupported(p, internal, []v1.DaemonSetUpdateStrategyType{v1.RollingUpdateDaemonSetStrategyType, v1.OnDeleteDaemonSetStrategyType}))
	}
	return errs
}

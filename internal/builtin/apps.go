package builtin

// The apps/v1 kinds validated natively: their scheme defaults
// (pkg/apis/apps/v1/defaults.go), registry strategies
// (pkg/registry/apps/<kind>/strategy.go) and validation
// (pkg/apis/apps/validation), with the pod template's (podvalidation.go).

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

var (
	specPath     = field.NewPath("spec")
	templatePath = specPath.Child("template")
)

// deploymentStrategy is pkg/registry/apps/deployment's strategy.
type deploymentStrategy struct{}

func (deploymentStrategy) NamespaceScoped() bool { return true }
func (deploymentStrategy) New() Object           { return &v1.Deployment{} }

// Decoded mirrors SetObjectDefaults_Deployment: SetDefaults_Deployment
// (replicas 1, strategy RollingUpdate 25%/25%, revisionHistoryLimit 10,
// progressDeadlineSeconds 600), then the pod template's defaults.
func (deploymentStrategy) Decoded(o Object) {
	d := o.(*v1.Deployment)
	if d.Spec.Replicas == nil {
		one := int32(1)
		d.Spec.Replicas = &one
	}
	st := &d.Spec.Strategy
	if st.Type == "" {
		st.Type = v1.RollingUpdateDeploymentStrategyType
	}
	if st.Type == v1.RollingUpdateDeploymentStrategyType {
		if st.RollingUpdate == nil {
			st.RollingUpdate = &v1.RollingUpdateDeployment{}
		}
		if st.RollingUpdate.MaxUnavailable == nil {
			v := v1.FromString("25%")
			st.RollingUpdate.MaxUnavailable = &v
		}
		if st.RollingUpdate.MaxSurge == nil {
			v := v1.FromString("25%")
			st.RollingUpdate.MaxSurge = &v
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		ten := int32(10)
		d.Spec.RevisionHistoryLimit = &ten
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		v := int32(600)
		d.Spec.ProgressDeadlineSeconds = &v
	}
	defaultPodSpec(&d.Spec.Template.Spec)
}

// PrepareForCreate clears the status and sets generation 1.
func (deploymentStrategy) PrepareForCreate(o Object) {
	d := o.(*v1.Deployment)
	d.Status = v1.DeploymentStatus{}
	d.ObjectMeta.Generation = 1
}

// PrepareForUpdate keeps the old status and bumps the generation when the
// spec or the annotations change.
func (deploymentStrategy) PrepareForUpdate(o, old Object) {
	d, oldD := o.(*v1.Deployment), old.(*v1.Deployment)
	d.Status = oldD.Status
	if !semanticEqual(d.Spec, oldD.Spec) || !equalStringMaps(d.ObjectMeta.Annotations, oldD.ObjectMeta.Annotations) {
		d.ObjectMeta.Generation = oldD.ObjectMeta.Generation + 1
	}
}

// semanticEqual is apiequality.Semantic.DeepEqual for the v1 types: nil
// and empty lists and maps are equal, quantities compare by value (their
// JSON encodings, omitempty and canonical quantities, are equal exactly
// then).
func semanticEqual(a, b interface{}) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

func (deploymentStrategy) Canonicalize(Object) {}

// WarningsOnCreate mirrors the strategy's: a name that is not a DNS label,
// then the pod template's warnings.
func (deploymentStrategy) WarningsOnCreate(rel kubeversion.Release, o Object) []string {
	d := o.(*v1.Deployment)
	return append(dnsLabelNameWarning(d.ObjectMeta.Name), podTemplateWarnings(rel, templatePath, &d.Spec.Template)...)
}

// WarningsOnUpdate: the pod template's warnings when the generation
// changed.
func (deploymentStrategy) WarningsOnUpdate(rel kubeversion.Release, o, old Object) []string {
	d, oldD := o.(*v1.Deployment), old.(*v1.Deployment)
	if d.ObjectMeta.Generation == oldD.ObjectMeta.Generation {
		return nil
	}
	return podTemplateWarnings(rel, templatePath, &d.Spec.Template)
}

// Validate mirrors ValidateDeployment.
func (deploymentStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	d := o.(*v1.Deployment)
	errs := validateObjectMeta(rel, &d.ObjectMeta, true, names.NameIsDNSSubdomain)
	return append(errs, validateDeploymentSpec(rel, &d.Spec, podOptionsAt(rel, nil))...)
}

// ValidateUpdate mirrors ValidateDeploymentUpdate: the metadata update,
// the spec, then the selector's immutability.
func (deploymentStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	d, oldD := o.(*v1.Deployment), old.(*v1.Deployment)
	errs := validateObjectMetaUpdate(rel, &d.ObjectMeta, &oldD.ObjectMeta)
	errs = append(errs, validateDeploymentSpec(rel, &d.Spec, podOptionsAt(rel, &oldD.Spec.Template.Spec))...)
	if !semanticEqual(d.Spec.Selector, oldD.Spec.Selector) {
		errs = append(errs, field.Invalid(specPath.Child("selector"), d.Spec.Selector, objectmeta.FieldImmutableErrorMsg))
	}
	return errs
}

// Unmodelled lists the pod template's fields whose validation is not
// modelled.
func (deploymentStrategy) Unmodelled(o Object) []string {
	return podTemplateUnmodelled(&o.(*v1.Deployment).Spec.Template, templatePath)
}

// validateDeploymentSpec mirrors ValidateDeploymentSpec.
func validateDeploymentSpec(rel kubeversion.Release, s *v1.DeploymentSpec, opts podOptions) field.ErrorList {
	errs := field.ErrorList{}
	replicas := int32(0)
	if s.Replicas != nil {
		replicas = *s.Replicas
	}
	errs = append(errs, objectmeta.ValidateNonnegativeField(int64(replicas), specPath.Child("replicas"))...)
	errs = append(errs, validateWorkloadSelector(rel, s.Selector, &s.Template, "deployment", opts)...)
	errs = append(errs, validateDeploymentStrategy(&s.Strategy, specPath.Child("strategy"))...)
	errs = append(errs, objectmeta.ValidateNonnegativeField(int64(s.MinReadySeconds), specPath.Child("minReadySeconds"))...)
	if s.RevisionHistoryLimit != nil {
		errs = append(errs, objectmeta.ValidateNonnegativeField(int64(*s.RevisionHistoryLimit), specPath.Child("revisionHistoryLimit"))...)
	}
	if s.ProgressDeadlineSeconds != nil {
		errs = append(errs, objectmeta.ValidateNonnegativeField(int64(*s.ProgressDeadlineSeconds), specPath.Child("progressDeadlineSeconds"))...)
		if *s.ProgressDeadlineSeconds <= s.MinReadySeconds {
			errs = append(errs, field.Invalid(specPath.Child("progressDeadlineSeconds"), s.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateWorkloadSelector mirrors the selector part of
// ValidateDeploymentSpec and ValidateReplicaSetSpec, and
// ValidatePodTemplateSpecForReplicaSet: the selector is required, valid
// and non-empty, it must match the template's labels, the template is a
// valid pod template whose restartPolicy is Always, without
// activeDeadlineSeconds.
func validateWorkloadSelector(rel kubeversion.Release, sel *v1.LabelSelector, t *v1.PodTemplateSpec, kind string, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	selPath := specPath.Child("selector")
	if sel == nil {
		errs = append(errs, field.Required(selPath, ""))
	} else {
		errs = append(errs, ValidateLabelSelector(rel, sel, LabelSelectorValidationOptions{}, selPath)...)
		if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
			errs = append(errs, field.Invalid(selPath, sel, "empty selector is invalid for "+kind))
		}
	}
	matches, ok := selectorMatches(rel, sel, t.ObjectMeta.Labels)
	if !ok {
		return append(errs, field.Invalid(selPath, sel, "invalid label selector"))
	}
	if !matches {
		errs = append(errs, field.Invalid(templatePath.Child("metadata", "labels"), t.ObjectMeta.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, validatePodTemplateSpec(rel, t, templatePath, opts)...)
	if t.Spec.RestartPolicy != v1.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(templatePath.Child("spec", "restartPolicy"), t.Spec.RestartPolicy, []v1.RestartPolicy{v1.RestartPolicyAlways}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(templatePath.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicaSet is not Supported"))
	}
	return errs
}

// selectorMatches mirrors metav1.LabelSelectorAsSelector followed by
// ValidatePodTemplateSpecForReplicaSet's match: ok is false when the
// selector does not convert (an invalid key, value or operator); a nil
// selector matches nothing, an empty one everything (and an empty selector
// skips the match check).
func selectorMatches(rel kubeversion.Release, sel *v1.LabelSelector, labels map[string]string) (matches, ok bool) {
	if sel == nil {
		return false, true
	}
	if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
		return true, true
	}
	valid := func(key string, values []string) bool {
		if len(names.IsQualifiedNameAt(rel, key)) > 0 {
			return false
		}
		for _, v := range values {
			if len(names.IsValidLabelValueAt(rel, v)) > 0 {
				return false
			}
		}
		return true
	}
	matches = true
	for _, k := range sortedKeys(sel.MatchLabels) {
		v := sel.MatchLabels[k]
		if !valid(k, []string{v}) {
			return false, false
		}
		if got, has := labels[k]; !has || got != v {
			matches = false
		}
	}
	for _, e := range sel.MatchExpressions {
		got, has := labels[e.Key]
		switch e.Operator {
		case v1.LabelSelectorOpIn, v1.LabelSelectorOpNotIn:
			if len(e.Values) == 0 {
				return false, false
			}
			in := has && contains(e.Values, got)
			if (e.Operator == v1.LabelSelectorOpIn) != in {
				matches = false
			}
		case v1.LabelSelectorOpExists, v1.LabelSelectorOpDoesNotExist:
			if len(e.Values) != 0 {
				return false, false
			}
			if (e.Operator == v1.LabelSelectorOpExists) != has {
				matches = false
			}
		default:
			return false, false
		}
		if !valid(e.Key, e.Values) {
			return false, false
		}
	}
	return matches, true
}

// internalDeploymentStrategy is a strategy as upstream's NotSupported
// error renders it (the internal type: Go field names).
func internalDeploymentStrategy(s *v1.DeploymentStrategy) interface{} {
	type rolling struct{ MaxUnavailable, MaxSurge v1.IntOrString }
	var ru *rolling
	if s.RollingUpdate != nil {
		ru = &rolling{}
		if s.RollingUpdate.MaxUnavailable != nil {
			ru.MaxUnavailable = *s.RollingUpdate.MaxUnavailable
		}
		if s.RollingUpdate.MaxSurge != nil {
			ru.MaxSurge = *s.RollingUpdate.MaxSurge
		}
	}
	return struct {
		Type          v1.DeploymentStrategyType
		RollingUpdate *rolling
	}{s.Type, ru}
}

// validateDeploymentStrategy mirrors ValidateDeploymentStrategy.
func validateDeploymentStrategy(s *v1.DeploymentStrategy, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch s.Type {
	case v1.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			errs = append(errs, field.Forbidden(p.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"))
		}
	case v1.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			errs = append(errs, field.Required(p.Child("rollingUpdate"), "this should be defaulted and never be nil"))
		} else {
			errs = append(errs, validateRollingUpdateDeployment(s.RollingUpdate, p.Child("rollingUpdate"))...)
		}
	default:
		errs = append(errs, field.NotSupported(p, internalDeploymentStrategy(s), []v1.DeploymentStrategyType{v1.RecreateDeploymentStrategyType, v1.RollingUpdateDeploymentStrategyType}))
	}
	return errs
}

func intOrStringValue(v *v1.IntOrString) v1.IntOrString {
	if v == nil {
		return v1.IntOrString{}
	}
	return *v
}

func isPercent(s string) bool {
	if len(s) < 2 || s[len(s)-1] != '%' {
		return false
	}
	for _, c := range s[:len(s)-1] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// intOrPercentValue mirrors getIntOrPercentValue: a percent's number, an
// int's value, 0 for another string (IntValue of a non-numeric string).
func intOrPercentValue(v v1.IntOrString) int {
	if v.IsString() {
		if isPercent(v.StrVal) {
			n, _ := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
			return n
		}
		n, _ := strconv.Atoi(v.StrVal)
		return n
	}
	return int(v.IntVal)
}

// validateRollingUpdateDeployment mirrors ValidateRollingUpdateDeployment.
func validateRollingUpdateDeployment(r *v1.RollingUpdateDeployment, p *field.Path) field.ErrorList {
	mu, ms := intOrStringValue(r.MaxUnavailable), intOrStringValue(r.MaxSurge)
	var errs field.ErrorList
	errs = append(errs, validatePositiveIntOrPercent(mu, p.Child("maxUnavailable"))...)
	errs = append(errs, validatePositiveIntOrPercent(ms, p.Child("maxSurge"))...)
	if intOrPercentValue(mu) == 0 && intOrPercentValue(ms) == 0 {
		errs = append(errs, field.Invalid(p.Child("maxUnavailable"), mu, "may not be 0 when `maxSurge` is 0"))
	}
	return append(errs, isNotMoreThan100Percent(mu, p.Child("maxUnavailable"))...)
}

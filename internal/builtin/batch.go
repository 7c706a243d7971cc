package builtin

// batch/v1 Job (pkg/registry/batch/job, pkg/apis/batch/validation,
// pkg/api/job's warnings).

import (
	"fmt"
	"math"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// GeneratedJobUID is the uid crdlab assumes the API server generates for a
// Job it creates: a Job's generated selector and its pod template's
// controller-uid labels carry the new object's uid (a random UUID upstream),
// which crdlab cannot know. The uid itself is left out of the answer, as
// for every created object.
const GeneratedJobUID = "00000000-0000-0000-0000-000000000000"

// The bounds of an Indexed Job (pkg/apis/batch/validation).
const (
	maxParallelismForIndexedJob             = 100000
	maxFailedIndexesForIndexedJob           = 100000
	completionsSoftLimit                    = 100000
	parallelismLimitForHighCompletions      = 10000
	maxFailedIndexesLimitForHighCompletions = 10000
	parallelismSoftLimitForUnlimited        = 10000
)

// jobStrategy is pkg/registry/batch/job's strategy.
type jobStrategy struct{}

func (jobStrategy) NamespaceScoped() bool { return true }
func (jobStrategy) New() Object           { return &v1.Job{} }

// Decoded mirrors SetObjectDefaults_Job: SetDefaults_Job (completions and
// parallelism 1 when neither is set, backoffLimit 6 — MaxInt32 with a
// backoffLimitPerIndex —, the template's labels as the Job's when it has
// none, completionMode NonIndexed, suspend false, podReplacementPolicy,
// manualSelector false), then the pod template's defaults.
func (jobStrategy) Decoded(o Object) {
	j := o.(*v1.Job)
	s := &j.Spec
	i32 := func(v int32) *int32 { return &v }
	if s.Completions == nil && s.Parallelism == nil {
		s.Completions, s.Parallelism = i32(1), i32(1)
	}
	if s.Parallelism == nil {
		s.Parallelism = i32(1)
	}
	if s.BackoffLimit == nil {
		if s.BackoffLimitPerIndex != nil {
			s.BackoffLimit = i32(math.MaxInt32)
		} else {
			s.BackoffLimit = i32(6)
		}
	}
	if s.Template.ObjectMeta.Labels != nil && len(j.ObjectMeta.Labels) == 0 {
		j.ObjectMeta.Labels = s.Template.ObjectMeta.Labels
	}
	if s.CompletionMode == nil {
		m := v1.NonIndexedCompletion
		s.CompletionMode = &m
	}
	if s.Suspend == nil {
		f := false
		s.Suspend = &f
	}
	if s.PodReplacementPolicy == nil {
		p := v1.TerminatingOrFailed
		if s.PodFailurePolicy != nil {
			p = v1.Failed
		}
		s.PodReplacementPolicy = &p
	}
	if s.ManualSelector == nil {
		f := false
		s.ManualSelector = &f
	}
	defaultPodSpec(&s.Template.Spec)
}

// PrepareForCreate mirrors the strategy's: the generated selector and
// labels (with GeneratedJobUID), the status cleared, generation 1.
func (jobStrategy) PrepareForCreate(o Object) {
	j := o.(*v1.Job)
	if j.ObjectMeta.UID == "" {
		j.ObjectMeta.UID = GeneratedJobUID
	}
	if !*j.Spec.ManualSelector {
		generateJobSelector(j)
	}
	j.Status = v1.JobStatus{}
	j.ObjectMeta.Generation = 1
}

// generateJobSelector mirrors generateSelector: the job-name and
// controller-uid labels (legacy and prefixed) on the template where not
// set, and a selector on the prefixed controller-uid.
func generateJobSelector(j *v1.Job) {
	t := &j.Spec.Template.ObjectMeta
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	for _, k := range []string{v1.LegacyJobNameLabel, v1.JobNameLabel} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = j.ObjectMeta.Name
		}
	}
	for _, k := range []string{v1.LegacyControllerUidLabel, v1.ControllerUidLabel} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = string(j.ObjectMeta.UID)
		}
	}
	if j.Spec.Selector == nil {
		j.Spec.Selector = &v1.LabelSelector{}
	}
	if j.Spec.Selector.MatchLabels == nil {
		j.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := j.Spec.Selector.MatchLabels[v1.ControllerUidLabel]; !ok {
		j.Spec.Selector.MatchLabels[v1.ControllerUidLabel] = string(j.ObjectMeta.UID)
	}
}

// PrepareForUpdate keeps the old status and bumps the generation when the
// spec changes.
func (jobStrategy) PrepareForUpdate(o, old Object) {
	j, oldJ := o.(*v1.Job), old.(*v1.Job)
	j.Status = oldJ.Status
	if !semanticEqual(j.Spec, oldJ.Spec) {
		j.ObjectMeta.Generation = oldJ.ObjectMeta.Generation + 1
	}
}

// Canonicalize leaves out the uid crdlab assumed on create (the answer has
// no generated uid).
func (jobStrategy) Canonicalize(o Object) {
	if m := o.Meta(); m.UID == GeneratedJobUID {
		m.UID = ""
	}
}

// WarningsOnCreate mirrors the strategy's: a name that is not a DNS label,
// then WarningsForJobSpec.
func (jobStrategy) WarningsOnCreate(rel kubeversion.Release, o Object) []string {
	j := o.(*v1.Job)
	return append(dnsLabelNameWarning(j.ObjectMeta.Name), jobSpecWarnings(rel, &j.Spec)...)
}

func (jobStrategy) WarningsOnUpdate(rel kubeversion.Release, o, old Object) []string {
	j, oldJ := o.(*v1.Job), old.(*v1.Job)
	if j.ObjectMeta.Generation == oldJ.ObjectMeta.Generation {
		return nil
	}
	return jobSpecWarnings(rel, &j.Spec)
}

// jobSpecWarnings mirrors WarningsForJobSpec.
func jobSpecWarnings(rel kubeversion.Release, s *v1.JobSpec) []string {
	var ws []string
	if s.CompletionMode != nil && *s.CompletionMode == v1.IndexedCompletion {
		if deref(s.Completions) > completionsSoftLimit && deref(s.Parallelism) > parallelismSoftLimitForUnlimited {
			ws = append(ws, "spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail")
		}
	}
	return append(ws, podTemplateWarnings(rel, templatePath, &s.Template)...)
}

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// Validate mirrors ValidateJobCreate (the prefixed labels required, as on
// every create).
func (jobStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	j := o.(*v1.Job)
	errs := validateObjectMeta(rel, &j.ObjectMeta, true, names.NameIsDNSSubdomain)
	errs = append(errs, validateGeneratedSelector(rel, j, true)...)
	errs = append(errs, validateJobSpec(rel, &j.Spec, LabelSelectorValidationOptions{}, podOptionsAt(rel, nil))...)
	return append(errs, validateNameAllowsCompletions(j)...)
}

// ValidateUpdate mirrors ValidateJobUpdate for what is modelled: the
// metadata, the spec, completions, the selector, completionMode and
// backoffLimitPerIndex immutable; a changed pod template is reported as
// not modelled (UnmodelledUpdate).
func (jobStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	j, oldJ := o.(*v1.Job), old.(*v1.Job)
	errs := validateObjectMetaUpdate(rel, &j.ObjectMeta, &oldJ.ObjectMeta)
	selOpts := LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: LabelSelectorHasInvalidLabelValue(rel, oldJ.Spec.Selector)}
	errs = append(errs, validateJobSpec(rel, &j.Spec, selOpts, podOptionsAt(rel, &oldJ.Spec.Template.Spec))...)
	s, os := &j.Spec, &oldJ.Spec
	if s.CompletionMode == nil || *s.CompletionMode != v1.IndexedCompletion {
		if !semanticEqual(s.Completions, os.Completions) {
			errs = append(errs, field.Invalid(specPath.Child("completions"), s.Completions, objectmeta.FieldImmutableErrorMsg))
		}
	} else if !semanticEqual(s.Completions, os.Completions) && s.Completions != nil && *s.Completions != deref(s.Parallelism) {
		errs = append(errs, field.Invalid(specPath.Child("completions"), s.Completions, "can only be modified in tandem with spec.parallelism"))
	}
	if !semanticEqual(s.Selector, os.Selector) {
		errs = append(errs, field.Invalid(specPath.Child("selector"), s.Selector, objectmeta.FieldImmutableErrorMsg))
	}
	if !semanticEqual(s.CompletionMode, os.CompletionMode) {
		errs = append(errs, field.Invalid(specPath.Child("completionMode"), s.CompletionMode, objectmeta.FieldImmutableErrorMsg))
	}
	if !semanticEqual(s.BackoffLimitPerIndex, os.BackoffLimitPerIndex) {
		errs = append(errs, field.Invalid(specPath.Child("backoffLimitPerIndex"), s.BackoffLimitPerIndex, objectmeta.FieldImmutableErrorMsg))
	}
	return append(errs, validateNameAllowsCompletions(j)...)
}

// Unmodelled lists the pod template's fields not modelled and the Job's
// own: podFailurePolicy, successPolicy, managedBy, scheduling.
func (jobStrategy) Unmodelled(o Object) []string {
	j := o.(*v1.Job)
	out := podTemplateUnmodelled(&j.Spec.Template, templatePath)
	s := &j.Spec
	for _, f := range []struct {
		set  bool
		name string
	}{{s.PodFailurePolicy != nil, "podFailurePolicy"}, {s.SuccessPolicy != nil, "successPolicy"}, {s.ManagedBy != nil, "managedBy"}, {s.Scheduling != nil, "scheduling"}} {
		if f.set {
			out = append(out, specPath.Child(f.name).String())
		}
	}
	return out
}

// UnmodelledUpdate: an update that changes a Job's pod template (allowed
// only in the cases upstream's validatePodTemplateUpdate knows, whose
// error renders the internal template) is not modelled.
func (jobStrategy) UnmodelledUpdate(o, old Object) []string {
	if !semanticEqual(o.(*v1.Job).Spec.Template, old.(*v1.Job).Spec.Template) {
		return []string{templatePath.String()}
	}
	return nil
}

// hasLabel mirrors ValidateHasLabel.
func hasLabel(labels map[string]string, p *field.Path, key, want string) field.ErrorList {
	got, ok := labels[key]
	if !ok {
		return field.ErrorList{field.Required(p.Child("labels").Key(key), fmt.Sprintf("must be '%s'", want))}
	}
	if got != want {
		return field.ErrorList{field.Invalid(p.Child("labels").Key(key), labels, fmt.Sprintf("must be '%s'", want))}
	}
	return nil
}

// validateGeneratedSelector mirrors the function of the same name.
func validateGeneratedSelector(rel kubeversion.Release, j *v1.Job, prefixed bool) field.ErrorList {
	errs := field.ErrorList{}
	if (j.Spec.ManualSelector != nil && *j.Spec.ManualSelector) || j.Spec.Selector == nil {
		return errs
	}
	if j.ObjectMeta.UID == "" {
		errs = append(errs, field.Required(metadataPath.Child("uid"), ""))
	}
	uid, name := string(j.ObjectMeta.UID), j.ObjectMeta.Name
	tp := templatePath.Child("metadata")
	labels := j.Spec.Template.ObjectMeta.Labels
	errs = append(errs, hasLabel(labels, tp, v1.LegacyControllerUidLabel, uid)...)
	errs = append(errs, hasLabel(labels, tp, v1.LegacyJobNameLabel, name)...)
	expected := map[string]string{v1.LegacyControllerUidLabel: uid, v1.LegacyJobNameLabel: name}
	if prefixed {
		errs = append(errs, hasLabel(labels, tp, v1.ControllerUidLabel, uid)...)
		errs = append(errs, hasLabel(labels, tp, v1.JobNameLabel, name)...)
		expected[v1.ControllerUidLabel] = uid
		expected[v1.JobNameLabel] = name
	}
	if matches, ok := selectorMatches(rel, j.Spec.Selector, expected); ok && !matches {
		errs = append(errs, field.Invalid(specPath.Child("selector"), j.Spec.Selector, "`selector` not auto-generated"))
	}
	return errs
}

// validateNameAllowsCompletions mirrors the function of the same name.
func validateNameAllowsCompletions(j *v1.Job) field.ErrorList {
	s := &j.Spec
	if s.CompletionMode != nil && *s.CompletionMode == v1.IndexedCompletion && s.Completions != nil && *s.Completions > 0 {
		host := fmt.Sprintf("%s-%d", j.ObjectMeta.Name, *s.Completions-1)
		if len(names.IsDNS1123Label(host)) > 0 {
			return field.ErrorList{field.Invalid(metadataPath.Child("name"), j.ObjectMeta.Name, fmt.Sprintf("will not able to create pod with invalid DNS label: %s", host))}
		}
	}
	return nil
}

// validateJobSpec mirrors ValidateJobSpec: validateJobSpec's rules, then
// the selector and its match of the template's labels.
func validateJobSpec(rel kubeversion.Release, s *v1.JobSpec, selOpts LabelSelectorValidationOptions, opts podOptions) field.ErrorList {
	errs := field.ErrorList{}
	nonneg := func(v *int32, name string) {
		if v != nil {
			errs = append(errs, objectmeta.ValidateNonnegativeField(int64(*v), specPath.Child(name))...)
		}
	}
	nonneg(s.Parallelism, "parallelism")
	nonneg(s.Completions, "completions")
	if s.ActiveDeadlineSeconds != nil {
		errs = append(errs, objectmeta.ValidateNonnegativeField(*s.ActiveDeadlineSeconds, specPath.Child("activeDeadlineSeconds"))...)
	}
	nonneg(s.BackoffLimit, "backoffLimit")
	nonneg(s.TTLSecondsAfterFinished, "ttlSecondsAfterFinished")
	nonneg(s.BackoffLimitPerIndex, "backoffLimitPerIndex")
	if s.MaxFailedIndexes != nil {
		nonneg(s.MaxFailedIndexes, "maxFailedIndexes")
		if s.BackoffLimitPerIndex == nil {
			errs = append(errs, field.Required(specPath.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"))
		}
	}
	if m := s.CompletionMode; m != nil {
		if *m != v1.NonIndexedCompletion && *m != v1.IndexedCompletion {
			errs = append(errs, field.NotSupported(specPath.Child("completionMode"), m, []v1.CompletionMode{v1.NonIndexedCompletion, v1.IndexedCompletion}))
		}
		if *m == v1.IndexedCompletion {
			if s.Completions == nil {
				errs = append(errs, field.Required(specPath.Child("completions"), fmt.Sprintf("when completion mode is %s", v1.IndexedCompletion)))
			}
			if s.Parallelism != nil && *s.Parallelism > maxParallelismForIndexedJob {
				errs = append(errs, field.Invalid(specPath.Child("parallelism"), *s.Parallelism, fmt.Sprintf("must be less than or equal to %d when completion mode is %s", maxParallelismForIndexedJob, v1.IndexedCompletion)))
			}
			if s.Completions != nil && s.MaxFailedIndexes != nil && *s.MaxFailedIndexes > *s.Completions {
				errs = append(errs, field.Invalid(specPath.Child("maxFailedIndexes"), *s.MaxFailedIndexes, "must be less than or equal to completions"))
			}
			if s.MaxFailedIndexes != nil && *s.MaxFailedIndexes > maxFailedIndexesForIndexedJob {
				errs = append(errs, field.Invalid(specPath.Child("maxFailedIndexes"), *s.MaxFailedIndexes, fmt.Sprintf("must be less than or equal to %d", maxFailedIndexesForIndexedJob)))
			}
			if s.Completions != nil && *s.Completions > completionsSoftLimit && s.BackoffLimitPerIndex != nil {
				if s.MaxFailedIndexes == nil {
					errs = append(errs, field.Required(specPath.Child("maxFailedIndexes"), fmt.Sprintf("must be specified when completions is above %d", completionsSoftLimit)))
				}
				if s.Parallelism != nil && *s.Parallelism > parallelismLimitForHighCompletions {
					errs = append(errs, field.Invalid(specPath.Child("parallelism"), *s.Parallelism, fmt.Sprintf("must be less than or equal to %d when completions are above %d and used with backoff limit per index", parallelismLimitForHighCompletions, completionsSoftLimit)))
				}
				if s.MaxFailedIndexes != nil && *s.MaxFailedIndexes > maxFailedIndexesLimitForHighCompletions {
					errs = append(errs, field.Invalid(specPath.Child("maxFailedIndexes"), *s.MaxFailedIndexes, fmt.Sprintf("must be less than or equal to %d when completions are above %d and used with backoff limit per index", maxFailedIndexesLimitForHighCompletions, completionsSoftLimit)))
				}
			}
		}
	}
	if s.CompletionMode == nil || *s.CompletionMode == v1.NonIndexedCompletion {
		if s.BackoffLimitPerIndex != nil {
			errs = append(errs, field.Invalid(specPath.Child("backoffLimitPerIndex"), *s.BackoffLimitPerIndex, "requires indexed completion mode"))
		}
		if s.MaxFailedIndexes != nil {
			errs = append(errs, field.Invalid(specPath.Child("maxFailedIndexes"), *s.MaxFailedIndexes, "requires indexed completion mode"))
		}
	}
	if p := s.PodReplacementPolicy; p != nil {
		if s.PodFailurePolicy != nil {
			if *p != v1.Failed {
				errs = append(errs, field.NotSupported(specPath.Child("podReplacementPolicy"), *p, []v1.PodReplacementPolicy{v1.Failed}))
			}
		} else if *p != v1.Failed && *p != v1.TerminatingOrFailed {
			errs = append(errs, field.NotSupported(specPath.Child("podReplacementPolicy"), *p, []v1.PodReplacementPolicy{v1.Failed, v1.TerminatingOrFailed}))
		}
	}
	errs = append(errs, validatePodTemplateSpec(rel, &s.Template, templatePath, opts)...)
	rp := templatePath.Child("spec", "restartPolicy")
	switch r := s.Template.Spec.RestartPolicy; {
	case r == v1.RestartPolicyAlways || r == "":
		errs = append(errs, field.Required(rp, fmt.Sprintf("valid values: %q, %q", v1.RestartPolicyOnFailure, v1.RestartPolicyNever)))
	case r != v1.RestartPolicyOnFailure && r != v1.RestartPolicyNever:
		errs = append(errs, field.NotSupported(rp, r, []v1.RestartPolicy{v1.RestartPolicyOnFailure, v1.RestartPolicyNever}))
	case s.PodFailurePolicy != nil && r != v1.RestartPolicyNever:
		errs = append(errs, field.Invalid(rp, r, fmt.Sprintf("only %q is supported when podFailurePolicy is specified", v1.RestartPolicyNever)))
	}
	if s.Selector == nil {
		errs = append(errs, field.Required(specPath.Child("selector"), ""))
	} else {
		errs = append(errs, ValidateLabelSelector(rel, s.Selector, selOpts, specPath.Child("selector"))...)
	}
	if matches, ok := selectorMatches(rel, s.Selector, s.Template.ObjectMeta.Labels); ok && !matches {
		errs = append(errs, field.Invalid(templatePath.Child("metadata", "labels"), s.Template.ObjectMeta.Labels, "`selector` does not match template `labels`"))
	}
	return errs
}

package builtin

// rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding and
// ClusterRoleBinding: their scheme defaults (pkg/apis/rbac/v1/defaults.go),
// registry strategies (pkg/registry/rbac/<kind>/strategy.go), validation
// (pkg/apis/rbac/validation) and declarative validation (rbac/v1's tags,
// enforced from 1.37). The REST storage's escalation check (a user may
// only grant the permissions it holds) depends on the requester: crdlab
// answers as for a cluster admin, whom it lets through.

import (
	"slices"

	"github.com/crdlab/crdlab/engine/field"
	rbacv1 "github.com/crdlab/crdlab/internal/builtin/rbacv1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
)

// validateRBACName mirrors ValidateRBACName: a path segment name, whether
// a name or a generateName prefix.
func validateRBACName(name string, _ bool) []string { return names.IsPathSegmentName(name) }

// validatePolicyRule mirrors ValidatePolicyRule.
func validatePolicyRule(rule rbacv1.PolicyRule, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(rule.Verbs) == 0 {
		errs = append(errs, field.Required(p.Child("verbs"), "verbs must contain at least one value"))
	}
	if len(rule.NonResourceURLs) > 0 {
		if namespaced {
			errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), rule.NonResourceURLs, "namespaced rules cannot apply to non-resource URLs"))
		}
		if len(rule.APIGroups) > 0 || len(rule.Resources) > 0 || len(rule.ResourceNames) > 0 {
			errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), rule.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"))
		}
		return errs
	}
	if len(rule.APIGroups) == 0 {
		errs = append(errs, field.Required(p.Child("apiGroups"), "resource rules must supply at least one api group"))
	}
	if len(rule.Resources) == 0 {
		errs = append(errs, field.Required(p.Child("resources"), "resource rules must supply at least one resource"))
	}
	return errs
}

// validateRules validates each rule of a role.
func validateRules(rules []rbacv1.PolicyRule, namespaced bool) field.ErrorList {
	var errs field.ErrorList
	for i, r := range rules {
		errs = append(errs, validatePolicyRule(r, namespaced, field.NewPath("rules").Index(i))...)
	}
	return errs
}

// requiredVerbs is the declarative `rules[i].verbs` check (RequiredSlice);
// on update, rules equal to the old ones are not validated again.
func requiredVerbs(rel kubeversion.Release, rules []rbacv1.PolicyRule, old []rbacv1.PolicyRule, update bool) field.ErrorList {
	var errs field.ErrorList
	if !rel.Has(kubeversion.RBACRequiredDeclarative) || update && semanticEqualRules(rules, old) {
		return nil
	}
	for i, r := range rules {
		if len(r.Verbs) == 0 {
			errs = append(errs, field.Required(field.NewPath("rules").Index(i).Child("verbs"), ""))
		}
	}
	return errs
}

// semanticEqualRules is Semantic.DeepEqual of two rule lists (nil and
// empty lists alike).
func semanticEqualRules(a, b []rbacv1.PolicyRule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !slices.Equal(x.Verbs, y.Verbs) || !slices.Equal(x.APIGroups, y.APIGroups) || !slices.Equal(x.Resources, y.Resources) ||
			!slices.Equal(x.ResourceNames, y.ResourceNames) || !slices.Equal(x.NonResourceURLs, y.NonResourceURLs) {
			return false
		}
	}
	return true
}

// roleRefValue is the internal rbac.RoleRef an immutability error shows
// (no JSON tags: its keys are the Go field names).
type roleRefValue struct {
	APIGroup string
	Kind     string
	Name     string
}

// GoTypeName is upstream's type name in Go syntax (before 1.34).
func (roleRefValue) GoTypeName() string { return "rbac.RoleRef" }

// validateBinding mirrors ValidateRoleBinding and ValidateClusterRoleBinding
// (kinds: the roleRef kinds the binding may name).
func validateBinding(rel kubeversion.Release, s Strategy, o Object, ref rbacv1.RoleRef, subjects []rbacv1.Subject, kinds []string) field.ErrorList {
	errs := validateObjectMeta(rel, o.Meta(), s.NamespaceScoped(), validateRBACName)
	refPath := field.NewPath("roleRef")
	if ref.APIGroup != rbacv1.GroupName {
		errs = append(errs, field.NotSupported(refPath.Child("apiGroup"), ref.APIGroup, []string{rbacv1.GroupName}))
	}
	known := false
	for _, k := range kinds {
		known = known || ref.Kind == k
	}
	if !known {
		errs = append(errs, field.NotSupported(refPath.Child("kind"), ref.Kind, kinds))
	}
	if ref.Name == "" {
		errs = append(errs, field.Required(refPath.Child("name"), ""))
	} else {
		for _, msg := range validateRBACName(ref.Name, false) {
			errs = append(errs, field.Invalid(refPath.Child("name"), ref.Name, msg))
		}
	}
	for i, sub := range subjects {
		errs = append(errs, validateSubject(sub, s.NamespaceScoped(), field.NewPath("subjects").Index(i))...)
	}
	return errs
}

// validateSubject mirrors ValidateRoleBindingSubject.
func validateSubject(s rbacv1.Subject, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	switch s.Kind {
	case rbacv1.ServiceAccountKind:
		if s.Name != "" {
			for _, msg := range names.NameIsDNSSubdomain(s.Name, false) {
				errs = append(errs, field.Invalid(p.Child("name"), s.Name, msg))
			}
		}
		if s.APIGroup != "" {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{""}))
		}
		if !namespaced && s.Namespace == "" {
			errs = append(errs, field.Required(p.Child("namespace"), ""))
		}
	case rbacv1.UserKind, rbacv1.GroupKind:
		if s.APIGroup != rbacv1.GroupName {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{rbacv1.GroupName}))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("kind"), s.Kind, []string{rbacv1.ServiceAccountKind, rbacv1.UserKind, rbacv1.GroupKind}))
	}
	return errs
}

// validateBindingUpdate mirrors Validate(Cluster)RoleBindingUpdate: the
// new binding, the metadata update, then the roleRef's immutability.
func validateBindingUpdate(rel kubeversion.Release, s Strategy, o, old Object, ref, oldRef rbacv1.RoleRef) field.ErrorList {
	errs := s.Validate(rel, o)
	errs = append(errs, validateObjectMetaUpdate(rel, o.Meta(), old.Meta())...)
	if ref != oldRef {
		errs = append(errs, field.Invalid(field.NewPath("roleRef"), roleRefValue(ref), "field is immutable"))
	}
	return errs
}

// bindingDeclarative is a binding's enforced declarative errors: the
// subjects' names, then the roleRef's name. On update, subjects or a
// roleRef equal to the old ones are not validated again, and a changed
// roleRef is only immutable (the tag short-circuits the roleRef's other
// checks even where it is alpha, not enforced, at 1.37).
func bindingDeclarative(rel kubeversion.Release, ref rbacv1.RoleRef, subjects []rbacv1.Subject, old *rbacv1.RoleRef, oldSubjects []rbacv1.Subject) field.ErrorList {
	var errs field.ErrorList
	if old == nil || !semanticEqualSubjects(subjects, oldSubjects) {
		errs = append(errs, requiredSubjectNames(rel, subjects)...)
	}
	if old != nil && ref == *old {
		return errs
	}
	if old != nil {
		if rel.Has(kubeversion.RBACRoleRefImmutableDeclarative) {
			errs = append(errs, field.Invalid(field.NewPath("roleRef"), nil, "field is immutable"))
		}
		return errs
	}
	if rel.Has(kubeversion.RBACRequiredDeclarative) && ref.Name == "" {
		errs = append(errs, field.Required(field.NewPath("roleRef", "name"), ""))
	}
	return errs
}

// semanticEqualSubjects is Semantic.DeepEqual of two subject lists.
func semanticEqualSubjects(a, b []rbacv1.Subject) bool {
	return len(a) == len(b) && (len(a) == 0 || slices.Equal(a, b))
}

// requiredSubjectNames is the declarative subjects[i].name check.
func requiredSubjectNames(rel kubeversion.Release, subjects []rbacv1.Subject) field.ErrorList {
	var errs field.ErrorList
	if rel.Has(kubeversion.RBACRequiredDeclarative) {
		for i, s := range subjects {
			if s.Name == "" {
				errs = append(errs, field.Required(field.NewPath("subjects").Index(i).Child("name"), ""))
			}
		}
	}
	return errs
}

// setSubjectDefaults mirrors SetDefaults_Subject: a User's or Group's
// apiGroup is rbac.authorization.k8s.io.
func setSubjectDefaults(subjects []rbacv1.Subject) {
	for i := range subjects {
		s := &subjects[i]
		if s.APIGroup == "" && (s.Kind == rbacv1.UserKind || s.Kind == rbacv1.GroupKind) {
			s.APIGroup = rbacv1.GroupName
		}
	}
}

// rbacStrategy holds what the four RBAC strategies share: nothing to
// prepare, canonicalize or warn about.
type rbacStrategy struct{}

func (rbacStrategy) PrepareForCreate(Object)                                       {}
func (rbacStrategy) PrepareForUpdate(_, _ Object)                                  {}
func (rbacStrategy) Canonicalize(Object)                                           {}
func (rbacStrategy) WarningsOnCreate(kubeversion.Release, Object) []string         { return nil }
func (rbacStrategy) WarningsOnUpdate(kubeversion.Release, Object, Object) []string { return nil }

// roleStrategy is pkg/registry/rbac/role's strategy.
type roleStrategy struct{ rbacStrategy }

func (roleStrategy) NamespaceScoped() bool { return true }
func (roleStrategy) New() Object           { return &rbacv1.Role{} }
func (roleStrategy) Decoded(Object)        {}

// Validate mirrors ValidateRole.
func (roleStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	r := o.(*rbacv1.Role)
	errs := validateObjectMeta(rel, &r.ObjectMeta, true, validateRBACName)
	return append(errs, validateRules(r.Rules, true)...)
}

// ValidateUpdate mirrors ValidateRoleUpdate.
func (s roleStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	errs := s.Validate(rel, o)
	return append(errs, validateObjectMetaUpdate(rel, o.Meta(), old.Meta())...)
}

// Declarative: each rule's verbs are required (1.37+).
func (roleStrategy) Declarative(rel kubeversion.Release, o, oldObj Object) field.ErrorList {
	var old []rbacv1.PolicyRule
	if oldObj != nil {
		old = oldObj.(*rbacv1.Role).Rules
	}
	return requiredVerbs(rel, o.(*rbacv1.Role).Rules, old, oldObj != nil)
}

// clusterRoleStrategy is pkg/registry/rbac/clusterrole's strategy.
type clusterRoleStrategy struct{ rbacStrategy }

func (clusterRoleStrategy) NamespaceScoped() bool { return false }
func (clusterRoleStrategy) New() Object           { return &rbacv1.ClusterRole{} }
func (clusterRoleStrategy) Decoded(Object)        {}

// Validate mirrors the strategy's Validate (ValidateClusterRole with
// label values checked).
func (clusterRoleStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	return validateClusterRole(rel, o.(*rbacv1.ClusterRole), LabelSelectorValidationOptions{})
}

// validateClusterRole mirrors ValidateClusterRole: the rules, then each
// aggregation selector, which must also convert to a selector
// (LabelSelectorAsSelector fails exactly where the validation without
// options does; its error shows no value).
func validateClusterRole(rel kubeversion.Release, r *rbacv1.ClusterRole, opts LabelSelectorValidationOptions) field.ErrorList {
	errs := validateObjectMeta(rel, &r.ObjectMeta, false, validateRBACName)
	errs = append(errs, validateRules(r.Rules, false)...)
	if r.AggregationRule != nil {
		p := field.NewPath("aggregationRule", "clusterRoleSelectors")
		if len(r.AggregationRule.ClusterRoleSelectors) == 0 {
			errs = append(errs, field.Required(p, "at least one clusterRoleSelector required if aggregationRule is non-nil"))
		}
		for i := range r.AggregationRule.ClusterRoleSelectors {
			sel := &r.AggregationRule.ClusterRoleSelectors[i]
			errs = append(errs, ValidateLabelSelector(rel, sel, opts, p.Index(i))...)
			if len(ValidateLabelSelector(rel, sel, LabelSelectorValidationOptions{}, p.Index(i))) > 0 {
				errs = append(errs, field.Invalid(p.Index(i), nil, "invalid label selector."))
			}
		}
	}
	return errs
}

// ValidateUpdate mirrors the strategy's ValidateUpdate: label values
// already invalid in the old role's selectors stay allowed
// (hasInvalidLabelValueInLabelSelector: any selector error of the old
// role).
func (clusterRoleStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	r, oldR := o.(*rbacv1.ClusterRole), old.(*rbacv1.ClusterRole)
	var opts LabelSelectorValidationOptions
	if oldR.AggregationRule != nil {
		for i := range oldR.AggregationRule.ClusterRoleSelectors {
			if len(ValidateLabelSelector(rel, &oldR.AggregationRule.ClusterRoleSelectors[i], LabelSelectorValidationOptions{}, nil)) > 0 {
				opts.AllowInvalidLabelValueInSelector = true
			}
		}
	}
	errs := validateClusterRole(rel, r, opts)
	return append(errs, validateObjectMetaUpdate(rel, &r.ObjectMeta, &oldR.ObjectMeta)...)
}

// Declarative: each rule's verbs are required (1.37+).
func (clusterRoleStrategy) Declarative(rel kubeversion.Release, o, oldObj Object) field.ErrorList {
	var old []rbacv1.PolicyRule
	if oldObj != nil {
		old = oldObj.(*rbacv1.ClusterRole).Rules
	}
	return requiredVerbs(rel, o.(*rbacv1.ClusterRole).Rules, old, oldObj != nil)
}

// roleBindingStrategy is pkg/registry/rbac/rolebinding's strategy.
type roleBindingStrategy struct{ rbacStrategy }

func (roleBindingStrategy) NamespaceScoped() bool { return true }
func (roleBindingStrategy) New() Object           { return &rbacv1.RoleBinding{} }

// Decoded mirrors SetDefaults_RoleBinding (the roleRef's apiGroup) and
// SetDefaults_Subject.
func (roleBindingStrategy) Decoded(o Object) {
	b := o.(*rbacv1.RoleBinding)
	if b.RoleRef.APIGroup == "" {
		b.RoleRef.APIGroup = rbacv1.GroupName
	}
	setSubjectDefaults(b.Subjects)
}

// Validate mirrors ValidateRoleBinding.
func (s roleBindingStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	b := o.(*rbacv1.RoleBinding)
	return validateBinding(rel, s, o, b.RoleRef, b.Subjects, []string{"Role", "ClusterRole"})
}

// ValidateUpdate mirrors ValidateRoleBindingUpdate.
func (s roleBindingStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	return validateBindingUpdate(rel, s, o, old, o.(*rbacv1.RoleBinding).RoleRef, old.(*rbacv1.RoleBinding).RoleRef)
}

// Declarative: the subjects' and the roleRef's names (1.37+), the
// roleRef's immutability (1.38+).
func (roleBindingStrategy) Declarative(rel kubeversion.Release, o, old Object) field.ErrorList {
	b := o.(*rbacv1.RoleBinding)
	if old == nil {
		return bindingDeclarative(rel, b.RoleRef, b.Subjects, nil, nil)
	}
	o2 := old.(*rbacv1.RoleBinding)
	return bindingDeclarative(rel, b.RoleRef, b.Subjects, &o2.RoleRef, o2.Subjects)
}

// clusterRoleBindingStrategy is pkg/registry/rbac/clusterrolebinding's strategy.
type clusterRoleBindingStrategy struct{ rbacStrategy }

func (clusterRoleBindingStrategy) NamespaceScoped() bool { return false }
func (clusterRoleBindingStrategy) New() Object           { return &rbacv1.ClusterRoleBinding{} }

// Decoded mirrors SetDefaults_ClusterRoleBinding and SetDefaults_Subject.
func (clusterRoleBindingStrategy) Decoded(o Object) {
	b := o.(*rbacv1.ClusterRoleBinding)
	if b.RoleRef.APIGroup == "" {
		b.RoleRef.APIGroup = rbacv1.GroupName
	}
	setSubjectDefaults(b.Subjects)
}

// Validate mirrors ValidateClusterRoleBinding.
func (s clusterRoleBindingStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	b := o.(*rbacv1.ClusterRoleBinding)
	return validateBinding(rel, s, o, b.RoleRef, b.Subjects, []string{"ClusterRole"})
}

// ValidateUpdate mirrors ValidateClusterRoleBindingUpdate.
func (s clusterRoleBindingStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	return validateBindingUpdate(rel, s, o, old, o.(*rbacv1.ClusterRoleBinding).RoleRef, old.(*rbacv1.ClusterRoleBinding).RoleRef)
}

// Declarative: as a RoleBinding's.
func (clusterRoleBindingStrategy) Declarative(rel kubeversion.Release, o, old Object) field.ErrorList {
	b := o.(*rbacv1.ClusterRoleBinding)
	if old == nil {
		return bindingDeclarative(rel, b.RoleRef, b.Subjects, nil, nil)
	}
	o2 := old.(*rbacv1.ClusterRoleBinding)
	return bindingDeclarative(rel, b.RoleRef, b.Subjects, &o2.RoleRef, o2.Subjects)
}

package builtin

// A pod template's affinity: validateAffinity and its warnings
// (pkg/apis/core/validation, pkg/api/pod and pkg/api/node warnings).
// matchLabelKeys and mismatchLabelKeys are not modelled (podUnmodelled
// reports them).

import (
	"fmt"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// validateAffinity mirrors the function of the same name.
func validateAffinity(rel kubeversion.Release, a *v1.Affinity, p *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	if a == nil {
		return errs
	}
	if na := a.NodeAffinity; na != nil {
		np := p.Child("nodeAffinity")
		if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
			tp := np.Child("requiredDuringSchedulingIgnoredDuringExecution").Child("nodeSelectorTerms")
			if len(r.NodeSelectorTerms) == 0 {
				errs = append(errs, field.Required(tp, "must have at least one node selector term"))
			}
			for i, t := range r.NodeSelectorTerms {
				errs = append(errs, validateNodeSelectorTerm(rel, t, false, tp.Index(i))...)
			}
		}
		pp := np.Child("preferredDuringSchedulingIgnoredDuringExecution")
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			if t.Weight <= 0 || t.Weight > 100 {
				errs = append(errs, field.Invalid(pp.Index(i).Child("weight"), t.Weight, "must be in the range 1-100"))
			}
			errs = append(errs, validateNodeSelectorTerm(rel, t.Preference, true, pp.Index(i).Child("preference"))...)
		}
	}
	for _, pa := range []struct {
		name      string
		required  []v1.PodAffinityTerm
		preferred []v1.WeightedPodAffinityTerm
		set       bool
	}{
		{"podAffinity", podAffinityRequired(a.PodAffinity), podAffinityPreferred(a.PodAffinity), a.PodAffinity != nil},
		{"podAntiAffinity", podAntiAffinityRequired(a.PodAntiAffinity), podAntiAffinityPreferred(a.PodAntiAffinity), a.PodAntiAffinity != nil},
	} {
		if !pa.set {
			continue
		}
		ap := p.Child(pa.name)
		for i, t := range pa.required {
			errs = append(errs, validatePodAffinityTerm(rel, t, ap.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
		}
		wp := ap.Child("preferredDuringSchedulingIgnoredDuringExecution")
		for j, t := range pa.preferred {
			if t.Weight <= 0 || t.Weight > 100 {
				errs = append(errs, field.Invalid(wp.Index(j).Child("weight"), t.Weight, "must be in the range 1-100"))
			}
			errs = append(errs, validatePodAffinityTerm(rel, t.PodAffinityTerm, wp.Index(j).Child("podAffinityTerm"))...)
		}
	}
	return errs
}

func podAffinityRequired(a *v1.PodAffinity) []v1.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAffinityPreferred(a *v1.PodAffinity) []v1.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityRequired(a *v1.PodAntiAffinity) []v1.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityPreferred(a *v1.PodAntiAffinity) []v1.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

// validateNodeSelectorTerm mirrors ValidateNodeSelectorTerm.
func validateNodeSelectorTerm(rel kubeversion.Release, t v1.NodeSelectorTerm, allowInvalidValues bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for j, r := range t.MatchExpressions {
		rp := p.Child("matchExpressions").Index(j)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				errs = append(errs, field.Required(rp.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				errs = append(errs, field.Forbidden(rp.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		case "Gt", "Lt":
			if len(r.Values) != 1 {
				errs = append(errs, field.Required(rp.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
			}
		default:
			errs = append(errs, field.Invalid(rp.Child("operator"), r.Operator, "not a valid selector operator"))
		}
		errs = append(errs, objectmeta.ValidateLabelName(rel, r.Key, rp.Child("key"))...)
		if !allowInvalidValues {
			for i, v := range r.Values {
				for _, msg := range names.IsValidLabelValueAt(rel, v) {
					errs = append(errs, field.Invalid(rp.Child("values").Index(i), v, msg))
				}
			}
		}
	}
	for j, r := range t.MatchFields {
		rp := p.Child("matchFields").Index(j)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) != 1 {
				errs = append(errs, field.Required(rp.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
			}
		default:
			errs = append(errs, field.Invalid(rp.Child("operator"), r.Operator, "not a valid selector operator"))
		}
		if r.Key != "metadata.name" {
			errs = append(errs, field.Invalid(rp.Child("key"), r.Key, "not a valid field selector key"))
		} else {
			for i, v := range r.Values {
				errs = append(errs, nameErrs(names.NameIsDNSSubdomain, v, false, rp.Child("values").Index(i))...)
			}
		}
	}
	return errs
}

// validatePodAffinityTerm mirrors the function of the same name (the
// selectors, the namespaces, the topology key).
func validatePodAffinityTerm(rel kubeversion.Release, t v1.PodAffinityTerm, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, ValidateLabelSelector(rel, t.LabelSelector, LabelSelectorValidationOptions{}, p.Child("labelSelector"))...)
	errs = append(errs, ValidateLabelSelector(rel, t.NamespaceSelector, LabelSelectorValidationOptions{}, p.Child("namespaceSelector"))...)
	for _, ns := range t.Namespaces {
		errs = append(errs, nameErrs(names.ValidateNamespaceName, ns, false, p.Child("namespace"))...)
	}
	if t.TopologyKey == "" {
		errs = append(errs, field.Required(p.Child("topologyKey"), "can not be empty"))
	}
	return append(errs, objectmeta.ValidateLabelName(rel, t.TopologyKey, p.Child("topologyKey"))...)
}

// nodeAffinityWarnings mirrors the node-affinity part of
// warningsForPodSpecAndMeta (GetWarningsForNodeSelectorTerm).
func nodeAffinityWarnings(rel kubeversion.Release, a *v1.Affinity, specPath *field.Path) []string {
	if a == nil || a.NodeAffinity == nil {
		return nil
	}
	var ws []string
	term := func(t v1.NodeSelectorTerm, checkValues bool, p *field.Path) {
		for i, e := range t.MatchExpressions {
			if msg, ok := deprecatedNodeLabels[e.Key]; ok {
				ws = append(ws, fmt.Sprintf("%s: %s is %s", p.Child("matchExpressions").Index(i).Child("key"), e.Key, msg))
			}
			if checkValues {
				for j, v := range e.Values {
					for _, msg := range names.IsValidLabelValueAt(rel, v) {
						ws = append(ws, fmt.Sprintf("%s: %s is invalid, %s", p.Child("matchExpressions").Index(i).Child("values").Index(j), v, msg))
					}
				}
			}
		}
	}
	np := specPath.Child("affinity", "nodeAffinity")
	if r := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
		tp := np.Child("requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
		for i, t := range r.NodeSelectorTerms {
			term(t, false, tp.Index(i))
		}
	}
	for i, t := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
		term(t.Preference, true, np.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i).Child("preference"))
	}
	return ws
}

// podAffinityWarnings mirrors warningsForPodAffinityTerms and
// warningsForWeightedPodAffinityTerms: a null labelSelector matches no pod.
func podAffinityWarnings(a *v1.Affinity, specPath *field.Path) []string {
	if a == nil {
		return nil
	}
	var ws []string
	add := func(name string, req []v1.PodAffinityTerm, pref []v1.WeightedPodAffinityTerm) {
		ap := specPath.Child("affinity", name)
		for i, t := range req {
			if t.LabelSelector == nil {
				ws = append(ws, fmt.Sprintf("%s: a null labelSelector results in matching no pod", ap.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i).Child("labelSelector")))
			}
		}
		for i, t := range pref {
			if t.PodAffinityTerm.LabelSelector == nil {
				ws = append(ws, fmt.Sprintf("%s: a null labelSelector results in matching no pod", ap.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i).Child("podAffinityTerm", "labelSelector")))
			}
		}
	}
	if a.PodAffinity != nil {
		add("podAffinity", a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if a.PodAntiAffinity != nil {
		add("podAntiAffinity", a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	return ws
}

// overlappingPathWarnings mirrors warningsForOverlappingVirtualPaths for
// configMap, secret and downwardAPI volumes (projected volumes are not
// modelled).
func overlappingPathWarnings(vols []v1.Volume) []string {
	var ws []string
	check := func(vol, desc string, items []v1.KeyToPath) {
		var seen []string
		for _, kp := range items {
			p := trimRightSlash(kp.Path)
			if p != "" {
				for _, other := range seen {
					if other == "" {
						continue
					}
					if other == p || hasPathPrefix(other, p) || hasPathPrefix(p, other) {
						ws = append(ws, fmt.Sprintf("volume %q (%s): overlapping paths: %q with %q", vol, desc, p, other))
					}
				}
			}
			seen = append(seen, p)
		}
	}
	for _, v := range vols {
		if v.ConfigMap != nil && v.ConfigMap.Items != nil {
			check(v.Name, fmt.Sprintf("ConfigMap %q", v.ConfigMap.Name), v.ConfigMap.Items)
		}
		if v.Secret != nil && v.Secret.Items != nil {
			check(v.Name, fmt.Sprintf("Secret %q", v.Secret.SecretName), v.Secret.Items)
		}
		if v.DownwardAPI != nil && v.DownwardAPI.Items != nil {
			items := make([]v1.KeyToPath, len(v.DownwardAPI.Items))
			for i, f := range v.DownwardAPI.Items {
				items[i].Path = f.Path
			}
			check(v.Name, "DownwardAPI", items)
		}
	}
	return ws
}

func trimRightSlash(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

// hasPathPrefix is strings.HasPrefix(a+"/", b+"/").
func hasPathPrefix(a, b string) bool {
	a, b = a+"/", b+"/"
	return len(a) >= len(b) && a[:len(b)] == b
}

// validateTopologySpreadConstraints mirrors the function of the same name
// but matchLabelKeys (podUnmodelled reports it).
func validateTopologySpreadConstraints(rel kubeversion.Release, cs []v1.TopologySpreadConstraint, p *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	for i, c := range cs {
		cp := p.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, field.Invalid(cp.Child("maxSkew"), int64(c.MaxSkew), "must be greater than zero"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(cp.Child("topologyKey"), "can not be empty"))
		}
		if c.WhenUnsatisfiable != "DoNotSchedule" && c.WhenUnsatisfiable != "ScheduleAnyway" {
			errs = append(errs, field.NotSupported(cp.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, []v1.UnsatisfiableConstraintAction{"DoNotSchedule", "ScheduleAnyway"}))
		}
		for _, rest := range cs[i+1:] {
			if c.TopologyKey == rest.TopologyKey && c.WhenUnsatisfiable == rest.WhenUnsatisfiable {
				errs = append(errs, field.Duplicate(cp.Child("{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
				break
			}
		}
		if m := c.MinDomains; m != nil {
			if *m <= 0 {
				errs = append(errs, field.Invalid(cp.Child("minDomains"), int64(*m), "must be greater than zero"))
			}
			if c.WhenUnsatisfiable != "DoNotSchedule" {
				errs = append(errs, field.Invalid(cp.Child("minDomains"), m, fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", "DoNotSchedule", c.WhenUnsatisfiable)))
			}
		}
		for _, pol := range []struct {
			name string
			v    *v1.NodeInclusionPolicy
		}{{"nodeAffinityPolicy", c.NodeAffinityPolicy}, {"nodeTaintsPolicy", c.NodeTaintsPolicy}} {
			if pol.v != nil && *pol.v != "Honor" && *pol.v != "Ignore" {
				errs = append(errs, field.NotSupported(cp.Child(pol.name), pol.v, []v1.NodeInclusionPolicy{"Honor", "Ignore"}))
			}
		}
		errs = append(errs, ValidateLabelSelector(rel, c.LabelSelector, LabelSelectorValidationOptions{}, cp.Child("labelSelector"))...)
	}
	return errs
}

// topologySpreadWarnings mirrors the topology-spread part of
// warningsForPodSpecAndMeta: a deprecated topology key, a null selector.
func topologySpreadWarnings(cs []v1.TopologySpreadConstraint, specPath *field.Path) []string {
	var ws []string
	for i, c := range cs {
		cp := specPath.Child("topologySpreadConstraints").Index(i)
		if msg, ok := deprecatedNodeLabels[c.TopologyKey]; ok {
			ws = append(ws, fmt.Sprintf("%s: %s is %s", cp.Child("topologyKey"), c.TopologyKey, msg))
		}
		if c.LabelSelector == nil {
			ws = append(ws, fmt.Sprintf("%s: a null labelSelector results in matching no pod", cp.Child("labelSelector")))
		}
	}
	return ws
}

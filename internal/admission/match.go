package admission

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	fld "github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/keys"
)

// Request matching: k8s.io/apiserver/pkg/admission/plugin/policy/matching
// (Matcher.Matches, matchesResourceRules), the webhook predicates it uses
// (predicates/namespace, predicates/object, predicates/rules) and
// policy/generic/policy_matcher.go (DefinitionMatches, BindingMatches).

// GVK is a group, version and kind.
type GVK struct{ Group, Version, Kind string }

// GVR is a group, version and resource.
type GVR struct{ Group, Version, Resource string }

// Equivalent is a resource equivalent to the request's (the same group and
// resource at another version of a CRD) with its kind.
type Equivalent struct {
	Resource GVR
	Kind     GVK
}

var namespacesResource = GVR{Version: "v1", Resource: "namespaces"}

// errNilSelector is upstream's errNilSelector text.
const errNilSelector = "a nil %s selector was passed, please ensure selectors are initialized properly"

// matches is Matcher.Matches: whether the request matches mr, and the
// resource and kind it matched as (an equivalent one under matchPolicy
// Equivalent).
func (a *Admitter) matches(req *Request, mr *MatchResources) (bool, GVR, GVK, error) {
	nsMatch, nsErr := a.matchNamespaceSelector(req, mr.NamespaceSelector)
	if !nsMatch && nsErr == nil {
		return false, GVR{}, GVK{}, nil
	}
	objMatch, objErr := matchObjectSelector(req, mr.ObjectSelector)
	if !objMatch && objErr == nil {
		return false, GVR{}, GVK{}, nil
	}
	if excluded, _, _, err := a.matchesResourceRules(req, mr.ExcludeResourceRules, mr.MatchPolicy); excluded || err != nil {
		return false, GVR{}, GVK{}, err
	}
	var (
		isMatch bool
		res     GVR
		kind    GVK
		err     error
	)
	if len(mr.ResourceRules) == 0 {
		isMatch, res, kind = true, req.Resource, req.Kind
	} else {
		isMatch, res, kind, err = a.matchesResourceRules(req, mr.ResourceRules, mr.MatchPolicy)
	}
	if err != nil {
		return false, GVR{}, GVK{}, err
	}
	if !isMatch {
		return false, GVR{}, GVK{}, nil
	}
	if nsErr != nil {
		return false, GVR{}, GVK{}, nsErr
	}
	if objErr != nil {
		return false, GVR{}, GVK{}, objErr
	}
	return true, res, kind, nil
}

// matchNamespaceSelector is predicates/namespace Matcher.MatchNamespaceSelector.
func (a *Admitter) matchNamespaceSelector(req *Request, sel *LabelSelector) (bool, error) {
	if req.Namespace == "" && req.Resource.Resource != "namespaces" {
		return true, nil
	}
	s, err := parseSelector(sel)
	if err != nil {
		return false, internalError(err)
	}
	if s.empty() {
		return true, nil
	}
	var nsLabels map[string]string
	if req.Resource.Resource == "namespaces" && req.SubResource == "" && (req.Operation == "CREATE" || req.Operation == "UPDATE") {
		nsLabels = labelsOf(req.Object)
	} else {
		ns, err := a.namespace(req.Namespace)
		if err != nil {
			return false, err
		}
		nsLabels = labelsOf(ns)
	}
	return s.matches(nsLabels), nil
}

// matchObjectSelector is predicates/object Matcher.MatchObjectSelector.
func matchObjectSelector(req *Request, sel *LabelSelector) (bool, error) {
	s, err := parseSelector(sel)
	if err != nil {
		return false, internalError(err)
	}
	if s.empty() {
		return true, nil
	}
	return (req.Object != nil && s.matches(labelsOf(req.Object))) ||
		(req.OldObject != nil && s.matches(labelsOf(req.OldObject))), nil
}

func internalError(err error) error {
	return fmt.Errorf("Internal error occurred: %v", err)
}

// ruleMatches is predicates/rules Matcher.Matches for the resource res.
func ruleMatches(r *NamedRuleWithOperations, req *Request, res GVR) bool {
	if r.Scope != nil && *r.Scope != "*" {
		switch *r.Scope {
		case "Namespaced":
			if res == namespacesResource || req.Namespace == "" {
				return false
			}
		case "Cluster":
			if !(res == namespacesResource || req.Namespace == "") {
				return false
			}
		default:
			return false
		}
	}
	opOK := false
	for _, op := range r.Operations {
		if op == "*" || op == req.Operation {
			opOK = true
			break
		}
	}
	if !opOK || !exactOrWildcard(r.APIGroups, res.Group) || !exactOrWildcard(r.APIVersions, res.Version) {
		return false
	}
	for _, rs := range r.Resources {
		name, sub, _ := strings.Cut(rs, "/")
		if (name == "*" || name == res.Resource) && (sub == "*" || sub == req.SubResource) {
			return true
		}
	}
	return false
}

func exactOrWildcard(items []string, s string) bool {
	for _, it := range items {
		if it == "*" || it == s {
			return true
		}
	}
	return false
}

func namedMatch(r *NamedRuleWithOperations, name string) bool {
	if len(r.ResourceNames) == 0 {
		return true
	}
	for _, n := range r.ResourceNames {
		if n == name {
			return true
		}
	}
	return false
}

// matchesResourceRules is matching.matchesResourceRules.
func (a *Admitter) matchesResourceRules(req *Request, rules []NamedRuleWithOperations, policy *string) (bool, GVR, GVK, error) {
	for i := range rules {
		if ruleMatches(&rules[i], req, req.Resource) && namedMatch(&rules[i], req.Name) {
			return true, req.Resource, req.Kind, nil
		}
	}
	if policy == nil || *policy == "Exact" {
		return false, GVR{}, GVK{}, nil
	}
	var equivalents []Equivalent
	if a.resources != nil {
		equivalents = a.resources.Equivalents(req.Resource, req.SubResource)
	}
	for i := range rules {
		for _, eq := range equivalents {
			if eq.Resource == req.Resource {
				continue
			}
			if !ruleMatches(&rules[i], req, eq.Resource) {
				continue
			}
			if eq.Kind == (GVK{}) {
				return false, GVR{}, GVK{}, fmt.Errorf("unable to convert to %s: unknown kind", gvrString(eq.Resource))
			}
			if namedMatch(&rules[i], req.Name) {
				return true, eq.Resource, eq.Kind, nil
			}
		}
	}
	return false, GVR{}, GVK{}, nil
}

// gvrString is schema.GroupVersionResource.String.
func gvrString(r GVR) string {
	return strings.Join([]string{r.Group, "/", r.Version, ", Resource=", r.Resource}, "")
}

func labelsOf(obj map[string]interface{}) map[string]string {
	md, _ := obj["metadata"].(map[string]interface{})
	ls, _ := md["labels"].(map[string]interface{})
	out := make(map[string]string, len(ls))
	for k, v := range ls {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// selector is a parsed label selector (labels.Selector from
// metav1.LabelSelectorAsSelector).
type selector struct {
	nothing bool // a nil selector selects nothing
	reqs    []requirement
}

type requirement struct {
	key, op string
	values  []string
}

func (s selector) empty() bool { return !s.nothing && len(s.reqs) == 0 }

// parseSelector is metav1.LabelSelectorAsSelector for the operators
// In, NotIn, Exists and DoesNotExist.
func parseSelector(ls *LabelSelector) (selector, error) {
	if ls == nil {
		return selector{nothing: true}, nil
	}
	var s selector
	keys := keys.Sorted(ls.MatchLabels)
	for _, k := range keys {
		s.reqs = append(s.reqs, requirement{key: k, op: "=", values: []string{ls.MatchLabels[k]}})
	}
	for _, e := range ls.MatchExpressions {
		var op string
		switch e.Operator {
		case "In":
			op = "in"
		case "NotIn":
			op = "notin"
		case "Exists":
			op = "exists"
		case "DoesNotExist":
			op = "!"
		default:
			return selector{}, fmt.Errorf("%q is not a valid label selector operator", e.Operator)
		}
		// labels.NewRequirement's value checks (its label key and value
		// syntax checks are not made), on a copy as upstream's
		// append([]string(nil), values...).
		vals := append([]string(nil), e.Values...)
		if (op == "in" || op == "notin") && len(vals) == 0 {
			return selector{}, errors.New(fld.Invalid(fld.NewPath("values"), vals, "for 'in', 'notin' operators, values set can't be empty").Error())
		}
		if (op == "exists" || op == "!") && len(vals) != 0 {
			return selector{}, errors.New(fld.Invalid(fld.NewPath("values"), vals, "values set must be empty for exists and does not exist").Error())
		}
		s.reqs = append(s.reqs, requirement{key: e.Key, op: op, values: e.Values})
	}
	return s, nil
}

func (s selector) matches(ls map[string]string) bool {
	if s.nothing {
		return false
	}
	for _, r := range s.reqs {
		v, has := ls[r.key]
		switch r.op {
		case "=", "in":
			if !has || !slices.Contains(r.values, v) {
				return false
			}
		case "notin":
			if has && slices.Contains(r.values, v) {
				return false
			}
		case "exists":
			if !has {
				return false
			}
		case "!":
			if has {
				return false
			}
		}
	}
	return true
}

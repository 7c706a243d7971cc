package admission

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/google/cel-go/common/types/ref"

	"github.com/crdlab/crdlab/internal/cel/library"
)

// The `authorizer` of policies and match conditions is kube-apiserver's
// authorizer with --authorization-mode=RBAC (pkg/kubeapiserver/authorizer
// reload.go newForConfig): the union (apiserver pkg/authorization/union) of
// the system:masters privileged-group authorizer (authorizerfactory
// NewPrivilegedGroups) and the RBAC authorizer (kubernetes
// plugin/pkg/auth/authorizer/rbac rbac.go, pkg/registry/rbac/validation
// rule.go, pkg/apis/rbac/v1 evaluation_helpers.go) over the Role,
// ClusterRole, RoleBinding and ClusterRoleBinding objects among the inputs.
//
// The API server lists bindings from its informers in map order; crdlab
// visits ClusterRoleBindings in name order, then the request namespace's
// RoleBindings in name order. Rules are the stored rules: a ClusterRole's
// aggregationRule is not evaluated (the aggregation controller, not the
// authorizer, fills the rules).

const (
	rbacGroupVersion     = "rbac.authorization.k8s.io/v1"
	systemPrivilegedGrp  = "system:masters"
	rbacAuthorizerName   = "rbac"
	serviceAccountPrefix = "system:serviceaccount:"
)

type rbacRule struct {
	Verbs           []string `json:"verbs"`
	APIGroups       []string `json:"apiGroups"`
	Resources       []string `json:"resources"`
	ResourceNames   []string `json:"resourceNames"`
	NonResourceURLs []string `json:"nonResourceURLs"`
}

type rbacMeta struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

type rbacRole struct {
	Metadata rbacMeta   `json:"metadata"`
	Rules    []rbacRule `json:"rules"`
}

type rbacSubject struct {
	Kind      string `json:"kind"`
	APIGroup  string `json:"apiGroup"`
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

type rbacRoleRef struct {
	APIGroup string `json:"apiGroup"`
	Kind     string `json:"kind"`
	Name     string `json:"name"`
}

// rbacRoleShape and rbacBindingShape are the fields of the four RBAC
// kinds, to check an input's shape where its positions are known.
type rbacRoleShape struct {
	APIVersion      string      `json:"apiVersion"`
	Kind            string      `json:"kind"`
	Metadata        rbacMeta    `json:"metadata"`
	Rules           []rbacRule  `json:"rules"`
	AggregationRule interface{} `json:"aggregationRule"`
}

type rbacBindingShape struct {
	APIVersion string        `json:"apiVersion"`
	Kind       string        `json:"kind"`
	Metadata   rbacMeta      `json:"metadata"`
	Subjects   []rbacSubject `json:"subjects"`
	RoleRef    rbacRoleRef   `json:"roleRef"`
}

// checkRBACShape refuses a Role, ClusterRole, RoleBinding or
// ClusterRoleBinding whose fields are unknown or of the wrong JSON type,
// located by locate (file:line:column and the field's path).
func checkRBACShape(obj map[string]interface{}, kind string, locate func(path, msg string) error) error {
	var shape interface{} = &rbacBindingShape{}
	if kind == "Role" || kind == "ClusterRole" {
		shape = &rbacRoleShape{}
	}
	return strictFill(obj, reflect.ValueOf(shape).Elem(), "", locate)
}

type rbacBinding struct {
	Metadata rbacMeta      `json:"metadata"`
	Subjects []rbacSubject `json:"subjects"`
	RoleRef  rbacRoleRef   `json:"roleRef"`
}

// rbacAuthorizer is the RBAC authorizer over fixed objects, behind the
// privileged-group authorizer. It is immutable and answers library.Authorizer.
type rbacAuthorizer struct {
	roles               map[string]*rbacRole // namespace/name
	clusterRoles        map[string]*rbacRole
	roleBindings        map[string][]*rbacBinding // by namespace, name order
	clusterRoleBindings []*rbacBinding            // name order
	// objects is the number of RBAC objects given.
	objects int
}

// isRBACObject tells whether o is one of the four RBAC kinds of
// rbac.authorization.k8s.io/v1.
func isRBACObject(o map[string]interface{}) bool {
	apiVersion, _ := o["apiVersion"].(string)
	kind, _ := o["kind"].(string)
	return IsRBACKind(apiVersion, kind)
}

// IsRBACKind reports whether apiVersion and kind are a Role, ClusterRole,
// RoleBinding or ClusterRoleBinding of rbac.authorization.k8s.io/v1, the
// objects the authorizer answers from (DecodeDocument checks their shape).
func IsRBACKind(apiVersion, kind string) bool {
	if apiVersion != rbacGroupVersion {
		return false
	}
	switch kind {
	case "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding":
		return true
	}
	return false
}

// newRBACAuthorizer builds the authorizer from the RBAC objects among
// objects (others are ignored). A Role or RoleBinding without a namespace is
// in "default" (kubectl's namespace when the context names none); a cluster
// role or binding's namespace is dropped, as the API server drops it.
func newRBACAuthorizer(objects []map[string]interface{}) (*rbacAuthorizer, error) {
	r := &rbacAuthorizer{roles: map[string]*rbacRole{}, clusterRoles: map[string]*rbacRole{}, roleBindings: map[string][]*rbacBinding{}}
	for _, o := range objects {
		if !isRBACObject(o) {
			continue
		}
		kind, _ := o["kind"].(string)
		b, err := json.Marshal(o)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %v", kind, metaString(o, "name"), err)
		}
		r.objects++
		switch kind {
		case "Role", "ClusterRole":
			role := &rbacRole{}
			if err := json.Unmarshal(b, role); err != nil {
				return nil, fmt.Errorf("%s %q: %v", kind, metaString(o, "name"), err)
			}
			if kind == "ClusterRole" {
				role.Metadata.Namespace = ""
				r.clusterRoles[role.Metadata.Name] = role
			} else {
				if role.Metadata.Namespace == "" {
					role.Metadata.Namespace = "default"
				}
				r.roles[role.Metadata.Namespace+"/"+role.Metadata.Name] = role
			}
		default:
			binding := &rbacBinding{}
			if err := json.Unmarshal(b, binding); err != nil {
				return nil, fmt.Errorf("%s %q: %v", kind, metaString(o, "name"), err)
			}
			if kind == "ClusterRoleBinding" {
				binding.Metadata.Namespace = ""
				r.clusterRoleBindings = replaceBinding(r.clusterRoleBindings, binding)
			} else {
				if binding.Metadata.Namespace == "" {
					binding.Metadata.Namespace = "default"
				}
				ns := binding.Metadata.Namespace
				r.roleBindings[ns] = replaceBinding(r.roleBindings[ns], binding)
			}
		}
	}
	sortBindings := func(bs []*rbacBinding) {
		sort.SliceStable(bs, func(i, j int) bool { return bs[i].Metadata.Name < bs[j].Metadata.Name })
	}
	sortBindings(r.clusterRoleBindings)
	for _, bs := range r.roleBindings {
		sortBindings(bs)
	}
	return r, nil
}

// replaceBinding adds b, replacing a binding of the same name (a later
// document of the inputs replaces an earlier one, as an informer's store).
func replaceBinding(bs []*rbacBinding, b *rbacBinding) []*rbacBinding {
	for i, x := range bs {
		if x.Metadata.Name == b.Metadata.Name {
			bs[i] = b
			return bs
		}
	}
	return append(bs, b)
}

// Authorize is the union of the privileged-group and RBAC authorizers.
func (r *rbacAuthorizer) Authorize(a library.AuthzAttributes) (bool, string, error) {
	for _, g := range a.User.Groups {
		if g == systemPrivilegedGrp {
			return true, "", nil
		}
	}
	allowed, reason := r.authorizeRBAC(a)
	if allowed {
		return true, reason, nil
	}
	if reason != "" {
		// the union prefixes the reasons of authorizers without an opinion
		// with their names
		reason = rbacAuthorizerName + ": " + reason
	}
	return false, reason, nil
}

// authorizeRBAC is RBACAuthorizer.Authorize: the first rule that allows
// the request decides; otherwise no opinion, with the resolution errors as
// the reason.
func (r *rbacAuthorizer) authorizeRBAC(a library.AuthzAttributes) (bool, string) {
	var errs []string
	for _, b := range r.clusterRoleBindings {
		i, ok := subjectFor(a.User, b.Subjects, "")
		if !ok {
			continue
		}
		rules, err := r.roleRefRules(b.RoleRef, "")
		if err != "" {
			errs = append(errs, err)
			continue
		}
		for k := range rules {
			if ruleAllows(a, &rules[k]) {
				return true, fmt.Sprintf("RBAC: allowed by ClusterRoleBinding %s of %s %s to %s",
					strconv.Quote(b.Metadata.Name), b.RoleRef.Kind, strconv.Quote(b.RoleRef.Name), describeSubject(&b.Subjects[i], ""))
			}
		}
	}
	if a.Namespace != "" {
		for _, b := range r.roleBindings[a.Namespace] {
			i, ok := subjectFor(a.User, b.Subjects, a.Namespace)
			if !ok {
				continue
			}
			rules, err := r.roleRefRules(b.RoleRef, a.Namespace)
			if err != "" {
				errs = append(errs, err)
				continue
			}
			for k := range rules {
				if ruleAllows(a, &rules[k]) {
					return true, fmt.Sprintf("RBAC: allowed by RoleBinding %s of %s %s to %s",
						strconv.Quote(b.Metadata.Name+"/"+b.Metadata.Namespace), b.RoleRef.Kind, strconv.Quote(b.RoleRef.Name),
						describeSubject(&b.Subjects[i], b.Metadata.Namespace))
				}
			}
		}
	}
	if len(errs) == 0 {
		return false, ""
	}
	return false, "RBAC: " + aggregateErrors(errs)
}

// aggregateErrors renders errors as apimachinery's utilerrors aggregate:
// one error as itself, several de-duplicated in brackets.
func aggregateErrors(errs []string) string {
	if len(errs) == 1 {
		return errs[0]
	}
	seen := map[string]bool{}
	var uniq []string
	for _, e := range errs {
		if !seen[e] {
			seen[e] = true
			uniq = append(uniq, e)
		}
	}
	if len(uniq) == 1 {
		return uniq[0]
	}
	return "[" + strings.Join(uniq, ", ") + "]"
}

// roleRefRules is GetRoleReferenceRules over informer listers: a missing
// role is the lister's NotFound error.
func (r *rbacAuthorizer) roleRefRules(ref rbacRoleRef, namespace string) ([]rbacRule, string) {
	switch ref.Kind {
	case "Role":
		role, ok := r.roles[namespace+"/"+ref.Name]
		if !ok {
			return nil, fmt.Sprintf("role.rbac.authorization.k8s.io %s not found", strconv.Quote(ref.Name))
		}
		return role.Rules, ""
	case "ClusterRole":
		role, ok := r.clusterRoles[ref.Name]
		if !ok {
			return nil, fmt.Sprintf("clusterrole.rbac.authorization.k8s.io %s not found", strconv.Quote(ref.Name))
		}
		return role.Rules, ""
	}
	return nil, fmt.Sprintf("unsupported role reference kind: %s", strconv.Quote(ref.Kind))
}

// subjectFor is appliesTo: the index of the first subject that is the user.
func subjectFor(u library.AuthzUser, subjects []rbacSubject, namespace string) (int, bool) {
	for i, s := range subjects {
		switch s.Kind {
		case "User":
			if u.Name == s.Name {
				return i, true
			}
		case "Group":
			for _, g := range u.Groups {
				if g == s.Name {
					return i, true
				}
			}
		case "ServiceAccount":
			ns := namespace
			if s.Namespace != "" {
				ns = s.Namespace
			}
			if ns != "" && u.Name == serviceAccountPrefix+ns+":"+s.Name {
				return i, true
			}
		}
	}
	return 0, false
}

func describeSubject(s *rbacSubject, bindingNamespace string) string {
	if s.Kind == "ServiceAccount" {
		ns := s.Namespace
		if ns == "" {
			ns = bindingNamespace
		}
		return s.Kind + " " + strconv.Quote(s.Name+"/"+ns)
	}
	return s.Kind + " " + strconv.Quote(s.Name)
}

// ruleAllows is rbac.RuleAllows.
func ruleAllows(a library.AuthzAttributes, rule *rbacRule) bool {
	if !anyIs(rule.Verbs, "*", a.Verb) {
		return false
	}
	if !a.ResourceRequest {
		for _, u := range rule.NonResourceURLs {
			if u == "*" || u == a.Path || (strings.HasSuffix(u, "*") && strings.HasPrefix(a.Path, strings.TrimRight(u, "*"))) {
				return true
			}
		}
		return false
	}
	if !anyIs(rule.APIGroups, "*", a.APIGroup) {
		return false
	}
	combined := a.Resource
	if a.Subresource != "" {
		combined += "/" + a.Subresource
	}
	resourceOK := false
	for _, res := range rule.Resources {
		if res == "*" || res == combined ||
			(a.Subresource != "" && len(res) == len(a.Subresource)+2 && strings.HasPrefix(res, "*/") && strings.HasSuffix(res, a.Subresource)) {
			resourceOK = true
			break
		}
	}
	if !resourceOK {
		return false
	}
	if len(rule.ResourceNames) == 0 {
		return true
	}
	return anyIs(rule.ResourceNames, a.Name, a.Name)
}

// anyIs tells whether list holds all or want.
func anyIs(list []string, all, want string) bool {
	for _, s := range list {
		if s == all || s == want {
			return true
		}
	}
	return false
}

// authzVars are the values of `authorizer` and `authorizer.requestResource`
// for one request.
type authzVars struct {
	authorizer, requestResource ref.Val
	// configured: RBAC objects were given.
	configured bool
}

// authzFor binds the authorizer to the request's user and resource.
func (r *rbacAuthorizer) authzFor(req *Request) *authzVars {
	u := library.AuthzUser{Name: req.UserInfo.Username, UID: req.UserInfo.UID, Groups: req.UserInfo.Groups, Extra: req.UserInfo.Extra}
	return &authzVars{
		authorizer:      library.NewAuthorizerVal(u, r),
		requestResource: library.NewResourceAuthorizerVal(u, r, req.Resource.Group, req.Resource.Resource, req.SubResource, req.Namespace, req.Name),
		configured:      r.objects > 0,
	}
}

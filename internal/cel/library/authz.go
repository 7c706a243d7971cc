package library

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/crdlab/crdlab/internal/names"
)

// The authz and authzSelectors libraries (upstream's library/authz.go) are
// part of upstream's base environment. Only admission environments bind an
// `authorizer` variable (NewAuthorizerVal, NewResourceAuthorizerVal); in a
// CRD environment no value of these types can be built, so only the
// declarations matter there (they decide, for example, whether `x.name()`
// fails with "undeclared reference" or "found no matching overload").

// AuthzUser is the user an authorization check is made for (user.Info).
type AuthzUser struct {
	Name   string
	UID    string
	Groups []string
	Extra  map[string][]string
}

// AuthzAttributes is one authorization check: upstream's
// authorizer.AttributesRecord as the library fills it. A resource check has
// ResourceRequest set and APIVersion "*"; a path check has Path.
type AuthzAttributes struct {
	User            AuthzUser
	Verb            string
	ResourceRequest bool
	APIGroup        string
	APIVersion      string
	Resource        string
	Subresource     string
	Namespace       string
	Name            string
	Path            string
	// FieldSelector and LabelSelector are the raw selectors of
	// fieldSelector() and labelSelector() (authzSelectors); empty when not set.
	FieldSelector, LabelSelector string
}

// Authorizer answers authorization checks (authorizer.Authorizer).
// Allowed is upstream's DecisionAllow; any other decision is not allowed.
type Authorizer interface {
	Authorize(a AuthzAttributes) (allowed bool, reason string, err error)
}

// Authz returns the kubernetes.authz library.
func Authz() cel.EnvOption {
	return cel.Lib(newLib("kubernetes.authz",
		[]*cel.Type{AuthorizerType, PathCheckType, GroupCheckType, ResourceCheckType, DecisionType}, authzDecls))
}

// AuthzSelectors returns the kubernetes.authzSelectors library.
func AuthzSelectors() cel.EnvOption {
	return cel.Lib(newLib("kubernetes.authzSelectors", []*cel.Type{ResourceCheckType}, authzSelectorsDecls))
}

func authzDecls() map[string][]cel.FunctionOpt {
	str := cel.StringType
	bin := func(id string, recv *cel.Type, res *cel.Type, f func(a, b ref.Val) ref.Val) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{recv, str}, res, cel.BinaryBinding(f))
	}
	un := func(id string, res *cel.Type, f func(ref.Val) ref.Val) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{DecisionType}, res, cel.UnaryBinding(f))
	}
	return map[string][]cel.FunctionOpt{
		"path":  {bin("authorizer_path", AuthorizerType, PathCheckType, authorizerPath)},
		"group": {bin("authorizer_group", AuthorizerType, GroupCheckType, authorizerGroup)},
		"serviceAccount": {cel.MemberOverload("authorizer_serviceaccount", []*cel.Type{AuthorizerType, str, str}, AuthorizerType,
			cel.FunctionBinding(authorizerServiceAccount))},
		"resource":    {bin("groupcheck_resource", GroupCheckType, ResourceCheckType, groupCheckResource)},
		"subresource": {bin("resourcecheck_subresource", ResourceCheckType, ResourceCheckType, resourceCheckSet(func(r *resourceCheckVal, s string) { r.subresource = s }))},
		"namespace":   {bin("resourcecheck_namespace", ResourceCheckType, ResourceCheckType, resourceCheckSet(func(r *resourceCheckVal, s string) { r.namespace = s }))},
		"name":        {bin("resourcecheck_name", ResourceCheckType, ResourceCheckType, resourceCheckSet(func(r *resourceCheckVal, s string) { r.name = s }))},
		"check": {
			bin("pathcheck_check", PathCheckType, DecisionType, pathCheckCheck),
			bin("resourcecheck_check", ResourceCheckType, DecisionType, resourceCheckCheck),
		},
		"errored": {un("decision_errored", cel.BoolType, decisionOf(func(d decisionVal) ref.Val { return types.Bool(d.err != nil) }))},
		"error": {un("decision_error", cel.StringType, decisionOf(func(d decisionVal) ref.Val {
			if d.err == nil {
				return types.String("")
			}
			return types.String(d.err.Error())
		}))},
		"allowed": {un("decision_allowed", cel.BoolType, decisionOf(func(d decisionVal) ref.Val { return types.Bool(d.allowed) }))},
		"reason":  {un("decision_reason", cel.StringType, decisionOf(func(d decisionVal) ref.Val { return types.String(d.reason) }))},
	}
}

func authzSelectorsDecls() map[string][]cel.FunctionOpt {
	return map[string][]cel.FunctionOpt{
		"fieldSelector": {cel.MemberOverload("authorizer_fieldselector", []*cel.Type{ResourceCheckType, cel.StringType}, ResourceCheckType,
			cel.BinaryBinding(resourceCheckSet(func(r *resourceCheckVal, s string) { r.fieldSelector = s })))},
		"labelSelector": {cel.MemberOverload("authorizer_labelselector", []*cel.Type{ResourceCheckType, cel.StringType}, ResourceCheckType,
			cel.BinaryBinding(resourceCheckSet(func(r *resourceCheckVal, s string) { r.labelSelector = s })))},
	}
}

func authorizerPath(a, p ref.Val) ref.Val {
	az, ok := a.(authorizerVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	path, ok := p.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	if strings.TrimSpace(path) == "" {
		return types.NewErr("path must not be empty")
	}
	return pathCheckVal{receiverOnly: receiverOnlyOf(PathCheckType), authz: az, path: path}
}

func authorizerGroup(a, g ref.Val) ref.Val {
	az, ok := a.(authorizerVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	group, ok := g.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	return az.groupCheck(group)
}

func authorizerServiceAccount(args ...ref.Val) ref.Val {
	if len(args) != 3 {
		return types.NoSuchOverloadErr()
	}
	az, ok := args[0].(authorizerVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(args[0])
	}
	namespace, ok := args[1].Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(args[1])
	}
	name, ok := args[2].Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(args[2])
	}
	// ValidateServiceAccountName is NameIsDNSSubdomain, ValidateNamespaceName
	// NameIsDNSLabel; the name is checked first.
	if len(names.NameIsDNSSubdomain(name, false)) > 0 {
		return types.NewErr("Invalid service account name")
	}
	if len(names.NameIsDNSLabel(namespace, false)) > 0 {
		return types.NewErr("Invalid service account namespace")
	}
	return authorizerVal{receiverOnly: receiverOnlyOf(AuthorizerType), user: ServiceAccountUser(namespace, name), authorizer: az.authorizer}
}

// ServiceAccountUser is the user of a service account's token
// (serviceaccount.ServiceAccountInfo.UserInfo without pod or node):
// system:serviceaccount:<namespace>:<name>, in the groups
// system:serviceaccounts and system:serviceaccounts:<namespace>.
func ServiceAccountUser(namespace, name string) AuthzUser {
	return AuthzUser{
		Name:   "system:serviceaccount:" + namespace + ":" + name,
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + namespace},
	}
}

func groupCheckResource(g, r ref.Val) ref.Val {
	gc, ok := g.(groupCheckVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(g)
	}
	resource, ok := r.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(g)
	}
	if strings.TrimSpace(resource) == "" {
		return types.NewErr("resource must not be empty")
	}
	return gc.resourceCheck(resource)
}

// resourceCheckSet is the binding of a ResourceCheck builder that sets one
// attribute (subresource, namespace, name, fieldSelector, labelSelector).
func resourceCheckSet(set func(*resourceCheckVal, string)) func(a, b ref.Val) ref.Val {
	return func(a, b ref.Val) ref.Val {
		rc, ok := a.(resourceCheckVal)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		s, ok := b.Value().(string)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		set(&rc, s)
		return rc
	}
}

func pathCheckCheck(p, v ref.Val) ref.Val {
	pc, ok := p.(pathCheckVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(p)
	}
	verb, ok := v.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(p)
	}
	return pc.authz.decide(AuthzAttributes{User: pc.authz.user, Verb: verb, Path: pc.path})
}

func resourceCheckCheck(r, v ref.Val) ref.Val {
	rc, ok := r.(resourceCheckVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(r)
	}
	verb, ok := v.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(r)
	}
	az := rc.group.authz
	return az.decide(AuthzAttributes{
		User: az.user, Verb: verb, ResourceRequest: true,
		APIGroup: rc.group.group, APIVersion: "*", Resource: rc.resource, Subresource: rc.subresource,
		Namespace: rc.namespace, Name: rc.name,
		FieldSelector: rc.fieldSelector, LabelSelector: rc.labelSelector,
	})
}

func decisionOf(f func(decisionVal) ref.Val) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		d, ok := v.(decisionVal)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return f(d)
	}
}

// NewAuthorizerVal is the value of the `authorizer` variable: checks made
// for user, answered by a.
func NewAuthorizerVal(user AuthzUser, a Authorizer) ref.Val {
	return authorizerVal{receiverOnly: receiverOnlyOf(AuthorizerType), user: user, authorizer: a}
}

// NewResourceAuthorizerVal is the value of `authorizer.requestResource`: a
// ResourceCheck of the request's group, resource, subresource, namespace and
// name.
func NewResourceAuthorizerVal(user AuthzUser, a Authorizer, group, resource, subresource, namespace, name string) ref.Val {
	az := authorizerVal{receiverOnly: receiverOnlyOf(AuthorizerType), user: user, authorizer: a}
	rc := az.groupCheck(group).resourceCheck(resource)
	rc.subresource, rc.namespace, rc.name = subresource, namespace, name
	return rc
}

type authorizerVal struct {
	receiverOnly
	user       AuthzUser
	authorizer Authorizer
}

func (a authorizerVal) groupCheck(group string) groupCheckVal {
	return groupCheckVal{receiverOnly: receiverOnlyOf(GroupCheckType), authz: a, group: group}
}

func (a authorizerVal) decide(attrs AuthzAttributes) ref.Val {
	allowed, reason, err := a.authorizer.Authorize(attrs)
	return decisionVal{receiverOnly: receiverOnlyOf(DecisionType), allowed: allowed, reason: reason, err: err}
}

type pathCheckVal struct {
	receiverOnly
	authz authorizerVal
	path  string
}

type groupCheckVal struct {
	receiverOnly
	authz authorizerVal
	group string
}

func (g groupCheckVal) resourceCheck(resource string) resourceCheckVal {
	return resourceCheckVal{receiverOnly: receiverOnlyOf(ResourceCheckType), group: g, resource: resource}
}

type resourceCheckVal struct {
	receiverOnly
	group                                  groupCheckVal
	resource, subresource, namespace, name string
	fieldSelector, labelSelector           string
}

type decisionVal struct {
	receiverOnly
	allowed bool
	reason  string
	err     error
}

// receiverOnly is upstream's receiverOnlyObjectVal: a value that only
// functions receive. Its methods are promoted to the values that embed it,
// with upstream's quirks: equality with anything is "no such overload"
// (the other value is never the bare embedded struct), and a conversion to
// its own type gives the bare struct.
type receiverOnly struct {
	typeValue *types.Type
}

func receiverOnlyOf(t *cel.Type) receiverOnly {
	return receiverOnly{typeValue: types.NewTypeValue(t.String())}
}

func (a receiverOnly) ConvertToNative(typeDesc reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion error from '%s' to '%v'", a.typeValue.String(), typeDesc)
}

func (a receiverOnly) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case a.typeValue:
		return a
	case types.TypeType:
		return a.typeValue
	}
	return types.NewErr("type conversion error from '%s' to '%s'", a.typeValue, typeVal)
}

func (a receiverOnly) Equal(other ref.Val) ref.Val {
	o, ok := other.(receiverOnly)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(a == o)
}

func (a receiverOnly) Type() ref.Type { return a.typeValue }

func (a receiverOnly) Value() any { return types.NoSuchOverloadErr() }

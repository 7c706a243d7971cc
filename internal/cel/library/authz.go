package library

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// The authz and authzSelectors libraries are part of upstream's base
// environment. Only admission environments bind an `authorizer` variable;
// in a CRD environment no value of these types can be built, so only the
// declarations matter (they decide, for example, whether `x.name()` fails
// with "undeclared reference" or "found no matching overload"). The bindings
// therefore only report "no such overload".

// Authz returns the kubernetes.authz library declarations.
func Authz() cel.EnvOption {
	return cel.Lib(newLib("kubernetes.authz",
		[]*cel.Type{AuthorizerType, PathCheckType, GroupCheckType, ResourceCheckType, DecisionType}, authzDecls))
}

// AuthzSelectors returns the kubernetes.authzSelectors library declarations.
func AuthzSelectors() cel.EnvOption {
	return cel.Lib(newLib("kubernetes.authzSelectors", []*cel.Type{ResourceCheckType}, authzSelectorsDecls))
}

func unavailable1(a ref.Val) ref.Val       { return types.MaybeNoSuchOverloadErr(a) }
func unavailable2(a, _ ref.Val) ref.Val    { return types.MaybeNoSuchOverloadErr(a) }
func unavailableN(args ...ref.Val) ref.Val { return types.MaybeNoSuchOverloadErr(args[0]) }

func authzDecls() map[string][]cel.FunctionOpt {
	str := cel.StringType
	bin := func(id string, recv *cel.Type, res *cel.Type) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{recv, str}, res, cel.BinaryBinding(unavailable2))
	}
	un := func(id string, res *cel.Type) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{DecisionType}, res, cel.UnaryBinding(unavailable1))
	}
	return map[string][]cel.FunctionOpt{
		"path":  {bin("authorizer_path", AuthorizerType, PathCheckType)},
		"group": {bin("authorizer_group", AuthorizerType, GroupCheckType)},
		"serviceAccount": {cel.MemberOverload("authorizer_serviceaccount", []*cel.Type{AuthorizerType, str, str}, AuthorizerType,
			cel.FunctionBinding(unavailableN))},
		"resource":    {bin("groupcheck_resource", GroupCheckType, ResourceCheckType)},
		"subresource": {bin("resourcecheck_subresource", ResourceCheckType, ResourceCheckType)},
		"namespace":   {bin("resourcecheck_namespace", ResourceCheckType, ResourceCheckType)},
		"name":        {bin("resourcecheck_name", ResourceCheckType, ResourceCheckType)},
		"check": {
			bin("pathcheck_check", PathCheckType, DecisionType),
			bin("resourcecheck_check", ResourceCheckType, DecisionType),
		},
		"errored": {un("decision_errored", cel.BoolType)},
		"error":   {un("decision_error", cel.StringType)},
		"allowed": {un("decision_allowed", cel.BoolType)},
		"reason":  {un("decision_reason", cel.StringType)},
	}
}

func authzSelectorsDecls() map[string][]cel.FunctionOpt {
	return map[string][]cel.FunctionOpt{
		"fieldSelector": {cel.MemberOverload("authorizer_fieldselector", []*cel.Type{ResourceCheckType, cel.StringType}, ResourceCheckType,
			cel.BinaryBinding(unavailable2))},
		"labelSelector": {cel.MemberOverload("authorizer_labelselector", []*cel.Type{ResourceCheckType, cel.StringType}, ResourceCheckType,
			cel.BinaryBinding(unavailable2))},
	}
}

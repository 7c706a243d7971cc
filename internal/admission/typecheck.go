package admission

import (
	"fmt"
	"sort"
	"strings"

	"github.com/google/cel-go/cel"

	"github.com/crdlab/crdlab/engine/crd"
	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/cel/library"
	"github.com/crdlab/crdlab/internal/schema"
)

// Type checking of a ValidatingAdmissionPolicy: what the policy status
// controller writes to status.typeChecking.expressionWarnings
// (k8s.io/apiserver/pkg/admission/plugin/policy/validating/typechecking.go,
// TypeChecker.Check). The kinds are those the REST mapper gives for the
// resource rules of matchConstraints (no wildcard group or version, no
// wildcard or subresource resource, at most maxTypesToCheck per rule), each
// typed by its published OpenAPI v3 schema; here the CRDs given are the
// cluster, and a kind without a CRD (a built-in) has no schema and is
// skipped, as upstream skips a kind its resolver cannot find.

// maxTypesToCheck is upstream's limit on the kinds counted per rule.
const maxTypesToCheck = 10

// ExpressionWarning is admissionregistration/v1 ExpressionWarning: the
// type-checking warning of one expression, over every kind checked.
type ExpressionWarning struct {
	// FieldRef is the expression's path: spec.validations[i].expression
	// or spec.validations[i].messageExpression.
	FieldRef string `json:"fieldRef"`
	// Warning is upstream's text: per kind that fails, "<group>/<version>,
	// Kind=<kind>: <the CEL compiler's issues>\n", joined by "\n".
	Warning string `json:"warning"`
}

// TypeCheck type-checks p's validations and messageExpressions against the
// kinds its matchConstraints match among crds (the served versions, as
// discovery lists them), with params typed by paramKind's CRD when it is one
// of crds. It returns nil when there is nothing to warn about.
func TypeCheck(p *Policy, crds []*crd.CustomResourceDefinition) ([]ExpressionWarning, error) {
	if p == nil || len(p.Spec.Validations) == 0 {
		return nil, nil
	}
	kinds := typesToCheck(p, crds)
	hasParams, paramGVK := paramsGVK(p)
	var paramType *kcel.DeclType
	if hasParams {
		t, err := resolveType(crds, paramGVK, paramGVK.Kind+"1")
		if err != nil {
			return nil, err
		}
		paramType = t
	}
	type checked struct {
		gvk     GVK
		results []string // per expression: "" or the issues
	}
	var exprs []string
	var refs []string
	for i, v := range p.Spec.Validations {
		exprs = append(exprs, v.Expression)
		refs = append(refs, fmt.Sprintf("spec.validations[%d].expression", i))
		if v.MessageExpression != "" {
			exprs = append(exprs, v.MessageExpression)
			refs = append(refs, fmt.Sprintf("spec.validations[%d].messageExpression", i))
		}
	}
	var all []checked
	for _, k := range kinds {
		obj, err := resolveType(crds, k, k.Kind+"0")
		if err != nil {
			return nil, err
		}
		if obj == nil {
			continue
		}
		env, err := typeCheckEnv(p, obj, hasParams, paramType)
		if err != nil {
			return nil, err
		}
		c := checked{gvk: k, results: make([]string, len(exprs))}
		for i, e := range exprs {
			if _, iss := env.Compile(e); iss != nil {
				c.results[i] = iss.String()
			}
		}
		all = append(all, c)
	}
	var out []ExpressionWarning
	for i := range exprs {
		var msgs []string
		for _, c := range all {
			if c.results[i] != "" {
				msgs = append(msgs, fmt.Sprintf("%s/%s, Kind=%s: %s\n", c.gvk.Group, c.gvk.Version, c.gvk.Kind, c.results[i]))
			}
		}
		if len(msgs) > 0 {
			out = append(out, ExpressionWarning{FieldRef: refs[i], Warning: strings.Join(msgs, "\n")})
		}
	}
	return out, nil
}

// typeCheckEnv is upstream's buildEnvSet and composited compiler for type
// checking: the StoredExpressions base environment, kubernetes.variables,
// namespaceObject and request, object and oldObject of the kind's type (dyn
// without one), params when the policy has a paramKind (dyn unless its
// schema is known) and authorizer (without authorizer.requestResource); the
// policy's variables compiled in order into kubernetes.variables.
func typeCheckEnv(p *Policy, obj *kcel.DeclType, hasParams bool, params *kcel.DeclType) (*cel.Env, error) {
	b, err := base()
	if err != nil {
		return nil, err
	}
	vars := kcel.NewObjectDeclType("kubernetes.variables", nil)
	withVars, err := b.Extend(append(kcel.TypeProviderOptions(b, vars),
		cel.Variable(varVariables, vars.CelType()))...)
	if err != nil {
		return nil, err
	}
	roots := []*kcel.DeclType{nsType, reqType}
	objCel := cel.DynType
	if obj != nil {
		roots = append(roots, obj)
		objCel = obj.CelType()
	}
	opts := []cel.EnvOption{
		cel.Variable(varNamespace, nsType.CelType()),
		cel.Variable(varRequest, reqType.CelType()),
		cel.Variable(varObject, objCel),
		cel.Variable(varOldObject, objCel),
	}
	if hasParams {
		pt := cel.DynType
		if params != nil {
			roots = append(roots, params)
			pt = params.CelType()
		}
		opts = append(opts, cel.Variable(varParams, pt))
	}
	opts = append(opts, cel.Variable(varAuthorizer, library.AuthorizerType))
	env, err := withVars.Extend(append(kcel.TypeProviderOptions(withVars, roots...), opts...)...)
	if err != nil {
		return nil, fmt.Errorf("environment misconfigured: %w", err)
	}
	for _, v := range p.Spec.Variables {
		var t *cel.Type
		if ast, iss := env.Compile(v.Expression); iss == nil {
			t = ast.OutputType()
		}
		vars.Fields[v.Name] = &kcel.DeclField{Name: v.Name, Type: declTypeOf(t), Required: true}
	}
	return env, nil
}

// paramsGVK is upstream's: none without paramKind or when its apiVersion
// does not parse as a group version.
func paramsGVK(p *Policy) (bool, GVK) {
	pk := p.Spec.ParamKind
	if pk == nil {
		return false, GVK{}
	}
	var g GVK
	switch strings.Count(pk.APIVersion, "/") {
	case 0:
		g = GVK{Version: pk.APIVersion, Kind: pk.Kind}
	case 1:
		i := strings.Index(pk.APIVersion, "/")
		g = GVK{Group: pk.APIVersion[:i], Version: pk.APIVersion[i+1:], Kind: pk.Kind}
	default:
		return false, GVK{}
	}
	return g != GVK{}, g
}

// typesToCheck is upstream's: per resource rule of matchConstraints (none
// when a group or version is a wildcard; wildcard and subresource resources
// left out), groups, versions and resources sorted, the kinds the REST
// mapper gives for each combination; at the maxTypesToCheck-th kind of a
// rule the kinds found so far are returned. Sorted by group, version, kind.
func typesToCheck(p *Policy, crds []*crd.CustomResourceDefinition) []GVK {
	mc := p.Spec.MatchConstraints
	if mc == nil {
		return nil
	}
	set := map[GVK]bool{}
	done := false
	for _, rule := range mc.ResourceRules {
		if done {
			break
		}
		groups := withoutWildcards(rule.APIGroups)
		versions := withoutWildcards(rule.APIVersions)
		var resources []string
		for _, r := range rule.Resources {
			if !strings.ContainsAny(r, "*/") {
				resources = append(resources, r)
			}
		}
		if len(groups) == 0 || len(versions) == 0 || len(resources) == 0 {
			continue
		}
		sort.Strings(groups)
		sort.Strings(versions)
		sort.Strings(resources)
		count := 0
	combos:
		for _, g := range groups {
			for _, v := range versions {
				for _, r := range resources {
					for _, k := range kindsFor(crds, g, v, r) {
						set[k] = true
						count++
						if count == maxTypesToCheck {
							done = true
							break combos
						}
					}
				}
			}
		}
	}
	out := make([]GVK, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	return out
}

func withoutWildcards(list []string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if strings.Contains(s, "*") {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// kindsFor is the discovery REST mapper's KindsFor of a group, version and
// resource over the served versions of crds: the resource (lower-cased)
// is a CRD's plural or singular (its lower-cased kind when it has none);
// an empty group matches every group of the version, as the mapper does
// for a resource without a group.
func kindsFor(crds []*crd.CustomResourceDefinition, group, version, resource string) []GVK {
	resource = strings.ToLower(resource)
	var out []GVK
	// the built-in resource whose kind has a schema here
	if (group == "" || group == crdKindGVK.Group) && version == crdKindGVK.Version &&
		(resource == "customresourcedefinitions" || resource == "customresourcedefinition") {
		out = append(out, crdKindGVK)
	}
	for _, def := range crds {
		if def == nil || (group != "" && def.Spec.Group != group) {
			continue
		}
		n := def.Spec.Names
		singular := n.Singular
		if singular == "" {
			singular = strings.ToLower(n.Kind)
		}
		if n.Plural != resource && singular != resource {
			continue
		}
		for _, v := range def.Spec.Versions {
			if !v.Served || v.Name != version {
				continue
			}
			k := GVK{Group: def.Spec.Group, Version: v.Name, Kind: n.Kind}
			dup := false
			for _, o := range out {
				dup = dup || o == k
			}
			if !dup {
				out = append(out, k)
			}
		}
	}
	return out
}

// resolveType is the schema resolver of the status controller: the
// definitions of apiextensions.k8s.io first (CustomResourceDefinition),
// then the published OpenAPI v3 of the served CRD versions. nil when the
// kind has no schema here (built-in kinds): it is skipped.
func resolveType(crds []*crd.CustomResourceDefinition, k GVK, name string) (*kcel.DeclType, error) {
	if k == crdKindGVK {
		return crdKindType(name)
	}
	s, ok := resolveSchema(crds, k)
	if !ok {
		return nil, nil
	}
	return kcel.PublishedDeclType(s).MaybeAssignTypeName(name), nil
}

// resolveSchema finds the structural schema of a served CRD version (nil
// when the version has none or it is not structural: the builder publishes
// {type: object} then).
func resolveSchema(crds []*crd.CustomResourceDefinition, k GVK) (*schema.Structural, bool) {
	for _, def := range crds {
		if def == nil || def.Spec.Group != k.Group || def.Spec.Names.Kind != k.Kind {
			continue
		}
		for _, v := range def.Spec.Versions {
			if !v.Served || v.Name != k.Version {
				continue
			}
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				return nil, true
			}
			s, err := schema.NewStructural(v.Schema.OpenAPIV3Schema)
			if err != nil || len(schema.ValidateStructural(nil, s)) > 0 {
				return nil, true
			}
			return s, true
		}
	}
	return nil, false
}

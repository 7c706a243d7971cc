package admission

import (
	"slices"

	"github.com/crdlab/crdlab/engine/crd"
)

// PolicyObjectSchema is the schema (openAPIV3Schema) that types object and
// oldObject in the expressions of a policy whose matchConstraints are mc,
// for completion: that of the first kind TypeCheck checks among crds;
// when it checks none (a wildcard group or version, which type checking
// skips), that of the served version of crds that a resource rule
// matches, the storage version first. nil when no CRD's version matches.
func PolicyObjectSchema(mc *MatchResources, crds []*crd.CustomResourceDefinition) *crd.JSONSchemaProps {
	if mc == nil {
		return nil
	}
	if kinds := typesToCheck(&Policy{Spec: PolicySpec{MatchConstraints: mc}}, crds); len(kinds) > 0 {
		for _, k := range kinds {
			if s := servedSchema(crds, k); s != nil {
				return s
			}
		}
		return nil
	}
	for _, def := range crds {
		if def == nil {
			continue
		}
		var matched []crd.CustomResourceDefinitionVersion
		for _, v := range def.Spec.Versions {
			if v.Served && v.Schema != nil && v.Schema.OpenAPIV3Schema != nil && rulesMatch(mc.ResourceRules, def, v.Name) {
				matched = append(matched, v)
			}
		}
		for _, v := range matched {
			if v.Storage {
				return v.Schema.OpenAPIV3Schema
			}
		}
		if len(matched) > 0 {
			return matched[0].Schema.OpenAPIV3Schema
		}
	}
	return nil
}

// PolicyParamsSchema is the schema of a policy's paramKind among crds
// (its served version), nil when it is none of theirs.
func PolicyParamsSchema(pk *ParamKind, crds []*crd.CustomResourceDefinition) *crd.JSONSchemaProps {
	ok, k := paramsGVK(&Policy{Spec: PolicySpec{ParamKind: pk}})
	if !ok {
		return nil
	}
	return servedSchema(crds, k)
}

// servedSchema is the openAPIV3Schema of the served version k of crds.
func servedSchema(crds []*crd.CustomResourceDefinition, k GVK) *crd.JSONSchemaProps {
	for _, def := range crds {
		if def == nil || def.Spec.Group != k.Group || def.Spec.Names.Kind != k.Kind {
			continue
		}
		for _, v := range def.Spec.Versions {
			if v.Served && v.Name == k.Version && v.Schema != nil {
				return v.Schema.OpenAPIV3Schema
			}
		}
	}
	return nil
}

// rulesMatch says whether a resource rule matches the resource of def at
// version (wildcards allowed; subresources not).
func rulesMatch(rules []NamedRuleWithOperations, def *crd.CustomResourceDefinition, version string) bool {
	has := func(list []string, s string) bool { return slices.Contains(list, "*") || slices.Contains(list, s) }
	for _, r := range rules {
		if has(r.APIGroups, def.Spec.Group) && has(r.APIVersions, version) && has(r.Resources, def.Spec.Names.Plural) {
			return true
		}
	}
	return false
}

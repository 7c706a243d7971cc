//go:build !versions_oracle

package upstream

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/openapi"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	"k8s.io/client-go/restmapper"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// ExpressionWarning is admissionregistration/v1 ExpressionWarning.
type ExpressionWarning struct {
	FieldRef string `json:"fieldRef"`
	Warning  string `json:"warning"`
}

// BuiltinResource is a built-in resource the REST mapper of TypeCheckPolicy
// knows (discovery lists it) but whose schema it does not resolve.
type BuiltinResource struct {
	Group, Version, Resource, Kind string
	Namespaced                     bool
}

// TypeCheckPolicy runs the validating plugin's TypeChecker (the
// ValidatingAdmissionPolicy status controller's type checking) on a policy
// (JSON of admissionregistration/v1) with a cluster made of crds and
// builtins: the REST mapper is client-go's discovery REST mapper over the
// served versions of the CRDs (as discovery lists them) and the builtins;
// the schema resolver is ClientDiscoveryResolver's over the OpenAPI v3
// documents the API server publishes for the CRDs (builder.BuildOpenAPIV3,
// serialized and read back, the GVK found by x-kubernetes-group-version-kind,
// refs populated by resolver.PopulateRefs). Built-in kinds have no schema
// here (ErrSchemaNotFound).
func TypeCheckPolicy(policyJSON []byte, crds []*apiextensionsv1.CustomResourceDefinition, builtins []BuiltinResource) ([]ExpressionWarning, error) {
	policy := &admissionregistrationv1.ValidatingAdmissionPolicy{}
	if err := json.Unmarshal(policyJSON, policy); err != nil {
		return nil, err
	}
	groups := map[string]*restmapper.APIGroupResources{}
	var order []string
	add := func(group, version string, r metav1.APIResource) {
		g, ok := groups[group]
		if !ok {
			g = &restmapper.APIGroupResources{
				Group:              metav1.APIGroup{Name: group},
				VersionedResources: map[string][]metav1.APIResource{},
			}
			groups[group] = g
			order = append(order, group)
		}
		if _, ok := g.VersionedResources[version]; !ok {
			g.Group.Versions = append(g.Group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: schema.GroupVersion{Group: group, Version: version}.String(), Version: version})
		}
		g.VersionedResources[version] = append(g.VersionedResources[version], r)
	}
	for _, b := range builtins {
		add(b.Group, b.Version, metav1.APIResource{Name: b.Resource, Kind: b.Kind, Namespaced: b.Namespaced})
	}
	docs := map[schema.GroupVersion][]map[string]*spec.Schema{}
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			add(crd.Spec.Group, v.Name, metav1.APIResource{
				Name: crd.Spec.Names.Plural, SingularName: crd.Spec.Names.Singular,
				Kind: crd.Spec.Names.Kind, Namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
			})
			doc, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{V2: false, IncludeSelectableFields: true})
			if err != nil {
				return nil, err
			}
			js, err := json.Marshal(doc)
			if err != nil {
				return nil, err
			}
			var resp struct {
				Components struct {
					Schemas map[string]*spec.Schema `json:"schemas"`
				} `json:"components"`
			}
			if err := json.Unmarshal(js, &resp); err != nil {
				return nil, err
			}
			gv := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
			docs[gv] = append(docs[gv], resp.Components.Schemas)
		}
	}
	var list []*restmapper.APIGroupResources
	for _, g := range order {
		list = append(list, groups[g])
	}
	tc := &validating.TypeChecker{
		SchemaResolver: apiextensionsDefinitions().Combine(crdSchemaResolver(docs)),
		RestMapper:     restmapper.NewDiscoveryRESTMapper(list),
	}
	var out []ExpressionWarning
	for _, w := range tc.Check(policy) {
		out = append(out, ExpressionWarning{FieldRef: w.FieldRef, Warning: w.Warning})
	}
	return out, nil
}

// crdSchemaResolver is ClientDiscoveryResolver over in-memory documents: the
// published document of a group version merges every CRD's of that version.
type crdSchemaResolver map[schema.GroupVersion][]map[string]*spec.Schema

func (r crdSchemaResolver) ResolveSchema(gvk schema.GroupVersionKind) (*spec.Schema, error) {
	all := map[string]*spec.Schema{}
	for _, d := range r[gvk.GroupVersion()] {
		for k, v := range d {
			all[k] = v
		}
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("cannot resolve group version %q: %w", gvk.GroupVersion(), resolver.ErrSchemaNotFound)
	}
	for name, s := range all {
		var gvks []schema.GroupVersionKind
		if err := s.Extensions.GetObject("x-kubernetes-group-version-kind", &gvks); err != nil {
			return nil, err
		}
		for _, g := range gvks {
			if g == gvk {
				return resolver.PopulateRefs(func(ref string) (*spec.Schema, bool) {
					s, ok := all[strings.TrimPrefix(ref, "#/components/schemas/")]
					return s, ok
				}, name)
			}
		}
	}
	return nil, fmt.Errorf("cannot resolve group version kind %q: %w", gvk, resolver.ErrSchemaNotFound)
}

// PublishedDeclType renders the CEL type the type checker gives a CRD
// version's kind (its schema resolved from the published OpenAPI v3
// document, common.SchemaDeclType as a resource root, object types named
// after name): one line per field, sorted, "path: type" with "
// (required)" for required fields.
func PublishedDeclType(crd *apiextensionsv1.CustomResourceDefinition, version, name string) (string, error) {
	doc, err := builder.BuildOpenAPIV3(crd, version, builder.Options{V2: false, IncludeSelectableFields: true})
	if err != nil {
		return "", err
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	var resp struct {
		Components struct {
			Schemas map[string]*spec.Schema `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(js, &resp); err != nil {
		return "", err
	}
	gv := schema.GroupVersion{Group: crd.Spec.Group, Version: version}
	r := crdSchemaResolver{gv: {resp.Components.Schemas}}
	s, err := r.ResolveSchema(gv.WithKind(crd.Spec.Names.Kind))
	if err != nil {
		return "", err
	}
	t := openapi.SchemaDeclType(s, true)
	if t == nil {
		return "", nil
	}
	var lines []string
	renderDeclType("object", t.MaybeAssignTypeName(name), false, &lines, 0)
	sort.Strings(lines)
	return strings.Join(lines, "\n"), nil
}

func renderDeclType(path string, t *apiservercel.DeclType, required bool, lines *[]string, depth int) {
	line := path + ": " + t.CelType().String()
	if required {
		line += " (required)"
	}
	*lines = append(*lines, line)
	if depth > 20 {
		return
	}
	switch {
	case t.IsObject():
		for n, f := range t.Fields {
			renderDeclType(path+"."+n, f.Type, f.Required, lines, depth+1)
		}
	case t.IsList():
		renderDeclType(path+"[]", t.ElemType, false, lines, depth+1)
	case t.IsMap():
		renderDeclType(path+"{}", t.ElemType, false, lines, depth+1)
	}
}

// apiextensionsDefinitions is the status controller's definitions resolver
// (resolver.NewDefinitionsSchemaResolver) over apiextensions-apiserver's
// generated definitions and scheme.
func apiextensionsDefinitions() *resolver.DefinitionsSchemaResolver {
	return resolver.NewDefinitionsSchemaResolver(generatedopenapi.GetOpenAPIDefinitions, apiextensionsscheme.Scheme)
}

// KindSchema is the part of a resolved schema the CEL type of a kind
// depends on (common.SchemaDeclType through the openapi adaptor): the
// first type, the format, x-kubernetes-int-or-string (the extension or the
// int-or-string format), x-kubernetes-embedded-resource, required, and the
// properties, items and additionalProperties schemas.
type KindSchema struct {
	Type                 string                `json:"type,omitempty"`
	Format               string                `json:"format,omitempty"`
	IntOrString          bool                  `json:"intOrString,omitempty"`
	EmbeddedResource     bool                  `json:"embeddedResource,omitempty"`
	Required             []string              `json:"required,omitempty"`
	Properties           map[string]KindSchema `json:"properties,omitempty"`
	Items                *KindSchema           `json:"items,omitempty"`
	AdditionalProperties *KindSchema           `json:"additionalProperties,omitempty"`
}

// CRDKindSchema is the schema of apiextensions.k8s.io/v1
// CustomResourceDefinition as the policy status controller's definitions
// resolver gives it (references inlined, recursive ones as {type:
// object}), reduced to KindSchema.
func CRDKindSchema() (*KindSchema, error) {
	s, err := apiextensionsDefinitions().ResolveSchema(apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition"))
	if err != nil {
		return nil, err
	}
	k := kindSchemaOf(s)
	return &k, nil
}

func kindSchemaOf(s *spec.Schema) KindSchema {
	var k KindSchema
	if len(s.Type) > 0 {
		k.Type = s.Type[0]
	}
	k.Format = s.Format
	isExt := func(name string) bool {
		b, ok := s.Extensions.GetBool(name)
		return ok && b
	}
	k.IntOrString = s.Format == "int-or-string" || isExt("x-kubernetes-int-or-string")
	k.EmbeddedResource = isExt("x-kubernetes-embedded-resource")
	k.Required = s.Required
	if s.Properties != nil {
		k.Properties = map[string]KindSchema{}
		for n, p := range s.Properties {
			k.Properties[n] = kindSchemaOf(&p)
		}
	}
	if s.Items != nil && s.Items.Schema != nil {
		it := kindSchemaOf(s.Items.Schema)
		k.Items = &it
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		ap := kindSchemaOf(s.AdditionalProperties.Schema)
		k.AdditionalProperties = &ap
	}
	return k
}

// Package ssa is server-side apply for custom resources, as kube-apiserver
// 1.37 runs it: the CRD's structural schema as a structured-merge-diff
// (sigs.k8s.io/structured-merge-diff/v6) typed schema, and the field
// manager's pipeline around SMD's merge.Updater (managedFields encoding,
// manager identifiers, the update-manager cap, metadata stripping,
// conflicts). The public entry point is package apply.
//
// # Files
//
//   - typeschema.go: the CRD schema as an SMD typed schema (list and map
//     types, keys, deduced and untyped nodes, TypeMeta and ObjectMeta at
//     the root and in embedded resources), as customresource_handler.go's
//     buildOpenAPIModelsForApply, the OpenAPI builder and kube-openapi's
//     schemaconv build it; ObjectMeta's types are generated from upstream
//     in objectmeta.yaml.
//   - fieldmanager.go: the field manager chain of
//     k8s.io/apimachinery/pkg/util/managedfields/internal (version check,
//     last-applied, before-first-apply, capManagers, buildManagerInfo,
//     managedFieldsUpdater, stripMeta, structuredMerge, the CRD version
//     converter, conflicts): what computes managedFields.
//   - managedfields.go: only the encoding and decoding of the
//     metadata.managedFields entries.
//
// The differential test is conformance/apply_test.go (upstream's
// managedfields.NewDefaultCRDFieldManager with the real type converter,
// conformance/upstream/apply.go), the typed schema against schemaconv's.
package ssa

import (
	_ "embed"
	"fmt"
	"sort"
	"sync"

	yaml2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/crdlab/crdlab/engine/crd"
	crdschema "github.com/crdlab/crdlab/internal/schema"
)

// objectMetaYAML holds ObjectMeta's types as the static OpenAPI spec gives
// them to the CRD handler (see the file's header).
//
//go:embed objectmeta.yaml
var objectMetaYAML []byte

// The type names schemaconv gives the shared types.
const (
	objectMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	untypedName    = "__untyped_atomic_"
	deducedName    = "__untyped_deduced_"
)

var objectMetaTypes = sync.OnceValues(func() ([]schema.TypeDef, error) {
	var s schema.Schema
	if err := yaml2.Unmarshal(objectMetaYAML, &s); err != nil {
		return nil, fmt.Errorf("objectmeta.yaml: %v", err)
	}
	return s.Types, nil
})

// GVK is a group, version and kind.
type GVK struct{ Group, Version, Kind string }

// String renders it as schema.GroupVersionKind does.
func (g GVK) String() string {
	return g.Group + "/" + g.Version + ", Kind=" + g.Kind
}

// GroupVersion is the apiVersion.
func (g GVK) GroupVersion() string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// TypeConverter turns objects of a CRD's versions into typed values: the
// CRD handler's managedfields.NewTypeConverter over the OpenAPI models of
// buildOpenAPIModelsForApply.
type TypeConverter struct {
	parser *typed.Parser
	types  map[GVK]string
}

// NewTypeConverter converts every version's schema of def as
// builder.BuildOpenAPIV3 (no value-validation stripping) and
// schemaconv.ToSchemaFromOpenAPI do: list types (atomic; set and map as
// associative lists with their keys), map types (granular as separable,
// atomic), x-kubernetes-preserve-unknown-fields making every object below
// it keep unknown fields (deduced), objects without properties deduced,
// int-or-string and untyped nodes as untyped scalar-list-map atoms, formats
// other than byte as untyped scalars, and apiVersion, kind and an ObjectMeta
// metadata at the root and in every embedded resource.
func NewTypeConverter(def *crd.CustomResourceDefinition) (*TypeConverter, error) {
	om, err := objectMetaTypes()
	if err != nil {
		return nil, err
	}
	types := append([]schema.TypeDef{}, om...)
	tc := &TypeConverter{types: map[GVK]string{}}
	for _, v := range def.Spec.Versions {
		name := fmt.Sprintf("__crd_%s_%s", v.Name, def.Spec.Names.Kind)
		var atom schema.Atom
		var s *crdschema.Structural
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			if st, err := crdschema.NewStructural(v.Schema.OpenAPIV3Schema); err == nil && len(crdschema.ValidateStructural(nil, st)) == 0 {
				s = st
			}
		}
		if s == nil {
			// the builder publishes {type: object} without properties.
			atom = schema.Atom{Map: &schema.Map{ElementType: named(deducedName)}}
		} else {
			c := &converter{}
			atom = c.node(s, def.Spec.PreserveUnknownFields, true)
			if c.err != nil {
				return nil, fmt.Errorf("version %s: %v", v.Name, c.err)
			}
		}
		types = append(types, schema.TypeDef{Name: name, Atom: atom})
		tc.types[GVK{def.Spec.Group, v.Name, def.Spec.Names.Kind}] = name
	}
	tc.parser = &typed.Parser{Schema: schema.Schema{Types: types}}
	return tc, nil
}

// NoCorrespondingTypeError is the type converter's error for a kind it has
// no type for (upstream's noCorrespondingTypeErr): SMD drops the managers of
// such versions.
type NoCorrespondingTypeError struct{ GVK GVK }

func (e *NoCorrespondingTypeError) Error() string {
	return fmt.Sprintf("no corresponding type for %v", e.GVK)
}

// ObjectToTyped types obj with the type of its apiVersion and kind.
func (tc *TypeConverter) ObjectToTyped(obj map[string]interface{}, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	g := ObjectGVK(obj)
	name, ok := tc.types[g]
	if !ok {
		return nil, &NoCorrespondingTypeError{g}
	}
	return tc.parser.Type(name).FromUnstructured(obj, opts...)
}

// Schema returns the whole typed schema and the type name of each version
// (for the schema-level differential).
func (tc *TypeConverter) Schema() (*schema.Schema, map[GVK]string) {
	return &tc.parser.Schema, tc.types
}

// ObjectGVK reads apiVersion and kind as unstructured.GroupVersionKind does.
func ObjectGVK(obj map[string]interface{}) GVK {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	g := GVK{Kind: kind}
	g.Group, g.Version = splitAPIVersion(av)
	return g
}

// splitAPIVersion is schema.ParseGroupVersion, lenient: an invalid value
// gives an empty group and version.
func splitAPIVersion(av string) (group, version string) {
	if av == "" || av == "/" {
		return "", ""
	}
	n := 0
	for i := 0; i < len(av); i++ {
		if av[i] == '/' {
			n++
		}
	}
	switch n {
	case 0:
		return "", av
	case 1:
		for i := 0; i < len(av); i++ {
			if av[i] == '/' {
				return av[:i], av[i+1:]
			}
		}
	}
	return "", ""
}

func named(n string) schema.TypeRef { s := n; return schema.TypeRef{NamedType: &s} }

func scalar(s schema.Scalar) *schema.Scalar { return &s }

// converter walks a structural schema as schemaconv's convert walks the
// OpenAPI the builder made of it.
type converter struct{ err error }

func (c *converter) fail(format string, args ...interface{}) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...)
	}
}

// node is convert.visitSpec + parseSchema. preserve is inherited from the
// parents (and set by the node's own x-kubernetes-preserve-unknown-fields);
// root adds the TypeMeta and ObjectMeta properties of buildKubeNative.
func (c *converter) node(s *crdschema.Structural, preserve, root bool) schema.Atom {
	if s.XPreserveUnknownFields {
		preserve = true
	}
	switch s.Type {
	case "":
		return schema.Atom{
			Scalar: scalar(schema.Untyped),
			List:   c.list(s, preserve),
			Map:    c.object(s, preserve, root),
		}
	case "object":
		return schema.Atom{Map: c.object(s, preserve, root)}
	case "array":
		return schema.Atom{List: c.list(s, preserve)}
	case "integer", "number":
		return schema.Atom{Scalar: scalar(schema.Numeric)}
	case "boolean":
		return schema.Atom{Scalar: scalar(schema.Boolean)}
	case "string":
		format := ""
		if s.ValueValidation != nil {
			format = s.ValueValidation.Format
		}
		if format == "" || format == "byte" {
			return schema.Atom{Scalar: scalar(schema.String)}
		}
		return schema.Atom{Scalar: scalar(schema.Untyped)}
	default:
		c.fail("unrecognized type: '%v'", s.Type)
		return schema.Atom{Scalar: scalar(schema.Untyped)}
	}
}

// ref is makeOpenAPIRef of an inlined schema.
func (c *converter) ref(s *crdschema.Structural, preserve bool) schema.TypeRef {
	return schema.TypeRef{Inlined: c.node(s, preserve, false), Nullable: s.Nullable}
}

// object is parseObject. The root and embedded resources get apiVersion and
// kind (strings, TypeMeta's) and metadata (ObjectMeta), replacing what the
// schema declares for them.
func (c *converter) object(s *crdschema.Structural, preserve, root bool) *schema.Map {
	names := make([]string, 0, len(s.Properties)+3)
	for n := range s.Properties {
		names = append(names, n)
	}
	meta := root || s.XEmbeddedResource
	if meta {
		for _, n := range []string{"apiVersion", "kind", "metadata"} {
			if _, ok := s.Properties[n]; !ok {
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	m := &schema.Map{}
	for _, n := range names {
		if meta {
			switch n {
			case "apiVersion", "kind":
				m.Fields = append(m.Fields, schema.StructField{Name: n, Type: schema.TypeRef{Inlined: schema.Atom{Scalar: scalar(schema.String)}}})
				continue
			case "metadata":
				m.Fields = append(m.Fields, schema.StructField{Name: n, Type: named(objectMetaName)})
				continue
			}
		}
		p := s.Properties[n]
		m.Fields = append(m.Fields, schema.StructField{Name: n, Type: c.ref(&p, preserve), Default: p.Default.Object})
	}
	switch {
	case s.AdditionalProperties == nil:
		if preserve || len(names) == 0 {
			m.ElementType = named(deducedName)
		}
	case s.AdditionalProperties.Structural != nil:
		m.ElementType = c.ref(s.AdditionalProperties.Structural, preserve)
	case s.AdditionalProperties.Bool:
		m.ElementType = named(deducedName)
	}
	if s.XMapType != nil {
		switch *s.XMapType {
		case "atomic":
			m.ElementRelationship = schema.Atomic
		case "granular":
			m.ElementRelationship = schema.Separable
		default:
			c.fail("unknown map type %v", *s.XMapType)
		}
	}
	return m
}

// list is parseList.
func (c *converter) list(s *crdschema.Structural, preserve bool) *schema.List {
	l := &schema.List{ElementRelationship: schema.Atomic}
	if s.XListType != nil {
		switch *s.XListType {
		case "atomic":
		case "set":
			l.ElementRelationship = schema.Associative
		case "map":
			l.ElementRelationship = schema.Associative
			if len(s.XListMapKeys) == 0 {
				c.fail("missing map keys")
			}
			l.Keys = append([]string(nil), s.XListMapKeys...)
		default:
			c.fail("unknown list type %v", *s.XListType)
		}
	}
	switch {
	case s.Items != nil:
		l.ElementType = c.ref(s.Items, preserve)
	case s.Type != "":
		c.fail("`items` must be specified on arrays")
		l.ElementType = named(untypedName)
	default:
		l.ElementType = named(untypedName)
	}
	return l
}

package cel

import (
	"slices"

	"github.com/crdlab/crdlab/internal/schema"
)

// PublishedDeclType is the DeclType of a CRD version's schema as it is
// published in the API server's OpenAPI v3 document and read back by the
// schema resolver of admission policy type checking: apiextensions-apiserver's
// controller/openapi/builder (buildKubeNative, addEmbeddedProperties) gives
// the root, and every x-kubernetes-embedded-resource object, the TypeMeta
// strings apiVersion and kind and a metadata that refers to ObjectMeta
// (embedded resources also require apiVersion and kind); the resolver
// (apiserver/pkg/cel/openapi/resolver PopulateRefs) inlines ObjectMeta, and
// common.SchemaDeclType converts the result with isResourceRoot. s nil is a
// version without a (structural) schema, published as {type: object}.
// Unlike SchemaDeclType, metadata is the whole ObjectMeta (labels,
// annotations, creationTimestamp, ownerReferences, managedFields, ...).
func PublishedDeclType(s *schema.Structural) *DeclType {
	if s == nil {
		return SchemaDeclType(&schema.Structural{Generic: schema.Generic{Type: "object"}}, true)
	}
	root := publishedNode(s)
	if root.Properties == nil {
		root.Properties = map[string]schema.Structural{}
	}
	root.Properties["metadata"] = objectMetaSchema()
	root.Properties["apiVersion"] = stringSchema()
	root.Properties["kind"] = stringSchema()
	return SchemaDeclType(root, true)
}

// publishedNode copies s, adding the TypeMeta and ObjectMeta properties to
// embedded resources (addEmbeddedProperties walks properties, items and
// additionalProperties).
func publishedNode(s *schema.Structural) *schema.Structural {
	out := *s
	if s.Properties != nil || s.XEmbeddedResource {
		out.Properties = make(map[string]schema.Structural, len(s.Properties)+3)
		for k := range s.Properties {
			p := s.Properties[k]
			out.Properties[k] = *publishedNode(&p)
		}
	}
	if s.Items != nil {
		out.Items = publishedNode(s.Items)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		out.AdditionalProperties = &schema.StructuralOrBool{Structural: publishedNode(s.AdditionalProperties.Structural), Bool: s.AdditionalProperties.Bool}
	}
	if s.XEmbeddedResource {
		out.Properties["apiVersion"] = stringSchema()
		out.Properties["kind"] = stringSchema()
		out.Properties["metadata"] = objectMetaSchema()
		vv := schema.ValueValidation{}
		if s.ValueValidation != nil {
			vv = *s.ValueValidation
		}
		req := append([]string{}, vv.Required...)
		for _, name := range []string{"kind", "apiVersion"} {
			if !slices.Contains(req, name) {
				req = append(req, name)
			}
		}
		vv.Required = req
		out.ValueValidation = &vv
	}
	return &out
}

func typed(t string) schema.Structural { return schema.Structural{Generic: schema.Generic{Type: t}} }

func stringSchema() schema.Structural { return typed("string") }

func dateTimeSchema() schema.Structural {
	s := typed("string")
	s.ValueValidation = &schema.ValueValidation{Format: "date-time"}
	return s
}

func object(props map[string]schema.Structural, required ...string) schema.Structural {
	s := typed("object")
	s.Properties = props
	if len(required) > 0 {
		s.ValueValidation = &schema.ValueValidation{Required: required}
	}
	return s
}

func listOf(item schema.Structural) schema.Structural {
	s := typed("array")
	s.Items = &item
	return s
}

func stringMap() schema.Structural {
	s := typed("object")
	str := stringSchema()
	s.AdditionalProperties = &schema.StructuralOrBool{Structural: &str}
	return s
}

// objectMetaSchema is io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta as
// the API server's OpenAPI v3 document defines it, its references inlined:
// Time is a date-time string, FieldsV1 an object without properties,
// OwnerReference requires apiVersion, kind, name and uid.
func objectMetaSchema() schema.Structural {
	str := stringSchema
	return object(map[string]schema.Structural{
		"annotations":                stringMap(),
		"creationTimestamp":          dateTimeSchema(),
		"deletionGracePeriodSeconds": typed("integer"),
		"deletionTimestamp":          dateTimeSchema(),
		"finalizers":                 listOf(str()),
		"generateName":               str(),
		"generation":                 typed("integer"),
		"labels":                     stringMap(),
		"managedFields": listOf(object(map[string]schema.Structural{
			"apiVersion":  str(),
			"fieldsType":  str(),
			"fieldsV1":    typed("object"),
			"manager":     str(),
			"operation":   str(),
			"subresource": str(),
			"time":        dateTimeSchema(),
		})),
		"name":      str(),
		"namespace": str(),
		"ownerReferences": listOf(object(map[string]schema.Structural{
			"apiVersion":         str(),
			"blockOwnerDeletion": typed("boolean"),
			"controller":         typed("boolean"),
			"kind":               str(),
			"name":               str(),
			"uid":                str(),
		}, "apiVersion", "kind", "name", "uid")),
		"resourceVersion": str(),
		"selfLink":        str(),
		"uid":             str(),
	})
}

// Package schema holds the structural schema of a CRD version: the
// JSONSchemaProps tree reduced to what kube-apiserver's
// pkg/apiserver/schema package keeps (types, properties, items,
// additionalProperties, extensions, value validations), the conversion from
// JSONSchemaProps with the NonStructural checks (rules 1-4 of the structural
// schema docs), and helpers to walk it.
package schema

import "github.com/crdlab/crdlab/engine/crd"

// Structural represents a structural schema node: the shape of the data
// (types, properties, items, additionalProperties) with its extensions and
// value validations kept alongside.
type Structural struct {
	Items                *Structural
	Properties           map[string]Structural
	AdditionalProperties *StructuralOrBool

	Generic
	Extensions
	ValidationExtensions

	ValueValidation *ValueValidation
}

// StructuralOrBool is either a structural schema or a boolean.
type StructuralOrBool struct {
	Structural *Structural
	Bool       bool
}

// ExternalDocumentation mirrors JSONSchemaProps.externalDocs.
type ExternalDocumentation struct {
	Description string
	URL         string
}

// Generic contains the generic schema fields not allowed in value validation.
type Generic struct {
	Description  string
	Type         string
	Title        string
	Default      JSON
	Nullable     bool
	ExternalDocs *ExternalDocumentation
	Example      JSON
}

// Extensions contains the Kubernetes OpenAPI v3 vendor extensions.
type Extensions struct {
	XPreserveUnknownFields bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
}

// ValidationExtensions contains the x-kubernetes-validations rules.
type ValidationExtensions struct {
	XValidations crd.ValidationRules
}

// ValueValidation contains the value validation keywords of a node.
type ValueValidation struct {
	Format           string
	Maximum          *float64
	ExclusiveMaximum bool
	Minimum          *float64
	ExclusiveMinimum bool
	MaxLength        *int64
	MinLength        *int64
	Pattern          string
	MaxItems         *int64
	MinItems         *int64
	UniqueItems      bool
	MultipleOf       *float64
	Enum             []JSON
	MaxProperties    *int64
	MinProperties    *int64
	Required         []string
	AllOf            []NestedValueValidation
	OneOf            []NestedValueValidation
	AnyOf            []NestedValueValidation
	Not              *NestedValueValidation
}

// NestedValueValidation is a value validation below allOf, anyOf, oneOf or
// not: it may not set generic fields or extensions other than validations.
type NestedValueValidation struct {
	ValueValidation
	ValidationExtensions

	Items                *NestedValueValidation
	Properties           map[string]NestedValueValidation
	AdditionalProperties *NestedValueValidation

	// ForbiddenGenerics and ForbiddenExtensions are set when the nested
	// validation sets fields it may not (they are reported by the structural checks).
	ForbiddenGenerics   Generic
	ForbiddenExtensions Extensions
}

// JSON wraps an arbitrary decoded JSON value (nil, bool, float64, int64,
// string, []interface{}, map[string]interface{}). Object is nil when the
// value is absent or null.
type JSON struct {
	Object interface{}
}

// ResourceRoot is the schema the algorithms walk a resource's root with:
// for the root (isResourceRoot) a copy of s (an empty schema when s is
// nil) marked x-kubernetes-embedded-resource, so that apiVersion, kind and
// metadata are treated as at any embedded resource, as upstream's pruning,
// defaulting and ObjectMeta algorithms do; s itself otherwise.
func ResourceRoot(s *Structural, isResourceRoot bool) *Structural {
	if !isResourceRoot {
		return s
	}
	if s == nil {
		s = &Structural{}
	}
	if s.XEmbeddedResource {
		return s
	}
	clone := *s
	clone.XEmbeddedResource = true
	return &clone
}

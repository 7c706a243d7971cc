package crdvalidation

import (
	"github.com/crdlab/crdlab/engine/crd"
)

// Before Kubernetes 1.34 a bad value is printed with Go syntax (fmt's %#v,
// field.ErrorList.WithGoSyntaxValues): the internal types below name
// upstream's internal apiextensions types (field.GoTypeNamer), and those
// whose layout is not upstream's give a mirror that has it
// (field.GoSyntaxer). Only what %#v shows matters: below the top level a
// pointer is printed by its type and nil-ness alone.

// GoTypeName implements field.GoTypeNamer.
func (internalVersion) GoTypeName() string {
	return "apiextensions.CustomResourceDefinitionVersion"
}

// GoTypeName implements field.GoTypeNamer.
func (internalValidation) GoTypeName() string { return "apiextensions.CustomResourceValidation" }

// GoSyntax implements field.GoSyntaxer.
func (v internalValidation) GoSyntax() interface{} {
	return goValidation{OpenAPIV3Schema: goSchemaPtr(v.OpenAPIV3Schema)}
}

// GoTypeName implements field.GoTypeNamer.
func (internalSubresources) GoTypeName() string { return "apiextensions.CustomResourceSubresources" }

// GoSyntax implements field.GoSyntaxer.
func (s internalSubresources) GoSyntax() interface{} {
	out := goSubresources{}
	if s.Status != nil {
		out.Status = &goSubresourceStatus{}
	}
	if s.Scale != nil {
		out.Scale = &goScale{}
	}
	return out
}

// GoTypeName implements field.GoTypeNamer.
func (internalColumn) GoTypeName() string { return "apiextensions.CustomResourceColumnDefinition" }

// GoTypeName implements field.GoTypeNamer.
func (internalSelectableField) GoTypeName() string { return "apiextensions.SelectableField" }

// GoTypeName implements field.GoTypeNamer.
func (internalRuleT) GoTypeName() string { return "apiextensions.ValidationRule" }

// GoSyntax implements field.GoSyntaxer.
func (r internalRuleT) GoSyntax() interface{} { return goRuleOf(crd.ValidationRule(r)) }

// GoSyntax implements field.GoSyntaxer.
func (v internalSchema) GoSyntax() interface{} {
	if v.s == nil {
		return (*goSchema)(nil)
	}
	return goSchemaOf(v.s)
}

// GoSyntax implements field.GoSyntaxer.
func (i internalItems) GoSyntax() interface{} {
	if i.o == nil {
		return (*goSchemaPropsOrArray)(nil)
	}
	return goSchemaPropsOrArray{Schema: goSchemaPtr(i.o.Schema), JSONSchemas: goSchemas(i.o.JSONSchemas)}
}

type goValidation struct {
	OpenAPIV3Schema *goSchema
}

func (goValidation) GoTypeName() string { return "apiextensions.CustomResourceValidation" }

type goSubresources struct {
	Status *goSubresourceStatus
	Scale  *goScale
}

func (goSubresources) GoTypeName() string { return "apiextensions.CustomResourceSubresources" }

type goSubresourceStatus struct{}

func (goSubresourceStatus) GoTypeName() string {
	return "apiextensions.CustomResourceSubresourceStatus"
}

type goScale struct{}

func (goScale) GoTypeName() string { return "apiextensions.CustomResourceSubresourceScale" }

// goRule is the internal apiextensions.ValidationRule.
type goRule struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *goReason
	FieldPath         string
	OptionalOldSelf   *bool
}

func (goRule) GoTypeName() string { return "apiextensions.ValidationRule" }

type goReason string

func (goReason) GoTypeName() string { return "apiextensions.FieldValueErrorReason" }

type goRules []goRule

func (goRules) GoTypeName() string { return "apiextensions.ValidationRules" }

func goRuleOf(r crd.ValidationRule) goRule {
	out := goRule{Rule: r.Rule, Message: r.Message, MessageExpression: r.MessageExpression, FieldPath: r.FieldPath, OptionalOldSelf: r.OptionalOldSelf}
	if r.Reason != nil {
		reason := goReason(*r.Reason)
		out.Reason = &reason
	}
	return out
}

// goJSON is the internal apiextensions.JSON (an interface{} holding the
// decoded value); GoSyntax gives the value, nil printing as
// apiextensions.JSON(nil).
type goJSON struct{ v interface{} }

func (goJSON) GoTypeName() string { return "apiextensions.JSON" }

// GoSyntax implements field.GoSyntaxer.
func (j goJSON) GoSyntax() interface{} { return j.v }

type goSchemaURL string

// goSchema is the internal apiextensions.JSONSchemaProps, field by field.
type goSchema struct {
	ID                     string
	Schema                 goSchemaURL
	Ref                    *string
	Description            string
	Type                   string
	Nullable               bool
	Format                 string
	Title                  string
	Default                *goJSON
	Maximum                *float64
	ExclusiveMaximum       bool
	Minimum                *float64
	ExclusiveMinimum       bool
	MaxLength              *int64
	MinLength              *int64
	Pattern                string
	MaxItems               *int64
	MinItems               *int64
	UniqueItems            bool
	MultipleOf             *float64
	Enum                   []goJSON
	MaxProperties          *int64
	MinProperties          *int64
	Required               []string
	Items                  *goSchemaPropsOrArray
	AllOf                  []goSchema
	OneOf                  []goSchema
	AnyOf                  []goSchema
	Not                    *goSchema
	Properties             map[string]goSchema
	AdditionalProperties   *goSchemaPropsOrBool
	PatternProperties      map[string]goSchema
	Dependencies           goDependencies
	AdditionalItems        *goSchemaPropsOrBool
	Definitions            goDefinitions
	ExternalDocs           *goExternalDocs
	Example                *goJSON
	XPreserveUnknownFields *bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
	XValidations           goRules
}

func (goSchema) GoTypeName() string { return "apiextensions.JSONSchemaProps" }

type goSchemaPropsOrArray struct {
	Schema      *goSchema
	JSONSchemas []goSchema
}

func (goSchemaPropsOrArray) GoTypeName() string { return "apiextensions.JSONSchemaPropsOrArray" }

type goSchemaPropsOrBool struct{}

func (goSchemaPropsOrBool) GoTypeName() string { return "apiextensions.JSONSchemaPropsOrBool" }

type goSchemaPropsOrStringArray struct {
	Schema   *goSchema
	Property []string
}

func (goSchemaPropsOrStringArray) GoTypeName() string {
	return "apiextensions.JSONSchemaPropsOrStringArray"
}

type goDependencies map[string]goSchemaPropsOrStringArray

func (goDependencies) GoTypeName() string { return "apiextensions.JSONSchemaDependencies" }

type goDefinitions map[string]goSchema

func (goDefinitions) GoTypeName() string { return "apiextensions.JSONSchemaDefinitions" }

type goExternalDocs struct{}

func (goExternalDocs) GoTypeName() string { return "apiextensions.ExternalDocumentation" }

// placeholder is the target of a non-nil pointer below the top level: %#v
// prints only the pointer's type and that it is not nil.
var placeholder goSchema

func goSchemaPtr(s *crd.JSONSchemaProps) *goSchema {
	if s == nil {
		return nil
	}
	return &placeholder
}

func goSchemas(list []crd.JSONSchemaProps) []goSchema {
	if list == nil {
		return nil
	}
	out := make([]goSchema, len(list))
	for i := range list {
		out[i] = goSchemaOf(&list[i])
	}
	return out
}

func goSchemaMap(m map[string]crd.JSONSchemaProps) map[string]goSchema {
	if m == nil {
		return nil
	}
	out := make(map[string]goSchema, len(m))
	for k := range m {
		p := m[k]
		out[k] = goSchemaOf(&p)
	}
	return out
}

func goJSONPtr(j *crd.JSON) *goJSON {
	if j == nil {
		return nil
	}
	return &goJSON{}
}

// goSchemaOf mirrors s as upstream's internal JSONSchemaProps (converted
// from v1: JSON values decoded, integers as int64).
func goSchemaOf(s *crd.JSONSchemaProps) goSchema {
	out := goSchema{
		ID: s.ID, Schema: goSchemaURL(s.Schema), Ref: s.Ref, Description: s.Description, Type: s.Type,
		Nullable: s.Nullable, Format: s.Format, Title: s.Title, Default: goJSONPtr(s.Default),
		Maximum: s.Maximum, ExclusiveMaximum: s.ExclusiveMaximum, Minimum: s.Minimum, ExclusiveMinimum: s.ExclusiveMinimum,
		MaxLength: s.MaxLength, MinLength: s.MinLength, Pattern: s.Pattern, MaxItems: s.MaxItems, MinItems: s.MinItems,
		UniqueItems: s.UniqueItems, MultipleOf: s.MultipleOf, MaxProperties: s.MaxProperties, MinProperties: s.MinProperties,
		Required: s.Required, AllOf: goSchemas(s.AllOf), OneOf: goSchemas(s.OneOf), AnyOf: goSchemas(s.AnyOf),
		Properties: goSchemaMap(s.Properties), PatternProperties: goSchemaMap(s.PatternProperties),
		Definitions: goDefinitions(goSchemaMap(s.Definitions)), Example: goJSONPtr(s.Example),
		XPreserveUnknownFields: s.XPreserveUnknownFields, XEmbeddedResource: s.XEmbeddedResource,
		XIntOrString: s.XIntOrString, XListMapKeys: s.XListMapKeys, XListType: s.XListType, XMapType: s.XMapType,
	}
	if s.Enum != nil {
		out.Enum = make([]goJSON, len(s.Enum))
		for i := range s.Enum {
			v, _ := s.Enum[i].Value()
			out.Enum[i] = goJSON{v}
		}
	}
	if s.Items != nil {
		out.Items = &goSchemaPropsOrArray{}
	}
	if s.Not != nil {
		out.Not = &placeholder
	}
	if s.AdditionalProperties != nil {
		out.AdditionalProperties = &goSchemaPropsOrBool{}
	}
	if s.AdditionalItems != nil {
		out.AdditionalItems = &goSchemaPropsOrBool{}
	}
	if s.Dependencies != nil {
		out.Dependencies = make(goDependencies, len(s.Dependencies))
		for k, d := range s.Dependencies {
			out.Dependencies[k] = goSchemaPropsOrStringArray{Schema: goSchemaPtr(d.Schema), Property: d.Property}
		}
	}
	if s.ExternalDocs != nil {
		out.ExternalDocs = &goExternalDocs{}
	}
	if s.XValidations != nil {
		out.XValidations = make(goRules, len(s.XValidations))
		for i, r := range s.XValidations {
			out.XValidations[i] = goRuleOf(r)
		}
	}
	return out
}

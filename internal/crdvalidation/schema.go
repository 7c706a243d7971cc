package crdvalidation

import (
	"bytes"
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"reflect"
	"slices"
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/schema"
)

var openapiV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

var supportedValidationReasons = []string{
	string(crd.FieldValueDuplicate),
	string(crd.FieldValueForbidden),
	string(crd.FieldValueInvalid),
	string(crd.FieldValueRequired),
}

var metaFields = map[string]bool{"metadata": true, "kind": true, "apiVersion": true}

// ssv is upstream's specStandardValidatorV3: the per-node OpenAPI v3 checks
// and the context inherited down the recursion.
type ssv struct {
	allowDefaults                       bool
	disallowDefaultsReason              string
	isInsideResourceMeta                bool
	requireValidPropertyType            bool
	uncorrelatableOldSelfValidationPath *field.Path
}

func (v ssv) withForbiddenDefaults(reason string) ssv {
	v.disallowDefaultsReason = reason
	v.allowDefaults = false
	return v
}

func (v ssv) withInsideResourceMeta() ssv {
	v.isInsideResourceMeta = true
	return v
}

func (v ssv) withForbidOldSelfValidations(p *field.Path) ssv {
	if v.uncorrelatableOldSelfValidationPath != nil {
		return v
	}
	v.uncorrelatableOldSelfValidationPath = p
	return v
}

func (v ssv) validate(s *crd.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if s == nil {
		return allErrs
	}
	if v.requireValidPropertyType && len(s.Type) > 0 && !slices.Contains(openapiV3Types, s.Type) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("type"), s.Type, openapiV3Types))
	}
	if s.Default != nil && !v.allowDefaults {
		detail := "must not be set"
		if len(v.disallowDefaultsReason) > 0 {
			detail += " " + v.disallowDefaultsReason
		}
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("default"), detail))
	}
	if s.ID != "" {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("id"), "id is not supported"))
	}
	if s.AdditionalItems != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalItems"), "additionalItems is not supported"))
	}
	if len(s.PatternProperties) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("patternProperties"), "patternProperties is not supported"))
	}
	if len(s.Definitions) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("definitions"), "definitions is not supported"))
	}
	if s.Dependencies != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("dependencies"), "dependencies is not supported"))
	}
	if s.Ref != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("$ref"), "$ref is not supported"))
	}
	if s.Type == "null" {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if s.Items != nil && len(s.Items.JSONSchemas) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("items"), "items must be a schema object and not an array"))
	}
	if v.isInsideResourceMeta && s.XEmbeddedResource {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
	}
	return allErrs
}

// schemaErrors keeps schema errors and CEL errors apart, as upstream's
// OpenAPISchemaErrorList: CEL errors are listed after all schema errors.
type schemaErrors struct {
	schema field.ErrorList
	cel    field.ErrorList
}

func (e *schemaErrors) add(o schemaErrors) {
	e.schema = append(e.schema, o.schema...)
	e.cel = append(e.cel, o.cel...)
}

func (e schemaErrors) all() field.ErrorList {
	out := field.ErrorList{}
	out = append(out, e.schema...)
	return append(out, e.cel...)
}

type schemaWalker struct {
	opts  *options
	flags specFlags
}

// named is detail as the release words it: before 1.34 prefixed by the
// field's name (kubeversion.DetailWithoutFieldName).
func (w *schemaWalker) named(name, detail string) string {
	if w.opts.Release.Has(kubeversion.DetailWithoutFieldName) {
		return detail
	}
	return name + detail
}

// validateSchema is upstream's ValidateCustomResourceDefinitionOpenAPISchema.
// Map-valued children (properties, definitions, dependencies) are visited in
// sorted key order; upstream's order is Go's random map order.
func (w *schemaWalker) validateSchema(s *crd.JSONSchemaProps, fldPath *field.Path, v ssv, isRoot bool, ctx *celContext) schemaErrors {
	var errs schemaErrors
	if s == nil {
		return errs
	}
	errs.schema = append(errs.schema, v.validate(s, fldPath)...)

	if s.UniqueItems {
		errs.schema = append(errs.schema, field.Forbidden(fldPath.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}

	if s.AdditionalProperties != nil {
		if len(s.Properties) != 0 {
			if !s.AdditionalProperties.Allows || s.AdditionalProperties.Schema != nil {
				errs.schema = append(errs.schema, field.Forbidden(fldPath.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
			}
		}
		sub := v
		if v.isInsideResourceMeta {
			sub = v.withForbiddenDefaults("inside additionalProperties applying to object metadata")
		}
		errs.add(w.validateSchema(s.AdditionalProperties.Schema, fldPath.Child("additionalProperties"), sub, false,
			ctx.child(s.AdditionalProperties.Schema, CELStep{Kind: CELStepAdditionalProperties})))
	}

	for _, name := range keys.Sorted(s.Properties) {
		sub := v
		if !mapIsCorrelatable(s.XMapType) {
			sub = sub.withForbidOldSelfValidations(fldPath)
		}
		if (isRoot || s.XEmbeddedResource) && metaFields[name] {
			sub = sub.withInsideResourceMeta()
			if isRoot {
				sub = sub.withForbiddenDefaults(fmt.Sprintf("in top-level %s", name))
			}
		}
		prop := s.Properties[name]
		errs.add(w.validateSchema(&prop, fldPath.Child("properties").Key(name), sub, false,
			ctx.child(&prop, CELStep{Kind: CELStepProperty, Property: name})))
	}

	errs.add(w.validateSchema(s.Not, fldPath.Child("not"), v, false, nil))
	for i := range s.AllOf {
		errs.add(w.validateSchema(&s.AllOf[i], fldPath.Child("allOf").Index(i), v, false, nil))
	}
	for i := range s.OneOf {
		errs.add(w.validateSchema(&s.OneOf[i], fldPath.Child("oneOf").Index(i), v, false, nil))
	}
	for i := range s.AnyOf {
		errs.add(w.validateSchema(&s.AnyOf[i], fldPath.Child("anyOf").Index(i), v, false, nil))
	}
	for _, name := range keys.Sorted(s.Definitions) {
		d := s.Definitions[name]
		errs.add(w.validateSchema(&d, fldPath.Child("definitions").Key(name), v, false, nil))
	}

	if s.Items != nil {
		sub := v
		if s.XListType == nil || *s.XListType != "map" {
			sub = sub.withForbidOldSelfValidations(fldPath)
		}
		errs.add(w.validateSchema(s.Items.Schema, fldPath.Child("items"), sub, false, ctx.child(s.Items.Schema, CELStep{Kind: CELStepItems})))
		for i := range s.Items.JSONSchemas {
			it := &s.Items.JSONSchemas[i]
			errs.add(w.validateSchema(it, fldPath.Child("items").Index(i), sub, false, ctx.child(it, CELStep{Kind: CELStepItems})))
		}
	}

	if s.Dependencies != nil {
		keys := keys.Sorted(s.Dependencies)
		for _, k := range keys {
			errs.add(w.validateSchema(s.Dependencies[k].Schema, fldPath.Child("dependencies").Key(k), v, false, nil))
		}
	}

	if s.XPreserveUnknownFields != nil && !*s.XPreserveUnknownFields {
		errs.schema = append(errs.schema, field.Invalid(fldPath.Child("x-kubernetes-preserve-unknown-fields"), *s.XPreserveUnknownFields, "must be true or undefined"))
	}

	if s.XMapType != nil && s.Type != "object" {
		if len(s.Type) == 0 {
			errs.schema = append(errs.schema, field.Required(fldPath.Child("type"), "must be object if x-kubernetes-map-type is specified"))
		} else {
			errs.schema = append(errs.schema, field.Invalid(fldPath.Child("type"), s.Type, "must be object if x-kubernetes-map-type is specified"))
		}
	}
	if s.XMapType != nil && *s.XMapType != "atomic" && *s.XMapType != "granular" {
		errs.schema = append(errs.schema, field.NotSupported(fldPath.Child("x-kubernetes-map-type"), *s.XMapType, []string{"atomic", "granular"}))
	}

	if s.XListType != nil && s.Type != "array" {
		if len(s.Type) == 0 {
			errs.schema = append(errs.schema, field.Required(fldPath.Child("type"), "must be array if x-kubernetes-list-type is specified"))
		} else {
			errs.schema = append(errs.schema, field.Invalid(fldPath.Child("type"), s.Type, "must be array if x-kubernetes-list-type is specified"))
		}
	} else if w.flags.requireAtomicSetType && s.XListType != nil && *s.XListType == "set" && s.Items != nil && s.Items.Schema != nil {
		is := s.Items.Schema
		switch is.Type {
		case "array":
			if is.XListType != nil && *is.XListType != "atomic" {
				errs.schema = append(errs.schema, field.Invalid(fldPath.Child("items").Child("x-kubernetes-list-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		case "object":
			if is.XMapType == nil || *is.XMapType != "atomic" {
				// upstream reports the items' list type as the bad value here
				errs.schema = append(errs.schema, field.Invalid(fldPath.Child("items").Child("x-kubernetes-map-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		}
	}

	if s.XListType != nil && *s.XListType != "atomic" && *s.XListType != "set" && *s.XListType != "map" {
		errs.schema = append(errs.schema, field.NotSupported(fldPath.Child("x-kubernetes-list-type"), *s.XListType, []string{"atomic", "set", "map"}))
	}

	if len(s.XListMapKeys) > 0 {
		if s.XListType == nil {
			errs.schema = append(errs.schema, field.Required(fldPath.Child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"))
		} else if *s.XListType != "map" {
			errs.schema = append(errs.schema, field.Invalid(fldPath.Child("x-kubernetes-list-type"), *s.XListType, "must be map if x-kubernetes-list-map-keys is non-empty"))
		}
	}

	if s.XListType != nil && *s.XListType == "map" {
		if len(s.XListMapKeys) == 0 {
			errs.schema = append(errs.schema, field.Required(fldPath.Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
		}
		if s.Items == nil {
			errs.schema = append(errs.schema, field.Required(fldPath.Child("items"), "must have a schema if x-kubernetes-list-type is map"))
		}
		if s.Items != nil && s.Items.Schema == nil {
			errs.schema = append(errs.schema, field.Invalid(fldPath.Child("items"), internalItems{s.Items}, "must only have a single schema if x-kubernetes-list-type is map"))
		}
		if s.Items != nil && s.Items.Schema != nil && s.Items.Schema.Type != "object" {
			errs.schema = append(errs.schema, field.Invalid(fldPath.Child("items").Child("type"), s.Items.Schema.Type, "must be object if parent array's x-kubernetes-list-type is map"))
		}
		if s.Items != nil && s.Items.Schema != nil && s.Items.Schema.Type == "object" {
			keys := map[string]bool{}
			for _, k := range s.XListMapKeys {
				if p, ok := s.Items.Schema.Properties[k]; ok {
					if p.Type == "array" || p.Type == "object" {
						// upstream reports the items' type as the bad value here
						errs.schema = append(errs.schema, field.Invalid(fldPath.Child("items").Child("properties").Key(k).Child("type"), s.Items.Schema.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
					}
				} else {
					errs.schema = append(errs.schema, field.Invalid(fldPath.Child("x-kubernetes-list-map-keys"), s.XListMapKeys, "entries must all be names of item properties"))
				}
				if keys[k] {
					errs.schema = append(errs.schema, field.Invalid(fldPath.Child("x-kubernetes-list-map-keys"), s.XListMapKeys, "must not contain duplicate entries"))
				}
				keys[k] = true
			}
		}
	}

	if w.flags.requireMapListKeysMapSetValidation {
		errs.schema = append(errs.schema, validateMapListKeysMapSet(s, fldPath)...)
	}

	if len(s.XValidations) > 0 {
		for i, rule := range s.XValidations {
			rp := fldPath.Child("x-kubernetes-validations").Index(i)
			trimmedRule := strings.TrimSpace(rule.Rule)
			trimmedMsg := strings.TrimSpace(rule.Message)
			trimmedMsgExpr := strings.TrimSpace(rule.MessageExpression)
			switch {
			case len(trimmedRule) == 0:
				errs.schema = append(errs.schema, field.Required(rp.Child("rule"), "rule is not specified"))
			case len(rule.Message) > 0 && len(trimmedMsg) == 0:
				errs.schema = append(errs.schema, field.Invalid(rp.Child("message"), rule.Message, w.named("message ", "must be non-empty if specified")))
			case hasNewlines(trimmedMsg):
				errs.schema = append(errs.schema, field.Invalid(rp.Child("message"), rule.Message, w.named("message ", "must not contain line breaks")))
			case hasNewlines(trimmedRule) && len(trimmedMsg) == 0:
				errs.schema = append(errs.schema, field.Required(rp.Child("message"), "message must be specified if rule contains line breaks"))
			}
			if len(rule.MessageExpression) > 0 && len(trimmedMsgExpr) == 0 {
				errs.schema = append(errs.schema, field.Required(rp.Child("messageExpression"), "messageExpression must be non-empty if specified"))
			}
			if rule.Reason != nil && !slices.Contains(supportedValidationReasons, string(*rule.Reason)) {
				errs.schema = append(errs.schema, field.NotSupported(rp.Child("reason"), *rule.Reason, supportedValidationReasons))
			}
			trimmedFieldPath := strings.TrimSpace(rule.FieldPath)
			if len(rule.FieldPath) > 0 && len(trimmedFieldPath) == 0 {
				errs.schema = append(errs.schema, field.Invalid(rp.Child("fieldPath"), rule.FieldPath, w.named("fieldPath ", "must be non-empty if specified")))
			}
			if hasNewlines(rule.FieldPath) {
				errs.schema = append(errs.schema, field.Invalid(rp.Child("fieldPath"), rule.FieldPath, w.named("fieldPath ", "must not contain line breaks")))
			}
			if len(rule.FieldPath) > 0 && !pathValid(s, rule.FieldPath) {
				errs.schema = append(errs.schema, field.Invalid(rp.Child("fieldPath"), rule.FieldPath, w.named("fieldPath ", "must be a valid path")))
			}
		}
		// CEL compilation only when no schema error was found at this level
		// or below, as upstream.
		if len(errs.schema) == 0 && ctx != nil {
			errs.cel = append(errs.cel, w.celRuleErrors(s, fldPath, ctx, v.uncorrelatableOldSelfValidationPath)...)
		}
	}
	return errs
}

// internalItems renders items the internal way when used as a bad value.
type internalItems struct{ o *crd.JSONSchemaPropsOrArray }

func (i internalItems) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	writeInternalItems(&b, i.o)
	return b.Bytes(), nil
}

func mapIsCorrelatable(mapType *string) bool {
	return mapType == nil || *mapType == "granular" || *mapType == "atomic"
}

// hasNewlines is upstream's regexp `[\n\r]+` matching s.
func hasNewlines(s string) bool { return strings.ContainsAny(s, "\n\r") }

func pathValid(s *crd.JSONSchemaProps, path string) bool {
	ss, err := schema.NewStructural(s)
	if err != nil {
		return true
	}
	_, _, err = cel.ValidFieldPath(path, ss)
	return err == nil
}

func validateMapListKeysMapSet(s *crd.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	if s.Items == nil || s.Items.Schema == nil || s.XListType == nil {
		return nil
	}
	if *s.XListType != "set" && *s.XListType != "map" {
		return nil
	}
	var allErrs field.ErrorList
	if s.Items.Schema.Nullable {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("items").Child("nullable"), "cannot be nullable when x-kubernetes-list-type is "+*s.XListType))
	}
	if *s.XListType == "map" {
		required := map[string]bool{}
		for _, r := range s.Items.Schema.Required {
			required[r] = true
		}
		for _, k := range s.XListMapKeys {
			p, ok := s.Items.Schema.Properties[k]
			if !ok {
				continue
			}
			if !required[k] && p.Default == nil {
				allErrs = append(allErrs, field.Required(fldPath.Child("items").Child("properties").Key(k).Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
			}
			if p.Nullable {
				allErrs = append(allErrs, field.Forbidden(fldPath.Child("items").Child("properties").Key(k).Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
			}
		}
	}
	return allErrs
}

// allowedFieldsAtRootSchema lists, by internal Go field name, the fields the
// root schema may set when the status subresource is enabled.
var allowedFieldsAtRootSchema = []string{"Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations"}

// internalFieldOrder is the field order of upstream's internal
// JSONSchemaProps, which the root-schema check walks.
var internalFieldOrder = []string{"ID", "Schema", "Ref", "Description", "Type", "Nullable", "Format", "Title", "Default", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Enum", "MaxProperties", "MinProperties", "Required", "Items", "AllOf", "OneOf", "AnyOf", "Not", "Properties", "AdditionalProperties", "PatternProperties", "Dependencies", "AdditionalItems", "Definitions", "ExternalDocs", "Example", "XPreserveUnknownFields", "XEmbeddedResource", "XIntOrString", "XListMapKeys", "XListType", "XMapType", "XValidations"}

// rootStatusErrors is upstream's check that, with the status subresource
// enabled, the root schema only sets fields that survive extracting
// properties["status"].
func rootStatusErrors(s *crd.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	rv := reflect.ValueOf(s).Elem()
	for _, name := range internalFieldOrder {
		f := rv.FieldByName(name)
		if !f.IsValid() || isZeroInternal(f) {
			continue
		}
		if name == "Type" {
			if s.Type != "object" {
				return field.ErrorList{field.Invalid(fldPath.Child("openAPIV3Schema.type"), s.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`)}
			}
			continue
		}
		if !slices.Contains(allowedFieldsAtRootSchema, name) {
			return field.ErrorList{field.Invalid(fldPath.Child("openAPIV3Schema"), internalSchema{s}, fmt.Sprintf(`only %v fields are allowed at the root of the schema if the status subresource is enabled`, allowedFieldsAtRootSchema))}
		}
	}
	return nil
}

// isZeroInternal is reflect.DeepEqual(value, zero) on the internal type:
// an empty (non-nil) slice or map is not zero; a non-nil crd.JSON pointer is
// never zero.
func isZeroInternal(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer:
		return f.IsNil()
	}
	return f.IsZero()
}

package schema

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"reflect"
	"regexp/syntax"
	"sort"

	"github.com/crdlab/crdlab/engine/field"
)

// intOrStringAnyOf is the anyOf that x-kubernetes-int-or-string may spell out.
var intOrStringAnyOf = []NestedValueValidation{
	{ForbiddenGenerics: Generic{Type: "integer"}},
	{ForbiddenGenerics: Generic{Type: "string"}},
}

type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

// ValidationOptions widens what ValidateStructuralWithOptions accepts
// (upstream's ValidationOptions; CRDs use the zero value).
type ValidationOptions struct {
	// AllowNestedAdditionalProperties allows additionalProperties in nested
	// contexts (allOf, anyOf, oneOf, not).
	AllowNestedAdditionalProperties bool
	// AllowNestedXValidations allows x-kubernetes-validations under allOf.
	AllowNestedXValidations bool
	// AllowValidationPropertiesWithAdditionalProperties allows value
	// validations of specific properties that are structurally defined by
	// additionalProperties.
	AllowValidationPropertiesWithAdditionalProperties bool
}

// ValidateStructural checks that s is a structural schema (rules 1-4 of the
// structural schema docs, the embedded-resource and int-or-string rules, the
// metadata restrictions and completeness of value validations), with the
// options CRDs use. The errors are sorted by their rendered string, as
// upstream does.
func ValidateStructural(fldPath *field.Path, s *Structural) field.ErrorList {
	return ValidateStructuralWithOptions(fldPath, s, ValidationOptions{})
}

// ValidateStructuralWithOptions is ValidateStructural with explicit options.
func ValidateStructuralWithOptions(fldPath *field.Path, s *Structural, opts ValidationOptions) field.ErrorList {
	allErrs := field.ErrorList{}
	allErrs = append(allErrs, validateStructuralInvariants(s, rootLevel, fldPath, opts)...)
	allErrs = append(allErrs, validateStructuralCompleteness(s, fldPath, opts)...)
	sort.SliceStable(allErrs, func(i, j int) bool {
		return allErrs[i].Error() < allErrs[j].Error()
	})
	return allErrs
}

func validateStructuralInvariants(s *Structural, lvl level, fldPath *field.Path, opts ValidationOptions) field.ErrorList {
	if s == nil {
		return nil
	}
	allErrs := field.ErrorList{}

	if s.Type == "array" && s.Items == nil {
		allErrs = append(allErrs, field.Required(fldPath.Child("items"), "must be specified"))
	}
	allErrs = append(allErrs, validateStructuralInvariants(s.Items, itemLevel, fldPath.Child("items"), opts)...)

	for _, k := range keys.Sorted(s.Properties) {
		p := s.Properties[k]
		allErrs = append(allErrs, validateStructuralInvariants(&p, fieldLevel, fldPath.Child("properties").Key(k), opts)...)
	}

	if s.AdditionalProperties != nil {
		if lvl == rootLevel {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalProperties"), "must not be used at the root"))
		}
		if s.AdditionalProperties.Structural != nil {
			allErrs = append(allErrs, validateStructuralInvariants(s.AdditionalProperties.Structural, fieldLevel, fldPath.Child("additionalProperties"), opts)...)
		}
	}

	allErrs = append(allErrs, validateExtensions(&s.Extensions, fldPath)...)

	skipAnyOf := isIntOrStringAnyOfPattern(s)
	skipFirstAllOfAnyOf := isIntOrStringAllOfPattern(s)
	allErrs = append(allErrs, validateValueValidation(s.ValueValidation, skipAnyOf, skipFirstAllOfAnyOf, lvl, fldPath, opts)...)

	checkMetadata := lvl == rootLevel || s.XEmbeddedResource

	if s.XEmbeddedResource && s.Type != "object" {
		if len(s.Type) == 0 {
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	} else if len(s.Type) == 0 && !s.XIntOrString && !s.XPreserveUnknownFields {
		switch lvl {
		case rootLevel:
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must not be empty at the root"))
		case itemLevel:
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must not be empty for specified array items"))
		case fieldLevel:
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.XEmbeddedResource && s.AdditionalProperties != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}

	if lvl == rootLevel && len(s.Type) > 0 && s.Type != "object" {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), s.Type, "must be object at the root"))
	}

	if kind, found := s.Properties["kind"]; found && checkMetadata && kind.Type != "string" {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("properties").Key("kind").Child("type"), kind.Type, "must be string"))
	}
	if apiVersion, found := s.Properties["apiVersion"]; found && checkMetadata && apiVersion.Type != "string" {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("properties").Key("apiVersion").Child("type"), apiVersion.Type, "must be string"))
	}
	if metadata, found := s.Properties["metadata"]; found {
		allErrs = append(allErrs, validateStructuralMetadataInvariants(metadata, checkMetadata, lvl, fldPath.Child("properties").Key("metadata"))...)
	}

	if s.XEmbeddedResource && !s.XPreserveUnknownFields && len(s.Properties) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return allErrs
}

// validateStructuralMetadataInvariants takes metadata by value: it is a
// shallow copy that may be modified.
func validateStructuralMetadataInvariants(s Structural, checkMetadata bool, lvl level, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if checkMetadata && s.Type != "object" {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), s.Type, "must be object"))
	}
	if lvl == rootLevel {
		// at the root, metadata may only restrict name and generateName
		_, foundName := s.Properties["name"]
		_, foundGenerateName := s.Properties["generateName"]
		if foundName && foundGenerateName && len(s.Properties) == 2 {
			s.Properties = nil
		} else if (foundName || foundGenerateName) && len(s.Properties) == 1 {
			s.Properties = nil
		}
		s.Type = ""
		s.Default.Object = nil // checked by CRD API validation
		if s.ValueValidation == nil {
			s.ValueValidation = &ValueValidation{}
		}
		if !reflect.DeepEqual(s, Structural{ValueValidation: &ValueValidation{}}) {
			allErrs = append(allErrs, field.Forbidden(fldPath, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
		}
	}
	return allErrs
}

func isIntOrStringAnyOfPattern(s *Structural) bool {
	if s == nil || s.ValueValidation == nil {
		return false
	}
	return len(s.ValueValidation.AnyOf) == 2 && reflect.DeepEqual(s.ValueValidation.AnyOf, intOrStringAnyOf)
}

func isIntOrStringAllOfPattern(s *Structural) bool {
	if s == nil || s.ValueValidation == nil {
		return false
	}
	return len(s.ValueValidation.AllOf) >= 1 && len(s.ValueValidation.AllOf[0].AnyOf) == 2 &&
		reflect.DeepEqual(s.ValueValidation.AllOf[0].AnyOf, intOrStringAnyOf)
}

func validateExtensions(x *Extensions, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if x.XIntOrString && x.XPreserveUnknownFields {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-preserve-unknown-fields"), x.XPreserveUnknownFields, "must be false if x-kubernetes-int-or-string is true"))
	}
	if x.XIntOrString && x.XEmbeddedResource {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-embedded-resource"), x.XEmbeddedResource, "must be false if x-kubernetes-int-or-string is true"))
	}
	return allErrs
}

func validateValueValidation(v *ValueValidation, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, fldPath *field.Path, opts ValidationOptions) field.ErrorList {
	if v == nil {
		return nil
	}
	allErrs := field.ErrorList{}

	// x-kubernetes-validations stay forbidden under anyOf, oneOf and not
	noCEL := opts
	noCEL.AllowNestedXValidations = false

	if !skipAnyOf {
		for i := range v.AnyOf {
			allErrs = append(allErrs, validateNestedValueValidation(&v.AnyOf[i], false, false, lvl, fldPath.Child("anyOf").Index(i), noCEL)...)
		}
	}
	for i := range v.AllOf {
		skip := skipFirstAllOfAnyOf && i == 0
		allErrs = append(allErrs, validateNestedValueValidation(&v.AllOf[i], skip, false, lvl, fldPath.Child("allOf").Index(i), opts)...)
	}
	for i := range v.OneOf {
		allErrs = append(allErrs, validateNestedValueValidation(&v.OneOf[i], false, false, lvl, fldPath.Child("oneOf").Index(i), noCEL)...)
	}
	allErrs = append(allErrs, validateNestedValueValidation(v.Not, false, false, lvl, fldPath.Child("not"), noCEL)...)

	if len(v.Pattern) > 0 {
		if err := checkPattern(v.Pattern); err != nil {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("pattern"), v.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	return allErrs
}

func validateNestedValueValidation(v *NestedValueValidation, skipAnyOf, skipAllOfAnyOf bool, lvl level, fldPath *field.Path, opts ValidationOptions) field.ErrorList {
	if v == nil {
		return nil
	}
	allErrs := field.ErrorList{}
	allErrs = append(allErrs, validateValueValidation(&v.ValueValidation, skipAnyOf, skipAllOfAnyOf, lvl, fldPath, opts)...)
	allErrs = append(allErrs, validateNestedValueValidation(v.Items, false, false, lvl, fldPath.Child("items"), opts)...)
	for _, k := range keys.Sorted(v.Properties) {
		p := v.Properties[k]
		allErrs = append(allErrs, validateNestedValueValidation(&p, false, false, fieldLevel, fldPath.Child("properties").Key(k), opts)...)
	}

	forbid := func(name, detail string) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child(name), detail))
	}
	if len(v.ForbiddenGenerics.Type) > 0 {
		forbid("type", "must be empty to be structural")
	}
	if v.AdditionalProperties != nil && !opts.AllowNestedAdditionalProperties {
		forbid("additionalProperties", "must be undefined to be structural")
	} else {
		allErrs = append(allErrs, validateNestedValueValidation(v.AdditionalProperties, false, false, lvl, fldPath.Child("additionalProperties"), opts)...)
	}
	if v.ForbiddenGenerics.Default.Object != nil {
		forbid("default", "must be undefined to be structural")
	}
	if len(v.ForbiddenGenerics.Title) > 0 {
		forbid("title", "must be empty to be structural")
	}
	if len(v.ForbiddenGenerics.Description) > 0 {
		forbid("description", "must be empty to be structural")
	}
	if v.ForbiddenGenerics.Nullable {
		forbid("nullable", "must be false to be structural")
	}
	if v.ForbiddenExtensions.XPreserveUnknownFields {
		forbid("x-kubernetes-preserve-unknown-fields", "must be false to be structural")
	}
	if v.ForbiddenExtensions.XEmbeddedResource {
		forbid("x-kubernetes-embedded-resource", "must be false to be structural")
	}
	if v.ForbiddenExtensions.XIntOrString {
		forbid("x-kubernetes-int-or-string", "must be false to be structural")
	}
	if len(v.ForbiddenExtensions.XListMapKeys) > 0 {
		forbid("x-kubernetes-list-map-keys", "must be empty to be structural")
	}
	if v.ForbiddenExtensions.XListType != nil {
		forbid("x-kubernetes-list-type", "must be undefined to be structural")
	}
	if v.ForbiddenExtensions.XMapType != nil {
		forbid("x-kubernetes-map-type", "must be undefined to be structural")
	}
	if len(v.ValidationExtensions.XValidations) > 0 && !opts.AllowNestedXValidations {
		forbid("x-kubernetes-validations", "must be empty to be structural")
	}
	if _, found := v.Properties["metadata"]; found {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
	return allErrs
}

// validateStructuralCompleteness checks that every value validation has a
// structural counterpart: properties, items and additionalProperties named
// under allOf/anyOf/oneOf/not must exist in the structural part.
func validateStructuralCompleteness(s *Structural, fldPath *field.Path, opts ValidationOptions) field.ErrorList {
	if s == nil {
		return nil
	}
	return validateValueValidationCompleteness(s.ValueValidation, s, fldPath, fldPath, opts)
}

func requiredBecause(sPath, vPath *field.Path) field.ErrorList {
	return field.ErrorList{field.Required(sPath, fmt.Sprintf("because it is defined in %s", vPath.String()))}
}

func validateValueValidationCompleteness(v *ValueValidation, s *Structural, sPath, vPath *field.Path, opts ValidationOptions) field.ErrorList {
	if v == nil {
		return nil
	}
	if s == nil {
		return requiredBecause(sPath, vPath)
	}
	allErrs := field.ErrorList{}
	allErrs = append(allErrs, validateNestedValueValidationCompleteness(v.Not, s, sPath, vPath.Child("not"), opts)...)
	for i := range v.AllOf {
		allErrs = append(allErrs, validateNestedValueValidationCompleteness(&v.AllOf[i], s, sPath, vPath.Child("allOf").Index(i), opts)...)
	}
	for i := range v.AnyOf {
		allErrs = append(allErrs, validateNestedValueValidationCompleteness(&v.AnyOf[i], s, sPath, vPath.Child("anyOf").Index(i), opts)...)
	}
	for i := range v.OneOf {
		allErrs = append(allErrs, validateNestedValueValidationCompleteness(&v.OneOf[i], s, sPath, vPath.Child("oneOf").Index(i), opts)...)
	}
	return allErrs
}

func validateNestedValueValidationCompleteness(v *NestedValueValidation, s *Structural, sPath, vPath *field.Path, opts ValidationOptions) field.ErrorList {
	if v == nil {
		return nil
	}
	if s == nil {
		return requiredBecause(sPath, vPath)
	}
	allErrs := field.ErrorList{}
	allErrs = append(allErrs, validateValueValidationCompleteness(&v.ValueValidation, s, sPath, vPath, opts)...)
	allErrs = append(allErrs, validateNestedValueValidationCompleteness(v.Items, s.Items, sPath.Child("items"), vPath.Child("items"), opts)...)

	var sAdditional *Structural
	if s.AdditionalProperties != nil {
		sAdditional = s.AdditionalProperties.Structural
	}
	for _, k := range keys.Sorted(v.Properties) {
		vFld := v.Properties[k]
		if sFld, ok := s.Properties[k]; ok {
			allErrs = append(allErrs, validateNestedValueValidationCompleteness(&vFld, &sFld, sPath.Child("properties").Key(k), vPath.Child("properties").Key(k), opts)...)
		} else if sAdditional == nil || !opts.AllowValidationPropertiesWithAdditionalProperties {
			allErrs = append(allErrs, field.Required(sPath.Child("properties").Key(k), fmt.Sprintf("because it is defined in %s", vPath.Child("properties").Key(k).String())))
		} else {
			allErrs = append(allErrs, validateNestedValueValidationCompleteness(&vFld, sAdditional, sPath.Child("additionalProperties"), vPath.Child("properties").Key(k), opts)...)
		}
	}
	if v.AdditionalProperties != nil && opts.AllowNestedAdditionalProperties {
		allErrs = append(allErrs, validateNestedValueValidationCompleteness(v.AdditionalProperties, sAdditional, sPath.Child("additionalProperties"), vPath.Child("additionalProperties"), opts)...)
	}
	return allErrs
}

// checkPattern is upstream's regexp.Compile(pattern) validity check without
// building the matcher: regexp.Compile fails exactly when syntax.Parse with
// the Perl flags fails, and returns that error (syntax.Compile and the
// one-pass analysis that follow cannot fail). The pattern is compiled
// where objects are validated (internal/openapi); compiling it here too
// doubled the regexp work of a CRD compile. TestCheckPatternIsRegexpCompile
// holds the two to the same verdicts and messages.
func checkPattern(pattern string) error {
	_, err := syntax.Parse(pattern, syntax.Perl)
	return err
}

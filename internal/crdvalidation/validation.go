// Package crdvalidation validates a CustomResourceDefinition as kube-apiserver
// does when it is created or updated: upstream's registry strategy for CRDs
// (k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition:
// PrepareForCreate, Validate, WarningsOnCreate; PrepareForUpdate,
// ValidateUpdate, WarningsOnUpdate) and pkg/apis/apiextensions/validation
// (ValidateCustomResourceDefinition, ValidateCustomResourceDefinitionUpdate
// and the recursive ValidateCustomResourceDefinitionOpenAPISchema), v0.37.2,
// with the 1.37 feature-gate defaults. On update the checks are ratcheted
// against the old CRD exactly where upstream's validationOptions are
// (update.go).
//
// Upstream validates the *internal* type after the v1-to-internal
// conversion, which hoists schemas, subresources, printer columns and
// selectable fields that are identical in every version to the spec level.
// This package reproduces that view, so errors carry the same paths
// (spec.validation.openAPIV3Schema... or spec.versions[i].schema...), the
// same order and the same rendered bad values.
//
// The CEL checks (compilation, static cost per expression and per schema,
// oldSelf correlatability, messageExpression types) are upstream's
// cel_validation.go and call internal/cel directly (cel.go); fieldPath and
// selectable-field paths are resolved by cel.ValidFieldPath, and defaults
// are checked (CEL rules included) by internal/defaulting.
//
// Files: validation.go is ValidateCustomResourceDefinition and the spec
// checks (names, group, scope, versions, conversion, subresources, printer
// columns, selectable fields; the per-CRD cost total against
// StaticEstimatedCRDCostLimit; specFlags, the switches an update ratchets);
// internal.go the v1 → internal view; schema.go
// ValidateCustomResourceDefinitionOpenAPISchema (forbidden fields,
// int-or-string, embedded resources, list types); cel.go the CEL checks
// (CompileRules, celRuleErrors, the cardinality walk ChildCardinality that
// package cost uses too); update.go ValidateCustomResourceDefinitionUpdate
// and the validation options ratcheted against the old CRD (immutable
// names, storedVersions, preexisting CEL expressions, the unchanged-schema
// cost waiver, caBundle); gosyntax.go the Go-syntax layouts of values in
// the errors of releases before 1.34.
package crdvalidation

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/defaulting"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/openapi"
	"github.com/crdlab/crdlab/internal/schema"
)

// maxGeneratedNameBaseLength and generatedNameSuffix mirror upstream's
// SimpleNameGenerator (63-character names: a 58-character base and 5
// random characters, here fixed).
const (
	maxGeneratedNameBaseLength = 58
	generatedNameSuffix        = "xxxxx"
)

// MaxSelectableFields is the largest number of selectable fields per version
// (upstream MaxSelectableFields).
const MaxSelectableFields = 8

// Options configures ValidateCustomResourceDefinition.
type Options struct {
	// CompileCache memoizes the CEL compilations of the rule checks and of
	// the default-value checks (engine.CompileCRD shares one with the
	// serving validators); nil compiles every rule. A cache made by
	// cel.NewCompileCacheContext stops the validation between versions
	// and between rules once its context ends; the result is then to be
	// dropped.
	CompileCache *cel.CompileCache
	// Patterns memoizes the schema patterns compiled by the default-value
	// checks (shared with the serving validators the same way); nil
	// compiles every pattern.
	Patterns *openapi.Patterns
	// Release is the Kubernetes release whose checks run (the zero
	// Release: the newest). The CEL rules compile in CompileCache's
	// release.
	Release kubeversion.Release
}

type options struct {
	Options
	// compileRules compiles the rules of one node: CompileRules with the
	// cache, or a fake in tests.
	compileRules func(CELNode) ([]CELRuleResult, error)
}

// before134 is detail, or old before 1.34 (kubeversion.DetailWithoutFieldName).
func (o *options) before134(detail, old string) string {
	if o.Release.Has(kubeversion.DetailWithoutFieldName) {
		return detail
	}
	return old
}

var (
	printerColumnDatatypes      = []string{"boolean", "date", "integer", "number", "string"}
	printerColumnFormats        = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
	acceptedConversionVersions  = []string{"v1", "v1beta1"}
	kubeAPIApprovedAnnotation   = "api-approved.kubernetes.io"
	protectedGroupApprovalError = fmt.Sprintf("protected groups must have approval annotation %q, see https://github.com/kubernetes/enhancements/pull/1111", kubeAPIApprovedAnnotation)
)

// ValidateCustomResourceDefinition validates c as kube-apiserver validates a
// CRD on create: it applies PrepareForCreate (status reset, storedVersions
// set to the storage version) to a copy, converts it to the internal view
// and runs every check in upstream's order. The warnings are those of
// WarningsOnCreate; as upstream, they are only produced when there is no
// error. c must carry the v1 defaults (crd.Decode applies them).
func ValidateCustomResourceDefinition(c *crd.CustomResourceDefinition, opts Options) (errs field.ErrorList, warnings []string) {
	o := &options{Options: opts}
	o.compileRules = func(n CELNode) ([]CELRuleResult, error) { return CompileRules(n, o.CompileCache) }
	return validateCustomResourceDefinition(c, o)
}

func validateCustomResourceDefinition(c *crd.CustomResourceDefinition, o *options) (errs field.ErrorList, warnings []string) {
	errs = field.ErrorList{}
	if c == nil {
		return append(errs, field.Required(field.NewPath("spec"), "")), nil
	}
	in := toInternal(c)
	// The create handler generates a name from generateName (upstream
	// appends 5 random characters; crdlab appends "xxxxx" so results are
	// reproducible), and BeforeCreate clears the namespace of a
	// cluster-scoped object.
	if in.Metadata.GenerateName != "" && in.Metadata.Name == "" {
		base := in.Metadata.GenerateName
		if len(base) > maxGeneratedNameBaseLength {
			base = base[:maxGeneratedNameBaseLength]
		}
		in.Metadata.Name = base + generatedNameSuffix
	}
	in.Metadata.Namespace = ""
	// PrepareForCreate
	in.Status = internalStatus{}
	in.Metadata.Generation = 1
	for _, v := range in.Spec.Versions {
		if v.Storage {
			in.Status.StoredVersions = append(in.Status.StoredVersions, v.Name)
			break
		}
	}
	nameFn := func(name string, prefix bool) []string {
		ret := nameIsDNSSubdomain(name, prefix)
		if name != in.Spec.Names.Plural+"."+in.Spec.Group {
			ret = append(ret, `must be spec.names.plural+"."+spec.group`)
		}
		return ret
	}
	errs = append(errs, validateObjectMeta(o.Release, &in.Metadata, nameFn, field.NewPath("metadata"))...)
	errs = append(errs, validateSpec(&in.Spec, createFlags(), o, field.NewPath("spec"))...)
	errs = append(errs, validateNames(&in.Status.AcceptedNames, field.NewPath("status").Child("acceptedNames"))...)
	errs = append(errs, validateStoredVersions(in.Status.StoredVersions, in.Spec.Versions, field.NewPath("status").Child("storedVersions"), o.Release)...)
	errs = append(errs, validateAPIApproval(in)...)
	if in.Spec.PreserveUnknownFields != nil && *in.Spec.PreserveUnknownFields {
		errs = append(errs, field.Invalid(field.NewPath("spec").Child("preserveUnknownFields"), true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"))
	}
	if len(errs) > 0 {
		return errs, nil
	}
	return errs, warningsOnCreate(&in.Spec, o.Release)
}

func validateStoredVersions(stored []string, versions []internalVersion, fldPath *field.Path, rel kubeversion.Release) field.ErrorList {
	if len(stored) == 0 {
		return field.ErrorList{field.Invalid(fldPath, stored, "must have at least one stored version")}
	}
	allErrs := field.ErrorList{}
	idx := map[string]int{}
	for i, v := range stored {
		idx[v] = i
	}
	for _, v := range versions {
		_, ok := idx[v.Name]
		if v.Storage && !ok {
			allErrs = append(allErrs, field.Invalid(fldPath, stored, "must have the storage version "+v.Name))
		}
		if ok {
			delete(idx, v.Name)
		}
	}
	// on create storedVersions holds the storage version only, so nothing
	// remains here; kept for completeness in sorted order.
	rest := keys.Sorted(idx)
	for _, v := range rest {
		msg := "must appear in spec.versions" // before 1.33 (kubeversion.StoredVersionMissingMessage)
		if rel.Has(kubeversion.StoredVersionMissingMessage) {
			msg = fmt.Sprintf("missing from spec.versions; %[1]s was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in %[1]s and removes %[1]s from status.storedVersions", v)
		}
		allErrs = append(allErrs, field.Invalid(fldPath.Index(idx[v]), v, msg))
	}
	return allErrs
}

func validateAPIApproval(c *internalCRD) field.ErrorList {
	g := c.Spec.Group
	protected := g == "k8s.io" || strings.HasSuffix(g, ".k8s.io") || g == "kubernetes.io" || strings.HasSuffix(g, ".kubernetes.io")
	if !protected {
		return nil
	}
	p := field.NewPath("metadata", "annotations").Key(kubeAPIApprovedAnnotation)
	a := c.Metadata.Annotations[kubeAPIApprovedAnnotation]
	u, err := url.ParseRequestURI(a)
	switch {
	case len(a) == 0:
		return field.ErrorList{field.Required(p, protectedGroupApprovalError)}
	case strings.HasPrefix(a, "unapproved"):
		return nil
	case err == nil && u != nil && len(u.Host) > 0 && len(u.Scheme) > 0:
		return nil
	default:
		return field.ErrorList{field.Invalid(p, a, fmt.Sprintf("protected groups must have approval annotation %q with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", kubeAPIApprovedAnnotation))}
	}
}

func validateEnumStrings(fldPath *field.Path, value string, accepted []string, required bool) field.ErrorList {
	if value == "" {
		if required {
			return field.ErrorList{field.Required(fldPath, "")}
		}
		return field.ErrorList{}
	}
	if slices.Contains(accepted, value) {
		return field.ErrorList{}
	}
	return field.ErrorList{field.NotSupported(fldPath, value, accepted)}
}

// specFlags is upstream's validationOptions: the switches that are all on
// for a create and that an update derives from the old CRD (update.go), so
// that what the old CRD already broke is tolerated. It is passed by value,
// as upstream's, and adjusted on the way down (requireStructuralSchema in
// validateSpec, suppressPerExpressionCost per version).
type specFlags struct {
	requireRecognizedConversionReviewVersion bool
	requireOpenAPISchema                     bool
	requireValidPropertyType                 bool
	requireStructuralSchema                  bool
	requirePrunedDefaults                    bool
	requireAtomicSetType                     bool
	requireMapListKeysMapSetValidation       bool
	// preexisting holds the rules and messageExpressions of the old CRD,
	// compiled in the StoredExpressions environment (nil on create).
	preexisting *preexistingExpressions
	// versionsWithUnchangedSchemas names the versions whose schema the
	// update leaves unchanged (nil on create).
	versionsWithUnchangedSchemas map[string]bool
	// suppressPerExpressionCost drops the per-expression cost limit (set
	// for a version whose schema is unchanged).
	suppressPerExpressionCost bool
	// allowInvalidCABundle skips the conversion webhook caBundle check (on
	// create, and on update unless the old CRD is established with a valid
	// caBundle).
	allowInvalidCABundle bool
	// allowTooManySelectableFields, by version name ("" for the top
	// level), tolerates more than MaxSelectableFields left unchanged.
	allowTooManySelectableFields map[string]bool
}

// createFlags are the switches of ValidateCustomResourceDefinition.
func createFlags() specFlags {
	return specFlags{
		requireRecognizedConversionReviewVersion: true,
		requireOpenAPISchema:                     true,
		requireValidPropertyType:                 true,
		requireStructuralSchema:                  true,
		requirePrunedDefaults:                    true,
		requireAtomicSetType:                     true,
		requireMapListKeysMapSetValidation:       true,
		allowInvalidCABundle:                     true,
	}
}

// suppressExpressionCostForUnchangedSchema is upstream's function of the
// same name.
func suppressExpressionCostForUnchangedSchema(f specFlags, version string) specFlags {
	if f.versionsWithUnchangedSchemas[version] {
		f.suppressPerExpressionCost = true
	}
	return f
}

func validateSpec(spec *internalSpec, flags specFlags, o *options, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}

	if len(spec.Group) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("group"), ""))
	} else if errs := isDNS1123Subdomain(spec.Group); len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("group"), spec.Group, strings.Join(errs, ",")))
	} else if len(strings.Split(spec.Group, ".")) < 2 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("group"), spec.Group, "should be a domain with at least one dot"))
	}

	allErrs = append(allErrs, validateEnumStrings(fldPath.Child("scope"), spec.Scope, []string{string(crd.ClusterScoped), string(crd.NamespaceScoped)}, true)...)

	preserve := spec.PreserveUnknownFields != nil && *spec.PreserveUnknownFields
	// enabling pruning requires structural schemas
	if !preserve {
		flags.requireStructuralSchema = true
	}

	if flags.requireOpenAPISchema {
		if spec.Validation == nil || spec.Validation.OpenAPIV3Schema == nil {
			for i, v := range spec.Versions {
				if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
					allErrs = append(allErrs, field.Required(fldPath.Child("versions").Index(i).Child("schema").Child("openAPIV3Schema"), o.before134("", "schemas are required")))
				}
			}
		}
	} else if !preserve {
		if spec.Validation == nil || spec.Validation.OpenAPIV3Schema == nil {
			for i, v := range spec.Versions {
				if v.Served && (v.Schema == nil || v.Schema.OpenAPIV3Schema == nil) {
					allErrs = append(allErrs, field.Required(fldPath.Child("versions").Index(i).Child("schema", "openAPIV3Schema"), "because otherwise all fields are pruned"))
				}
			}
		}
	}
	if specHasDefaults(spec) {
		flags.requireStructuralSchema = true
		if spec.PreserveUnknownFields == nil || preserve {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("preserveUnknownFields"), true, "must be false in order to use defaults in the schema"))
		}
	}
	if specHasKubernetesExtensions(spec) {
		flags.requireStructuralSchema = true
	}

	storageFlagCount := 0
	seen := map[string]bool{}
	uniqueNames := true
	for i := range spec.Versions {
		if o.CompileCache.Err() != nil {
			// CompileContext's context ended: the result is dropped.
			break
		}
		version := spec.Versions[i]
		if version.Storage {
			storageFlagCount++
		}
		if seen[version.Name] {
			uniqueNames = false
		} else {
			seen[version.Name] = true
		}
		if errs := isDNS1035Label(version.Name); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("versions").Index(i).Child("name"), version.Name, strings.Join(errs, ",")))
		}
		subresources := subresourcesForVersion(spec, version.Name)
		allErrs = append(allErrs, validateVersion(&version, fldPath.Child("versions").Index(i), subresources != nil && subresources.Status != nil, suppressExpressionCostForUnchangedSchema(flags, version.Name), o)...)
	}

	if spec.Validation != nil && hasPerVersionSchema(spec.Versions) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("validation"), "top-level and per-version schemas are mutually exclusive"))
	}
	if spec.Subresources != nil && hasPerVersionSubresources(spec.Versions) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("subresources"), "top-level and per-version subresources are mutually exclusive"))
	}
	if len(spec.AdditionalPrinterColumns) > 0 && hasPerVersionColumns(spec.Versions) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalPrinterColumns"), "top-level and per-version additionalPrinterColumns are mutually exclusive"))
	}
	if hasIdenticalPerVersion(spec.Versions, func(v internalVersion) (interface{}, bool) { return v.Schema, v.Schema != nil }) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "per-version schemas may not all be set to identical values (top-level validation should be used instead)"))
	}
	if hasIdenticalPerVersion(spec.Versions, func(v internalVersion) (interface{}, bool) {
		return v.Subresources, v.Subresources != nil
	}) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "per-version subresources may not all be set to identical values (top-level subresources should be used instead)"))
	}
	if hasIdenticalPerVersion(spec.Versions, func(v internalVersion) (interface{}, bool) {
		return v.AdditionalPrinterColumns, len(v.AdditionalPrinterColumns) > 0
	}) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)"))
	}
	if !uniqueNames {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "must contain unique version names"))
	}
	if storageFlagCount != 1 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "must have exactly one version marked as storage version"))
	}
	if len(spec.Version) != 0 {
		if errs := isDNS1035Label(spec.Version); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("version"), spec.Version, strings.Join(errs, ",")))
		}
		if len(spec.Versions) >= 1 && spec.Versions[0].Name != spec.Version {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("version"), spec.Version, "must match the first version in spec.versions"))
		}
	}

	if len(spec.Names.Plural) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "plural"), ""))
	}
	if len(spec.Names.Singular) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "singular"), ""))
	}
	if len(spec.Names.Kind) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "kind"), ""))
	}
	if len(spec.Names.ListKind) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "listKind"), ""))
	}
	allErrs = append(allErrs, validateNames(&crd.CustomResourceDefinitionNames{
		Plural: spec.Names.Plural, Singular: spec.Names.Singular, ShortNames: spec.Names.ShortNames,
		Kind: spec.Names.Kind, ListKind: spec.Names.ListKind, Categories: spec.Names.Categories,
	}, fldPath.Child("names"))...)
	allErrs = append(allErrs, validateValidation(spec.Validation, hasAnyStatusEnabled(spec), suppressExpressionCostForUnchangedSchema(flags, spec.Version), o, fldPath.Child("validation"))...)
	allErrs = append(allErrs, validateSubresources(spec.Subresources, fldPath.Child("subresources"))...)
	for i := range spec.AdditionalPrinterColumns {
		allErrs = append(allErrs, validateColumn(&spec.AdditionalPrinterColumns[i], fldPath.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(spec.SelectableFields) > 0 {
		if spec.Validation == nil {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("selectableFields"), "", o.before134("may only be set when validations.schema is included", "selectableFields may only be set when validations.schema is included")))
		} else {
			ss, err := schema.NewStructural(spec.Validation.OpenAPIV3Schema)
			if err != nil {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("schema.openAPIV3Schema"), "", err.Error()))
			}
			allErrs = append(allErrs, validateSelectableFields(spec.SelectableFields, ss, fldPath.Child("selectableFields"), flags.allowTooManySelectableFields[""])...)
		}
	}

	if spec.Conversion != nil && spec.Conversion.Strategy != string(crd.NoneConverter) && (spec.PreserveUnknownFields == nil || preserve) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("conversion").Child("strategy"), spec.Conversion.Strategy, "must be None if spec.preserveUnknownFields is true"))
	}
	allErrs = append(allErrs, validateConversion(spec.Conversion, flags, fldPath.Child("conversion"))...)
	return allErrs
}

func validateVersion(version *internalVersion, fldPath *field.Path, statusEnabled bool, flags specFlags, o *options) field.ErrorList {
	allErrs := field.ErrorList{}
	for _, msg := range validateDeprecationWarning(version.Deprecated, version.DeprecationWarning) {
		// the *string is JSON-encoded when rendered, as upstream's
		allErrs = append(allErrs, field.Invalid(fldPath.Child("deprecationWarning"), version.DeprecationWarning, msg))
	}
	allErrs = append(allErrs, validateValidation(version.Schema, statusEnabled, flags, o, fldPath.Child("schema"))...)
	allErrs = append(allErrs, validateSubresources(version.Subresources, fldPath.Child("subresources"))...)
	for i := range version.AdditionalPrinterColumns {
		allErrs = append(allErrs, validateColumn(&version.AdditionalPrinterColumns[i], fldPath.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(version.SelectableFields) > 0 {
		if version.Schema == nil || version.Schema.OpenAPIV3Schema == nil {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("selectableFields"), "", o.before134("may only be set when `version.schema.openAPIV3Schema` is not included", "selectableFields may only be set when version.schema.openAPIV3Schema is not included")))
		} else {
			ss, err := schema.NewStructural(version.Schema.OpenAPIV3Schema)
			if err != nil {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("schema.openAPIV3Schema"), "", err.Error()))
			}
			allErrs = append(allErrs, validateSelectableFields(version.SelectableFields, ss, fldPath.Child("selectableFields"), flags.allowTooManySelectableFields[version.Name])...)
		}
	}
	return allErrs
}

func validateDeprecationWarning(deprecated bool, w *string) []string {
	if !deprecated && w != nil {
		return []string{"can only be set for deprecated versions"}
	}
	if w == nil {
		return nil
	}
	var errs []string
	if len(*w) > 256 {
		errs = append(errs, "must be <= 256 characters long")
	}
	if len(*w) == 0 {
		errs = append(errs, "must not be an empty string")
	}
	for i, r := range *w {
		if !unicode.IsPrint(r) {
			errs = append(errs, fmt.Sprintf("must only contain printable UTF-8 characters; non-printable character found at index %d", i))
			break
		}
		if unicode.IsControl(r) {
			errs = append(errs, fmt.Sprintf("must only contain printable UTF-8 characters; control character found at index %d", i))
			break
		}
	}
	if !utf8.ValidString(*w) {
		errs = append(errs, "must only contain printable UTF-8 characters")
	}
	return errs
}

func subresourcesForVersion(spec *internalSpec, version string) *internalSubresources {
	if !hasPerVersionSubresources(spec.Versions) {
		return spec.Subresources
	}
	for _, v := range spec.Versions {
		if v.Name == version {
			return v.Subresources
		}
	}
	return nil
}

func hasAnyStatusEnabled(spec *internalSpec) bool {
	if spec.Subresources != nil && spec.Subresources.Status != nil {
		return true
	}
	for _, v := range spec.Versions {
		if v.Subresources != nil && v.Subresources.Status != nil {
			return true
		}
	}
	return false
}

func hasPerVersionSchema(vs []internalVersion) bool {
	for _, v := range vs {
		if v.Schema != nil {
			return true
		}
	}
	return false
}

func hasPerVersionSubresources(vs []internalVersion) bool {
	for _, v := range vs {
		if v.Subresources != nil {
			return true
		}
	}
	return false
}

func hasPerVersionColumns(vs []internalVersion) bool {
	for _, v := range vs {
		if len(v.AdditionalPrinterColumns) > 0 {
			return true
		}
	}
	return false
}

func hasIdenticalPerVersion(vs []internalVersion, get func(internalVersion) (interface{}, bool)) bool {
	if len(vs) == 0 {
		return false
	}
	first, set := get(vs[0])
	if !set {
		return false
	}
	for _, v := range vs[1:] { // the first is equal to itself
		val, set := get(v)
		if !set || !semanticEqual(val, first) {
			return false
		}
	}
	return true
}

func validateNames(names *crd.CustomResourceDefinitionNames, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if errs := isDNS1035Label(names.Plural); len(names.Plural) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("plural"), names.Plural, strings.Join(errs, ",")))
	}
	if errs := isDNS1035Label(names.Singular); len(names.Singular) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("singular"), names.Singular, strings.Join(errs, ",")))
	}
	if errs := isDNS1035Label(strings.ToLower(names.Kind)); len(names.Kind) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("kind"), names.Kind, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
	}
	if errs := isDNS1035Label(strings.ToLower(names.ListKind)); len(names.ListKind) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("listKind"), names.ListKind, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
	}
	for i, n := range names.ShortNames {
		if errs := isDNS1035Label(n); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("shortNames").Index(i), n, strings.Join(errs, ",")))
		}
	}
	if len(names.Kind) > 0 && names.Kind == names.ListKind {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("listKind"), names.ListKind, "kind and listKind may not be the same"))
	}
	for i, c := range names.Categories {
		if errs := isDNS1035Label(c); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("categories").Index(i), c, strings.Join(errs, ",")))
		}
	}
	return allErrs
}

func validateColumn(col *internalColumn, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if len(col.Name) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), ""))
	}
	typesMsg := fmt.Sprintf("must be one of %s", strings.Join(printerColumnDatatypes, ","))
	if len(col.Type) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("type"), typesMsg))
	} else if !slices.Contains(printerColumnDatatypes, col.Type) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), col.Type, typesMsg))
	}
	if len(col.Format) > 0 && !slices.Contains(printerColumnFormats, col.Format) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("format"), col.Format, fmt.Sprintf("must be one of %s", strings.Join(printerColumnFormats, ","))))
	}
	if len(col.JSONPath) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("JSONPath"), ""))
	} else {
		allErrs = append(allErrs, validateSimpleJSONPath(col.JSONPath, fldPath.Child("JSONPath"))...)
	}
	return allErrs
}

func validateSimpleJSONPath(s string, fldPath *field.Path) field.ErrorList {
	switch {
	case len(s) == 0:
		return field.ErrorList{field.Invalid(fldPath, s, "must not be empty")}
	case s[0] != '.':
		return field.ErrorList{field.Invalid(fldPath, s, "must be a simple json path starting with .")}
	}
	return nil
}

func validateSelectableFields(fields []internalSelectableField, ss *schema.Structural, fldPath *field.Path, allowTooMany bool) field.ErrorList {
	var allErrs field.ErrorList
	unique := map[string]bool{}
	for i, f := range fields {
		p := fldPath.Index(i).Child("jsonPath")
		if len(f.JSONPath) == 0 {
			allErrs = append(allErrs, field.Required(p, ""))
			continue
		}
		path, found, err := cel.ValidFieldPath(f.JSONPath, ss, cel.WithFieldPathAllowArrayNotation(false))
		if err == nil && ss == nil {
			err = fmt.Errorf("does not refer to a valid field")
		}
		if err != nil {
			allErrs = append(allErrs, field.Invalid(p, f.JSONPath, fmt.Sprintf("is an invalid path: %v", err)))
			continue
		}
		if path != nil && path.Root().String() == "metadata" {
			allErrs = append(allErrs, field.Invalid(p, f.JSONPath, "must not point to fields in metadata"))
		}
		if found == nil || (found.Type != "string" && found.Type != "boolean" && found.Type != "integer") {
			allErrs = append(allErrs, field.Invalid(p, f.JSONPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."))
		}
		if unique[path.String()] {
			allErrs = append(allErrs, field.Duplicate(p, f.JSONPath))
		} else {
			unique[path.String()] = true
		}
	}
	if len(unique) > MaxSelectableFields && !allowTooMany {
		allErrs = append(allErrs, field.TooMany(fldPath, len(unique), MaxSelectableFields))
	}
	return allErrs
}

func validateSubresources(sr *internalSubresources, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if sr == nil || sr.Scale == nil {
		return allErrs
	}
	sc := sr.Scale
	if len(sc.SpecReplicasPath) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("scale.specReplicasPath"), ""))
	} else if errs := validateSimpleJSONPath(sc.SpecReplicasPath, fldPath.Child("scale.specReplicasPath")); len(errs) > 0 {
		allErrs = append(allErrs, errs...)
	} else if !strings.HasPrefix(sc.SpecReplicasPath, ".spec.") {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("scale.specReplicasPath"), sc.SpecReplicasPath, "should be a json path under .spec"))
	}
	if len(sc.StatusReplicasPath) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("scale.statusReplicasPath"), ""))
	} else if errs := validateSimpleJSONPath(sc.StatusReplicasPath, fldPath.Child("scale.statusReplicasPath")); len(errs) > 0 {
		allErrs = append(allErrs, errs...)
	} else if !strings.HasPrefix(sc.StatusReplicasPath, ".status.") {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("scale.statusReplicasPath"), sc.StatusReplicasPath, "should be a json path under .status"))
	}
	if sc.LabelSelectorPath != nil && len(*sc.LabelSelectorPath) > 0 {
		lp := *sc.LabelSelectorPath
		if errs := validateSimpleJSONPath(lp, fldPath.Child("scale.labelSelectorPath")); len(errs) > 0 {
			allErrs = append(allErrs, errs...)
		} else if !strings.HasPrefix(lp, ".spec.") && !strings.HasPrefix(lp, ".status.") {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("scale.labelSelectorPath"), lp, "should be a json path under either .spec or .status"))
		}
	}
	return allErrs
}

func validateConversion(c *internalConversion, flags specFlags, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if c == nil {
		return allErrs
	}
	allErrs = append(allErrs, validateEnumStrings(fldPath.Child("strategy"), c.Strategy, []string{string(crd.NoneConverter), string(crd.WebhookConverter)}, true)...)
	if c.Strategy == string(crd.WebhookConverter) {
		if c.WebhookClientConfig == nil {
			allErrs = append(allErrs, field.Required(fldPath.Child("webhookClientConfig"), "required when strategy is set to Webhook"))
		} else {
			cc := c.WebhookClientConfig
			switch {
			case (cc.URL == nil) == (cc.Service == nil):
				allErrs = append(allErrs, field.Required(fldPath.Child("webhookClientConfig"), "exactly one of url or service is required"))
			case cc.URL != nil:
				allErrs = append(allErrs, validateWebhookURL(fldPath.Child("webhookClientConfig").Child("url"), *cc.URL, true)...)
			case cc.Service != nil:
				allErrs = append(allErrs, validateWebhookService(fldPath.Child("webhookClientConfig").Child("service"), cc.Service.Namespace, cc.Service.Name, cc.Service.Path, cc.Service.Port)...)
			}
			if len(cc.CABundle) > 0 && !flags.allowInvalidCABundle {
				allErrs = append(allErrs, validateCABundle(fldPath.Child("webhookClientConfig").Child("caBundle"), cc.CABundle)...)
			}
		}
		allErrs = append(allErrs, validateConversionReviewVersions(c.ConversionReviewVersions, flags.requireRecognizedConversionReviewVersion, fldPath.Child("conversionReviewVersions"))...)
	} else {
		if c.WebhookClientConfig != nil {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("webhookClientConfig"), "should not be set when strategy is not set to Webhook"))
		}
		if len(c.ConversionReviewVersions) > 0 {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"))
		}
	}
	return allErrs
}

func validateConversionReviewVersions(versions []string, requireRecognized bool, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if len(versions) < 1 {
		return append(allErrs, field.Required(fldPath, ""))
	}
	seen := map[string]bool{}
	accepted := false
	for i, v := range versions {
		if seen[v] {
			allErrs = append(allErrs, field.Invalid(fldPath.Index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range isDNS1035Label(v) {
			allErrs = append(allErrs, field.Invalid(fldPath.Index(i), v, msg))
		}
		if slices.Contains(acceptedConversionVersions, v) {
			accepted = true
		}
	}
	if requireRecognized && !accepted {
		allErrs = append(allErrs, field.Invalid(fldPath, versions, fmt.Sprintf("must include at least one of %v", strings.Join(acceptedConversionVersions, ", "))))
	}
	return allErrs
}

// validateValidation is upstream's validateCustomResourceDefinitionValidation.
func validateValidation(v *internalValidation, statusEnabled bool, flags specFlags, o *options, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if v == nil || v.OpenAPIV3Schema == nil {
		return allErrs
	}
	s := v.OpenAPIV3Schema
	if statusEnabled {
		allErrs = append(allErrs, rootStatusErrors(s, fldPath)...)
	}
	if s.Nullable {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("openAPIV3Schema.nullable"), "nullable cannot be true at the root"))
	}
	v3 := ssv{allowDefaults: true, requireValidPropertyType: flags.requireValidPropertyType}

	var ctx *celContext
	var structuralInitErrs field.ErrorList
	if flags.requireStructuralSchema {
		schemaPath := fldPath.Child("openAPIV3Schema")
		if ss, err := schema.NewStructural(s); err != nil {
			structuralInitErrs = append(structuralInitErrs, field.Invalid(schemaPath, "", err.Error()))
		} else if verrs := schema.ValidateStructuralWithOptions(schemaPath, ss, schema.ValidationOptions{}); len(verrs) > 0 {
			allErrs = append(allErrs, verrs...)
		} else if derrs, err := defaulting.ValidateDefaults(schemaPath, ss, true, flags.requirePrunedDefaults, defaulting.ValidateOptions{CompileCache: o.CompileCache, Patterns: o.Patterns, Release: o.Release}); err != nil {
			allErrs = append(allErrs, field.Invalid(schemaPath, "", err.Error()))
		} else if len(derrs) > 0 {
			allErrs = append(allErrs, derrs...)
		} else {
			ctx = rootCELContext(s)
		}
	}
	w := &schemaWalker{opts: o, flags: flags}
	allErrs = append(allErrs, w.validateSchema(s, fldPath.Child("openAPIV3Schema"), v3, true, ctx).all()...)
	if len(allErrs) == 0 && len(structuralInitErrs) > 0 {
		allErrs = append(allErrs, structuralInitErrs...)
	}
	if ctx != nil && ctx.totalCost.total > limits.StaticEstimatedCRDCostLimit {
		for _, e := range ctx.totalCost.mostExpensive {
			allErrs = append(allErrs, field.Forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("openAPIV3Schema"), costErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", ctx.totalCost.total, limits.StaticEstimatedCRDCostLimit)))
	}
	return allErrs
}

// specHasDefaults reports whether any schema of the spec sets a default.
func specHasDefaults(spec *internalSpec) bool {
	has := func(s *crd.JSONSchemaProps) bool {
		return schemaHas(s, func(s *crd.JSONSchemaProps) bool { return s.Default != nil })
	}
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil && has(spec.Validation.OpenAPIV3Schema) {
		return true
	}
	for _, v := range spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil && has(v.Schema.OpenAPIV3Schema) {
			return true
		}
	}
	return false
}

// schemaHas is upstream's SchemaHas: a pre-order walk over every sub-schema
// that stops when pred returns true. Map-valued children are visited in
// sorted key order. pred must not keep the schema it is given: a map
// value is passed as a copy in a variable reused for the map's next value.
func schemaHas(s *crd.JSONSchemaProps, pred func(*crd.JSONSchemaProps) bool) bool {
	var w hasWalk
	return schemaHasIn(s, pred, &w)
}

func schemaHasIn(s *crd.JSONSchemaProps, pred func(*crd.JSONSchemaProps) bool, w *hasWalk) bool {
	if s == nil {
		return false
	}
	if pred(s) {
		return true
	}
	if s.Items != nil {
		if schemaHasIn(s.Items.Schema, pred, w) {
			return true
		}
		for i := range s.Items.JSONSchemas {
			if schemaHasIn(&s.Items.JSONSchemas[i], pred, w) {
				return true
			}
		}
	}
	for _, list := range [][]crd.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			if schemaHasIn(&list[i], pred, w) {
				return true
			}
		}
	}
	if schemaHasIn(s.Not, pred, w) {
		return true
	}
	if len(s.Properties) > 0 {
		if hasIn(s.Properties, pred, w) {
			return true
		}
	}
	if s.AdditionalProperties != nil && schemaHasIn(s.AdditionalProperties.Schema, pred, w) {
		return true
	}
	if len(s.PatternProperties) > 0 {
		if hasIn(s.PatternProperties, pred, w) {
			return true
		}
	}
	if s.AdditionalItems != nil && schemaHasIn(s.AdditionalItems.Schema, pred, w) {
		return true
	}
	if len(s.Definitions) > 0 {
		if hasIn(s.Definitions, pred, w) {
			return true
		}
	}
	keys := keys.Sorted(s.Dependencies)
	for _, k := range keys {
		if schemaHasIn(s.Dependencies[k].Schema, pred, w) {
			return true
		}
	}
	return false
}

// hasWalk holds schemaHas's copies of map values, one per map level
// being walked (bufs[depth]), reused for the next value at that level.
type hasWalk struct {
	bufs  []*crd.JSONSchemaProps
	depth int
}

// hasIn walks the schemas of m in key order.
func hasIn(m map[string]crd.JSONSchemaProps, pred func(*crd.JSONSchemaProps) bool, w *hasWalk) bool {
	if len(w.bufs) <= w.depth {
		w.bufs = append(w.bufs, new(crd.JSONSchemaProps))
	}
	p := w.bufs[w.depth]
	w.depth++
	found := false
	for _, k := range keys.Sorted(m) {
		*p = m[k]
		if schemaHasIn(p, pred, w) {
			found = true
			break
		}
	}
	w.depth--
	*p = crd.JSONSchemaProps{}
	return found
}

// warningsOnCreate is upstream's WarningsOnCreate: unrecognized formats,
// then the non-scalar set list warnings (sorted, deduplicated; from
// Kubernetes 1.37).
func warningsOnCreate(spec *internalSpec, rel kubeversion.Release) []string {
	var warnings []string
	var schemas []*crd.JSONSchemaProps
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil {
		schemas = append(schemas, spec.Validation.OpenAPIV3Schema)
	}
	for _, v := range spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			schemas = append(schemas, v.Schema.OpenAPIV3Schema)
		}
	}
	for _, s := range schemas {
		if !rel.Has(kubeversion.UnrecognizedFormatWarnings) {
			break
		}
		schemaHas(s, func(n *crd.JSONSchemaProps) bool {
			if len(n.Format) > 0 {
				for _, f := range openapi.GetUnrecognizedFormatsAt(&crd.JSONSchemaProps{Format: n.Format, Type: n.Type}, rel) {
					warnings = append(warnings, fmt.Sprintf("unrecognized format %q", f))
				}
			}
			return false
		})
	}
	if !rel.Has(kubeversion.ListTypeSetNonScalarWarning) {
		return warnings
	}
	set := map[string]bool{}
	for _, s := range schemas {
		schemaHas(s, func(n *crd.JSONSchemaProps) bool {
			if n.XListType != nil && *n.XListType == "set" && n.Items != nil && n.Items.Schema != nil {
				switch t := n.Items.Schema.Type; t {
				case "object", "array":
					set[fmt.Sprintf("x-kubernetes-list-type: set for items of type %q is not supported by server-side apply or CEL validation rules", t)] = true
				}
			}
			return false
		})
	}
	list := keys.Sorted(set)
	return append(warnings, list...)
}

package crdvalidation

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/defaulting"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/schema"
)

// This file is the update path of a CRD: rest.BeforeUpdate's order with the
// CRD registry strategy (PrepareForUpdate, ValidateUpdate, WarningsOnUpdate)
// and upstream's ValidateCustomResourceDefinitionUpdate, whose
// validationOptions are derived from the old CRD so that what the old CRD
// already broke is tolerated (ratcheting of CRD-level checks).

const fieldImmutableErrorMsg = objectmeta.FieldImmutableErrorMsg

// ValidateCustomResourceDefinitionUpdate validates newCRD as kube-apiserver
// validates an update of oldCRD, the CRD as stored (its status included:
// storedVersions, acceptedNames and conditions are read from it; the
// Established condition decides whether scope and kind are immutable and
// whether the conversion webhook's caBundle is checked).
//
// It mirrors rest.BeforeUpdate: PrepareForUpdate on a copy (status taken
// from the old CRD, the storage version appended to storedVersions),
// rest.ValidateUpdate (ObjectMeta checks common to every resource, then the
// strategy's ValidateUpdate) and, only when there is no error,
// WarningsOnUpdate (unrecognized formats and set-list warnings that the old
// CRD did not already have). Both CRDs must carry the v1 defaults
// (crd.Decode applies them). The system fields that BeforeUpdate copies
// from the old object (uid when empty, creationTimestamp, deletionTimestamp)
// are copied here too; resourceVersion is checked as sent.
func ValidateCustomResourceDefinitionUpdate(newCRD, oldCRD *crd.CustomResourceDefinition, opts Options) (errs field.ErrorList, warnings []string) {
	o := &options{Options: opts}
	o.compileRules = func(n CELNode) ([]CELRuleResult, error) { return CompileRules(n, o.CompileCache) }
	return validateCustomResourceDefinitionUpdate(newCRD, oldCRD, o)
}

func validateCustomResourceDefinitionUpdate(newCRD, oldCRD *crd.CustomResourceDefinition, o *options) (errs field.ErrorList, warnings []string) {
	errs = field.ErrorList{}
	if newCRD == nil || oldCRD == nil {
		return append(errs, field.Required(field.NewPath("spec"), "")), nil
	}
	in, old := toInternal(newCRD), toInternal(oldCRD)

	// rest.BeforeUpdate: a cluster-scoped object's namespace is cleared,
	// then the system fields the client cannot change are restored.
	in.Metadata.Namespace = ""
	in.Metadata.Generation = old.Metadata.Generation
	if in.Metadata.UID == "" {
		in.Metadata.UID = old.Metadata.UID
	}
	if len(old.Metadata.CreationTimestamp) > 0 {
		in.Metadata.CreationTimestamp = old.Metadata.CreationTimestamp
	}
	if len(old.Metadata.DeletionTimestamp) > 0 {
		in.Metadata.DeletionTimestamp = old.Metadata.DeletionTimestamp
	}
	// PrepareForUpdate
	in.Status = internalStatus{
		AcceptedNames:  old.Status.AcceptedNames,
		StoredVersions: append([]string(nil), old.Status.StoredVersions...),
	}
	if !semanticEqual(in.Spec, old.Spec) {
		in.Metadata.Generation = old.Metadata.Generation + 1
	}
	for _, v := range in.Spec.Versions {
		if v.Storage {
			if !slices.Contains(in.Status.StoredVersions, v.Name) {
				in.Status.StoredVersions = append(in.Status.StoredVersions, v.Name)
			}
			break
		}
	}

	established := IsEstablished(oldCRD)
	flags := updateFlags(in, old, established)
	if !o.Release.Has(kubeversion.TooManySelectableFieldsKept) {
		flags.allowTooManySelectableFields = nil
	}

	// rest.ValidateUpdate: validateCommonFields, then the strategy.
	meta := field.NewPath("metadata")
	errs = append(errs, validateObjectMeta(o.Release, &in.Metadata, names.ValidatePathSegmentName, meta)...)
	errs = append(errs, validateObjectMetaUpdate(o.Release, &in.Metadata, &old.Metadata, meta)...)

	// ValidateCustomResourceDefinitionUpdate
	errs = append(errs, validateObjectMetaUpdate(o.Release, &in.Metadata, &old.Metadata, meta)...)
	errs = append(errs, validateSpecUpdate(&in.Spec, &old.Spec, flags, established, o, field.NewPath("spec"))...)
	errs = append(errs, validateNames(&in.Status.AcceptedNames, field.NewPath("status").Child("acceptedNames"))...)
	errs = append(errs, validateStoredVersions(in.Status.StoredVersions, in.Spec.Versions, field.NewPath("status").Child("storedVersions"), o.Release)...)
	errs = append(errs, validateAPIApprovalUpdate(in, old)...)
	if !(old.Spec.PreserveUnknownFields != nil && *old.Spec.PreserveUnknownFields) &&
		in.Spec.PreserveUnknownFields != nil && *in.Spec.PreserveUnknownFields {
		errs = append(errs, field.Invalid(field.NewPath("spec").Child("preserveUnknownFields"), true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"))
	}
	if len(errs) > 0 {
		return errs, nil
	}
	return errs, warningsOnUpdate(&in.Spec, &old.Spec, o.Release)
}

// IsEstablished reports whether c's status has the condition Established
// with status True (upstream's IsCRDConditionTrue(crd, Established)).
func IsEstablished(c *crd.CustomResourceDefinition) bool {
	for _, raw := range c.Status.Conditions {
		var cond struct {
			Type   string `json:"type"`
			Status string `json:"status"`
		}
		if json.Unmarshal(raw, &cond) != nil {
			continue
		}
		if cond.Type == "Established" {
			return cond.Status == "True"
		}
	}
	return false
}

// updateFlags is the validationOptions literal of upstream's
// ValidateCustomResourceDefinitionUpdate.
func updateFlags(in, old *internalCRD, established bool) specFlags {
	oc := old.Spec.Conversion
	return specFlags{
		requireRecognizedConversionReviewVersion: oc == nil || hasValidConversionReviewVersionOrEmpty(oc.ConversionReviewVersions),
		requireOpenAPISchema:                     allVersionsSpecifyOpenAPISchema(&old.Spec),
		requireValidPropertyType:                 !specHasSchemaWith(&old.Spec, schemaHasInvalidTypes),
		requireStructuralSchema:                  !specHasSchemaWith(&old.Spec, schemaIsNonStructural),
		requirePrunedDefaults:                    requirePrunedDefaults(&old.Spec),
		requireAtomicSetType:                     !specHasSchemaWith(&old.Spec, hasNonAtomicSetType),
		requireMapListKeysMapSetValidation:       !specHasSchemaWith(&old.Spec, hasInvalidMapListKeysMapSet),
		preexisting:                              findPreexistingExpressions(&old.Spec),
		versionsWithUnchangedSchemas:             findVersionsWithUnchangedSchemas(in, old),
		allowInvalidCABundle:                     allowInvalidCABundle(oc, established),
		allowTooManySelectableFields:             findTooManySelectableFieldsAllowed(&in.Spec, &old.Spec),
	}
}

// validateSpecUpdate is upstream's validateCustomResourceDefinitionSpecUpdate.
func validateSpecUpdate(spec, oldSpec *internalSpec, flags specFlags, requireImmutableNames bool, o *options, fldPath *field.Path) field.ErrorList {
	allErrs := validateSpec(spec, flags, o, fldPath)
	if requireImmutableNames {
		allErrs = append(allErrs, validateImmutableField(spec.Scope, oldSpec.Scope, fldPath.Child("scope"))...)
		allErrs = append(allErrs, validateImmutableField(spec.Names.Kind, oldSpec.Names.Kind, fldPath.Child("names", "kind"))...)
	}
	allErrs = append(allErrs, validateImmutableField(spec.Group, oldSpec.Group, fldPath.Child("group"))...)
	allErrs = append(allErrs, validateImmutableField(spec.Names.Plural, oldSpec.Names.Plural, fldPath.Child("names", "plural"))...)
	return allErrs
}

func validateImmutableField(newVal, oldVal interface{}, fldPath *field.Path) field.ErrorList {
	if semanticEqual(oldVal, newVal) {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, newVal, fieldImmutableErrorMsg)}
}

// validateObjectMetaUpdate is upstream's ValidateObjectMetaAccessorUpdate
// (objectmeta.ValidateObjectMetaUpdateAt) on the fields of crd.ObjectMeta it
// reads; ownerReferences and managedFields, kept as raw JSON, are not
// checked (as on create).
func validateObjectMetaUpdate(rel kubeversion.Release, m, old *crd.ObjectMeta, fldPath *field.Path) field.ErrorList {
	return objectmeta.ValidateObjectMetaUpdateAt(rel, toObjectMeta(m), toObjectMeta(old), fldPath)
}

func toObjectMeta(m *crd.ObjectMeta) *objectmeta.ObjectMeta {
	out := &objectmeta.ObjectMeta{
		Name:            m.Name,
		GenerateName:    m.GenerateName,
		Namespace:       m.Namespace,
		UID:             objectmeta.UID(m.UID),
		ResourceVersion: m.ResourceVersion,
		Generation:      m.Generation,
		Labels:          m.Labels,
		Annotations:     m.Annotations,
		Finalizers:      m.Finalizers,
	}
	if len(m.CreationTimestamp) > 0 {
		_ = json.Unmarshal(m.CreationTimestamp, &out.CreationTimestamp)
	}
	if len(m.DeletionTimestamp) > 0 && string(m.DeletionTimestamp) != "null" {
		var t objectmeta.Time
		if json.Unmarshal(m.DeletionTimestamp, &t) == nil {
			out.DeletionTimestamp = &t
		}
	}
	return out
}

// validateAPIApprovalUpdate is upstream's validateAPIApproval with an old
// CRD: an unchanged approval state is never an error.
func validateAPIApprovalUpdate(in, old *internalCRD) field.ErrorList {
	if !isProtectedGroup(in.Spec.Group) {
		return nil
	}
	if apiApprovalState(old.Metadata.Annotations) == apiApprovalState(in.Metadata.Annotations) {
		return nil
	}
	return validateAPIApproval(in)
}

func isProtectedGroup(g string) bool {
	return g == "k8s.io" || strings.HasSuffix(g, ".k8s.io") || g == "kubernetes.io" || strings.HasSuffix(g, ".kubernetes.io")
}

// apiApprovalState is upstream's GetAPIApprovalState without the reason:
// 0 missing, 1 bypassed, 2 approved, 3 invalid.
func apiApprovalState(annotations map[string]string) int {
	a := annotations[kubeAPIApprovedAnnotation]
	u, err := url.ParseRequestURI(a)
	switch {
	case len(a) == 0:
		return 0
	case strings.HasPrefix(a, "unapproved"):
		return 1
	case err == nil && u != nil && len(u.Host) > 0 && len(u.Scheme) > 0:
		return 2
	default:
		return 3
	}
}

// validateCABundle is upstream's webhook.ValidateCABundle: the bundle must
// load as a root certificate pool (client-go's rootCertPool).
func validateCABundle(fldPath *field.Path, caBundle []byte) field.ErrorList {
	if err := caBundleError(caBundle); err != nil {
		return field.ErrorList{field.Invalid(fldPath, caBundle, "unable to load root certificates: "+err.Error())}
	}
	return nil
}

func caBundleError(caBundle []byte) error {
	if x509.NewCertPool().AppendCertsFromPEM(caBundle) {
		return nil
	}
	// client-go's createErrorParsingCAData
	rest := caBundle
	for len(rest) > 0 {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return fmt.Errorf("unable to parse bytes as PEM block")
		}
		if block.Type != "CERTIFICATE" || len(block.Headers) != 0 {
			continue
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return fmt.Errorf("failed to parse certificate: %w", err)
		}
	}
	return fmt.Errorf("no valid certificate authority data seen")
}

// allowInvalidCABundle is upstream's function of the same name.
func allowInvalidCABundle(oc *internalConversion, established bool) bool {
	if !established {
		return true
	}
	if oc == nil || oc.WebhookClientConfig == nil || len(oc.WebhookClientConfig.CABundle) == 0 {
		return false
	}
	return caBundleError(oc.WebhookClientConfig.CABundle) != nil
}

func hasValidConversionReviewVersionOrEmpty(versions []string) bool {
	if len(versions) < 1 {
		return true
	}
	for _, v := range versions {
		if slices.Contains(acceptedConversionVersions, v) {
			return true
		}
	}
	return false
}

func allVersionsSpecifyOpenAPISchema(spec *internalSpec) bool {
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil {
		return true
	}
	for _, v := range spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			return false
		}
	}
	return true
}

// specHasSchemaWith is upstream's HasSchemaWith.
func specHasSchemaWith(spec *internalSpec, pred func(*crd.JSONSchemaProps) bool) bool {
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil && pred(spec.Validation.OpenAPIV3Schema) {
		return true
	}
	for _, v := range spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil && pred(v.Schema.OpenAPIV3Schema) {
			return true
		}
	}
	return false
}

func schemaHasInvalidTypes(s *crd.JSONSchemaProps) bool {
	return schemaHas(s, func(s *crd.JSONSchemaProps) bool {
		return len(s.Type) > 0 && !slices.Contains(openapiV3Types, s.Type)
	})
}

func schemaIsNonStructural(s *crd.JSONSchemaProps) bool {
	if s == nil {
		return false
	}
	ss, err := schema.NewStructural(s)
	if err != nil {
		return true
	}
	return len(schema.ValidateStructural(nil, ss)) > 0
}

// specHasKubernetesExtensions is upstream's function of the same name: such
// schemas must be structural.
func specHasKubernetesExtensions(spec *internalSpec) bool {
	return specHasSchemaWith(spec, func(s *crd.JSONSchemaProps) bool {
		return schemaHas(s, func(s *crd.JSONSchemaProps) bool {
			return s.XEmbeddedResource || s.XPreserveUnknownFields != nil || s.XIntOrString || len(s.XListMapKeys) > 0 || s.XListType != nil || len(s.XValidations) > 0
		})
	})
}

func requirePrunedDefaults(spec *internalSpec) bool {
	if spec.Validation != nil && schemaHasUnprunedDefaults(spec.Validation.OpenAPIV3Schema) {
		return false
	}
	for _, v := range spec.Versions {
		if v.Schema != nil && schemaHasUnprunedDefaults(v.Schema.OpenAPIV3Schema) {
			return false
		}
	}
	return true
}

// schemaHasUnprunedDefaults is upstream's function of the same name (its
// errors count as "no").
func schemaHasUnprunedDefaults(s *crd.JSONSchemaProps) bool {
	if s == nil || !schemaHas(s, func(s *crd.JSONSchemaProps) bool { return s.Default != nil }) {
		return false
	}
	ss, err := schema.NewStructural(s)
	if err != nil || len(schema.ValidateStructural(nil, ss)) > 0 {
		return false
	}
	pruned := ss.DeepCopy()
	if err := defaulting.PruneDefaults(pruned); err != nil {
		return false
	}
	return !reflect.DeepEqual(ss, pruned)
}

func hasNonAtomicSetType(s *crd.JSONSchemaProps) bool {
	return schemaHas(s, func(s *crd.JSONSchemaProps) bool {
		if s.XListType != nil && *s.XListType == "set" && s.Items != nil && s.Items.Schema != nil {
			is := s.Items.Schema
			switch is.Type {
			case "array":
				return is.XListType != nil && *is.XListType != "atomic"
			case "object":
				return is.XMapType == nil || *is.XMapType != "atomic"
			}
		}
		return false
	})
}

func hasInvalidMapListKeysMapSet(s *crd.JSONSchemaProps) bool {
	return schemaHas(s, func(s *crd.JSONSchemaProps) bool {
		return len(validateMapListKeysMapSet(s, field.NewPath(""))) > 0
	})
}

// preexistingExpressions are the rules and messageExpressions of the old
// CRD.
type preexistingExpressions struct {
	rules, messageExpressions map[string]bool
}

func findPreexistingExpressions(spec *internalSpec) *preexistingExpressions {
	pe := &preexistingExpressions{rules: map[string]bool{}, messageExpressions: map[string]bool{}}
	specHasSchemaWith(spec, func(s *crd.JSONSchemaProps) bool {
		schemaHas(s, func(s *crd.JSONSchemaProps) bool {
			for _, v := range s.XValidations {
				pe.rules[v.Rule] = true
				if len(v.MessageExpression) > 0 {
					pe.messageExpressions[v.MessageExpression] = true
				}
			}
			return false
		})
		return false
	})
	return pe
}

// schemaForVersion is upstream's GetSchemaForVersion on the internal view.
func schemaForVersion(spec *internalSpec, version string) (*internalValidation, bool) {
	if !hasPerVersionSchema(spec.Versions) {
		return spec.Validation, true
	}
	if spec.Validation != nil {
		return nil, false
	}
	for _, v := range spec.Versions {
		if v.Name == version {
			return v.Schema, true
		}
	}
	return nil, false
}

func findVersionsWithUnchangedSchemas(in, old *internalCRD) map[string]bool {
	out := map[string]bool{}
	for _, v := range in.Spec.Versions {
		ns, ok := schemaForVersion(&in.Spec, v.Name)
		if !ok {
			continue
		}
		os, ok := schemaForVersion(&old.Spec, v.Name)
		if !ok {
			continue
		}
		if semanticEqual(ns, os) {
			out[v.Name] = true
		}
	}
	return out
}

func findTooManySelectableFieldsAllowed(spec, oldSpec *internalSpec) map[string]bool {
	out := map[string]bool{}
	if len(oldSpec.SelectableFields) > MaxSelectableFields && semanticEqual(spec.SelectableFields, oldSpec.SelectableFields) {
		out[""] = true
	}
	old := map[string]internalVersion{}
	for _, v := range oldSpec.Versions {
		old[v.Name] = v
	}
	for _, v := range spec.Versions {
		ov, ok := old[v.Name]
		if !ok {
			continue
		}
		if len(ov.SelectableFields) > MaxSelectableFields && semanticEqual(v.SelectableFields, ov.SelectableFields) {
			out[v.Name] = true
		}
	}
	return out
}

// warningsOnUpdate is the strategy's WarningsOnUpdate: the unrecognized
// formats of the new CRD that the old one does not have, then its set-list
// warnings that the old one does not have.
func warningsOnUpdate(spec, oldSpec *internalSpec, rel kubeversion.Release) []string {
	var warnings []string
	if rel.Has(kubeversion.UnrecognizedFormatWarnings) {
		oldFormats := map[string]bool{}
		for _, f := range unrecognizedFormats(oldSpec) {
			oldFormats[f] = true
		}
		for _, f := range unrecognizedFormats(spec) {
			if !oldFormats[f] {
				warnings = append(warnings, fmt.Sprintf("unrecognized format %q", f))
			}
		}
	}
	seen := map[string]bool{}
	if !rel.Has(kubeversion.ListTypeSetNonScalarWarning) {
		return warnings
	}
	for _, w := range setListWarnings(oldSpec) {
		seen[w] = true
	}
	for _, w := range setListWarnings(spec) {
		if !seen[w] {
			warnings = append(warnings, w)
		}
	}
	return warnings
}

// unrecognizedFormats lists the unrecognized formats of spec's schemas, in
// warningsOnCreate's order, with repetitions.
func unrecognizedFormats(spec *internalSpec) []string {
	var out []string
	for _, w := range warningsOnCreate(&internalSpec{Validation: spec.Validation, Versions: spec.Versions}, kubeversion.Release{}) {
		var f string
		if _, err := fmt.Sscanf(w, "unrecognized format %q", &f); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// setListWarnings is upstream's getNonScalarListTypeSetWarnings (sorted).
func setListWarnings(spec *internalSpec) []string {
	var out []string
	for _, w := range warningsOnCreate(&internalSpec{Validation: spec.Validation, Versions: spec.Versions}, kubeversion.Release{}) {
		if strings.HasPrefix(w, "x-kubernetes-list-type: set") {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

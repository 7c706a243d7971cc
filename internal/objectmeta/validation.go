package objectmeta

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/schema"
)

// Validate validates the TypeMeta and ObjectMeta of the embedded resources
// in obj (and of obj itself when isResourceRoot): apiVersion and kind are
// required strings, kind a mixed-case DNS-1035 label, and the metadata is
// validated as on create with path-segment names (a missing name is
// tolerated, a namespace only validated when set). Fields are walked in
// sorted key order.
func Validate(pth *field.Path, obj interface{}, s *schema.Structural, isResourceRoot bool) field.ErrorList {
	s = schema.ResourceRoot(s, isResourceRoot)
	return validate(pth, obj, s, kubeversion.Release{})
}

// ValidateAt is Validate as Kubernetes release rel validates.
func ValidateAt(rel kubeversion.Release, pth *field.Path, obj interface{}, s *schema.Structural, isResourceRoot bool) field.ErrorList {
	s = schema.ResourceRoot(s, isResourceRoot)
	return validate(pth, obj, s, rel)
}

func validate(pth *field.Path, x interface{}, s *schema.Structural, rel kubeversion.Release) field.ErrorList {
	if s == nil {
		return nil
	}
	var allErrs field.ErrorList
	switch x := x.(type) {
	case map[string]interface{}:
		if s.XEmbeddedResource {
			allErrs = append(allErrs, validateEmbeddedResource(pth, x, rel)...)
		}
		if !childReachesEmbedded(x, s) {
			// Nothing below to validate: the sorted walk is skipped.
			return allErrs
		}
		for _, k := range keys.Sorted(x) {
			v := x[k]
			if prop, ok := s.Properties[k]; ok {
				allErrs = append(allErrs, validate(pth.Child(k), v, &prop, rel)...)
			} else if s.AdditionalProperties != nil {
				allErrs = append(allErrs, validate(pth.Key(k), v, s.AdditionalProperties.Structural, rel)...)
			}
		}
	case []interface{}:
		for i, v := range x {
			allErrs = append(allErrs, validate(pth.Index(i), v, s.Items, rel)...)
		}
	}
	return allErrs
}

// childReachesEmbedded reports whether a value under the map x (schema
// s) is an embedded resource, the only values validate reports errors
// for: found in any order, without building paths. The schemas are passed
// by value: a property's schema is a copy out of its map, which a pointer
// would move to the heap for every field.
func childReachesEmbedded(x map[string]interface{}, s *schema.Structural) bool {
	return childReachesEmbeddedIn(x, s.Properties, s.AdditionalProperties)
}

func childReachesEmbeddedIn(x map[string]interface{}, props map[string]schema.Structural, additional *schema.StructuralOrBool) bool {
	for k, v := range x {
		switch v.(type) {
		case map[string]interface{}, []interface{}:
		default:
			continue
		}
		if prop, ok := props[k]; ok {
			if reachesEmbedded(v, prop) {
				return true
			}
		} else if additional != nil && additional.Structural != nil && reachesEmbedded(v, *additional.Structural) {
			return true
		}
	}
	return false
}

// reachesEmbedded reports whether x, or a value under it, is an embedded
// resource (a map whose schema has x-kubernetes-embedded-resource).
func reachesEmbedded(x interface{}, s schema.Structural) bool {
	switch x := x.(type) {
	case map[string]interface{}:
		return s.XEmbeddedResource || childReachesEmbeddedIn(x, s.Properties, s.AdditionalProperties)
	case []interface{}:
		if s.Items == nil {
			return false
		}
		for _, v := range x {
			if reachesEmbedded(v, *s.Items) {
				return true
			}
		}
	}
	return false
}

// ParseGroupVersion splits "group/version" or "version" (runtime/schema).
func ParseGroupVersion(gv string) (group, version string, err error) {
	if len(gv) == 0 || gv == "/" {
		return "", "", nil
	}
	switch strings.Count(gv, "/") {
	case 0:
		return "", gv, nil
	case 1:
		i := strings.Index(gv, "/")
		return gv[:i], gv[i+1:], nil
	default:
		return "", "", fmt.Errorf("unexpected GroupVersion string: %v", gv)
	}
}

// requiredDetail is the detail of an embedded resource's missing apiVersion
// or kind: none, "must not be empty" before 1.34
// (kubeversion.DetailWithoutFieldName).
func requiredDetail(rel kubeversion.Release) string {
	if rel.Has(kubeversion.DetailWithoutFieldName) {
		return ""
	}
	return "must not be empty"
}

func validateEmbeddedResource(pth *field.Path, x map[string]interface{}, rel kubeversion.Release) field.ErrorList {
	var allErrs field.ErrorList
	if _, found := x["apiVersion"]; !found {
		allErrs = append(allErrs, field.Required(pth.Child("apiVersion"), requiredDetail(rel)))
	}
	if _, found := x["kind"]; !found {
		allErrs = append(allErrs, field.Required(pth.Child("kind"), requiredDetail(rel)))
	}
	for _, k := range keys.Sorted(x) {
		v := x[k]
		switch k {
		case "apiVersion":
			apiVersion, ok := v.(string)
			switch {
			case !ok:
				allErrs = append(allErrs, field.Invalid(pth.Child("apiVersion"), v, "must be a string"))
			case len(apiVersion) == 0:
				allErrs = append(allErrs, field.Invalid(pth.Child("apiVersion"), apiVersion, "must not be empty"))
			default:
				if _, _, err := ParseGroupVersion(apiVersion); err != nil {
					allErrs = append(allErrs, field.Invalid(pth.Child("apiVersion"), apiVersion, err.Error()))
				}
			}
		case "kind":
			kind, ok := v.(string)
			switch {
			case !ok:
				allErrs = append(allErrs, field.Invalid(pth.Child("kind"), v, "must be a string"))
			case len(kind) == 0:
				allErrs = append(allErrs, field.Invalid(pth.Child("kind"), kind, "must not be empty"))
			default:
				if msgs := names.IsDNS1035Label(strings.ToLower(kind)); len(msgs) > 0 {
					allErrs = append(allErrs, field.Invalid(pth.Child("kind"), kind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
				}
			}
		case "metadata":
			meta, _, err := GetObjectMeta(x, false)
			if err != nil {
				allErrs = append(allErrs, field.Invalid(pth.Child("metadata"), v, err.Error()))
				continue
			}
			if meta == nil {
				meta = &ObjectMeta{}
			}
			if len(meta.Name) == 0 {
				meta.Name = "fakename" // upstream sets one to avoid the required error
			}
			allErrs = append(allErrs, ValidateObjectMetaAt(rel, meta, len(meta.Namespace) > 0, names.ValidatePathSegmentName, pth.Child("metadata"))...)
		}
	}
	return allErrs
}

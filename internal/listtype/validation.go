// Package listtype checks the uniqueness invariants of lists declared with
// x-kubernetes-list-type "set" (whole items) and "map" (the
// x-kubernetes-list-map-keys), mirroring upstream's
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype, and the
// ratcheting the custom resource strategy applies to them on update.
//
// Upstream walks object fields in Go's random map order; this package walks
// them in sorted key order so the error list is deterministic.
package listtype

import (
	"encoding/json"
	"github.com/crdlab/crdlab/internal/keys"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/schema"
)

// ValidateListSetsAndMaps reports a Duplicate error for the second
// occurrence of every repeated item of a set and every repeated key of a
// map list in obj, and an Invalid error for a map list holding a non-object.
func ValidateListSetsAndMaps(fldPath *field.Path, s *schema.Structural, obj map[string]interface{}) field.ErrorList {
	if s == nil || obj == nil {
		return nil
	}
	// Almost every object has no error: a first walk, in any order and
	// without building field paths, finds whether there is one; only then
	// does the ordered walk build the errors, upstream's order.
	if !mapHasErrors(s, obj) {
		return nil
	}
	return validateMap(fldPath, s, obj)
}

func validateMap(fldPath *field.Path, s *schema.Structural, obj map[string]interface{}) field.ErrorList {
	var errs field.ErrorList
	keys := keys.Sorted(obj)
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		for _, k := range keys {
			errs = append(errs, validateValue(fldPath.Key(k), s.AdditionalProperties.Structural, obj[k])...)
		}
	}
	if s.Properties != nil {
		for _, k := range keys {
			if sub, ok := s.Properties[k]; ok {
				errs = append(errs, validateValue(fldPath.Child(k), &sub, obj[k])...)
			}
		}
	}
	return errs
}

// ValidateListSetsAndMapsUpdate is what the custom resource strategy and its
// status strategy do on update: the new object's errors are reported only
// when the old object has no list-set/list-map errors (an already broken
// object may stay broken). The old object is only checked when the new one
// has errors, as the status strategy does; the strategy checks the old one
// first, with the same result.
func ValidateListSetsAndMapsUpdate(fldPath *field.Path, s *schema.Structural, obj, old map[string]interface{}) field.ErrorList {
	errs := ValidateListSetsAndMaps(fldPath, s, obj)
	if len(errs) == 0 {
		return nil
	}
	if oldErrs := ValidateListSetsAndMaps(fldPath, s, old); len(oldErrs) != 0 {
		return nil
	}
	return errs
}

func validateValue(fldPath *field.Path, s *schema.Structural, obj interface{}) field.ErrorList {
	switch obj := obj.(type) {
	case []interface{}:
		return validateArray(fldPath, s, obj)
	case map[string]interface{}:
		return validateMap(fldPath, s, obj)
	}
	return nil
}

// mapHasErrors reports whether validateMap would return an error. The
// schemas are passed by value: a property's schema is a copy out of its
// map, which a pointer would move to the heap for every field.
func mapHasErrors(s *schema.Structural, obj map[string]interface{}) bool {
	return mapHasErrorsIn(s.Properties, s.AdditionalProperties, obj)
}

func mapHasErrorsIn(props map[string]schema.Structural, additional *schema.StructuralOrBool, obj map[string]interface{}) bool {
	for k, v := range obj {
		switch v.(type) {
		case map[string]interface{}, []interface{}:
		default:
			continue // only lists have errors
		}
		if additional != nil && additional.Structural != nil && valueHasErrors(additional.Structural, v) {
			return true
		}
		if sub, ok := props[k]; ok && valueHasErrorsIn(sub, v) {
			return true
		}
	}
	return false
}

// valueHasErrors reports whether validateValue would return an error (it
// runs the same checks with a nil path, which only an error's path uses).
func valueHasErrors(s *schema.Structural, obj interface{}) bool { return valueHasErrorsIn(*s, obj) }

func valueHasErrorsIn(s schema.Structural, obj interface{}) bool {
	switch obj := obj.(type) {
	case []interface{}:
		if s.XListType != nil {
			switch *s.XListType {
			case "set":
				if nonUnique, err := nonUniqueIndices(nil, obj); err != nil || len(nonUnique) > 0 {
					return true
				}
			case "map":
				if listMapHasErrors(s.XListMapKeys, obj) {
					return true
				}
			}
		}
		if s.Items != nil {
			for _, x := range obj {
				if valueHasErrors(s.Items, x) {
					return true
				}
			}
		}
	case map[string]interface{}:
		return mapHasErrorsIn(s.Properties, s.AdditionalProperties, obj)
	}
	return false
}

// listMapHasErrors reports whether validateListMap would return an error.
func listMapHasErrors(keys []string, obj []interface{}) bool {
	return len(validateListMap(nil, &schema.Structural{Extensions: schema.Extensions{XListMapKeys: keys}}, obj)) > 0
}

func validateArray(fldPath *field.Path, s *schema.Structural, obj []interface{}) field.ErrorList {
	var errs field.ErrorList
	if s.XListType != nil {
		switch *s.XListType {
		case "set":
			nonUnique, err := nonUniqueIndices(fldPath, obj)
			if err != nil {
				errs = append(errs, err)
			} else {
				for _, i := range nonUnique {
					errs = append(errs, field.Duplicate(fldPath.Index(i), obj[i]))
				}
			}
		case "map":
			errs = append(errs, validateListMap(fldPath, s, obj)...)
		}
	}
	if s.Items != nil {
		for i := range obj {
			errs = append(errs, validateValue(fldPath.Index(i), s.Items, obj[i])...)
		}
	}
	return errs
}

// unspecifiedKey stands for a missing key (or a null item) of a map list; it
// compares equal only to itself, never to a JSON value.
type unspecifiedKey struct{}

// nonUniqueIndices returns the index of the second occurrence of every value
// that occurs more than once. Scalars compare by Go value (so int64(1) and
// float64(1) differ, as upstream), compound values by their JSON encoding.
func nonUniqueIndices(fldPath *field.Path, items []interface{}) ([]int, *field.Error) {
	if len(items) <= 1 {
		return nil, nil
	}
	seenScalars := make(map[interface{}]int, len(items))
	seenCompounds := make(map[string]int, len(items))
	var out []int
	for i, x := range items {
		switch x.(type) {
		case map[string]interface{}, []interface{}:
			bs, err := json.Marshal(x)
			if err != nil {
				return nil, field.Invalid(fldPath.Index(i), x, "internal error")
			}
			key := string(bs)
			seenCompounds[key]++
			if seenCompounds[key] == 2 {
				out = append(out, i)
			}
		default:
			if !isComparable(x) {
				return nil, field.Invalid(fldPath.Index(i), x, "internal error")
			}
			seenScalars[x]++
			if seenScalars[x] == 2 {
				out = append(out, i)
			}
		}
	}
	return out, nil
}

// isComparable guards the scalar map against values that would panic as map
// keys (only possible with values that are not decoded JSON).
func isComparable(x interface{}) bool {
	switch x.(type) {
	case nil, string, bool, int64, float64, int, int32, float32, unspecifiedKey:
		return true
	}
	return false
}

func validateListMap(fldPath *field.Path, s *schema.Structural, obj []interface{}) field.ErrorList {
	for i, x := range obj {
		if _, ok := x.(map[string]interface{}); x != nil && !ok {
			return field.ErrorList{field.Invalid(fldPath.Index(i), x, "must be an object for an array of list-type map")}
		}
	}
	if len(obj) <= 1 {
		return nil
	}

	if len(s.XListMapKeys) == 1 {
		keyField := s.XListMapKeys[0]
		keys := make([]interface{}, 0, len(obj))
		for _, x := range obj {
			m, _ := x.(map[string]interface{})
			key, ok := m[keyField]
			if x == nil || !ok {
				keys = append(keys, unspecifiedKey{})
				continue
			}
			keys = append(keys, key)
		}
		nonUnique, err := nonUniqueIndices(fldPath, keys)
		if err != nil {
			return field.ErrorList{err}
		}
		var errs field.ErrorList
		for _, i := range nonUnique {
			if _, ok := keys[i].(unspecifiedKey); ok {
				errs = append(errs, field.Duplicate(fldPath.Index(i), map[string]interface{}{}))
			} else {
				errs = append(errs, field.Duplicate(fldPath.Index(i), map[string]interface{}{keyField: keys[i]}))
			}
		}
		return errs
	}

	keys := make([]interface{}, 0, len(obj))
	for _, x := range obj {
		key := map[string]interface{}{}
		if m, ok := x.(map[string]interface{}); ok {
			for _, keyField := range s.XListMapKeys {
				if k, ok := m[keyField]; ok {
					key[keyField] = k
				}
			}
		}
		keys = append(keys, key)
	}
	nonUnique, err := nonUniqueIndices(fldPath, keys)
	if err != nil {
		return field.ErrorList{err}
	}
	var errs field.ErrorList
	for _, i := range nonUnique {
		errs = append(errs, field.Duplicate(fldPath.Index(i), keys[i]))
	}
	return errs
}

// Package defaulting applies and checks the defaults of a structural schema,
// mirroring kube-apiserver's
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting (v0.37.2):
//
//   - Default fills in missing fields (and non-nullable nulls) from the
//     default values of properties, additionalProperties and items, as the
//     custom resource codec does after decoding;
//   - PruneNonNullableNullsWithoutDefaults drops null values the schema
//     neither allows nor can replace, as the request decoder does right after
//     pruning;
//   - PruneDefaults prunes the default values themselves against the whole
//     schema, as the CRD handler does before serving a version;
//   - ValidateDefaults is the CRD-time check that every default is pruned,
//     passes its schema's OpenAPI validation, results in valid embedded
//     ObjectMeta/TypeMeta and satisfies its CEL rules.
//
// # Numbers in defaults
//
// Upstream decodes default values with k8s.io/apimachinery/pkg/util/json in
// the v1-to-internal conversion, which keeps integral literals as int64 and
// makes every other number a float64 (so `default: 5` is int64(5) and
// `default: 5.0` is float64(5)). Default copies whatever the schema holds
// (see schema.DeepCopyJSONValue): the objects it produces contain exactly the values
// upstream's in-memory objects contain, and render to the same JSON.
package defaulting

import "github.com/crdlab/crdlab/internal/schema"

func isNonNullableNull(x interface{}, s *schema.Structural) bool {
	return x == nil && s != nil && !s.Nullable
}

// Default sets the defaults of s into x, in place. A property is defaulted
// when it is missing or a non-nullable null; additionalProperties and items
// defaults replace non-nullable nulls only. Defaults are deep-copied: x never
// shares memory with s. Defaulted values are defaulted again below (nested
// defaults apply inside a defaulted object).
func Default(x interface{}, s *schema.Structural) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]interface{}:
		for k, prop := range s.Properties {
			if prop.Default.Object == nil {
				continue
			}
			// isNonNullableNull(v, &prop), without moving prop to the heap.
			if v, found := x[k]; !found || (v == nil && !prop.Nullable) {
				x[k] = schema.DeepCopyJSONValue(prop.Default.Object)
			}
		}
		for k, v := range x {
			if _, found := s.Properties[k]; found {
				if isCompound(v) { // Default of anything else does nothing
					prop := s.Properties[k]
					Default(v, &prop)
				}
			} else if s.AdditionalProperties != nil {
				ap := s.AdditionalProperties.Structural
				if isNonNullableNull(v, ap) {
					v = schema.DeepCopyJSONValue(ap.Default.Object)
					x[k] = v
				}
				Default(v, ap)
			}
		}
	case []interface{}:
		for i, v := range x {
			if isNonNullableNull(v, s.Items) {
				v = schema.DeepCopyJSONValue(s.Items.Default.Object)
				x[i] = v
			}
			Default(v, s.Items)
		}
	}
}

// isCompound reports whether x is an object or a list: the values whose
// schema a walk needs (a property's schema is a copy out of its map, moved
// to the heap when its address is taken).
func isCompound(x interface{}) bool {
	switch x.(type) {
	case map[string]interface{}, []interface{}:
		return true
	}
	return false
}

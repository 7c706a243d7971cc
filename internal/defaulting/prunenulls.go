package defaulting

import "github.com/crdlab/crdlab/internal/schema"

func isNonNullableNonDefaultableNull(x interface{}, s *schema.Structural) bool {
	return x == nil && s != nil && !s.Nullable && s.Default.Object == nil
}

func schemaForField(k string, s *schema.Structural) *schema.Structural {
	if s == nil {
		return nil
	}
	if prop, ok := s.Properties[k]; ok {
		return &prop
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Structural
	}
	return nil
}

// PruneNonNullableNullsWithoutDefaults removes, in place, the object fields
// whose value is null although their schema is not nullable and has no
// default. Nulls in lists are left alone (they are reported by validation).
func PruneNonNullableNullsWithoutDefaults(x interface{}, s *schema.Structural) {
	switch x := x.(type) {
	case map[string]interface{}:
		for k, v := range x {
			// Only nulls and compound values need the field's schema.
			if v != nil && !isCompound(v) {
				continue
			}
			fs := schemaForField(k, s)
			if isNonNullableNonDefaultableNull(v, fs) {
				delete(x, k)
			} else {
				PruneNonNullableNullsWithoutDefaults(v, fs)
			}
		}
	case []interface{}:
		var items *schema.Structural
		if s != nil {
			items = s.Items
		}
		for _, v := range x {
			PruneNonNullableNullsWithoutDefaults(v, items)
		}
	}
}

package schema

import (
	"encoding/json"

	"github.com/crdlab/crdlab/engine/crd"
)

// DeepCopyJSONValue deep-copies a decoded JSON value (maps, slices, strings,
// int64, float64, bool, nil), like upstream's runtime.DeepCopyJSONValue. The
// values crdlab decodes (crd.JSON.Value, the engine's object decoding) hold
// only int64 and float64 numbers, which are copied as they are. Where
// upstream panics on other types, it converts Go integers to int64 and
// json.Number to int64 or float64 (as k8s.io/apimachinery/pkg/util/json
// does) and returns anything else unchanged. Typed nil maps and slices stay
// typed nils.
func DeepCopyJSONValue(x interface{}) interface{} {
	switch x := x.(type) {
	case map[string]interface{}:
		if x == nil {
			return x
		}
		out := make(map[string]interface{}, len(x))
		for k, v := range x {
			out[k] = DeepCopyJSONValue(v)
		}
		return out
	case []interface{}:
		if x == nil {
			return x
		}
		out := make([]interface{}, len(x))
		for i, v := range x {
			out[i] = DeepCopyJSONValue(v)
		}
		return out
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x
	default:
		return x
	}
}

// DeepCopy copies the wrapped JSON value.
func (j JSON) DeepCopy() JSON { return JSON{Object: DeepCopyJSONValue(j.Object)} }

// DeepCopyInto copies the wrapped JSON value into into.
func (j JSON) DeepCopyInto(into *JSON) { into.Object = DeepCopyJSONValue(j.Object) }

func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func copySlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// DeepCopy returns a deep copy of s (nil for nil).
func (s *Structural) DeepCopy() *Structural {
	if s == nil {
		return nil
	}
	out := new(Structural)
	s.DeepCopyInto(out)
	return out
}

// DeepCopyInto deep-copies s into out.
func (s *Structural) DeepCopyInto(out *Structural) {
	*out = *s
	out.Items = s.Items.DeepCopy()
	if s.Properties != nil {
		out.Properties = make(map[string]Structural, len(s.Properties))
		for k, v := range s.Properties {
			var c Structural
			v.DeepCopyInto(&c)
			out.Properties[k] = c
		}
	}
	out.AdditionalProperties = s.AdditionalProperties.DeepCopy()
	s.Generic.DeepCopyInto(&out.Generic)
	s.Extensions.DeepCopyInto(&out.Extensions)
	s.ValidationExtensions.DeepCopyInto(&out.ValidationExtensions)
	out.ValueValidation = s.ValueValidation.DeepCopy()
}

// DeepCopy returns a deep copy.
func (s *StructuralOrBool) DeepCopy() *StructuralOrBool {
	if s == nil {
		return nil
	}
	return &StructuralOrBool{Structural: s.Structural.DeepCopy(), Bool: s.Bool}
}

// DeepCopyInto deep-copies g into out.
func (g *Generic) DeepCopyInto(out *Generic) {
	*out = *g
	out.Default = g.Default.DeepCopy()
	out.Example = g.Example.DeepCopy()
	out.ExternalDocs = copyPtr(g.ExternalDocs)
}

// DeepCopyInto deep-copies x into out.
func (x *Extensions) DeepCopyInto(out *Extensions) {
	*out = *x
	out.XListMapKeys = copySlice(x.XListMapKeys)
	out.XListType = copyPtr(x.XListType)
	out.XMapType = copyPtr(x.XMapType)
}

// DeepCopyInto deep-copies x into out.
func (x *ValidationExtensions) DeepCopyInto(out *ValidationExtensions) {
	out.XValidations = copyValidationRules(x.XValidations)
}

func copyValidationRules(in crd.ValidationRules) crd.ValidationRules {
	if in == nil {
		return nil
	}
	out := make(crd.ValidationRules, len(in))
	for i, r := range in {
		r.Reason = copyPtr(r.Reason)
		r.OptionalOldSelf = copyPtr(r.OptionalOldSelf)
		out[i] = r
	}
	return out
}

// DeepCopy returns a deep copy of v (nil for nil).
func (v *ValueValidation) DeepCopy() *ValueValidation {
	if v == nil {
		return nil
	}
	out := new(ValueValidation)
	v.DeepCopyInto(out)
	return out
}

// DeepCopyInto deep-copies v into out.
func (v *ValueValidation) DeepCopyInto(out *ValueValidation) {
	*out = *v
	out.Maximum = copyPtr(v.Maximum)
	out.Minimum = copyPtr(v.Minimum)
	out.MaxLength = copyPtr(v.MaxLength)
	out.MinLength = copyPtr(v.MinLength)
	out.MaxItems = copyPtr(v.MaxItems)
	out.MinItems = copyPtr(v.MinItems)
	out.MultipleOf = copyPtr(v.MultipleOf)
	out.MaxProperties = copyPtr(v.MaxProperties)
	out.MinProperties = copyPtr(v.MinProperties)
	if v.Enum != nil {
		out.Enum = make([]JSON, len(v.Enum))
		for i := range v.Enum {
			out.Enum[i] = v.Enum[i].DeepCopy()
		}
	}
	out.Required = copySlice(v.Required)
	out.AllOf = copyNestedList(v.AllOf)
	out.OneOf = copyNestedList(v.OneOf)
	out.AnyOf = copyNestedList(v.AnyOf)
	out.Not = v.Not.DeepCopy()
}

func copyNestedList(in []NestedValueValidation) []NestedValueValidation {
	if in == nil {
		return nil
	}
	out := make([]NestedValueValidation, len(in))
	for i := range in {
		in[i].DeepCopyInto(&out[i])
	}
	return out
}

// DeepCopy returns a deep copy of v (nil for nil).
func (v *NestedValueValidation) DeepCopy() *NestedValueValidation {
	if v == nil {
		return nil
	}
	out := new(NestedValueValidation)
	v.DeepCopyInto(out)
	return out
}

// DeepCopyInto deep-copies v into out.
func (v *NestedValueValidation) DeepCopyInto(out *NestedValueValidation) {
	*out = *v
	v.ValueValidation.DeepCopyInto(&out.ValueValidation)
	v.ValidationExtensions.DeepCopyInto(&out.ValidationExtensions)
	out.Items = v.Items.DeepCopy()
	if v.Properties != nil {
		out.Properties = make(map[string]NestedValueValidation, len(v.Properties))
		for k, p := range v.Properties {
			var c NestedValueValidation
			p.DeepCopyInto(&c)
			out.Properties[k] = c
		}
	}
	out.AdditionalProperties = v.AdditionalProperties.DeepCopy()
	v.ForbiddenGenerics.DeepCopyInto(&out.ForbiddenGenerics)
	v.ForbiddenExtensions.DeepCopyInto(&out.ForbiddenExtensions)
}

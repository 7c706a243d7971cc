package schema

import (
	"github.com/crdlab/crdlab/internal/keys"
)

// Visitor walks a structural schema recursively (upstream's Visitor).
// Properties are visited in sorted key order.
type Visitor struct {
	// Structural is called on each Structural node before its subtrees. It
	// may mutate s and returns whether it changed something.
	Structural func(s *Structural) bool
	// NestedValueValidation is called on each NestedValueValidation node
	// before its subtrees. It may mutate vv and returns whether it changed
	// something.
	NestedValueValidation func(vv *NestedValueValidation) bool
}

// Visit walks s and calls the callbacks at each node.
func (m *Visitor) Visit(s *Structural) {
	if s == nil {
		return
	}
	m.visitStructural(s)
}

func (m *Visitor) visitStructural(s *Structural) bool {
	changed := false
	if m.Structural != nil {
		changed = m.Structural(s)
	}
	if s.Items != nil {
		m.visitStructural(s.Items)
	}
	for _, k := range keys.Sorted(s.Properties) {
		v := s.Properties[k]
		if m.visitStructural(&v) {
			changed = true
			s.Properties[k] = v
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		m.visitStructural(s.AdditionalProperties.Structural)
	}
	if s.ValueValidation != nil {
		m.visitJunctors(&s.ValueValidation.AllOf, &s.ValueValidation.AnyOf, &s.ValueValidation.OneOf, s.ValueValidation.Not)
	}
	return changed
}

func (m *Visitor) visitJunctors(allOf, anyOf, oneOf *[]NestedValueValidation, not *NestedValueValidation) {
	for _, list := range []*[]NestedValueValidation{allOf, anyOf, oneOf} {
		for i := range *list {
			m.visitNestedValueValidation(&(*list)[i])
		}
	}
	if not != nil {
		m.visitNestedValueValidation(not)
	}
}

func (m *Visitor) visitNestedValueValidation(vv *NestedValueValidation) bool {
	changed := false
	if m.NestedValueValidation != nil {
		changed = m.NestedValueValidation(vv)
	}
	if vv.Items != nil {
		m.visitNestedValueValidation(vv.Items)
	}
	for _, k := range keys.Sorted(vv.Properties) {
		v := vv.Properties[k]
		if m.visitNestedValueValidation(&v) {
			changed = true
			vv.Properties[k] = v
		}
	}
	if vv.AdditionalProperties != nil {
		m.visitNestedValueValidation(vv.AdditionalProperties)
	}
	m.visitJunctors(&vv.ValueValidation.AllOf, &vv.ValueValidation.AnyOf, &vv.ValueValidation.OneOf, vv.ValueValidation.Not)
	return changed
}

package schema

// Unfold expands x-kubernetes-int-or-string into the anyOf it stands for
// (anyOf: [{type: integer}, {type: string}], prepended to allOf when anyOf is
// already used), unless the schema already spells out one of the two
// accepted patterns. It mutates and returns the receiver.
func (s *Structural) Unfold() *Structural {
	if s == nil {
		return nil
	}
	mapper := Visitor{
		Structural: func(s *Structural) bool {
			if !s.XIntOrString {
				return false
			}
			if isIntOrStringAnyOfPattern(s) || isIntOrStringAllOfPattern(s) {
				return false
			}
			if s.ValueValidation == nil {
				s.ValueValidation = &ValueValidation{}
			}
			if s.ValueValidation.AnyOf == nil {
				s.ValueValidation.AnyOf = newIntOrStringAnyOf()
			} else {
				s.ValueValidation.AllOf = append([]NestedValueValidation{
					{ValueValidation: ValueValidation{AnyOf: newIntOrStringAnyOf()}},
				}, s.ValueValidation.AllOf...)
			}
			return true
		},
	}
	mapper.Visit(s)
	return s
}

func newIntOrStringAnyOf() []NestedValueValidation {
	return []NestedValueValidation{
		{ForbiddenGenerics: Generic{Type: "integer"}},
		{ForbiddenGenerics: Generic{Type: "string"}},
	}
}

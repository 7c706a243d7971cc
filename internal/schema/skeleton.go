package schema

// StripValueValidations returns a deep copy of s without value validations.
func (s *Structural) StripValueValidations() *Structural {
	s = s.DeepCopy()
	v := Visitor{
		Structural: func(s *Structural) bool {
			changed := s.ValueValidation != nil
			s.ValueValidation = nil
			return changed
		},
	}
	v.Visit(s)
	return s
}

// StripNullable returns a deep copy of s with nullable false everywhere.
func (s *Structural) StripNullable() *Structural {
	s = s.DeepCopy()
	v := Visitor{
		Structural: func(s *Structural) bool {
			changed := s.Nullable
			s.Nullable = false
			return changed
		},
	}
	v.Visit(s)
	return s
}

package schema

import (
	"github.com/crdlab/crdlab/internal/keys"
)

// Child returns the schema of the object field name: the property schema if
// declared, else the additionalProperties schema, else nil (also for a nil
// receiver).
func (s *Structural) Child(name string) *Structural {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[name]; ok {
		return &p
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Structural
	}
	return nil
}

// ItemsSchema returns the schema of the array items, or nil.
func (s *Structural) ItemsSchema() *Structural {
	if s == nil {
		return nil
	}
	return s.Items
}

// PropertyNames returns the declared property names in sorted order.
func (s *Structural) PropertyNames() []string {
	if s == nil {
		return nil
	}
	return keys.Sorted(s.Properties)
}

// ListType returns x-kubernetes-list-type, or "" when unset.
func (s *Structural) ListType() string {
	if s == nil || s.XListType == nil {
		return ""
	}
	return *s.XListType
}

// MapType returns x-kubernetes-map-type, or "" when unset.
func (s *Structural) MapType() string {
	if s == nil || s.XMapType == nil {
		return ""
	}
	return *s.XMapType
}

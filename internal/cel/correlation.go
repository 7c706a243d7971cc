package cel

import (
	"github.com/crdlab/crdlab/internal/correlated"
	"github.com/crdlab/crdlab/internal/schema"
)

// MapList finds, for an item of a new x-kubernetes-list-type=map list, the
// item of the old list with the same keys (upstream's common.MapList).
type MapList interface {
	Get(interface{}) interface{}
}

// MakeMapList indexes items of a map-type list by their keys; for other
// schemas it returns a MapList that finds nothing.
func MakeMapList(s *schema.Structural, items []interface{}) MapList {
	return correlated.MakeMapList((*correlationSchema)(s), items)
}

// CorrelatedObject pairs a new value with its old value along the structural
// schema for ratcheting, caching deep-equality results (upstream's
// common.CorrelatedObject; the walk is internal/correlated's, shared with
// OpenAPI ratcheting). It is not safe for concurrent use: create one per
// update.
type CorrelatedObject = correlated.Object[*correlationSchema]

// NewCorrelatedObject correlates a new and an old object under s.
func NewCorrelatedObject(newObj, oldObj interface{}, s *schema.Structural) *CorrelatedObject {
	return correlated.New(newObj, oldObj, (*correlationSchema)(s))
}

// correlationSchema is the structural schema as the correlation walk reads
// it (a conversion of *schema.Structural, no copy).
type correlationSchema schema.Structural

func (s *correlationSchema) PropertySchema(name string) (*correlationSchema, bool) {
	if p, ok := s.Properties[name]; ok {
		return (*correlationSchema)(&p), true
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		return (*correlationSchema)(s.AdditionalProperties.Structural), true
	}
	return nil, false
}

func (s *correlationSchema) ItemSchema() *correlationSchema {
	return (*correlationSchema)(s.Items)
}

func (s *correlationSchema) SchemaType() string { return s.Type }

func (s *correlationSchema) ListType() string {
	if s.XListType == nil {
		return ""
	}
	return *s.XListType
}

func (s *correlationSchema) ListMapKeys() []string { return s.XListMapKeys }

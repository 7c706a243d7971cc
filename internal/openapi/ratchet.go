package openapi

import (
	"github.com/crdlab/crdlab/internal/correlated"
)

// corr correlates a new value with its old value for ratcheting
// (internal/correlated's walk, upstream's CorrelatedObject, shared with CEL
// ratcheting) over the compiled nodes. It lives for one ValidateUpdate call.
type corr = correlated.Object[*node]

// The node as the correlation walk reads it: its structural type,
// properties, additionalProperties and items schemas, and list type.

func (n *node) PropertySchema(name string) (*node, bool) {
	if p, ok := n.props[name]; ok {
		return p, true
	}
	if n.additionalProps != nil && n.additionalProps.schema != nil {
		return n.additionalProps.schema, true
	}
	return nil, false
}

func (n *node) ItemSchema() *node     { return n.items }
func (n *node) SchemaType() string    { return n.structType }
func (n *node) ListType() string      { return n.listType }
func (n *node) ListMapKeys() []string { return n.listMapKeys }

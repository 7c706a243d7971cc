package openapi

import (
	"testing"
	"unsafe"
)

// A node is built for every schema node of every served version of every
// compiled CRD: its size is most of the validators' live heap. The rare
// keywords and the enum and pattern state hang off pointers (nodeRare,
// nodeEnum, nodePattern) to keep it in the 384-byte size class.
func TestNodeFitsItsSizeClass(t *testing.T) {
	if got := unsafe.Sizeof(node{}); got > 384 {
		t.Errorf("node is %d bytes, over the 384-byte size class: move rarely used fields to nodeRare", got)
	}
}

package inputs

import (
	"testing"
	"unsafe"
)

// The scan keeps one slot for each document of the run until the stream
// has passed its file: a slot must not hold a whole Document (184 bytes)
// for the documents the workers parse.
func TestSlotHoldsNoDocumentForPendingOnes(t *testing.T) {
	if got := unsafe.Sizeof(slot{}); got > 64 {
		t.Errorf("slot is %d bytes, want at most 64", got)
	}
}

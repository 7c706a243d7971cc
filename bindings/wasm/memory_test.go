package wasm

import (
	"context"
	"testing"
)

func TestLinearMemoryGrowsInPlaceUpToTheLimit(t *testing.T) {
	if !mmapSupported {
		t.Skip("no mappings on this platform")
	}
	var im instanceMemory
	lm := im.allocator().Allocate(1<<20, 4<<20)
	if im.mem == nil || lm != im.mem {
		t.Fatalf("allocator did not record its memory: %v", im.mem)
	}
	b := lm.Reallocate(1 << 20)
	if len(b) != 1<<20 {
		t.Fatalf("len %d", len(b))
	}
	b[len(b)-1] = 42
	g := lm.Reallocate(3 << 20)
	if len(g) != 3<<20 || &g[0] != &b[0] || g[1<<20-1] != 42 || g[len(g)-1] != 0 {
		t.Fatalf("grow: len %d, moved %v, kept %d, fresh %d", len(g), &g[0] != &b[0], g[1<<20-1], g[len(g)-1])
	}
	if lm.Reallocate(4<<20+1) != nil {
		t.Error("grew beyond the limit")
	}
	lm.Free() // wazero's call: must not unmap (a call may still run)
	if lm.Reallocate(2<<20) == nil {
		t.Error("Free unmapped the memory")
	}
	im.mem.release()
	im.mem.release() // idempotent
	if lm.Reallocate(1<<20) != nil {
		t.Error("memory usable after release")
	}
}

func TestHeapMemoryFallback(t *testing.T) {
	m := &heapMemory{max: 3 << 16}
	b := m.Reallocate(1 << 16)
	b[0] = 7
	g := m.Reallocate(2 << 16)
	if len(g) != 2<<16 || g[0] != 7 || cap(g) > 3<<16 {
		t.Fatalf("grow: len %d cap %d first %d", len(g), cap(g), g[0])
	}
	if m.Reallocate(3<<16+1) != nil {
		t.Error("grew beyond max")
	}
}

// TestInstanceMemoryIsMappedAndReleased: instances get their memory from
// the mapping allocator, and closing one unmaps it.
func TestInstanceMemoryIsMappedAndReleased(t *testing.T) {
	if !mmapSupported {
		t.Skip("no mappings on this platform")
	}
	r := newRuntime(t, Options{})
	ctx := context.Background()
	inst, err := r.newInstance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if inst.memory == nil {
		t.Fatal("instance memory not from the mapping allocator")
	}
	if got, want := len(inst.memory.mem), DefaultMemoryLimitPages*65536; got != want {
		t.Errorf("mapping of %d bytes, want the memory limit %d", got, want)
	}
	if _, broken, err := inst.roundTrip(ctx, []byte(`{"op":"version"}`)); err != nil || broken {
		t.Fatalf("call: %v (broken %v)", err, broken)
	}
	inst.close(ctx)
	if inst.memory.mem != nil {
		t.Error("close did not unmap the memory")
	}
}

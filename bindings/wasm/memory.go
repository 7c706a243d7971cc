package wasm

import (
	"runtime"
	"sync"

	"github.com/tetratelabs/wazero/experimental"
)

// linearMemory backs one instance's WebAssembly memory with a private
// anonymous mapping of the instance's whole memory limit (virtual address
// space only: pages are committed, already zeroed, as the module touches
// them). Without it wazero allocates the limit as one Go []byte (because of
// WithMemoryCapacityFromMax): the Go runtime zeroes a reused 1 GiB span
// (measured: ~2 s of memclr per instance after the first) and the whole GiB
// becomes resident.
//
// wazero calls Free when the module is closed, possibly from Runtime.Close
// while a call still runs on the instance in another goroutine, so Free
// does not unmap; the instance's owner calls release once it no longer
// uses the instance, and a cleanup on the instance is the safety net.
type linearMemory struct {
	mu  sync.Mutex
	mem []byte // the whole mapping; nil once released
}

// Reallocate implements experimental.LinearMemory: the memory grows in
// place up to the mapping's size; beyond, the grow fails (memory.grow
// returns -1 to the module), as the memory limit says.
func (m *linearMemory) Reallocate(size uint64) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mem == nil || size > uint64(len(m.mem)) {
		return nil
	}
	return m.mem[:size:size]
}

// Free implements experimental.LinearMemory; see the type's comment.
func (m *linearMemory) Free() {}

// release unmaps the memory. The instance must not be used after.
func (m *linearMemory) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mem != nil {
		_ = unmapMemory(m.mem)
		m.mem = nil
	}
}

// instanceMemory is the allocator of one instance, and what it allocated.
type instanceMemory struct{ mem *linearMemory }

// allocator returns the wazero memory allocator for a new instance, or nil
// where mappings are not available (wazero then allocates Go memory).
func (im *instanceMemory) allocator() experimental.MemoryAllocator {
	if !mmapSupported {
		return nil
	}
	return experimental.MemoryAllocatorFunc(func(capacity, max uint64) experimental.LinearMemory {
		size := max
		if size < capacity {
			size = capacity
		}
		mem, err := mapMemory(size)
		if err != nil {
			// No address space for the mapping: Go memory, grown by copying.
			return &heapMemory{max: size}
		}
		im.mem = &linearMemory{mem: mem}
		return im.mem
	})
}

// attach ties the memory's release to inst: explicit (inst.close) or, if
// inst is dropped without close, when inst is collected.
func (im *instanceMemory) attach(inst *instance) {
	if im.mem == nil {
		return
	}
	inst.memory = im.mem
	runtime.AddCleanup(inst, func(m *linearMemory) { m.release() }, im.mem)
}

// heapMemory is the fallback when the mapping fails: Go memory that grows
// by copying, up to max.
type heapMemory struct {
	buf []byte
	max uint64
}

func (m *heapMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if size > uint64(cap(m.buf)) {
		buf := make([]byte, size, min(m.max, max(size, 2*uint64(cap(m.buf)))))
		copy(buf, m.buf)
		m.buf = buf
	}
	m.buf = m.buf[:size]
	return m.buf
}

func (m *heapMemory) Free() {}

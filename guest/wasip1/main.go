//go:build wasip1

// Command wasip1 is crdlab's WASI reactor module (GOOS=wasip1,
// -buildmode=c-shared). It exports a small memory-passing ABI around
// guest/internal/abi; see guest/ABI.md.
package main

import (
	"sync"
	"unsafe"

	"github.com/crdlab/crdlab/guest/internal/abi"
	"github.com/crdlab/crdlab/wire"
)

func main() {}

var (
	server = abi.NewServer()
	mu     sync.Mutex
	// live keeps every buffer handed to the host reachable until freed:
	// Go's collector does not move objects, so the address stays valid.
	live = map[uintptr][]byte{}
)

//go:wasmexport crdlab_abi_version
func abiVersion() uint32 { return wire.ABIVersion }

//go:wasmexport crdlab_malloc
func malloc(size uint32) uint32 {
	if size == 0 {
		size = 1
	}
	buf := make([]byte, size)
	p := uintptr(unsafe.Pointer(&buf[0]))
	mu.Lock()
	live[p] = buf
	mu.Unlock()
	return uint32(p)
}

//go:wasmexport crdlab_free
func free(ptr uint32) {
	mu.Lock()
	delete(live, uintptr(ptr))
	mu.Unlock()
}

// crdlab_call reads a JSON request of reqLen bytes at reqPtr (a buffer from
// crdlab_malloc) and returns the response location packed as
// (ptr << 32) | len; the host frees the response with crdlab_free.
//
//go:wasmexport crdlab_call
func call(reqPtr, reqLen uint32) uint64 {
	mu.Lock()
	buf, ok := live[uintptr(reqPtr)]
	mu.Unlock()
	var resp []byte
	if !ok || uint64(reqLen) > uint64(len(buf)) {
		resp = []byte(`{"ok":false,"error":{"code":"BadRequest","message":"request pointer was not allocated by crdlab_malloc or length exceeds its buffer"}}`)
	} else {
		resp = server.Handle(buf[:reqLen])
	}
	if len(resp) == 0 {
		resp = []byte(`{"ok":false,"error":{"code":"Panic","message":"empty response"}}`)
	}
	p := uintptr(unsafe.Pointer(&resp[0]))
	mu.Lock()
	live[p] = resp
	mu.Unlock()
	return uint64(p)<<32 | uint64(len(resp))
}

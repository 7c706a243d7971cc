//go:build linux && (amd64 || arm64)

package wasm

import "syscall"

const mmapSupported = true

func mapMemory(size uint64) ([]byte, error) {
	return syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE)
}

func unmapMemory(b []byte) error { return syscall.Munmap(b) }

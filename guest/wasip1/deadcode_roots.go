//go:build wasip1 && deadcode

package main

import "os"

// The module's entry points are its //go:wasmexport functions, which the
// host calls; the deadcode check (scripts/deadcode.sh, make check) starts
// from main and init only. Built with -tags deadcode for that analysis and
// never otherwise, this init names them as roots.
func init() {
	if os.Getenv("CRDLAB_DEADCODE_ROOTS") == "call" {
		abiVersion()
		free(malloc(0))
		call(0, 0)
	}
}

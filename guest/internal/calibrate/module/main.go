//go:build wasip1

// Command module is the calibrate workload as a WASI reactor
// (GOOS=wasip1 -buildmode=c-shared): it exports run(n).
package main

import "github.com/crdlab/crdlab/guest/internal/calibrate"

func main() {}

//go:wasmexport run
func run(n int32) int32 { return int32(calibrate.Run(int(n))) }

package benchmarks

import (
	"syscall"
	"testing"
	"time"
)

// processCPU returns the user+system CPU time of this process. The machine
// is shared, so wall-clock ns/op depends on the load of other processes;
// the CPU time the benchmark itself burns (GC workers included) does much
// less, and is reported as cpu-ns/op next to ns/op.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measureCPU runs the benchmark loop and reports cpu-ns/op.
func measureCPU(b *testing.B, op func()) {
	start := processCPU()
	n := 0
	for b.Loop() {
		op()
		n++
	}
	if n > 0 {
		b.ReportMetric(float64(processCPU()-start)/float64(n), "cpu-ns/op")
	}
}

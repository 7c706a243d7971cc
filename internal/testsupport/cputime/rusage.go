//go:build linux || darwin

package cputime

import (
	"syscall"
	"time"
)

// processCPU is the user and system CPU time of the whole process.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

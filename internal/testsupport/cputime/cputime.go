package cputime

import "time"

// TB is the part of testing.TB that Check uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
}

// Meter is the process's CPU time at Start.
type Meter struct {
	start time.Duration
	ok    bool
}

// Start reads the CPU time the process has used so far.
func Start() Meter {
	d, ok := processCPU()
	return Meter{start: d, ok: ok}
}

// Check fails t if the process used more than limit of CPU time since m
// started, naming what was measured, and otherwise logs the time used (go
// test -v shows the figures the bounds are set from); where the platform
// has no measure it logs that the bound was not checked.
func (m Meter) Check(t TB, limit time.Duration, what string) {
	t.Helper()
	now, ok := processCPU()
	if !m.ok || !ok {
		t.Logf("%s: CPU time not measurable on this platform; bound %v not checked", what, limit)
		return
	}
	used := now - m.start
	if used > limit {
		t.Errorf("%s used %v of CPU time, want at most %v", what, used.Round(time.Millisecond), limit)
		return
	}
	t.Logf("%s: %v of CPU time (bound %v)", what, used.Round(time.Millisecond), limit)
}

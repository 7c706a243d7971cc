package cputime

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"testing"
	"time"
)

type recorder struct{ errs, logs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

// burn does a fixed amount of work: hashing 64 MiB takes tens of
// milliseconds of CPU on any machine, loaded or not.
func burn() {
	buf := make([]byte, 1<<20)
	for i := 0; i < 64; i++ {
		sum := sha256.Sum256(buf)
		buf[i] = sum[0]
	}
}

func measurable() bool { return runtime.GOOS == "linux" || runtime.GOOS == "darwin" }

func TestCheckFailsWorkOverTheBound(t *testing.T) {
	if !measurable() {
		t.Skip("no per-process CPU time on " + runtime.GOOS)
	}
	m := Start()
	burn()
	var r recorder
	m.Check(&r, time.Nanosecond, "hashing 64 MiB")
	if len(r.errs) != 1 {
		t.Fatalf("errors %q, want one", r.errs)
	}
	if want := "hashing 64 MiB used "; len(r.errs[0]) < len(want) || r.errs[0][:len(want)] != want {
		t.Errorf("error %q, want it to start with %q", r.errs[0], want)
	}
}

func TestCheckPassesWorkUnderTheBound(t *testing.T) {
	m := Start()
	burn()
	var r recorder
	m.Check(&r, time.Hour, "hashing 64 MiB")
	if len(r.errs) != 0 {
		t.Errorf("errors %q, want none", r.errs)
	}
	if len(r.logs) != 1 {
		t.Errorf("logs %q, want one (the time used, or that nothing was measured)", r.logs)
	}
}

// Sleeping costs no CPU time: the measure is not the wall clock. (The
// bound only needs to be below the sleep; other goroutines of this binary
// use far less than a second while this test sleeps.)
func TestSleepingIsNotCounted(t *testing.T) {
	if !measurable() {
		t.Skip("no per-process CPU time on " + runtime.GOOS)
	}
	m := Start()
	time.Sleep(2 * time.Second)
	var r recorder
	m.Check(&r, time.Second, "sleeping 2s")
	if len(r.errs) != 0 {
		t.Errorf("errors %q, want none", r.errs)
	}
}

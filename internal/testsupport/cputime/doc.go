// Package cputime bounds the work a test does by the CPU time of the test
// process, not by the wall clock: a guard against quadratic or exponential
// work that stays true on a loaded machine. Wall time grows with every other
// process's load (a 1.5 s test took 60 s at load 35 on 2 cores); the CPU
// time this process spends does not, since a process waiting for a core is
// not charged for the wait. The count is the whole process's (user +
// system, every thread), so the work of the goroutines a call starts and of
// the garbage collector is in it; tests that run in parallel in the same
// binary are too, which is why bounds are set at ten times the idle figure
// of the slowest case, and never under a second (figures of milliseconds
// vary more than tenfold with one GC cycle).
//
// Where the operating system gives no per-process CPU time (anything but
// linux and darwin), Check logs that it measured nothing and the test runs
// without the bound.
//
// Hang detectors (waiting for an answer that must come) are not this
// package's: they rely on go test -timeout (RATIONALE.md, "Tests on a
// new machine").
//
// # Files
//
//   - cputime.go: Start and Meter.Check
//   - rusage.go: the process's CPU time from getrusage(2) (linux, darwin)
//   - other.go: the fallback elsewhere (no measure)
package cputime

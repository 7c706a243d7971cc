package abi

import (
	"context"
	"sync"
	"time"
)

// deadlineContext is a context that ends at a deadline, read from the clock
// whenever Err is called. context.WithDeadline relies on a runtime timer,
// and in a single-threaded WebAssembly runtime (no preemption, no sysmon)
// a timer only fires when the running goroutine blocks, which CPU-bound
// validation never does: the engine would never see the deadline. The
// engine asks Err before every CEL rule and between its stages; Done is
// closed by the first Err that finds the deadline passed (so a CEL
// comprehension that checks Done sees it only after such an Err).
type deadlineContext struct {
	context.Context
	deadline time.Time
	once     sync.Once
	done     chan struct{}
}

// withTimeout returns a deadlineContext ending ms milliseconds from now, or
// context.Background() when ms is not positive.
func withTimeout(ms int64) context.Context {
	if ms <= 0 {
		return context.Background()
	}
	return &deadlineContext{Context: context.Background(), deadline: time.Now().Add(time.Duration(ms) * time.Millisecond), done: make(chan struct{})}
}

func (c *deadlineContext) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *deadlineContext) Done() <-chan struct{}       { return c.done }

func (c *deadlineContext) Err() error {
	if time.Now().Before(c.deadline) {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.DeadlineExceeded
}

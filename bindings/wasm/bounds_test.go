package wasm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// rssBytes is the process's resident set size (Linux), or -1.
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return -1
			}
			return kb << 10
		}
	}
	return -1
}

// settle waits for the abandoned calls to end, collects, and returns the
// goroutine count and RSS.
func settle(t *testing.T, r *Runtime) (int, int64) {
	t.Helper()
	waitAbandoned(t, r)
	for i := 0; i < 3; i++ {
		runtime.GC()
		debug.FreeOSMemory()
		time.Sleep(20 * time.Millisecond)
	}
	return runtime.NumGoroutine(), rssBytes()
}

// TestTenThousandCancelledCalls: 10,000 calls whose contexts end before,
// while waiting for an instance, or during the call (then abandoned, the
// module stopping at the request's deadline) leave no goroutine and no
// memory behind: the goroutine count and the RSS come back to their
// baseline, every answer is the native one or the context's error, and the
// runtime keeps working.
func TestTenThousandCancelledCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 calls through the module take tens of seconds")
	}
	r := newRuntime(t, Options{MaxInstances: 2, PoolSize: 2})
	crd, object := slowCall(t, 20)
	c, err := r.Compile(context.Background(), crd)
	if err != nil {
		t.Fatal(err)
	}
	want := native(request{crd: crd, object: object})
	// Baseline with both instances started and pooled.
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); mustStillWork(t, r) }()
	}
	wg.Wait()
	goroutines, _ := settle(t, r)

	// Two rounds of 5,000 calls: the first brings the process to its
	// steady state (the Go heap's and wazero's one-time growth, which
	// depends on the tests run before in this binary), the RSS baseline is
	// taken after it, and the second must not grow past it: a leak grows
	// with the calls, a one-time cost does not.
	const goroutinesN, calls = 50, 5000
	round := func() {
		errc := make(chan error, goroutinesN)
		var answered, cancelled, deadline sync.Map
		start := time.Now()
		for g := 0; g < goroutinesN; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := 0; i < calls/goroutinesN; i++ {
					var (
						ctx    context.Context
						cancel context.CancelFunc
					)
					switch i % 4 {
					case 0: // cancelled before the call
						ctx, cancel = context.WithCancel(context.Background())
						cancel()
					case 1: // cancelled while waiting or running
						ctx, cancel = context.WithCancel(context.Background())
						time.AfterFunc(time.Duration(g%5)*time.Millisecond, cancel)
					default: // a deadline of 0–19 ms
						ctx, cancel = context.WithTimeout(context.Background(), time.Duration((g*7+i)%20)*time.Millisecond)
					}
					raw, err := c.ValidateRaw(ctx, object, ValidateOptions{})
					cancel()
					switch {
					case err == nil && string(raw) == want:
						answered.Store(g*calls+i, true)
					case errors.Is(err, context.Canceled):
						cancelled.Store(g*calls+i, true)
					case errors.Is(err, context.DeadlineExceeded):
						deadline.Store(g*calls+i, true)
					case err != nil:
						errc <- err
						return
					default:
						errc <- fmt.Errorf("got %.200s, want %.200s", raw, want)
						return
					}
				}
			}(g)
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			t.Fatal(err)
		}
		count := func(m *sync.Map) (n int) {
			m.Range(func(any, any) bool { n++; return true })
			return n
		}
		t.Logf("%d calls in %v: %d answered, %d cancelled, %d past their deadline", calls, time.Since(start).Round(time.Millisecond), count(&answered), count(&cancelled), count(&deadline))
		if count(&cancelled) < calls/4 || count(&deadline) == 0 {
			t.Errorf("the calls did not end as planned")
		}
	}
	round()
	_, rss := settle(t, r)
	round()
	mustStillWork(t, r)
	gAfter, rssAfter := settle(t, r)
	t.Logf("goroutines %d → %d, RSS %d → %d MiB", goroutines, gAfter, rss>>20, rssAfter>>20)
	if gAfter > goroutines {
		var buf bytes.Buffer
		_ = pprofGoroutines(&buf)
		t.Errorf("goroutines: %d after, %d before\n%s", gAfter, goroutines, buf.String())
	}
	// Instances are replaced (abandoned ones are closed, their memory
	// unmapped): what remains is the two pooled instances, as before, and
	// what the Go heap keeps. Run after the package's other tests, the
	// second round has been seen to add up to 141 MiB (alone: none); an
	// instance leak would keep thousands of abandoned instances' memories
	// (gigabytes), so 256 MiB still tells one.
	if rss > 0 && rssAfter > rss+256<<20 {
		t.Errorf("RSS %d MiB after, %d MiB before", rssAfter>>20, rss>>20)
	}
}

func pprofGoroutines(buf *bytes.Buffer) error {
	b := make([]byte, 1<<20)
	buf.Write(b[:runtime.Stack(b, true)])
	return nil
}

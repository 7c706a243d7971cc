package wasm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/testsupport/cputime"
	"github.com/crdlab/crdlab/wire"
)

func crontabCRD(t testing.TB) []byte {
	return readFile(t, filepath.Join(repoRoot, "examples", "crontab-crd.yaml"))
}

func crontab(spec string) []byte {
	return []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x","namespace":"default"},"spec":` + spec + `}`)
}

// mustStillWork asserts that the runtime answers a valid request correctly
// after a hostile one.
func mustStillWork(t *testing.T, r *Runtime) {
	t.Helper()
	ctx := context.Background()
	c, err := r.Compile(ctx, crontabCRD(t))
	if err != nil {
		t.Fatalf("runtime broken after a hostile input: %v", err)
	}
	rep, err := c.Validate(ctx, crontab(`{"image":"a","replicas":11}`), ValidateOptions{})
	if err != nil {
		t.Fatalf("runtime broken after a hostile input: %v", err)
	}
	if len(rep.Object.Errors) != 1 || rep.Object.Errors[0].Field != "spec.replicas" {
		t.Fatalf("wrong answer after a hostile input: %+v", rep.Object)
	}
}

// TestHostileInputsMatchNative: inputs an attacker or a broken client could
// send all come back as the native engine's answer, never as a trap, and the
// runtime keeps working.
func TestHostileInputsMatchNative(t *testing.T) {
	crd := crontabCRD(t)
	deepArray := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	deepObject := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	deepYAML := "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec:\n  image: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n"
	big := strings.Repeat("x", 3<<20+17)
	bigDescription := strings.Replace(string(crd), "type: object\n", "type: object\n          description: \""+strings.Repeat("d", 3<<20)+"\"\n", 1)
	costBomb := strings.Replace(string(crd), "              properties:\n                cronSpec:",
		`              x-kubernetes-validations:
              - rule: "self.tags.all(a, self.tags.all(b, self.tags.all(c, a + b + c != '')))"
              properties:
                tags:
                  type: array
                  items:
                    type: string
                cronSpec:`, 1)
	if costBomb == string(crd) || bigDescription == string(crd) {
		t.Fatal("examples/crontab-crd.yaml changed shape: update the hostile inputs")
	}
	tags := make([]string, 2000)
	for i := range tags {
		tags[i] = fmt.Sprint(i)
	}
	tagsJSON, _ := json.Marshal(tags)
	reqs := []request{
		{name: "invalid UTF-8 in a JSON string", crd: crd, object: crontab("{\"image\":\"\xff\xfe\xfd\"}")},
		{name: "invalid UTF-8 in YAML", crd: crd, object: []byte("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec: {image: \xff\xfe}\n")},
		{name: "invalid UTF-8 in the CRD", crd: []byte(strings.Replace(string(crd), "CronTab", "Cron\xffTab", 1))},
		{name: "3 MiB string value", crd: crd, object: crontab(`{"image":"` + big + `"}`)},
		{name: "3 MiB CRD description", crd: []byte(bigDescription), object: crontab(`{"image":"a"}`)},
		{name: "10,000-deep JSON arrays", crd: crd, object: crontab(`{"image":` + deepArray + `}`)},
		{name: "10,000-deep JSON objects", crd: crd, object: crontab(`{"image":` + deepObject + `}`)},
		{name: "10,000-deep YAML flow sequences", crd: crd, object: []byte(deepYAML)},
		{name: "10,000-deep unknown field", crd: crd, object: crontab(`{"image":"a","junk":` + deepObject + `}`), fieldValidation: "Ignore"},
		{name: "cost-bomb CEL rule (CRD)", crd: []byte(costBomb)},
		{name: "cost-bomb CEL rule (object)", crd: []byte(costBomb), object: crontab(`{"image":"a","tags":` + string(tagsJSON) + `}`)},
		{name: "not a CRD at all", crd: []byte("\x00\x01\x02")},
		{name: "empty object", crd: crd, object: []byte{}},
		{name: "object is JSON null", crd: crd, object: []byte("null")},
	}
	r := newRuntime(t, Options{})
	checkParity(t, r, reqs)
	mustStillWork(t, r)
}

// TestRawRequestsAreAnsweredWithErrors: malformed requests through the raw
// ABI get error responses with the documented codes.
func TestRawRequestsAreAnsweredWithErrors(t *testing.T) {
	r := newRuntime(t, Options{})
	ctx := context.Background()
	tests := []struct {
		name, req string
		code      wire.ErrorCode
		contains  string
	}{
		{"invalid UTF-8 outside strings", "{\"op\":\"version\"}\xff", "BadRequest", "not a valid JSON request"},
		{"not JSON", "hello", "BadRequest", "not a valid JSON request"},
		{"no op", `{}`, "BadRequest", `no "op"`},
		{"unknown op", `{"op":"explode"}`, "BadRequest", `unknown op "explode"`},
		{"unknown handle", `{"op":"validate","handle":4242,"object":"{}"}`, "NotFound", "no compiled CRD with handle 4242"},
		{"free of an unknown handle", `{"op":"free","handle":4242}`, "NotFound", "handle 4242"},
		{"cost of an undecodable CRD", `{"op":"cost","crd":"kind: [unclosed"}`, "DecodeError", ""},
		{"undecodable CRD", `{"op":"compile","crd":"kind: [unclosed"}`, "DecodeError", ""},
		{"bytes field that is not base64", `{"op":"compile","crdBytes":"%%%"}`, "BadRequest", "not a valid JSON request"},
		{"kubeVersion that is not a string", `{"op":"compile","crd":"x","kubeVersion":1.36}`, "BadRequest", "not a valid JSON request"},
		{"kubeVersion that is an object", `{"op":"cost","crd":"x","kubeVersion":{"minor":36}}`, "BadRequest", "not a valid JSON request"},
		{"unsupported kubeVersion", `{"op":"compile","crd":"x","kubeVersion":"1.30"}`, "BadRequest", `unsupported Kubernetes version "1.30" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)`},
		{"kubeVersion past uint8", `{"op":"lint","crd":"x","kubeVersion":"1.292"}`, "BadRequest", `invalid Kubernetes version "1.292"`},
		{"kubeVersion with 1 MB of digits", `{"op":"upgrade","crd":"x","oldCrd":"x","kubeVersion":"1.` + strings.Repeat("9", 1<<20) + `"}`, "BadRequest", "invalid Kubernetes version"},
		{"kubeVersion with a NUL", `{"op":"conversionReview","crd":"x","review":"{}","kubeVersion":"1.36\u0000"}`, "BadRequest", "invalid Kubernetes version"},
		{"kubeVersion in Arabic-Indic digits", `{"op":"schema","crd":"x","kubeVersion":"1.\u0663\u0667"}`, "BadRequest", "invalid Kubernetes version"},
		{"kubeVersion of test", `{"op":"test","files":{"a.crdtest.yaml":"name: a"},"kubeVersion":"-1.36"}`, "BadRequest", "invalid Kubernetes version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := r.Call(ctx, []byte(tt.req))
			if err != nil {
				t.Fatal(err)
			}
			var env struct {
				OK    bool   `json:"ok"`
				Error *Error `json:"error"`
			}
			if err := json.Unmarshal(raw, &env); err != nil {
				t.Fatalf("response is not JSON: %v: %s", err, raw)
			}
			if env.OK || env.Error == nil || env.Error.Code != tt.code || !strings.Contains(env.Error.Message, tt.contains) {
				t.Fatalf("got %s, want code %s containing %q", raw, tt.code, tt.contains)
			}
		})
	}
	mustStillWork(t, r)
}

// TestRequestOverLimitIsRefused: a request over 64 MiB is refused by the
// module, and the instance that held it is recycled, not kept.
func TestRequestOverLimitIsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB request skipped in -short mode")
	}
	r := newRuntime(t, Options{})
	req := `{"op":"version","crd":"` + strings.Repeat("a", 64<<20) + `"}`
	raw, err := r.Call(context.Background(), []byte(req))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"code":"BadRequest"`) || !strings.Contains(string(raw), "exceeds the limit") {
		t.Fatalf("got %.300s", raw)
	}
	mustStillWork(t, r)
}

// TestMemoryLimitTrapsAndReplacesInstance: an instance that runs out of its
// memory limit fails with a Trap that says so (the limit, the option, the Go
// runtime's own lines), the instance is discarded, and the next call gets a
// fresh instance.
func TestMemoryLimitTrapsAndReplacesInstance(t *testing.T) {
	r := newRuntime(t, Options{MemoryLimitPages: 1024, PoolSize: 1, MaxInstances: 1}) // 64 MiB
	c, err := r.Compile(context.Background(), crontabCRD(t))
	if err != nil {
		t.Fatal(err)
	}
	before := <-r.pool
	r.pool <- before
	huge := crontab(`{"image":"` + strings.Repeat("x", 40<<20) + `"}`)
	_, err = c.Validate(context.Background(), huge, ValidateOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Code != "Trap" {
		t.Fatalf("got %v, want a Trap", err)
	}
	const want = "crdlab wasm: the module ran out of memory (instance limit 64 MiB, Options.MemoryLimitPages): runtime: out of memory: cannot allocate "
	if msg := err.Error(); !strings.HasPrefix(msg, want) || !strings.Contains(msg, "; fatal error: out of memory; module stderr: ") {
		t.Fatalf("got %.600s\nwant it to start with %q and quote the runtime's fatal error", msg, want)
	}
	select {
	case inst := <-r.pool:
		r.pool <- inst
		if inst == before {
			t.Fatal("the instance that ran out of memory went back to the pool")
		}
	default:
	}
	mustStillWork(t, r)
}

// TestLargeInstanceKeptForItsCRD: an instance whose memory grew past
// recyclePages while compiling a CRD goes back to the pool (a new one would
// need as much to compile that CRD again), one that grew further for a
// large request after that is closed.
func TestLargeInstanceKeptForItsCRD(t *testing.T) {
	r := newRuntime(t, Options{PoolSize: 1, MaxInstances: 1})
	r.recycleSize = 65536 // every instance is "large"
	c, err := r.Compile(context.Background(), crontabCRD(t))
	if err != nil {
		t.Fatal(err)
	}
	var compiled *instance
	select {
	case compiled = <-r.pool:
		r.pool <- compiled
	default:
		t.Fatal("the instance that compiled the CRD was closed")
	}
	big := crontab(`{"image":"` + strings.Repeat("x", 20<<20) + `"}`)
	if _, err := c.Validate(context.Background(), big, ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case inst := <-r.pool:
		r.pool <- inst
		if inst == compiled {
			t.Fatal("the instance that grew for a 20 MiB object went back to the pool")
		}
	default:
	}
	mustStillWork(t, r)
}

// The runtime's fatal lines are kept even when the goroutine traces after
// them overflow the tail, and even when they arrive in pieces.
func TestTailBufferKeepsFatalLines(t *testing.T) {
	var b tailBuffer
	out := "gc 1 @0.1s\nruntime: out of memory: cannot allocate 524288-byte block (1039466496 in use)\nfatal error: out of memory\n\ngoroutine 1 [running]:\n" + strings.Repeat("runtime.throw(...)\n", 1000)
	for i := 0; i < len(out); i += 7 {
		b.Write([]byte(out[i:min(i+7, len(out))]))
	}
	if got, want := b.fatalLines(), "runtime: out of memory: cannot allocate 524288-byte block (1039466496 in use)\nfatal error: out of memory"; got != want {
		t.Errorf("fatalLines() = %q, want %q", got, want)
	}
	if len(b.String()) != stderrTail || strings.Contains(b.String(), "fatal error") {
		t.Errorf("the tail should be the last %d bytes of traces, got %d bytes", stderrTail, len(b.String()))
	}
	var plain tailBuffer
	plain.Write([]byte("panic: boom\nfatal error: all goroutines are asleep\n"))
	if got := plain.fatalLines(); got != "fatal error: all goroutines are asleep" {
		t.Errorf("fatalLines() = %q", got)
	}
	for pages, want := range map[uint32]string{16384: "1 GiB", 1024: "64 MiB", 1: "64 KiB", 24576: "1536 MiB"} {
		if got := pagesSize(pages); got != want {
			t.Errorf("pagesSize(%d) = %q, want %q", pages, got, want)
		}
	}
}

// TestConcurrentCallersGetNativeAnswers: many goroutines share one runtime
// with fewer instances than callers; every answer equals the native one.
func TestConcurrentCallersGetNativeAnswers(t *testing.T) {
	r := newRuntime(t, Options{MaxInstances: 3, PoolSize: 2})
	crd := crontabCRD(t)
	c, err := r.Compile(context.Background(), crd)
	if err != nil {
		t.Fatal(err)
	}
	objects := [][]byte{
		crontab(`{"image":"a","replicas":3}`),
		crontab(`{"image":"a","replicas":30}`),
		crontab(`{"cronSpec":"* *","color":"red"}`),
		crontab(`{"image":1}`),
	}
	want := make([]string, len(objects))
	for i, o := range objects {
		want[i] = native(request{crd: crd, object: o})
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 8; i++ {
				k := (g + i) % len(objects)
				raw, err := c.ValidateRaw(context.Background(), objects[k], ValidateOptions{})
				if err != nil {
					errs <- err
					return
				}
				if string(raw) != want[k] {
					errs <- fmt.Errorf("goroutine %d call %d: got %.200s, want %.200s", g, i, raw, want[k])
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCancelledContext: a cancelled context fails fast; a deadline that
// expires during a call returns at once with the context's error while the
// call, abandoned, ends in the background on an instance that is then
// closed, holding its MaxInstances slot until it ends; the next call works.
func TestCancelledContext(t *testing.T) {
	r := newRuntime(t, Options{MaxInstances: 1, PoolSize: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Compile(ctx, crontabCRD(t)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: got %v, want context.Canceled", err)
	}
	crd, object := slowCall(t, 200)
	c, err := r.Compile(context.Background(), crd)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := c.Validate(context.Background(), object, ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	full := time.Since(start)
	inst := <-r.pool // the instance the next call will run on
	r.pool <- inst

	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start = time.Now()
	_, err = c.Validate(ctx, object, ValidateOptions{})
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("expired deadline: got %v, want context.DeadlineExceeded", err)
	}
	t.Logf("cancelled call returned after %v; the whole call takes %v", took, full)
	// The call returned while its work still runs: one abandoned call
	// (no comparison of durations, which a loaded machine would break).
	if n := r.abandoned.Load(); n != 1 {
		t.Errorf("%d abandoned calls running, want 1", n)
	}
	// The abandoned call still holds the only slot.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	if _, _, err := r.Version(ctx2); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a call while the abandoned one holds the only slot: got %v, want context.DeadlineExceeded", err)
	}
	mustStillWork(t, r) // waits for the slot
	waitAbandoned(t, r)
	if !inst.mod.IsClosed() {
		t.Error("the abandoned call's instance was not closed")
	}
}

// waitAbandoned waits until the abandoned calls have ended and freed their
// slots (the count drops after the slot is freed). Calls that never end
// fail the test through go test -timeout: a wall-clock bound here (it was
// a minute) would fail on a loaded machine, where an abandoned call of
// 13 s idle runs for minutes.
func waitAbandoned(t *testing.T, r *Runtime) {
	t.Helper()
	for r.abandoned.Load() != 0 {
		time.Sleep(5 * time.Millisecond)
	}
}

// TestManyCancelledCalls: concurrent calls cancelled at random moments
// all return their context's error or the native answer, the abandoned
// ones end and free their slots, and the runtime keeps working.
func TestManyCancelledCalls(t *testing.T) {
	r := newRuntime(t, Options{MaxInstances: 2, PoolSize: 2})
	crd, object := slowCall(t, 40)
	c, err := r.Compile(context.Background(), crd)
	if err != nil {
		t.Fatal(err)
	}
	want := native(request{crd: crd, object: object})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 4; i++ {
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(1+(g*7+i*13)%40)*time.Millisecond)
				raw, err := c.ValidateRaw(ctx, object, ValidateOptions{})
				cancel()
				if err != nil && !errors.Is(err, context.DeadlineExceeded) {
					errs <- err
				} else if err == nil && string(raw) != want {
					errs <- fmt.Errorf("got %.200s, want %.200s", raw, want)
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	waitAbandoned(t, r)
	if n := len(r.sem); n != 0 {
		t.Errorf("%d slots still taken with no call running", n)
	}
	mustStillWork(t, r)
}

// TestCloseDuringAbandonedCall: closing the runtime while an abandoned call
// runs neither crashes the host nor races with the call (run with -race):
// the call ends, frees its slot and memory, and then the wazero runtime is
// closed.
func TestCloseDuringAbandonedCall(t *testing.T) {
	r, err := New(context.Background(), Options{Module: moduleBytes, CacheDir: testCacheDir, MaxInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	crd, object := slowCall(t, 100)
	c, err := r.Compile(context.Background(), crd)
	if err != nil {
		t.Fatal(err)
	}
	inst := <-r.pool
	r.pool <- inst
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := c.Validate(ctx, object, ValidateOptions{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want context.DeadlineExceeded", err)
	}
	if r.abandoned.Load() != 1 {
		t.Fatal("the call was not abandoned")
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitAbandoned(t, r)
	if inst.memory != nil {
		inst.memory.mu.Lock()
		released := inst.memory.mem == nil
		inst.memory.mu.Unlock()
		if !released {
			t.Error("the abandoned instance's memory was not released")
		}
	}
	if _, _, err := r.Version(context.Background()); err == nil {
		t.Error("a call on a closed runtime succeeded")
	}
	if inst, err := r.newInstance(context.Background()); err == nil {
		inst.close(context.Background())
		t.Error("the wazero runtime is still open after the last call ended")
	}
}

// TestInterruptStopsARunningCall: with Options.Interrupt a deadline stops
// the call inside the module: its slot is free at once (an abandoned call
// would hold the only slot for seconds). It shares its CacheDir with
// default runtimes, whose code has no checks (wazero keys the cached code by
// the setting too).
func TestInterruptStopsARunningCall(t *testing.T) {
	newRuntime(t, Options{}) // fills the default cache
	r := newRuntime(t, Options{Interrupt: true, MaxInstances: 1, PoolSize: 1})
	crd, object := slowCall(t, 400)
	c, err := r.Compile(context.Background(), crd)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	cpu := cputime.Start()
	_, err = c.Validate(ctx, object, ValidateOptions{})
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want context.DeadlineExceeded", err)
	}
	if r.abandoned.Load() != 0 {
		t.Error("a call was abandoned with Options.Interrupt")
	}
	if len(r.sem) != 0 {
		t.Error("the interrupted call still holds its slot")
	}
	t.Logf("interrupted after %v", took)
	// Not abandoned (above), so the call ended before Validate returned:
	// run to its end, it would have used ~13 s of CPU time in this
	// process (3.1 s without the checks); interrupted, 43 ms. A second
	// (ten times that, with the one-second floor) in CPU time, which other
	// processes' load does not inflate (a 2 s wall-clock bound would fail
	// on a loaded machine).
	cpu.Check(t, time.Second, "the interrupted call")
	mustStillWork(t, r)
}

// TestClosedCRDIsRefusedAndFreed: Validate after Close fails; the handle is
// freed inside the instances.
func TestClosedCRDIsRefusedAndFreed(t *testing.T) {
	r := newRuntime(t, Options{MaxInstances: 1, PoolSize: 1})
	c, err := r.Compile(context.Background(), crontabCRD(t))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	_, err = c.Validate(context.Background(), crontab(`{}`), ValidateOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Code != "Invalid" {
		t.Fatalf("got %v, want Invalid", err)
	}
	mustStillWork(t, r) // sweeps the closed handle first
	raw, err := r.Call(context.Background(), []byte(`{"op":"free","handle":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"code":"NotFound"`) {
		t.Fatalf("handle 1 still allocated after Close: %s", raw)
	}
}

// TestNewRejectsBadModules: a missing path, bytes that are not wasm.
func TestNewRejectsBadModules(t *testing.T) {
	ctx := context.Background()
	if _, err := New(ctx, Options{ModulePath: filepath.Join(t.TempDir(), "missing.wasm")}); err == nil || !strings.Contains(err.Error(), "reading module") {
		t.Errorf("missing module: %v", err)
	}
	if _, err := New(ctx, Options{Module: []byte("not wasm")}); err == nil || !strings.Contains(err.Error(), "compiling module") {
		t.Errorf("garbage module: %v", err)
	}
	t.Setenv("CRDLAB_WASM", "")
	if _, err := New(ctx, Options{}); err == nil || !strings.Contains(err.Error(), "no module given") {
		t.Errorf("no module: %v", err)
	}
}

// slowCall returns a CRD and an object of it whose validation runs one CEL
// rule over all n² pairs of n tags (n ≤ 900, the rule's maxItems, for its
// estimated cost to fit the budget). Measured 2026-11-23 (2 cores, load ~2):
// n=100 takes 0.12 s in wazero, 0.84 s with Options.Interrupt; n=400 takes
// 0.47 s natively, 3.1 s in wazero.
func slowCall(t testing.TB, n int) (crd, object []byte) {
	s := strings.Replace(string(crontabCRD(t)), "              properties:\n                cronSpec:",
		`              x-kubernetes-validations:
              - rule: "self.tags.all(a, self.tags.all(b, a != b || size(a) >= 0))"
              properties:
                tags:
                  type: array
                  maxItems: 900
                  items:
                    type: string
                    maxLength: 8
                cronSpec:`, 1)
	if s == string(crontabCRD(t)) {
		t.Fatal("examples/crontab-crd.yaml changed shape: update slowCall")
	}
	tags := make([]string, n)
	for i := range tags {
		tags[i] = fmt.Sprint(i)
	}
	tagsJSON, _ := json.Marshal(tags)
	return []byte(s), crontab(`{"image":"a","tags":` + string(tagsJSON) + `}`)
}

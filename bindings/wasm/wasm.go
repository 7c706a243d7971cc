// Package wasm runs crdlab's WebAssembly module (the GOOS=wasip1 reactor
// built by `make wasm`, see guest/ABI.md) inside wazero, so that a Go program
// can validate custom resources through exactly the module that browsers and
// other WASI hosts run, with the same results as the native engine package
// (github.com/crdlab/crdlab/engine), byte for byte.
//
// A Runtime compiles the module once (optionally with an on-disk compilation
// cache, so that later processes start warm), keeps a pool of instances, is
// safe for concurrent use, honours context cancellation (see
// Options.Interrupt) and a memory limit per instance, and replaces an
// instance that trapped, ran out of memory, was interrupted or abandoned:
// the next call works.
package wasm

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/crdlab/crdlab/wire"
)

// ABIVersion is the module ABI version these bindings speak.
const ABIVersion = wire.ABIVersion

// DefaultMemoryLimitPages caps each instance at 1 GiB (16,384 pages of 64 KiB).
const DefaultMemoryLimitPages = 16384

// recyclePages: an instance whose linear memory grew beyond 256 MiB (4,096
// pages; e.g. after a huge request) is closed instead of going back to the
// pool, since WebAssembly memory never shrinks; unless it grew that much
// compiling a CRD it still holds (instance.keepSize): a new instance would
// need as much to compile it again, for every call (a CRD of 10,000 rules
// takes 25 s of CPU and 700 MiB to compile in wazero).
const recyclePages = 4096

// stderrTail is how much of an instance's stderr is kept for trap messages
// (the Go runtime prints its fatal error there before exiting).
const stderrTail = 4096

// Options configure a Runtime.
type Options struct {
	// Module holds the module bytes; if empty, ModulePath is read.
	Module []byte
	// ModulePath is the path of crdlab.wasm (default: $CRDLAB_WASM).
	ModulePath string
	// CacheDir, if set, keeps wazero's compiled code on disk so that later
	// processes start warm (wazero keys the code by module and Interrupt
	// setting: runtimes with and without Interrupt can share a directory).
	CacheDir string
	// MemoryLimitPages caps each instance's linear memory in 64 KiB pages
	// (default DefaultMemoryLimitPages).
	MemoryLimitPages uint32
	// PoolSize is the most idle instances kept (default 4).
	PoolSize int
	// MaxInstances bounds the instances alive at once, hence the calls
	// running at once, abandoned ones included (see Interrupt); further
	// callers wait (or give up when their context ends).
	// Default: GOMAXPROCS.
	MaxInstances int
	// Interrupt stops a running call inside the module when its context
	// ends, at 3–4.5× the CPU per call (measured on the benchmark sets;
	// ~7× on CEL-heavy objects): wazero then compiles a check of the
	// context into every function and loop of the module.
	//
	// Without it (the default), a context that ends while a call runs
	// makes the call return ctx.Err() at once, and the call is abandoned:
	// it runs to its end in the background, on its own instance, bounded by
	// the engine's own limits (the CEL cost budgets, the 64 MiB request
	// limit, MemoryLimitPages), and that instance is then closed, never
	// pooled. The abandoned call keeps its MaxInstances slot until it really
	// ends, so that at most MaxInstances calls run at once, abandoned or
	// not: callers with short deadlines cannot pile up unbounded background
	// work (CPU, up to MemoryLimitPages of memory each); new callers wait
	// for the slot, or give up when their own context ends.
	Interrupt bool
	// GOGC is the module's Go garbage collector target percentage
	// (default DefaultGOGC).
	GOGC int
}

// DefaultGOGC: the module's collector is not concurrent, so collecting less
// often (at 4× the live heap instead of 2×) makes validations markedly
// faster (measured: Prometheus CRD 9.2 → 5.4 ms/op) for more memory.
//
// The module's collector also gets a soft memory limit (GOMEMLIMIT) of 3/4
// of the instance's memory (memoryLimitFraction): when the live heap grows
// (a CRD of 10,000 rules), it collects before GOGC's target would outgrow
// the instance, and GOGC alone paces it below that. The limit leaves a
// quarter of the instance for what it does not bound: the module's data,
// stacks and the collector's overshoot (the module has a single thread, so
// a mark phase runs only in allocation assists and the heap keeps growing
// during it, up to 10% over the limit).
const DefaultGOGC = 400

// memoryLimitFraction is the module's GOMEMLIMIT as a fraction of the
// instance's memory limit (see DefaultGOGC): 7/8 was measured too close
// (the 10,000-rule CRD ran out of memory at 991 MiB in use, the collector's
// 10% overshoot over 896 MiB), 3/4 compiles it.
const memoryLimitNum, memoryLimitDen = 3, 4

// outOfMemory starts the message of a Trap whose instance ran out of its
// memory limit (see instance.trap).
const outOfMemory = "the module ran out of memory"

// Runtime is a compiled crdlab module with a pool of instances. It is safe
// for concurrent use.
type Runtime struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cache    wazero.CompilationCache
	pool     chan *instance
	sem      chan struct{}
	mu       sync.Mutex
	nextID   uint64
	closed   bool
	gogc     int
	// limitPages is the memory limit of each instance in pages.
	limitPages uint32
	// recycleSize is recyclePages in bytes (tests lower it).
	recycleSize uint32
	// interrupt is Options.Interrupt.
	interrupt bool
	// abandoned counts the calls abandoned by their caller and still
	// running.
	abandoned atomic.Int64
	// running counts the calls holding a slot (under mu).
	running   int
	closeOnce sync.Once
	// kubeReleases is set (under mu) once the module has said it takes
	// kubeVersion (requireKubeVersion).
	kubeReleases bool
}

// Error is an error response from the module, or a failure of the host to
// reach it. Code is the ABI error code (BadRequest, DecodeError, NotFound,
// Invalid, Panic), or Trap for an instance that died (it has been replaced).
type Error wire.Error

func (e *Error) Error() string {
	if e.Code == wire.CodeTrap && strings.HasPrefix(e.Message, outOfMemory) {
		return "crdlab wasm: " + e.Message
	}
	return "crdlab wasm: " + string(e.Code) + ": " + e.Message
}

// Is makes a Timeout error (the request's deadline, from the caller's
// context, ended the module's work) match context.DeadlineExceeded.
func (e *Error) Is(target error) bool {
	return e.Code == wire.CodeTimeout && target == context.DeadlineExceeded
}

// New compiles the module and starts a first instance.
func New(ctx context.Context, opts Options) (*Runtime, error) {
	mod := opts.Module
	if len(mod) == 0 {
		path := opts.ModulePath
		if path == "" {
			path = os.Getenv("CRDLAB_WASM")
		}
		if path == "" {
			return nil, errors.New("crdlab wasm: no module given (set Options.Module, Options.ModulePath or $CRDLAB_WASM; `make wasm` builds build/crdlab.wasm)")
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("crdlab wasm: reading module: %w", err)
		}
		mod = b
	}
	limit := opts.MemoryLimitPages
	if limit == 0 {
		limit = DefaultMemoryLimitPages
	}
	cfg := wazero.NewRuntimeConfig().WithMemoryLimitPages(limit).WithMemoryCapacityFromMax(true).WithCloseOnContextDone(opts.Interrupt)
	var cache wazero.CompilationCache
	if opts.CacheDir != "" {
		c, err := wazero.NewCompilationCacheWithDir(opts.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("crdlab wasm: compilation cache: %w", err)
		}
		cache = c
		cfg = cfg.WithCompilationCache(c)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	fail := func(err error) (*Runtime, error) {
		rt.Close(context.Background())
		if cache != nil {
			cache.Close(context.Background())
		}
		return nil, err
	}
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		return fail(fmt.Errorf("crdlab wasm: WASI: %w", err))
	}
	// On a cache miss wazero compiles the functions on this many goroutines
	// (on a hit it still decodes and validates the whole module).
	compiled, err := rt.CompileModule(experimental.WithCompilationWorkers(ctx, runtime.GOMAXPROCS(0)), mod)
	if err != nil {
		return fail(fmt.Errorf("crdlab wasm: compiling module: %w", err))
	}
	size := opts.PoolSize
	if size <= 0 {
		size = 4
	}
	maxInst := opts.MaxInstances
	if maxInst <= 0 {
		maxInst = runtime.GOMAXPROCS(0)
	}
	if size > maxInst {
		size = maxInst
	}
	gogc := opts.GOGC
	if gogc <= 0 {
		gogc = DefaultGOGC
	}
	r := &Runtime{rt: rt, compiled: compiled, cache: cache, pool: make(chan *instance, size), sem: make(chan struct{}, maxInst), gogc: gogc, limitPages: limit, recycleSize: recyclePages * 65536, interrupt: opts.Interrupt}
	// Check the ABI once, on a first instance that then joins the pool.
	inst, err := r.newInstance(ctx)
	if err != nil {
		return fail(err)
	}
	v, err := inst.fn("crdlab_abi_version").Call(ctx)
	if err != nil || len(v) != 1 || v[0] != ABIVersion {
		inst.close(ctx)
		return fail(fmt.Errorf("crdlab wasm: module ABI version %v (%v), bindings speak %d", v, err, ABIVersion))
	}
	r.pool <- inst
	return r, nil
}

// Close closes the idle instances at once, and the wazero runtime and the
// cache handle once the calls in flight, abandoned ones included, have
// ended (closing a wazero runtime under a running call races with it);
// calls in flight complete, later calls fail. The error is the runtime's
// when it is closed at once, else nil.
func (r *Runtime) Close(ctx context.Context) error {
	r.mu.Lock()
	r.closed = true
	now := r.running == 0
	r.mu.Unlock()
	for {
		select {
		case inst := <-r.pool:
			inst.close(ctx)
			continue
		default:
		}
		break
	}
	if now {
		return r.closeRuntime(ctx)
	}
	return nil
}

// closeRuntime closes the wazero runtime and the cache handle, once.
func (r *Runtime) closeRuntime(ctx context.Context) error {
	var err error
	r.closeOnce.Do(func() {
		err = r.rt.Close(ctx)
		if r.cache != nil {
			r.cache.Close(ctx)
		}
	})
	return err
}

// release frees a call's MaxInstances slot; the last call to end after
// Close closes the runtime.
func (r *Runtime) release() {
	r.mu.Lock()
	r.running--
	last := r.closed && r.running == 0
	r.mu.Unlock()
	<-r.sem
	if last {
		_ = r.closeRuntime(context.Background())
	}
}

// Call sends one raw JSON request (guest/ABI.md) and returns the module's raw
// JSON response envelope {"ok":...}. It is the escape hatch for hosts that
// build requests themselves; the error is only about reaching the module.
func (r *Runtime) Call(ctx context.Context, request []byte) ([]byte, error) {
	var out []byte
	err := r.do(ctx, func(ctx context.Context, inst *instance) (bool, error) {
		raw, broken, err := inst.roundTrip(ctx, request)
		out = raw
		return broken, err
	})
	if err != nil {
		return nil, err // out may still be written by an abandoned call
	}
	return out, nil
}

type instance struct {
	mod     api.Module
	handles map[uint64]instHandle // CRD id → handle inside this instance
	fns     map[string]api.Function
	stderr  *tailBuffer
	memory  *linearMemory // nil: wazero's own allocation
	// limitPages is the instance's memory limit (Options.MemoryLimitPages).
	limitPages uint32
	// keepSize is the memory size after the last call that compiled a CRD
	// into the instance, 0 once it holds none: the instance goes back to
	// the pool up to that size (see recyclePages).
	keepSize uint32
}

type instHandle struct {
	crd    *CRD
	handle uint32
}

func (i *instance) fn(name string) api.Function {
	f, ok := i.fns[name]
	if !ok {
		f = i.mod.ExportedFunction(name)
		i.fns[name] = f
	}
	return f
}

// close closes the instance and unmaps its memory; only the instance's
// owner (the goroutine that took it from the pool or created it) calls it.
func (i *instance) close(ctx context.Context) {
	_ = i.mod.Close(ctx)
	if i.memory != nil {
		i.memory.release()
	}
}

func (r *Runtime) newInstance(ctx context.Context) (*instance, error) {
	stderr := &tailBuffer{}
	memLimit := uint64(r.limitPages) * 65536 * memoryLimitNum / memoryLimitDen
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").WithEnv("GOGC", strconv.Itoa(r.gogc)).
		WithEnv("GOMEMLIMIT", strconv.FormatUint(memLimit, 10)).WithStderr(stderr).WithSysWalltime().WithSysNanotime().WithRandSource(rand.Reader)
	var mem instanceMemory
	m, err := r.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, mem.allocator()), r.compiled, cfg)
	if err != nil {
		if mem.mem != nil {
			mem.mem.release()
		}
		return nil, fmt.Errorf("crdlab wasm: instantiating module: %w", err)
	}
	inst := &instance{mod: m, handles: map[uint64]instHandle{}, fns: map[string]api.Function{}, stderr: stderr, limitPages: r.limitPages}
	mem.attach(inst)
	for _, name := range []string{"crdlab_malloc", "crdlab_free", "crdlab_call", "crdlab_abi_version"} {
		if inst.fn(name) == nil {
			inst.close(ctx)
			return nil, fmt.Errorf("crdlab wasm: module does not export %s: not a crdlab module", name)
		}
	}
	return inst, nil
}

// do runs fn on an instance (pooled or new), waiting for a free slot when
// MaxInstances are busy, and replaces the instance if it broke. fn must use
// the context it is given, not the caller's: without Options.Interrupt, a
// call whose caller's context ends is abandoned (see Options.Interrupt) and
// runs on under a context that never ends.
func (r *Runtime) do(ctx context.Context, fn func(context.Context, *instance) (bool, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	r.mu.Lock()
	closed := r.closed
	if !closed {
		r.running++
	}
	r.mu.Unlock()
	if closed {
		<-r.sem
		return &Error{Code: wire.CodeInvalid, Message: "runtime is closed"}
	}
	if r.interrupt || ctx.Done() == nil {
		// wazero stops the call when ctx ends, or ctx never ends.
		inst, broken, err := r.run(ctx, fn)
		r.finish(inst, broken)
		r.release()
		return pastDeadline(ctx, err)
	}
	type outcome struct {
		inst   *instance
		broken bool
		err    error
	}
	done := make(chan outcome, 1)
	go func() {
		inst, broken, err := r.run(context.WithoutCancel(ctx), fn)
		done <- outcome{inst, broken, err}
	}()
	select {
	case o := <-done:
		r.finish(o.inst, o.broken)
		r.release()
		return pastDeadline(ctx, o.err)
	case <-ctx.Done():
	}
	select {
	case o := <-done: // finished meanwhile: the answer stands
		r.finish(o.inst, o.broken)
		r.release()
		return pastDeadline(ctx, o.err)
	default:
	}
	// Abandoned: the call ends in the background, then its instance is
	// closed (its state is whatever the call left) and its slot freed.
	r.abandoned.Add(1)
	go func() {
		o := <-done
		if o.inst != nil {
			o.inst.close(context.Background())
		}
		r.release()
		r.abandoned.Add(-1)
	}()
	return ctx.Err()
}

// pastDeadline is err, or ctx's error when ctx has a deadline that has
// passed: the module was given that deadline (the request's timeoutMs), so
// its answer may be cut short by it (a rule reported as interrupted), and
// the caller gets context.DeadlineExceeded as when the host notices first.
func pastDeadline(ctx context.Context, err error) error {
	if _, ok := ctx.Deadline(); ok && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// run takes a pooled instance or starts one, frees the handles of closed
// CRDs in it and runs fn there. broken reports that inst must be closed.
func (r *Runtime) run(ctx context.Context, fn func(context.Context, *instance) (bool, error)) (inst *instance, broken bool, err error) {
	select {
	case inst = <-r.pool:
	default:
		if inst, err = r.newInstance(ctx); err != nil {
			return nil, true, err
		}
	}
	if broken = inst.sweep(ctx); broken {
		return inst, true, nil
	}
	held := len(inst.handles)
	broken, err = fn(ctx, inst)
	if !broken && len(inst.handles) > held {
		inst.keepSize = inst.mod.Memory().Size()
	}
	return inst, broken, err
}

// finish puts inst back in the pool, or closes it when it broke, grew too
// big or the runtime is closed.
func (r *Runtime) finish(inst *instance, broken bool) {
	if inst == nil {
		return
	}
	if len(inst.handles) == 0 {
		inst.keepSize = 0
	}
	if size := inst.mod.Memory().Size(); broken || (size > r.recycleSize && size > inst.keepSize) {
		inst.close(context.Background())
		return
	}
	// Back to the pool under mu, so that Close, which sets closed under mu
	// and then drains the pool, either sees it there or makes us close it.
	r.mu.Lock()
	pooled := false
	if !r.closed {
		select {
		case r.pool <- inst:
			pooled = true
		default:
		}
	}
	r.mu.Unlock()
	if !pooled {
		inst.close(context.Background())
	}
}

// sweep frees, inside this instance, the handles of CRDs closed since.
func (i *instance) sweep(ctx context.Context) (broken bool) {
	for id, h := range i.handles {
		if !h.crd.closed.Load() {
			continue
		}
		delete(i.handles, id)
		req, _ := json.Marshal(wire.FreeRequest{Op: wire.OpFree, Handle: h.handle})
		if _, broken, _ := i.roundTrip(ctx, req); broken {
			return true
		}
	}
	return false
}

// roundTrip moves one request into the instance and its response out.
// broken reports that the instance must be discarded.
func (i *instance) roundTrip(ctx context.Context, body []byte) (resp []byte, broken bool, err error) {
	res, err := i.fn("crdlab_malloc").Call(ctx, uint64(len(body)))
	if err != nil {
		return nil, true, i.trap(ctx, err)
	}
	ptr := uint32(res[0])
	if !i.mod.Memory().Write(ptr, body) {
		return nil, true, &Error{Code: wire.CodeTrap, Message: "request does not fit the module's memory"}
	}
	res, err = i.fn("crdlab_call").Call(ctx, uint64(ptr), uint64(len(body)))
	if err != nil {
		return nil, true, i.trap(ctx, err)
	}
	if _, err := i.fn("crdlab_free").Call(ctx, uint64(ptr)); err != nil {
		return nil, true, i.trap(ctx, err)
	}
	rp, rl := uint32(res[0]>>32), uint32(res[0])
	raw, ok := i.mod.Memory().Read(rp, rl)
	if !ok {
		return nil, true, &Error{Code: wire.CodeTrap, Message: "response out of the module's memory"}
	}
	resp = append([]byte(nil), raw...)
	if _, err := i.fn("crdlab_free").Call(ctx, uint64(rp)); err != nil {
		return nil, true, i.trap(ctx, err)
	}
	return resp, false, nil
}

// trap turns a failed call into the caller's error: the context's error
// when it ended, else a Trap with the module's last stderr lines. When the
// Go runtime inside reported that it ran out of memory, the message says so
// first, with the instance's limit and the runtime's own lines, e.g.
//
//	crdlab wasm: the module ran out of memory (instance limit 64 MiB, Options.MemoryLimitPages): runtime: out of memory: cannot allocate 41943040-byte block (…); fatal error: out of memory; module stderr: …
//
// (Code is still Trap; the instance is discarded like any trapped one).
func (i *instance) trap(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	tail := strings.TrimSpace(i.stderr.String())
	if fatal := i.stderr.fatalLines(); strings.Contains(fatal, "out of memory") {
		msg := fmt.Sprintf("%s (instance limit %s, Options.MemoryLimitPages): %s", outOfMemory, pagesSize(i.limitPages), strings.ReplaceAll(fatal, "\n", "; "))
		if tail != "" {
			msg += "; module stderr: " + tail
		}
		return &Error{Code: wire.CodeTrap, Message: msg}
	}
	msg := err.Error()
	if tail != "" {
		msg += "; module stderr: " + tail
	}
	return &Error{Code: wire.CodeTrap, Message: msg}
}

// pagesSize renders a number of 64 KiB pages as GiB, MiB or KiB.
func pagesSize(pages uint32) string {
	b := uint64(pages) * 65536
	switch {
	case b%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", b>>30)
	case b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	}
	return fmt.Sprintf("%d KiB", b>>10)
}

// call sends one request to an instance and decodes the response's result
// into out (a *json.RawMessage keeps the result bytes untouched).
func (i *instance) call(ctx context.Context, req interface{}, out interface{}) (broken bool, err error) {
	body, err := json.Marshal(req)
	if err != nil {
		return false, err
	}
	raw, broken, err := i.roundTrip(ctx, body)
	if err != nil {
		return broken, err
	}
	var env wire.Response
	if err := json.Unmarshal(raw, &env); err != nil {
		return true, &Error{Code: wire.CodeTrap, Message: "malformed response: " + err.Error()}
	}
	if !env.OK {
		if env.Error == nil {
			return false, &Error{Code: wire.CodePanic, Message: "error response without error"}
		}
		return false, (*Error)(env.Error)
	}
	if out != nil {
		if err := json.Unmarshal(env.Result, out); err != nil {
			return false, fmt.Errorf("crdlab wasm: decoding result: %w", err)
		}
	}
	return false, nil
}

// tailBuffer keeps the last stderrTail bytes written to it, and the Go
// runtime's first "fatal error: " line with the "runtime: " line before it
// (e.g. "runtime: out of memory: cannot allocate ..."): the goroutine
// traces printed after them can push them out of the tail.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	fatal string
}

// fatalMarker starts the line the Go runtime prints when it dies (throw).
const fatalMarker = "fatal error: "

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if t.fatal == "" {
		t.fatal = fatalLines(t.buf)
	}
	if len(t.buf) > stderrTail {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-stderrTail:]...)
	}
	return len(p), nil
}

// fatalLines is the complete "fatal error: " line of b, with the line
// before it when that one is the runtime's ("runtime: ..."); "" if b has
// none yet. Each line is clipped to 256 bytes.
func fatalLines(b []byte) string {
	s := string(b)
	at := strings.Index(s, fatalMarker)
	if at < 0 || (at > 0 && s[at-1] != '\n') {
		return ""
	}
	end := strings.IndexByte(s[at:], '\n')
	if end < 0 {
		return "" // not complete yet
	}
	line := clipLine(s[at : at+end])
	if at > 0 {
		prevStart := strings.LastIndexByte(s[:at-1], '\n') + 1
		if prev := s[prevStart : at-1]; strings.HasPrefix(prev, "runtime: ") {
			return clipLine(prev) + "\n" + line
		}
	}
	return line
}

func clipLine(s string) string {
	if len(s) > 256 {
		return s[:256] + "…"
	}
	return s
}

// fatalLines returns the runtime's fatal error lines written so far.
func (t *tailBuffer) fatalLines() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fatal
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

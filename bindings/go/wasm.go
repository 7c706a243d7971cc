// Package wasm runs crdlab's WebAssembly module (the GOOS=wasip1 reactor
// built by `make wasm`) inside wazero, so that a Go program can validate
// custom resources through exactly the module that browsers and other WASI
// hosts run. It compiles the module once (optionally with an on-disk
// compilation cache), keeps a pool of instances, is safe for concurrent use,
// honours context cancellation and a memory limit, and replaces an instance
// that trapped or was cancelled.
//
// The request and response shapes are those of wasm/ABI.md; results decode
// into the same types as the native engine's JSON reports.
package wasm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// ABIVersion is the module ABI version these bindings speak.
const ABIVersion = 1

// DefaultMemoryLimitPages caps each instance at 1 GiB (16,384 pages of 64 KiB).
const DefaultMemoryLimitPages = 16384

// Options configure a Runtime.
type Options struct {
	// Module holds the module bytes; if empty, ModulePath is read.
	Module []byte
	// ModulePath is the path of crdlab.wasm (default: $CRDLAB_WASM).
	ModulePath string
	// CacheDir, if set, keeps wazero's compiled code on disk so that later
	// processes start warm.
	CacheDir string
	// MemoryLimitPages caps each instance's linear memory (64 KiB pages).
	MemoryLimitPages uint32
	// PoolSize is the most idle instances kept (default 4).
	PoolSize int
}

// Runtime is a compiled crdlab module with a pool of instances.
type Runtime struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cache    wazero.CompilationCache
	pool     chan *instance
	mu       sync.Mutex
	nextID   uint64
}

// Error is an error response from the module (or a failure of the host to
// reach it). Code is the ABI error code: BadRequest, DecodeError, NotFound,
// Invalid, Panic, or Trap for an instance that died.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return "crdlab wasm: " + e.Code + ": " + e.Message }

// New compiles the module and prepares the pool.
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
	cfg := wazero.NewRuntimeConfig().WithMemoryLimitPages(limit).WithCloseOnContextDone(true)
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
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("crdlab wasm: WASI: %w", err)
	}
	compiled, err := rt.CompileModule(ctx, mod)
	if err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("crdlab wasm: compiling module: %w", err)
	}
	size := opts.PoolSize
	if size <= 0 {
		size = 4
	}
	r := &Runtime{rt: rt, compiled: compiled, cache: cache, pool: make(chan *instance, size)}
	// Check the ABI once, on a first instance that then joins the pool.
	inst, err := r.newInstance(ctx)
	if err != nil {
		r.Close(ctx)
		return nil, err
	}
	v, err := inst.fn("crdlab_abi_version").Call(ctx)
	if err != nil || len(v) != 1 || v[0] != ABIVersion {
		inst.close(ctx)
		r.Close(ctx)
		return nil, fmt.Errorf("crdlab wasm: module ABI version %v, bindings speak %d", v, ABIVersion)
	}
	r.put(ctx, inst)
	return r, nil
}

// Close releases the runtime, its instances and the cache handle.
func (r *Runtime) Close(ctx context.Context) error {
	for {
		select {
		case inst := <-r.pool:
			inst.close(ctx)
			continue
		default:
		}
		break
	}
	err := r.rt.Close(ctx)
	if r.cache != nil {
		r.cache.Close(ctx)
	}
	return err
}

type instance struct {
	mod     api.Module
	handles map[uint64]uint32 // CRD id → handle inside this instance
	fns     map[string]api.Function
}

func (i *instance) fn(name string) api.Function {
	f, ok := i.fns[name]
	if !ok {
		f = i.mod.ExportedFunction(name)
		i.fns[name] = f
	}
	return f
}

func (i *instance) close(ctx context.Context) { _ = i.mod.Close(ctx) }

func (r *Runtime) newInstance(ctx context.Context) (*instance, error) {
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize")
	m, err := r.rt.InstantiateModule(ctx, r.compiled, cfg)
	if err != nil {
		return nil, fmt.Errorf("crdlab wasm: instantiating module: %w", err)
	}
	return &instance{mod: m, handles: map[uint64]uint32{}, fns: map[string]api.Function{}}, nil
}

func (r *Runtime) get(ctx context.Context) (*instance, error) {
	select {
	case inst := <-r.pool:
		return inst, nil
	default:
		return r.newInstance(ctx)
	}
}

func (r *Runtime) put(ctx context.Context, inst *instance) {
	select {
	case r.pool <- inst:
	default:
		inst.close(ctx)
	}
}

// call sends one request to an instance and decodes the response's result
// into out. A trap or cancellation discards the instance.
func (r *Runtime) call(ctx context.Context, inst *instance, req interface{}, out interface{}) (broken bool, err error) {
	body, err := json.Marshal(req)
	if err != nil {
		return false, err
	}
	res, err := inst.fn("crdlab_malloc").Call(ctx, uint64(len(body)))
	if err != nil {
		return true, &Error{Code: "Trap", Message: err.Error()}
	}
	ptr := uint32(res[0])
	if !inst.mod.Memory().Write(ptr, body) {
		return true, &Error{Code: "Trap", Message: "request does not fit the module's memory"}
	}
	res, err = inst.fn("crdlab_call").Call(ctx, uint64(ptr), uint64(len(body)))
	_, _ = inst.fn("crdlab_free").Call(ctx, uint64(ptr))
	if err != nil {
		if ctx.Err() != nil {
			return true, ctx.Err()
		}
		return true, &Error{Code: "Trap", Message: err.Error()}
	}
	rp, rl := uint32(res[0]>>32), uint32(res[0])
	raw, ok := inst.mod.Memory().Read(rp, rl)
	if !ok {
		return true, &Error{Code: "Trap", Message: "response out of the module's memory"}
	}
	var env struct {
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
		Error  *Error          `json:"error"`
	}
	err = json.Unmarshal(raw, &env)
	_, _ = inst.fn("crdlab_free").Call(ctx, uint64(rp))
	if err != nil {
		return true, &Error{Code: "Trap", Message: "malformed response: " + err.Error()}
	}
	if !env.OK {
		if env.Error == nil {
			env.Error = &Error{Code: "Panic", Message: "error response without error"}
		}
		return false, env.Error
	}
	if out != nil {
		if err := json.Unmarshal(env.Result, out); err != nil {
			return false, fmt.Errorf("crdlab wasm: decoding result: %w", err)
		}
	}
	return false, nil
}

// do runs fn on a pooled instance, replacing the instance if it broke.
func (r *Runtime) do(ctx context.Context, fn func(*instance) (bool, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	inst, err := r.get(ctx)
	if err != nil {
		return err
	}
	broken, err := fn(inst)
	if broken {
		inst.close(context.Background())
	} else {
		r.put(ctx, inst)
	}
	return err
}

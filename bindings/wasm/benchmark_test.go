package wasm

// Native engine vs the same engine in wazero, side by side (benchmarks/README.md):
//
//	go test ./bindings/wasm -run '^$' -bench . -benchmem
//
// BenchmarkNativeValidate<Set> and BenchmarkWasmValidate<Set> validate the
// same objects against the same compiled CRD; the Wasm variants include the
// JSON round trip through the ABI, as every host pays it.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
	"sigs.k8s.io/yaml"
)

// benchSet is a CRD and objects of its kind.
type benchSet struct {
	crd     []byte
	objects [][]byte
}

// loadBenchSet returns the named set: CronTab (examples/), HTTPRoute
// (Gateway API's standard CRD and its examples/standard objects) or
// Prometheus (prometheus-operator's CRD and its example objects).
func loadBenchSet(b testing.TB, name string) benchSet {
	switch name {
	case "CronTab":
		dir := filepath.Join(repoRoot, "examples")
		return benchSet{crd: readFile(b, filepath.Join(dir, "crontab-crd.yaml")),
			objects: [][]byte{readFile(b, filepath.Join(dir, "valid.yaml")), readFile(b, filepath.Join(dir, "invalid.yaml")), readFile(b, filepath.Join(dir, "defaults.yaml"))}}
	case "HTTPRoute":
		dir := corpusModule(b, "sigs.k8s.io/gateway-api@")
		return benchSet{crd: readFile(b, filepath.Join(dir, "config/crd/standard/gateway.networking.k8s.io_httproutes.yaml")),
			objects: objectsOfKind(b, filepath.Join(dir, "examples/standard"), "HTTPRoute")}
	case "Prometheus":
		dir := corpusModule(b, "prometheus-operator/prometheus-operator@")
		return benchSet{crd: readFile(b, filepath.Join(dir, "example/prometheus-operator-crd/monitoring.coreos.com_prometheuses.yaml")),
			objects: objectsOfKind(b, filepath.Join(dir, "example"), "Prometheus")}
	}
	b.Fatalf("unknown bench set %q", name)
	return benchSet{}
}

func corpusModule(b testing.TB, contains string) string {
	for _, d := range corpusDirs(b) {
		if strings.Contains(d, contains) {
			return d
		}
	}
	b.Skipf("corpus module %s not fetched", contains)
	return ""
}

// objectsOfKind returns every YAML document of that kind under dir.
func objectsOfKind(b testing.TB, dir, kind string) [][]byte {
	var out [][]byte
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return nil
		}
		data, _ := os.ReadFile(p)
		for _, doc := range documents(data) {
			var head struct {
				Kind string `json:"kind"`
			}
			if yaml.Unmarshal(doc, &head) == nil && head.Kind == kind {
				out = append(out, doc)
			}
		}
		return nil
	})
	if len(out) == 0 {
		b.Fatalf("no %s objects under %s", kind, dir)
	}
	return out
}

func benchNative(b *testing.B, set string) {
	s := loadBenchSet(b, set)
	c, err := engine.Compile(s.crd)
	if err != nil || len(c.Errors()) > 0 {
		b.Fatalf("compile: %v %v", err, c.Errors())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Validate(s.objects[i%len(s.objects)], engine.ValidateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchWasm(b *testing.B, set string, opts Options) {
	s := loadBenchSet(b, set)
	opts.MaxInstances = 1
	r := newRuntime(b, opts)
	ctx := context.Background()
	c, err := r.Compile(ctx, s.crd)
	if err != nil || len(c.Errors()) > 0 {
		b.Fatalf("compile: %v %v", err, c.Errors())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.ValidateRaw(ctx, s.objects[i%len(s.objects)], ValidateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWasmValidate<Set> run the default Runtime (a cancelled call is
// abandoned); BenchmarkWasmInterruptValidate<Set> run Options.Interrupt
// (wazero checks the context inside every call).
func BenchmarkNativeValidateCronTab(b *testing.B)    { benchNative(b, "CronTab") }
func BenchmarkWasmValidateCronTab(b *testing.B)      { benchWasm(b, "CronTab", Options{}) }
func BenchmarkNativeValidateHTTPRoute(b *testing.B)  { benchNative(b, "HTTPRoute") }
func BenchmarkWasmValidateHTTPRoute(b *testing.B)    { benchWasm(b, "HTTPRoute", Options{}) }
func BenchmarkNativeValidatePrometheus(b *testing.B) { benchNative(b, "Prometheus") }
func BenchmarkWasmValidatePrometheus(b *testing.B)   { benchWasm(b, "Prometheus", Options{}) }

func BenchmarkWasmInterruptValidateCronTab(b *testing.B) {
	benchWasm(b, "CronTab", Options{Interrupt: true})
}
func BenchmarkWasmInterruptValidateHTTPRoute(b *testing.B) {
	benchWasm(b, "HTTPRoute", Options{Interrupt: true})
}
func BenchmarkWasmInterruptValidatePrometheus(b *testing.B) {
	benchWasm(b, "Prometheus", Options{Interrupt: true})
}

func BenchmarkNativeCompileCRDPrometheus(b *testing.B) {
	s := loadBenchSet(b, "Prometheus")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := engine.Compile(s.crd); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWasmCompileCRDPrometheus(b *testing.B) {
	s := loadBenchSet(b, "Prometheus")
	r := newRuntime(b, Options{MaxInstances: 1})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := r.Compile(ctx, s.crd)
		if err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}

// BenchmarkWasmStartCold: a process's first New without a compilation
// cache (wazero compiles the whole module to machine code).
func BenchmarkWasmStartCold(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r, err := New(context.Background(), Options{Module: moduleBytes})
		if err != nil {
			b.Fatal(err)
		}
		r.Close(context.Background())
	}
}

// BenchmarkWasmStartCached: New with a warm on-disk compilation cache: what
// a later process pays before its first call (compile from cache, one
// instance started, ABI checked).
func BenchmarkWasmStartCached(b *testing.B) {
	dir := b.TempDir()
	r, err := New(context.Background(), Options{Module: moduleBytes, CacheDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	r.Close(context.Background())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := New(context.Background(), Options{Module: moduleBytes, CacheDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		r.Close(context.Background())
	}
}

// BenchmarkWasmInstantiate: one more instance of an already compiled
// module (the pool growing): instantiation and the Go runtime's start.
func BenchmarkWasmInstantiate(b *testing.B) {
	r := newRuntime(b, Options{})
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		inst, err := r.newInstance(ctx)
		if err != nil {
			b.Fatal(err)
		}
		inst.close(ctx)
	}
}

// childEnv makes the test binary a child process of
// BenchmarkWasmProcessStart (see startChild).
const childEnv = "CRDLAB_BENCH_START_CHILD"

// startChild is a fresh host process's warm start: New over $CRDLAB_WASM
// with the compilation cache in $CRDLAB_BENCH_START_CHILD, then the first
// call (compile the CronTab CRD, validate examples/valid.yaml). It prints
// the two durations in nanoseconds.
func startChild() int {
	start := time.Now()
	ctx := context.Background()
	r, err := New(ctx, Options{CacheDir: os.Getenv(childEnv)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	started := time.Now()
	crd, err := os.ReadFile(filepath.Join("..", "..", "examples", "crontab-crd.yaml"))
	if err == nil {
		var obj []byte
		if obj, err = os.ReadFile(filepath.Join("..", "..", "examples", "valid.yaml")); err == nil {
			var c *CRD
			if c, err = r.Compile(ctx, crd); err == nil {
				var rep *wire.Report
				if rep, err = c.Validate(ctx, obj, ValidateOptions{}); err == nil && (rep.Object == nil || !rep.Object.Valid()) {
					err = fmt.Errorf("valid.yaml is invalid: %+v", rep)
				}
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(started.Sub(start).Nanoseconds(), time.Since(started).Nanoseconds())
	return 0
}

// BenchmarkWasmProcessStart: what a new host process pays, measured from
// outside (exec to exit) with a warm on-disk compilation cache: process
// start, New (module read, CompileModule from the cache, first instance,
// ABI check) and the first call (compile CronTab, validate one object).
// Metrics: new-ms and first-call-ms as measured inside the process.
func BenchmarkWasmProcessStart(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	run := func() (newNs, callNs float64) {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), childEnv+"="+dir, "CRDLAB_WASM="+modulePath)
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("child: %v: %s", err, out)
		}
		if _, err := fmt.Sscan(string(out), &newNs, &callNs); err != nil {
			b.Fatalf("child output %q: %v", out, err)
		}
		return newNs, callNs
	}
	run() // fills the cache
	b.ResetTimer()
	var sumNew, sumCall float64
	for i := 0; i < b.N; i++ {
		n, c := run()
		sumNew += n
		sumCall += c
	}
	b.ReportMetric(sumNew/float64(b.N)/1e6, "new-ms/op")
	b.ReportMetric(sumCall/float64(b.N)/1e6, "first-call-ms/op")
}

// BenchmarkNativeValidateProcess: exec of the native CLI validating
// examples/valid.yaml against the CronTab CRD: the native counterpart of
// BenchmarkWasmProcessStart.
func BenchmarkNativeValidateProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "crdlab")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/crdlab")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		b.Skipf("cannot build cmd/crdlab: %v\n%s", err, out)
	}
	ex := filepath.Join(repoRoot, "examples")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if out, err := exec.Command(bin, "validate", "--crd", filepath.Join(ex, "crontab-crd.yaml"), filepath.Join(ex, "valid.yaml")).CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}

// BenchmarkNativeProcessStart: exec of the native CLI (`crdlab version`),
// the baseline for the wasm start-up times.
func BenchmarkNativeProcessStart(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "crdlab")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/crdlab")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		b.Skipf("cannot build cmd/crdlab: %v\n%s", err, out)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if out, err := exec.Command(bin, "version").CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}

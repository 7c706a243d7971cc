package wasm

// Native engine vs the same engine in wazero, side by side (benchmarks/README.md):
//
//	go test ./bindings/go -run '^$' -bench . -benchmem
//
// BenchmarkNativeValidate<Set> and BenchmarkWasmValidate<Set> validate the
// same objects against the same compiled CRD; the Wasm variants include the
// JSON round trip through the ABI, as every host pays it.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
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

func benchWasm(b *testing.B, set string) {
	s := loadBenchSet(b, set)
	r := newRuntime(b, Options{MaxInstances: 1})
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

// BenchmarkWasmNoInterruptValidatePrometheus: Options.NoInterrupt.
func BenchmarkWasmNoInterruptValidatePrometheus(b *testing.B) {
	s := loadBenchSet(b, "Prometheus")
	r := newRuntime(b, Options{MaxInstances: 1, NoInterrupt: true})
	ctx := context.Background()
	c, err := r.Compile(ctx, s.crd)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.ValidateRaw(ctx, s.objects[i%len(s.objects)], ValidateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNativeValidateCronTab(b *testing.B)    { benchNative(b, "CronTab") }
func BenchmarkWasmValidateCronTab(b *testing.B)      { benchWasm(b, "CronTab") }
func BenchmarkNativeValidateHTTPRoute(b *testing.B)  { benchNative(b, "HTTPRoute") }
func BenchmarkWasmValidateHTTPRoute(b *testing.B)    { benchWasm(b, "HTTPRoute") }
func BenchmarkNativeValidatePrometheus(b *testing.B) { benchNative(b, "Prometheus") }
func BenchmarkWasmValidatePrometheus(b *testing.B)   { benchWasm(b, "Prometheus") }

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

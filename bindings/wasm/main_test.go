package wasm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// modulePath is the module under test: $CRDLAB_WASM, or one TestMain
// builds (GOOS=wasip1) and caches under the user cache directory, keyed by a
// hash of the sources, so that `go test ./...` works from a clean checkout.
var modulePath string

// moduleBytes are modulePath's contents.
var moduleBytes []byte

// repoRoot is the main module's directory.
var repoRoot string

// testCacheDir keeps wazero's compiled code between test runs.
var testCacheDir string

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(startChild())
	}
	if err := setup(); err != nil {
		fmt.Fprintln(os.Stderr, "bindings/wasm tests:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

func setup() error {
	root, err := findRoot()
	if err != nil {
		return err
	}
	repoRoot = root
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	testCacheDir = filepath.Join(base, "crdlab", "wazero")
	modulePath = os.Getenv("CRDLAB_WASM")
	if modulePath == "" {
		if modulePath, err = buildModule(root, filepath.Join(base, "crdlab")); err != nil {
			return err
		}
	}
	moduleBytes, err = os.ReadFile(modulePath)
	if err != nil {
		return err
	}
	// The examples read the module from $CRDLAB_WASM, as a program would.
	return os.Setenv("CRDLAB_WASM", modulePath)
}

// findRoot walks up from the working directory to the main module's go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(b, []byte("module github.com/crdlab/crdlab\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("go.mod of github.com/crdlab/crdlab not found above the working directory")
		}
		dir = parent
	}
}

// buildModule builds guest/wasip1 as `make wasm` does, unless a module built
// from the same sources is already in cacheDir. The sources are what the
// build reads: every file of every package of this module that
// `go list -deps` finds linked into the module for GOOS=wasip1 (Go and
// embedded files), go.mod and go.sum — so an edit anywhere in the module's
// dependencies is a new cache entry.
func buildModule(root, cacheDir string) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version())
	files, err := moduleSources(root)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(root, f)
		fmt.Fprintf(h, "%s %d\n", rel, len(b))
		h.Write(b)
	}
	out := filepath.Join(cacheDir, "crdlab-"+hex.EncodeToString(h.Sum(nil))[:16]+".wasm")
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", err
	}
	tmp := out + fmt.Sprintf(".%d.tmp", os.Getpid())
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-buildmode=c-shared", "-o", tmp, "./guest/wasip1")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("building the module: %v\n%s", err, b)
	}
	return out, os.Rename(tmp, out)
}

// newRuntime returns a runtime over the module under test, closed with t.
func newRuntime(t testing.TB, opts Options) *Runtime {
	t.Helper()
	if opts.Module == nil && opts.ModulePath == "" {
		opts.Module = moduleBytes
	}
	if opts.CacheDir == "" {
		opts.CacheDir = testCacheDir
	}
	r, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(context.Background()) })
	return r
}

// moduleSources lists, sorted, the files of this module that the wasm
// module's build reads: `go list -deps` of ./guest/wasip1 for wasip1/wasm,
// the main module's packages' Go and embedded files, and go.mod and go.sum.
func moduleSources(root string) ([]string, error) {
	cmd := exec.Command("go", "list", "-deps", "-f",
		`{{if and .Module .Module.Main}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}`, "./guest/wasip1")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps ./guest/wasip1: %v\n%s", err, stderr.Bytes())
	}
	files := strings.Fields(string(out))
	files = append(files, filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum"))
	sort.Strings(files)
	return files, nil
}

// TestModuleSourcesCoverEveryLinkedPackage pins the cache key of the module
// TestMain builds: it covers the packages the issue found missing from the
// hand-written lists (conversion, wire, internal/...), so an edit there
// builds a new module.
func TestModuleSourcesCoverEveryLinkedPackage(t *testing.T) {
	files, err := moduleSources(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]bool{}
	for _, f := range files {
		rel, _ := filepath.Rel(repoRoot, filepath.Dir(f))
		dirs[filepath.ToSlash(rel)] = true
	}
	for _, want := range []string{".", "engine", "wire", "conversion", "upgrade", "crdtest", "cost", "jsonschema", "internal/cel", "guest/wasip1"} {
		if !dirs[want] {
			t.Errorf("the module's sources leave out %s/ (have %v)", want, dirs)
		}
	}
	if dirs["cmd/crdlab"] || dirs["bindings/wasm"] {
		t.Errorf("the module's sources include packages it does not link: %v", dirs)
	}
}

package wasm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
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

// buildModule builds wasm/wasip1 as `make wasm` does, unless a module built
// from the same sources is already in cacheDir.
func buildModule(root, cacheDir string) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version())
	var files []string
	for _, dir := range []string{"engine", "wasm"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	files = append(files, filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum"))
	sort.Strings(files)
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
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-buildmode=c-shared", "-o", tmp, "./wasm/wasip1")
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

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crdlab/crdlab/bindings/wasm"
	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/internal/cli/inputs"
)

// wasmTest is `crdlab test --runtime wasm`: the suites and CRDs under the
// given paths are read into memory (the module has no file system) and run
// by the module's "test" op; its report is the one RunPaths returns. The
// paths must lie below the current directory, since the module's file
// names are relative ones (OpenShift's layout is found from them as on
// disk). kubeVersion, when set, overrides the suites' releases;
// defaultKubeVersion is the release of the suites that name none.
func wasmTest(module string, crds []string, runRE, kubeVersion, defaultKubeVersion string, paths []string) (*crdtest.Report, error) {
	files := map[string][]byte{}
	for _, p := range append(append([]string(nil), paths...), crds...) {
		if err := readTree(p, files); err != nil {
			return nil, err
		}
	}
	rt, err := startWasm(module)
	if err != nil {
		return nil, err
	}
	out, err := rt.Test(context.Background(), files, wasm.TestOptions{Paths: slashed(paths), CRDs: slashed(crds), Run: runRE, KubeVersion: kubeVersion, DefaultKubeVersion: defaultKubeVersion})
	if err != nil {
		return nil, errors.New(wasmMessage(err))
	}
	rep := &crdtest.Report{Duration: time.Duration(out.Seconds * float64(time.Second)), LoadErrors: []crdtest.LoadError{}}
	for _, le := range out.LoadErrors {
		rep.LoadErrors = append(rep.LoadErrors, crdtest.LoadError{File: le.File, Err: le.Error})
	}
	for _, r := range out.Results {
		rep.Results = append(rep.Results, crdtest.CaseResult{Name: r.Name, File: r.File, Line: r.Line, Passed: r.Passed, Message: r.Message, Duration: time.Duration(r.Seconds * float64(time.Second)), Admission: r.Admission})
	}
	return rep, nil
}

// readTree adds a file, or the YAML and JSON files of a directory tree
// (hidden directories skipped), to files under their slash-separated
// relative names.
func readTree(root string, files map[string][]byte) error {
	if !filepath.IsLocal(filepath.Clean(root)) && filepath.Clean(root) != "." {
		return fmt.Errorf("%s: --runtime wasm reads suites and CRDs below the current directory only (run crdlab test from a directory above it)", root)
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if p != root && !isManifest(p) {
			return nil
		}
		name := filepath.ToSlash(filepath.Clean(p))
		if _, ok := files[name]; ok {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[name] = data
		return nil
	})
}

func isManifest(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	for _, e := range inputs.Extensions {
		if ext == e {
			return true
		}
	}
	return false
}

func slashed(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.ToSlash(filepath.Clean(p))
	}
	return out
}

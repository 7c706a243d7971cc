package crdtest

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing/fstest"
)

// fileSystem is what the runner reads suites, CRDs and feature-gate
// manifests from: the operating system's files (RunPaths) or files held in
// memory (RunFiles, the WebAssembly module's "test" op).
type fileSystem interface {
	ReadFile(name string) ([]byte, error)
	Stat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	WalkDir(root string, fn fs.WalkDirFunc) error
	// Abs makes a directory absolute, for walking up to the root.
	Abs(name string) (string, error)
}

// osFS is the operating system's files.
type osFS struct{}

func (osFS) ReadFile(name string) ([]byte, error)       { return os.ReadFile(name) }
func (osFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (osFS) WalkDir(root string, fn fs.WalkDirFunc) error {
	return filepath.WalkDir(root, fn)
}
func (osFS) Abs(name string) (string, error) { return filepath.Abs(name) }

// memFS is files in memory, by slash-separated relative path (directories
// are implied by the paths). Paths given to it are cleaned first, so that
// "./a/../b.yaml" names "b.yaml"; a path leaving the root names nothing.
type memFS struct{ m fstest.MapFS }

func newMemFS(files map[string][]byte) (memFS, error) {
	m := fstest.MapFS{}
	for name, data := range files {
		clean := memPath(name)
		if !fs.ValidPath(clean) || clean == "." {
			return memFS{}, fmt.Errorf("file name %q: want a relative slash-separated path inside the suite's tree (no \"..\", no leading \"/\")", name)
		}
		if _, dup := m[clean]; dup {
			return memFS{}, fmt.Errorf("file name %q: given twice", name)
		}
		m[clean] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	for name := range m {
		// A file cannot also be a directory of another file.
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if _, ok := m[d]; ok {
				return memFS{}, fmt.Errorf("file name %q: %q is also a file", name, d)
			}
		}
	}
	return memFS{m}, nil
}

func memPath(name string) string {
	return path.Clean(strings.ReplaceAll(name, "\\", "/"))
}

func (f memFS) open(name string) (string, error) {
	clean := memPath(name)
	if !fs.ValidPath(clean) {
		return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return clean, nil
}

func (f memFS) ReadFile(name string) ([]byte, error) {
	clean, err := f.open(name)
	if err != nil {
		return nil, err
	}
	data, err := f.m.ReadFile(clean)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: unwrapPath(err)}
	}
	return data, nil
}

func (f memFS) Stat(name string) (fs.FileInfo, error) {
	clean, err := f.open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.m.Stat(clean)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: unwrapPath(err)}
	}
	return st, nil
}

func (f memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	clean, err := f.open(name)
	if err != nil {
		return nil, err
	}
	return f.m.ReadDir(clean)
}

// WalkDir walks root, giving paths spelled from root as given (as
// filepath.WalkDir does).
func (f memFS) WalkDir(root string, fn fs.WalkDirFunc) error {
	clean, err := f.open(root)
	if err != nil {
		return fn(root, nil, err)
	}
	return fs.WalkDir(f.m, clean, func(p string, d fs.DirEntry, err error) error {
		if p == clean {
			p = root
		} else if clean != "." {
			p = filepath.Join(root, strings.TrimPrefix(p, clean+"/"))
		} else {
			p = filepath.Join(root, p)
		}
		return fn(p, d, err)
	})
}

// Abs is the cleaned path: the tree's root is "." (walking up ends there).
func (f memFS) Abs(name string) (string, error) { return memPath(name), nil }

func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// RunFiles is RunPaths over files held in memory instead of the operating
// system's (the WebAssembly module's "test" op and the playground use it):
// files maps slash-separated relative paths ("tests/widgets.testsuite.yaml",
// "crds/widgets.yaml") to their contents, and opts.CRDs and paths name
// entries or directories of that tree ("." is all of it). Suites find their
// CRDs exactly as on disk: crd: relative to the suite, crdName: in
// OpenShift's layout or among opts.CRDs.
func RunFiles(files map[string][]byte, opts Options, paths ...string) (*Report, error) {
	m, err := newMemFS(files)
	if err != nil {
		return nil, err
	}
	return runFS(m, opts, paths)
}

package lsp

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/yamldoc"
)

// Bounds of the workspace scan.
const (
	maxScanFiles    = 20000
	maxScanFileSize = 3 << 20 // the API server's request body limit
)

// crdIndex holds the CRDs of the workspace folders and of the configured
// paths, by group and kind. It is built lazily: on the first lookup (the
// first custom resource checked), not at start.
type crdIndex struct {
	mu    sync.Mutex
	roots []string // scanned recursively, skipping hidden directories
	extra []string // files or directories
	built bool
	crds  map[crdKey]*engine.CRD
}

func newCRDIndex() *crdIndex { return &crdIndex{} }

func (x *crdIndex) configure(roots, extra []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.roots, x.extra = roots, extra
	x.built, x.crds = false, nil
}

func (x *crdIndex) lookup(k crdKey) *engine.CRD {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.built {
		x.build()
	}
	return x.crds[k]
}

func (x *crdIndex) build() {
	x.built = true
	x.crds = map[crdKey]*engine.CRD{}
	files := 0
	visit := func(path string) {
		if files >= maxScanFiles {
			return
		}
		files++
		x.addFile(path)
	}
	walk := func(root string, skipHidden bool) {
		_ = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			name := e.Name()
			if e.IsDir() {
				if path != root && (skipHidden && strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor") {
					return filepath.SkipDir
				}
				return nil
			}
			if files >= maxScanFiles {
				return filepath.SkipAll
			}
			switch strings.ToLower(filepath.Ext(name)) {
			case ".yaml", ".yml", ".json":
				visit(path)
			}
			return nil
		})
	}
	// configured paths first: the workspace's own CRDs win
	for _, p := range x.extra {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			walk(p, false)
		} else if err == nil {
			visit(p)
		}
	}
	for _, r := range x.roots {
		walk(r, true)
	}
}

// addFile compiles the CRDs of one file.
func (x *crdIndex) addFile(path string) {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() > maxScanFileSize {
		return
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(data, []byte("CustomResourceDefinition")) {
		return
	}
	docs, err := yamldoc.Split(data)
	if err != nil {
		return
	}
	for _, d := range docs {
		if !bytes.Contains(d.Data, []byte("CustomResourceDefinition")) {
			continue
		}
		c, err := engine.Compile(d.Data)
		if err != nil || c.DecodeError() != "" {
			continue
		}
		x.crds[keyOf(c)] = c
	}
}

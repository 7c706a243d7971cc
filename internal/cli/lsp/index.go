package lsp

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/yamldoc"
)

// Bounds of the workspace scan.
const (
	maxScanFiles    = 20000
	maxScanEntries  = 200000  // directories and files looked at
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
	kube  string // the release the CRDs are compiled for ("" the default)
}

// setKubeVersion compiles the CRDs for release v from the next lookup on.
func (x *crdIndex) setKubeVersion(v string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if v != x.kube {
		x.kube = v
		x.built, x.crds = false, nil
	}
}

func newCRDIndex() *crdIndex { return &crdIndex{} }

func (x *crdIndex) configure(roots, extra []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.roots, x.extra = roots, extra
	x.built, x.crds = false, nil
}

// lookup returns the CRD of k, building the index first if build is set
// (the checks, off the server's loop; requests do not wait for a scan).
// A build that ctx interrupts is not kept.
// invalidate makes the next lookup scan again (a CRD file was saved or
// changed on disk).
func (x *crdIndex) invalidate() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.built, x.crds = false, nil
}

func (x *crdIndex) lookup(ctx context.Context, k crdKey, build bool) *engine.CRD {
	if !build {
		if !x.mu.TryLock() {
			return nil
		}
	} else {
		x.mu.Lock()
	}
	defer x.mu.Unlock()
	if !x.built && build {
		x.build(ctx)
	}
	return x.crds[k]
}

// group returns the CRDs of a group ("" every group), building the index
// first, in group and kind order.
func (x *crdIndex) group(ctx context.Context, g string) []*engine.CRD {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.built {
		x.build(ctx)
	}
	keys := make([]crdKey, 0, len(x.crds))
	for k := range x.crds {
		if g == "" || k.group == g {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].group != keys[j].group {
			return keys[i].group < keys[j].group
		}
		return keys[i].kind < keys[j].kind
	})
	out := make([]*engine.CRD, len(keys))
	for i, k := range keys {
		out[i] = x.crds[k]
	}
	return out
}

func (x *crdIndex) build(ctx context.Context) {
	x.crds = map[crdKey]*engine.CRD{}
	defer func() { x.built = ctx.Err() == nil }()
	files, entries := 0, 0
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
			if entries++; entries > maxScanEntries || ctx.Err() != nil {
				return filepath.SkipAll
			}
			name := e.Name()
			if e.IsDir() {
				if path != root && (skipHidden && strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor") ||
					path == "/proc" || path == "/sys" || path == "/dev" {
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
		c, err := engine.CompileWithOptions(d.Data, engine.CompileOptions{KubeVersion: x.kube})
		if err != nil || c.DecodeError() != "" {
			continue
		}
		x.crds[keyOf(c)] = c
	}
}

package wasm

import (
	"context"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/crdlab/crdlab/wire"
)

// This file holds the calls of CRD updates and test suites: the old CRD of
// Compile and Lint (CompileOptions.OldCRD), Upgrade and Test.

// withOldCRD adds the old CRD of a CRD update to a "compile" or "lint"
// request.
func withOldCRD(req *wire.CompileRequest, opts CompileOptions) {
	if len(opts.OldCRD) == 0 {
		return
	}
	req.OldCRD, req.OldCRDBytes = text(opts.OldCRD)
	req.StoredVersions = opts.StoredVersions
}

// UpgradeObject is a stored object of Upgrade (upgrade.Object): Source
// names it in the report (default "objects[i]"), Data is one JSON or YAML
// document.
type UpgradeObject struct {
	Source string
	Data   []byte
}

// UpgradeOptions mirror upgrade.Options.
type UpgradeOptions struct {
	// StoredVersions is the old CRD's status.storedVersions (nil: its
	// file's status, else its storage version).
	StoredVersions []string
	// FailOnBreaking makes a breaking schema change unsafe.
	FailOnBreaking bool
	// KubeVersion is the Kubernetes release of both CRDs and the update
	// (see CompileOptions.KubeVersion).
	KubeVersion string
}

// Upgrade reports what applying newCRD over oldCRD (as stored in the
// cluster) does to the API and to the stored objects (upgrade.Check):
// the document `crdlab upgrade -o json` prints. The error is about
// decoding a CRD (Code DecodeError) or reaching the module.
func (r *Runtime) Upgrade(ctx context.Context, oldCRD, newCRD []byte, objects []UpgradeObject, opts UpgradeOptions) (*wire.UpgradeReport, error) {
	raw, err := r.UpgradeRaw(ctx, oldCRD, newCRD, objects, opts)
	if err != nil {
		return nil, err
	}
	var out wire.UpgradeReport
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// UpgradeRaw is Upgrade returning the module's bytes: json.Marshal of the
// native upgrade.Check report.
func (r *Runtime) UpgradeRaw(ctx context.Context, oldCRD, newCRD []byte, objects []UpgradeObject, opts UpgradeOptions) (json.RawMessage, error) {
	if err := r.requireKubeVersion(ctx, opts.KubeVersion); err != nil {
		return nil, err
	}
	req := wire.UpgradeRequest{Op: wire.OpUpgrade, StoredVersions: opts.StoredVersions, FailOnBreaking: opts.FailOnBreaking, KubeVersion: opts.KubeVersion}
	req.OldCRD, req.OldCRDBytes = text(oldCRD)
	req.CRD, req.CRDBytes = text(newCRD)
	// Sources go index for index with Objects then ObjectsBytes: keep the
	// caller's order by sending every object as bytes once one is not text.
	binary := false
	for _, o := range objects {
		binary = binary || !utf8.Valid(o.Data)
	}
	for i, o := range objects {
		if binary {
			req.ObjectsBytes = append(req.ObjectsBytes, o.Data)
		} else {
			req.Objects = append(req.Objects, string(o.Data))
		}
		src := o.Source
		if src == "" {
			src = "objects[" + strconv.Itoa(i) + "]"
		}
		req.Sources = append(req.Sources, src)
	}
	var out json.RawMessage
	if err := r.send(ctx, func(int64) interface{} { return req }, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// TestOptions select what Test runs.
type TestOptions struct {
	// Paths are the suite files or directories of the files to run
	// (default: all of them).
	Paths []string
	// CRDs are files or directories of the files given as --crd.
	CRDs []string
	// Run selects the cases whose full name matches this regular
	// expression.
	Run string
	// KubeVersion, when set, is the Kubernetes release every suite runs
	// at, overriding the suites' own kubeVersion (crdtest.Options').
	KubeVersion string
	// DefaultKubeVersion, when set, is the release of the suites that
	// name none (crdtest.Options'); KubeVersion overrides it.
	DefaultKubeVersion string
}

// Test runs CRD validation test suites held in memory (crdtest.RunFiles):
// files maps slash-separated relative paths to the text of suites and
// CRDs, laid out as on disk. The report is the document `crdlab test -o
// json` prints; the error is for unusable arguments (Code BadRequest or
// Invalid) or reaching the module. Cases run one at a time inside the
// instance.
func (r *Runtime) Test(ctx context.Context, files map[string][]byte, opts TestOptions) (*wire.TestReport, error) {
	if err := r.requireKubeVersion(ctx, opts.KubeVersion); err != nil {
		return nil, err
	}
	req := wire.TestRequest{Op: wire.OpTest, Files: make(map[string]string, len(files)), Paths: opts.Paths, CRDs: opts.CRDs, Run: opts.Run, KubeVersion: opts.KubeVersion, DefaultKubeVersion: opts.DefaultKubeVersion}
	for name, data := range files {
		req.Files[name] = string(data)
	}
	var out wire.TestReport
	if err := r.send(ctx, func(int64) interface{} { return req }, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

package wasm

import (
	"context"

	"github.com/crdlab/crdlab/wire"
)

// SchemaOptions are the options of `crdlab schema` (package jsonschema).
type SchemaOptions struct {
	// Versions are the served versions to export, in this order; empty:
	// every served version.
	Versions []string
	// Draft is "2020-12" (default) or "07".
	Draft string
	// Strict adds additionalProperties: false where the API server prunes
	// unknown fields (--field-validation=Strict rejects them).
	Strict bool
	// Layout names the files (SchemaDocument.FileName): "kubeconform"
	// (default, {kind}_{version}.json) or "catalog"
	// ({group}/{kind}_{version}.json).
	Layout string
	// CRDFieldValidation is the CRD create's fieldValidation (Runtime.Schema
	// only; a compiled CRD keeps its own).
	CRDFieldValidation FieldValidation
	// KubeVersion is the release of the CRD's verdict (the result's CRD
	// report; Runtime.Schema only: a compiled CRD keeps its own). The
	// documents are the same at every release.
	KubeVersion string
}

func (o SchemaOptions) request() wire.SchemaRequest {
	return wire.SchemaRequest{Op: wire.OpSchema, Versions: o.Versions, Draft: o.Draft, Strict: o.Strict, Layout: o.Layout}
}

// Schema exports the JSON Schema of the served versions of a CRD, each
// document byte for byte what `crdlab schema` writes. A CRD the API server
// rejects gives no documents and its errors in the result's CRD report.
// The error is about decoding the CRD (DecodeError), the options
// (BadRequest), an unserved version (Invalid) or reaching the module.
func (r *Runtime) Schema(ctx context.Context, crdYAMLorJSON []byte, opts SchemaOptions) (*wire.SchemaResult, error) {
	if err := r.requireKubeVersion(ctx, opts.KubeVersion); err != nil {
		return nil, err
	}
	req := opts.request()
	req.CRD, req.CRDBytes = text(crdYAMLorJSON)
	req.CRDFieldValidation = string(opts.CRDFieldValidation)
	req.KubeVersion = opts.KubeVersion
	var out wire.SchemaResult
	err := r.send(ctx, func(ms int64) interface{} {
		req.TimeoutMs = ms
		return req
	}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Schema is Runtime.Schema for the compiled CRD (its handle: the CRD is
// not compiled again).
func (c *CRD) Schema(ctx context.Context, opts SchemaOptions) (*wire.SchemaResult, error) {
	var out wire.SchemaResult
	err := c.withHandle(ctx, func(h uint32, ms int64) interface{} {
		req := opts.request()
		req.Handle, req.TimeoutMs = h, ms
		return req
	}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

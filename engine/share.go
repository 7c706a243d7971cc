package engine

import (
	"context"
	"sync"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/openapi"
)

// CompileShare carries the compile work that does not depend on the
// Kubernetes release from one compilation to the next, so that compiling
// the same CRDs for several releases (a --kube-version matrix) costs much
// less than compiling them once per release. Pass the same CompileShare in
// CompileOptions.Share (or UpdateOptions.Share) of each compilation.
//
// What it shares, each keyed by exactly what it depends on:
//   - the decoded CRD (by the document's bytes and file name);
//   - the structural schemas served and their pruned defaults (by the
//     decoded CRD);
//   - the schemas' compiled regular expressions (by pattern);
//   - the CEL rule compilations, with their cost estimates (by the rule,
//     the CEL type of its node and the set of CEL libraries of its
//     environment: releases whose environments hold the same libraries
//     compile a rule once between them).
//
// The CRD validation and the release-dependent parts (OpenAPI validators,
// the CEL environments that differ, the CEL types that differ) are
// compiled for each release. Results are identical to compilations
// without a share. A CompileShare is safe for concurrent use; it holds
// what it shares until it is dropped, so give each run its own. A decoded
// CRD compiled through it (CompileCRDWithOptions, UpdateOptions.Share)
// must not be modified afterwards: what was built from it is reused.
type CompileShare struct {
	cel      *cel.CompileCache
	patterns *openapi.Patterns

	mu      sync.Mutex
	docs    map[docKey]crd.Document
	serving map[*crd.CustomResourceDefinition]*servingShared
}

type docKey struct{ filename, src string }

// NewCompileShare returns an empty CompileShare.
func NewCompileShare() *CompileShare {
	return &CompileShare{
		cel:      cel.NewCompileCache(),
		patterns: openapi.NewPatterns(),
		docs:     map[docKey]crd.Document{},
		serving:  map[*crd.CustomResourceDefinition]*servingShared{},
	}
}

// caches returns the rule and pattern caches of a compile at release rel:
// s's when s is set, else new ones.
func (s *CompileShare) caches(ctx context.Context, rel kubeversion.Release) (*cel.CompileCache, *openapi.Patterns) {
	if s == nil {
		return cel.NewCompileCacheAt(ctx, rel), openapi.NewPatterns()
	}
	return s.cel.At(ctx, rel), s.patterns
}

// decode is crd.DecodeOneDocument, memoized in s. The document is not
// modified by compilation, so every release reads the same one.
func (s *CompileShare) decode(src []byte, filename string) (crd.Document, error) {
	if s == nil {
		return crd.DecodeOneDocument(src, filename)
	}
	k := docKey{filename, string(src)}
	s.mu.Lock()
	doc, ok := s.docs[k]
	s.mu.Unlock()
	if ok {
		return doc, nil
	}
	doc, err := crd.DecodeOneDocument(src, filename)
	if err != nil {
		return doc, err
	}
	s.mu.Lock()
	s.docs[k] = doc
	s.mu.Unlock()
	return doc, nil
}

// servingOf returns the serving setup of def built earlier through s, or
// nil.
func (s *CompileShare) servingOf(def *crd.CustomResourceDefinition) *servingShared {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.serving[def]
}

func (s *CompileShare) keepServing(def *crd.CustomResourceDefinition, sh *servingShared) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.serving[def] = sh
	s.mu.Unlock()
}

// CompileCRDWithOptions is CompileCRD at opts.KubeVersion, through
// opts.Share (FieldValidation and Filename concern decoding and are not
// used). The error is only an unsupported KubeVersion.
func CompileCRDWithOptions(c *crd.CustomResourceDefinition, opts CompileOptions) (*CRD, error) {
	rel, err := kubeversion.Parse(opts.KubeVersion)
	if err != nil {
		return nil, err
	}
	return compileCRD(context.Background(), c, nil, rel, opts.Share), nil
}

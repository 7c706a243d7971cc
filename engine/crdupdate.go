package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/crdlab/crdlab/internal/kubeversion"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/crdvalidation"
)

// UpdateOptions describes the CRD already in the cluster for CompileUpdate.
type UpdateOptions struct {
	// StoredVersions, when not nil, is the old CRD's status.storedVersions
	// (the versions objects may still be stored at). When nil, the old
	// file's status.storedVersions is used, and when that is empty too, the
	// old CRD's storage version alone (what a create records).
	StoredVersions []string
	// KubeVersion is the Kubernetes release whose API server is reproduced
	// (see CompileOptions.KubeVersion).
	KubeVersion string
	// Share is CompileOptions.Share.
	Share *CompileShare
}

// CompileUpdate decodes a new and an old CustomResourceDefinition (YAML or
// JSON, one each) and compiles the new one as an update of the old one:
// Errors and Warnings are the API server's verdict on the update
// (ValidateCustomResourceDefinitionUpdate with the CRD strategy's update
// path: immutable group, plural, scope and kind, storedVersions, and the
// CRD-level checks ratcheted against the old CRD), and the validators are
// those the API server serves after the update (the new CRD's). The error
// is only about decoding.
//
// The old CRD is taken as stored in a cluster (see CompileCRDUpdate). A new
// CRD over 3 MiB is a *RequestEntityTooLargeError, as Compile's.
func CompileUpdate(newCRD, oldCRD []byte, opts UpdateOptions) (*CRD, error) {
	// The request's body is the new CRD: over 3 MiB, the API server
	// answers 413 before decoding it (the old one is read from storage).
	if err := bodyTooLarge(newCRD, 0); err != nil {
		return nil, err
	}
	if _, err := kubeversion.Parse(opts.KubeVersion); err != nil {
		return nil, err
	}
	nd, err := decodeOne(newCRD, "new CRD")
	if err != nil {
		return nil, err
	}
	od, err := decodeOne(oldCRD, "old CRD")
	if err != nil {
		return nil, err
	}
	return CompileCRDUpdateWithSource(nd, od, opts, newCRD), nil
}

// CompileCRDUpdateWithSource is CompileCRDUpdate of a new CRD decoded from
// source (its YAML or JSON text): errors and warnings then carry their
// positions in it, as CompileCRDWithSource's do.
func CompileCRDUpdateWithSource(newCRD, oldCRD *crd.CustomResourceDefinition, opts UpdateOptions, source []byte) *CRD {
	c := CompileCRDUpdate(newCRD, oldCRD, opts)
	c.src = source
	return c
}

func decodeOne(data []byte, what string) (*crd.CustomResourceDefinition, error) {
	defs, err := crd.Decode(data, "")
	if err != nil {
		return nil, err
	}
	if len(defs) != 1 {
		return nil, fmt.Errorf("%s: expected exactly one CustomResourceDefinition, found %d", what, len(defs))
	}
	return defs[0], nil
}

// CompileCRDUpdate is CompileUpdate on decoded CRDs (with the v1 defaults
// applied, as crd.Decode does); they are not modified.
//
// The old CRD stands for the object stored in the cluster, which the API
// server's controllers have completed: when its file has no status, it is
// taken as accepted and established (conditions NamesAccepted and
// Established True, status.acceptedNames = spec.names), its
// status.storedVersions defaults as UpdateOptions says, its generation to 1
// and its resourceVersion to "1". The new CRD is sent as `kubectl apply`
// or `kubectl replace` of that object sends it: without a resourceVersion
// it takes the old one's.
func CompileCRDUpdate(newCRD, oldCRD *crd.CustomResourceDefinition, opts UpdateOptions) *CRD {
	old := AsStored(oldCRD, opts)
	nd := *newCRD
	if nd.Metadata.ResourceVersion == "" {
		nd.Metadata.ResourceVersion = old.Metadata.ResourceVersion
	}
	rel, err := kubeversion.Parse(opts.KubeVersion)
	if err != nil {
		return &CRD{def: newCRD, warnings: []string{}, errs: field.ErrorList{field.InternalError(nil, err)}}
	}
	out := &CRD{def: newCRD, release: rel}
	cache, patterns := opts.Share.caches(context.Background(), rel)
	func() {
		defer func() {
			if r := recover(); r != nil {
				out.errs = append(out.errs, field.InternalError(nil, fmt.Errorf("crdlab: CRD update validation panicked: %v", r)))
			}
		}()
		out.errs, out.warnings = crdvalidation.ValidateCustomResourceDefinitionUpdate(&nd, old, crdvalidation.Options{CompileCache: cache, Patterns: patterns, Release: rel})
	}()
	out.errs = errorsAt(rel, out.errs)
	out.warnings = recordWarnings(out.warnings)
	if len(out.errs) > 0 {
		return out
	}
	out.buildErr = out.build(cache, patterns, opts.Share)
	return out
}

// AsStored returns a copy of c completed as the API server stores an
// accepted CRD, for CompileCRDUpdate (see there). The conformance harness
// applies the same completion before calling upstream.
func AsStored(c *crd.CustomResourceDefinition, opts UpdateOptions) *crd.CustomResourceDefinition {
	out := *c
	out.Status.StoredVersions = append([]string(nil), c.Status.StoredVersions...)
	switch {
	case opts.StoredVersions != nil:
		out.Status.StoredVersions = append([]string(nil), opts.StoredVersions...)
	case len(out.Status.StoredVersions) == 0:
		for _, v := range c.Spec.Versions {
			if v.Storage {
				out.Status.StoredVersions = []string{v.Name}
				break
			}
		}
	}
	if len(c.Status.Conditions) == 0 {
		out.Status.Conditions = []json.RawMessage{
			json.RawMessage(`{"type":"NamesAccepted","status":"True","reason":"NoConflicts","message":"no conflicts found"}`),
			json.RawMessage(`{"type":"Established","status":"True","reason":"InitialNamesAccepted","message":"the initial names have been accepted"}`),
		}
		if out.Status.AcceptedNames.Plural == "" {
			out.Status.AcceptedNames = c.Spec.Names
		}
	}
	if out.Metadata.Generation == 0 {
		out.Metadata.Generation = 1
	}
	if out.Metadata.ResourceVersion == "" {
		out.Metadata.ResourceVersion = "1"
	}
	return &out
}

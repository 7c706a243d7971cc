package abi

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine"
	crddecode "github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

// This file compiles the CRD of "compile" and "lint" requests that carry an
// old CRD (a CRD update); the "upgrade", "test" and "conversionReview" ops
// are in upgrade.go, suites.go and conversion.go.

// compileRequest compiles the CRD of a "compile" or "lint" request: as an
// update of the old CRD when the request has one (engine.CompileUpdate,
// `crdlab lint --old`, `crdlab validate --old-crd`), else as a create.
func compileRequest(r *wire.Request) (*engine.CRD, *wire.Error) {
	if e := kubeVersionOf(r); e != nil {
		return nil, e
	}
	old := pick(r.OldCRD, r.OldCRDBytes)
	if len(old) == 0 {
		if r.StoredVersions != nil {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `"storedVersions" needs "oldCrd"`}
		}
		c, err := compile(withTimeout(r.TimeoutMs), pick(r.CRD, r.CRDBytes), r.CRDFieldValidation, r.Filename, r.KubeVersion)
		if err != nil {
			return nil, engineError(wire.CodeDecodeError, err)
		}
		return c, nil
	}
	if r.CRDFieldValidation != "" && r.CRDFieldValidation != string(engine.Strict) {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(`"crdFieldValidation" %q with "oldCrd": a CRD update decodes both CRDs strictly`, r.CRDFieldValidation)}
	}
	newCRD := pick(r.CRD, r.CRDBytes)
	c, err := compileUpdate(newCRD, old, engine.UpdateOptions{StoredVersions: r.StoredVersions, KubeVersion: r.KubeVersion})
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "old CRD: ") && !strings.HasPrefix(msg, "new CRD: ") {
			// Say which of the two does not decode, as "upgrade" does.
			which := "new CRD: "
			if _, e := crddecode.Decode(old, ""); e != nil {
				which, msg = "old CRD: ", e.Error()
			}
			msg = which + msg
		}
		return nil, &wire.Error{Code: wire.CodeDecodeError, Message: msg}
	}
	return c, nil
}

// compileUpdate is engine.CompileUpdate; tests replace it.
var compileUpdate = engine.CompileUpdate

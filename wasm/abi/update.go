package abi

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/crdlab/crdlab/conversion"
	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/engine"
	crddecode "github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/upgrade"
	"github.com/crdlab/crdlab/wire"
)

// This file holds the ops of CRD updates, test suites and conversion
// webhooks: "compile" and "lint" with an old CRD, "upgrade", "test" and
// "conversionReview".

// compileRequest compiles the CRD of a "compile" or "lint" request: as an
// update of the old CRD when the request has one (engine.CompileUpdate,
// `crdlab lint --old`, `crdlab validate --old-crd`), else as a create.
func compileRequest(r *wire.Request) (*engine.CRD, *wire.Error) {
	old := pick(r.OldCRD, r.OldCRDBytes)
	if len(old) == 0 {
		if r.StoredVersions != nil {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `"storedVersions" needs "oldCrd"`}
		}
		c, err := compile(withTimeout(r.TimeoutMs), pick(r.CRD, r.CRDBytes), r.CRDFieldValidation, r.Filename)
		if err != nil {
			return nil, engineError(wire.CodeDecodeError, err)
		}
		return c, nil
	}
	if r.CRDFieldValidation != "" && r.CRDFieldValidation != string(engine.Strict) {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(`"crdFieldValidation" %q with "oldCrd": a CRD update decodes both CRDs strictly`, r.CRDFieldValidation)}
	}
	newCRD := pick(r.CRD, r.CRDBytes)
	c, err := compileUpdate(newCRD, old, engine.UpdateOptions{StoredVersions: r.StoredVersions})
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

// upgradeReport answers "upgrade": upgrade.Check, the report of `crdlab
// upgrade -o json`.
func upgradeReport(r *wire.Request) (interface{}, *wire.Error) {
	if len(r.Sources) > len(r.Objects)+len(r.ObjectsBytes) {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(`"sources" has %d names for %d objects`, len(r.Sources), len(r.Objects)+len(r.ObjectsBytes))}
	}
	objects := make([]upgrade.Object, 0, len(r.Objects)+len(r.ObjectsBytes))
	for _, o := range r.Objects {
		objects = append(objects, upgrade.Object{Data: []byte(o)})
	}
	for _, o := range r.ObjectsBytes {
		objects = append(objects, upgrade.Object{Data: o})
	}
	for i := range objects {
		objects[i].Source = fmt.Sprintf("objects[%d]", i)
		if i < len(r.Sources) {
			objects[i].Source = r.Sources[i]
		}
	}
	rep, err := upgrade.Check(pick(r.OldCRD, r.OldCRDBytes), pick(r.CRD, r.CRDBytes), objects,
		upgrade.Options{StoredVersions: r.StoredVersions, FailOnBreaking: r.FailOnBreaking})
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeDecodeError, Message: err.Error()}
	}
	return rep, nil
}

// testReport answers "test": crdtest.RunFiles on the request's files, the
// report of `crdlab test -o json`. Cases run one at a time (the module has
// one thread). The request's timeoutMs does not apply: each request a case
// sends is bounded by the engine's limits.
func testReport(r *wire.Request) (interface{}, *wire.Error) {
	if len(r.Files) == 0 {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `"test" needs "files" (suite and CRD texts by path)`}
	}
	files := make(map[string][]byte, len(r.Files))
	for name, text := range r.Files {
		files[name] = []byte(text)
	}
	opts := crdtest.Options{CRDs: r.CRDs, Parallel: 1}
	if r.Run != "" {
		re, err := regexp.Compile(r.Run)
		if err != nil {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(`"run": %v`, err)}
		}
		opts.Run = re
	}
	paths := r.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	rep, err := crdtest.RunFiles(files, opts, paths...)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
	}
	return rep.Wire(), nil
}

// conversionReport answers "conversionReview": conversion.Check, the report
// of `crdlab conversion-review -o json`. Inputs that cannot be checked (a
// CRD without a conversion webhook, a request the API server does not
// send) answer DecodeError with package conversion's message.
func conversionReport(r *wire.Request) (interface{}, *wire.Error) {
	if r.Review == "" {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `"conversionReview" needs "review" (the ConversionReview holding the request)`}
	}
	response := r.ReviewResponse
	if response == "" {
		response = r.Review
	}
	res, err := conversion.Check(pick(r.CRD, r.CRDBytes), []byte(r.Review), []byte(response), conversion.Options{List: r.List, ListAPIVersion: r.ListAPIVersion})
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeDecodeError, Message: err.Error()}
	}
	return res, nil
}

// Package conformance is crdlab's differential suite: it runs the same
// CustomResourceDefinitions and custom resources through upstream's
// k8s.io/apiextensions-apiserver v0.37.2 (the oracle in ./upstream, which
// calls the functions kube-apiserver 1.37 calls, in its order) and through
// crdlab's engine, and compares the two reports: verdicts, field.Error lists
// (type, path, detail, order, rendered message), pruned/defaulted objects,
// pruned paths, decode errors and warnings.
//
// Inputs are the cases under testdata/cases (see README.md for the format)
// and a real-world corpus of CRDs (see corpus.go).
//
// Beside the cases: function-level differentials (openapi_test.go, the
// cel_*_test.go files, cellib_test.go for the CEL libraries' results and
// costs, schemadiff/ for the structural schema, list types and
// ObjectMeta), the admission chain against the real plugins
// (admission*_test.go, mutating_test.go, rbac_test.go), server-side apply
// (apply*_test.go), conversion webhooks (webhook*_test.go), stored objects
// and upgrades, crdtest's verdicts, the shipped CLI over every case
// (cli_test.go), and the main module's dependency versions equal to
// Kubernetes 1.37's (deps_test.go). Other releases: versions.go and
// versions_test.go, with the oracle modules of versions/ (package
// versions/oracle says how they work).
package conformance

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/internal/testsupport/casefile"
	"github.com/crdlab/crdlab/wire"
)

// CaseFile, Case and Expect are the case-file format, read by
// internal/testsupport/casefile (the one loader, shared with bindings/wasm and jsonschema).
type (
	CaseFile = casefile.File
	Case     = casefile.Case
	Expect   = casefile.Expect
)

// LoadedCase is a case with its inputs resolved to bytes.
type LoadedCase struct {
	Case
	File    string
	ID      string // file stem + "/" + case name
	Request upstream.Request
}

// LoadCases reads every *.yaml under dir, sorted by file name (see
// casefile.Load).
func LoadCases(dir string) ([]LoadedCase, error) {
	loaded, err := casefile.Load(dir)
	if err != nil {
		return nil, err
	}
	out := make([]LoadedCase, len(loaded))
	for i, c := range loaded {
		r := c.Request
		out[i] = LoadedCase{Case: c.Case, File: c.File, ID: c.ID, Request: upstream.Request{
			CRD: r.CRD, Object: r.Object, Old: r.Old,
			Version: r.Version, Subresource: r.Subresource, FieldValidation: r.FieldValidation,
			CRDFieldValidation: r.CRDFieldValidation,
			OldCRD:             r.OldCRD, StoredVersions: r.StoredVersions,
		}}
	}
	return out, nil
}

// CheckExpect returns the failed expectations of a case against the
// upstream outcome (rep nil when compileErr is set).
func CheckExpect(e *Expect, rep *wire.Report, compileErr error) []string {
	if e == nil {
		return nil
	}
	var out []string
	if e.CompileError != (compileErr != nil) {
		out = append(out, fmt.Sprintf("expected compileError=%v, upstream error: %v", e.CompileError, compileErr))
	}
	if rep == nil {
		return out
	}
	checkN := func(what string, want *int, got int) {
		if want != nil && *want != got {
			out = append(out, fmt.Sprintf("expected %d %s, upstream has %d", *want, what, got))
		}
	}
	if e.CRDRejected != nil && *e.CRDRejected != (rep.CRD.DecodeError != "") {
		out = append(out, fmt.Sprintf("expected crdRejected=%v, upstream has %q", *e.CRDRejected, rep.CRD.DecodeError))
	}
	checkN("CRD errors", e.CRDErrors, len(rep.CRD.Errors))
	checkN("CRD warnings", e.CRDWarnings, len(rep.CRD.Warnings))
	if rep.Object == nil {
		if e.ObjectErrors != nil || e.ObjectWarnings != nil || e.DecodeError != nil {
			out = append(out, "expected an object outcome, upstream has none (CRD invalid or no object)")
		}
	} else {
		checkN("object errors", e.ObjectErrors, len(rep.Object.Errors))
		checkN("object warnings", e.ObjectWarnings, len(rep.Object.Warnings))
		if e.OldResult != nil && *e.OldResult != (rep.Object.OldResult != nil) {
			out = append(out, fmt.Sprintf("expected oldResult=%v, upstream has %v", *e.OldResult, rep.Object.OldResult))
		}
		if e.DecodeError != nil && *e.DecodeError != (rep.Object.DecodeError != "") {
			out = append(out, fmt.Sprintf("expected decodeError=%v, upstream has %q", *e.DecodeError, rep.Object.DecodeError))
		}
	}
	if len(e.Contains) > 0 {
		b, _ := casefile.EncodeJSON(rep, nil)
		for _, s := range e.Contains {
			if !strings.Contains(string(b), s) {
				out = append(out, fmt.Sprintf("expected the upstream report to contain %q", s))
			}
		}
	}
	return out
}

// selfTypeRE matches the name upstream gives the root CEL object type of a
// rule's self: "selfType<time.Now().Nanosecond()>"
// (apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go), which
// shows up in type-check errors. crdlab uses a fixed name.
var selfTypeRE = regexp.MustCompile(`selfType[0-9]+`)

// Deterministic removes upstream's own nondeterminism from an outcome's
// report before comparison: the random suffix of CEL self type names.
func Deterministic(o Outcome) Outcome {
	o.Report = replaceStrings(o.Report, func(s string) string {
		if !strings.Contains(s, "selfType") {
			return s
		}
		return selfTypeRE.ReplaceAllString(s, "selfType")
	})
	return o
}

func replaceStrings(v interface{}, f func(string) string) interface{} {
	switch v := v.(type) {
	case string:
		return f(v)
	case map[string]interface{}:
		out := make(map[string]interface{}, len(v))
		for k, c := range v {
			out[k] = replaceStrings(c, f)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(v))
		for i, c := range v {
			out[i] = replaceStrings(c, f)
		}
		return out
	}
	return v
}

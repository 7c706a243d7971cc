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
package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/wire"
	"sigs.k8s.io/yaml"
)

// CaseFile is one file under testdata/cases.
type CaseFile struct {
	// CRDs are CRDs shared by the cases of the file, by name.
	CRDs map[string]interface{} `json:"crds"`
	// Cases run in order.
	Cases []Case `json:"cases"`
}

// Case is one request: a CRD and optionally one object sent to it.
type Case struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// CRD is the name of an entry of CaseFile.CRDs, or an inline CRD.
	CRD interface{} `json:"crd"`
	// CRDRaw is the CRD's text sent as is (for decoding errors).
	CRDRaw string `json:"crdRaw"`
	// Patch is a list of JSON merge patches applied in order to the named
	// CRD (handy to derive variants of a shared CRD).
	Patch []interface{} `json:"patch"`
	// OldCRD, when set, makes the case a CRD update: the name of an entry
	// of CaseFile.CRDs or an inline CRD, as stored before the update (see
	// upstream.AsStored); OldPatch are JSON merge patches applied to it and
	// StoredVersions sets its status.storedVersions.
	OldCRD         interface{}   `json:"oldCrd"`
	OldPatch       []interface{} `json:"oldPatch"`
	StoredVersions []string      `json:"storedVersions"`
	// Schema, when set, replaces the openAPIV3Schema of the CRD's first
	// version; VersionPatch is a JSON merge patch applied to that version.
	Schema       interface{} `json:"schema"`
	VersionPatch interface{} `json:"versionPatch"`
	// Object is the request body (marshalled to JSON); ObjectRaw is sent as is.
	Object    interface{} `json:"object"`
	ObjectRaw *string     `json:"objectRaw"`
	// Old is the stored object (an update); OldRaw is sent as is.
	Old    interface{} `json:"old"`
	OldRaw *string     `json:"oldRaw"`
	// Version, Subresource and FieldValidation select the request.
	Version         string `json:"version"`
	Subresource     string `json:"subresource"`
	FieldValidation string `json:"fieldValidation"`
	// CRDFieldValidation is the CRD create's fieldValidation (unknown and
	// duplicate fields of the CRD): Strict (default), Warn or Ignore.
	CRDFieldValidation string `json:"crdFieldValidation"`
	// CEL tags cases that exercise x-kubernetes-validations (informational:
	// CEL cases run and are compared like any other).
	CEL bool `json:"cel"`
	// Skip, when set, is the reason why the case is skipped.
	Skip string `json:"skip"`
	// KnownDifference, when set, is a documented difference between upstream
	// and crdlab: the case is skipped and listed as "known difference: ..."
	// in the summary (never a silent pass). Upstream is still computed and
	// the expectations still checked.
	KnownDifference string `json:"knownDifference"`
	// Expect are sanity checks on the upstream outcome, so that a case
	// testing e.g. a bad pattern fails loudly if the CRD is rejected for
	// another reason. They are not golden outputs.
	Expect *Expect `json:"expect"`
}

// Expect checks the upstream outcome of a case.
type Expect struct {
	CRDErrors      *int     `json:"crdErrors"`      // number of CRD errors
	CRDWarnings    *int     `json:"crdWarnings"`    // number of CRD warnings
	CompileError   bool     `json:"compileError"`   // the CRD does not decode
	CRDRejected    *bool    `json:"crdRejected"`    // the CRD create fails while decoding (strict decoding error)
	OldResult      *bool    `json:"oldResult"`      // the report has the stored old object
	ObjectErrors   *int     `json:"objectErrors"`   // number of object errors
	ObjectWarnings *int     `json:"objectWarnings"` // number of object warnings
	DecodeError    *bool    `json:"decodeError"`    // the request fails while decoding
	Contains       []string `json:"contains"`       // substrings of the upstream report's JSON
}

// LoadedCase is a case with its inputs resolved to bytes.
type LoadedCase struct {
	Case
	File    string
	ID      string // file stem + "/" + case name
	Request upstream.Request
}

// LoadCases reads every *.yaml under dir, sorted by file name.
func LoadCases(dir string) ([]LoadedCase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []LoadedCase
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var cf CaseFile
		if err := yaml.UnmarshalStrict(data, &cf); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		stem := strings.TrimSuffix(filepath.Base(f), ".yaml")
		for i, c := range cf.Cases {
			if c.Name == "" {
				return nil, fmt.Errorf("%s: case %d has no name", f, i)
			}
			id := stem + "/" + c.Name
			if seen[id] {
				return nil, fmt.Errorf("%s: duplicate case name %q", f, c.Name)
			}
			seen[id] = true
			req, err := c.request(cf.CRDs)
			if err != nil {
				return nil, fmt.Errorf("%s: case %q: %v", f, c.Name, err)
			}
			out = append(out, LoadedCase{Case: c, File: f, ID: id, Request: req})
		}
	}
	return out, nil
}

func (c Case) request(crds map[string]interface{}) (upstream.Request, error) {
	var req upstream.Request
	switch {
	case c.CRDRaw != "":
		req.CRD = []byte(c.CRDRaw)
	case c.CRD == nil:
		return req, fmt.Errorf("no crd")
	default:
		def := c.CRD
		if name, ok := def.(string); ok {
			d, ok := crds[name]
			if !ok {
				return req, fmt.Errorf("unknown crd %q", name)
			}
			def = d
		}
		def = deepCopy(def)
		for _, p := range c.Patch {
			def = mergePatch(def, p)
		}
		if c.Schema != nil || c.VersionPatch != nil {
			v0, err := firstVersion(def)
			if err != nil {
				return req, err
			}
			if c.Schema != nil {
				v0["schema"] = map[string]interface{}{"openAPIV3Schema": deepCopy(c.Schema)}
			}
			if c.VersionPatch != nil {
				mergePatch(v0, deepCopy(c.VersionPatch))
			}
		}
		b, err := json.Marshal(def)
		if err != nil {
			return req, err
		}
		req.CRD = b
	}
	if c.OldCRD != nil {
		def := c.OldCRD
		if name, ok := def.(string); ok {
			d, ok := crds[name]
			if !ok {
				return req, fmt.Errorf("unknown old crd %q", name)
			}
			def = d
		}
		def = deepCopy(def)
		for _, p := range c.OldPatch {
			def = mergePatch(def, p)
		}
		b, err := json.Marshal(def)
		if err != nil {
			return req, err
		}
		req.OldCRD = b
		req.StoredVersions = c.StoredVersions
	} else if c.OldPatch != nil || c.StoredVersions != nil {
		return req, fmt.Errorf("oldPatch and storedVersions need oldCrd")
	}
	var err error
	if req.Object, err = body(c.Object, c.ObjectRaw); err != nil {
		return req, fmt.Errorf("object: %v", err)
	}
	if req.Old, err = body(c.Old, c.OldRaw); err != nil {
		return req, fmt.Errorf("old: %v", err)
	}
	req.Version, req.Subresource, req.FieldValidation = c.Version, c.Subresource, c.FieldValidation
	req.CRDFieldValidation = c.CRDFieldValidation
	return req, nil
}

func firstVersion(def interface{}) (map[string]interface{}, error) {
	m, _ := def.(map[string]interface{})
	spec, _ := m["spec"].(map[string]interface{})
	versions, _ := spec["versions"].([]interface{})
	if len(versions) == 0 {
		return nil, fmt.Errorf("schema/versionPatch need a CRD with spec.versions")
	}
	v0, ok := versions[0].(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("spec.versions[0] is not an object")
	}
	return v0, nil
}

func body(v interface{}, raw *string) ([]byte, error) {
	if raw != nil {
		return []byte(*raw), nil
	}
	if v == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(buf.Bytes()), nil
}

func deepCopy(v interface{}) interface{} {
	b, _ := json.Marshal(v)
	var out interface{}
	_ = json.Unmarshal(b, &out)
	return out
}

// mergePatch applies an RFC 7386 JSON merge patch.
func mergePatch(target, patch interface{}) interface{} {
	p, ok := patch.(map[string]interface{})
	if !ok {
		return patch
	}
	t, ok := target.(map[string]interface{})
	if !ok {
		t = map[string]interface{}{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = mergePatch(t[k], v)
	}
	return t
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
		b, _ := body(rep, nil)
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

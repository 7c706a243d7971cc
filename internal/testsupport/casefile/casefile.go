// Package casefile reads the conformance case files
// (conformance/testdata/cases/*.yaml, format in conformance/README.md): the
// one loader of that format, shared by the differential suite (conformance),
// the wasm parity test (bindings/wasm) and the JSON Schema differential test
// (jsonschema). Load resolves each case to the bytes of its request: the
// named or inline CRD with its merge patches, schema and version patch, the
// old CRD of an update, and the object bodies.
package casefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// File is one case file (conformance/testdata/cases/*.yaml).
type File struct {
	// CRDs are CRDs shared by the cases of the file, by name.
	CRDs map[string]interface{} `json:"crds"`
	// Cases run in order.
	Cases []Case `json:"cases"`
}

// Case is one request: a CRD and optionally one object sent to it.
type Case struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// CRD is the name of an entry of File.CRDs, or an inline CRD.
	CRD interface{} `json:"crd"`
	// CRDRaw is the CRD's text sent as is (for decoding errors).
	CRDRaw string `json:"crdRaw"`
	// Patch is a list of JSON merge patches applied in order to the named
	// CRD (handy to derive variants of a shared CRD).
	Patch []interface{} `json:"patch"`
	// OldCRD, when set, makes the case a CRD update: the name of an entry
	// of File.CRDs or an inline CRD, as stored before the update (see
	// conformance/upstream.AsStored); OldPatch are JSON merge patches applied to it and
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
	// KnownDifferenceAt are documented differences at one release only
	// ("1.38": reason): the case is skipped at that release by
	// TestVersionCases (make conformance-versions) and listed as "known
	// difference at 1.38: ..."; it runs at every other release.
	KnownDifferenceAt map[string]string `json:"knownDifferenceAt"`
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

// Request is a case's request with its inputs resolved to bytes (the
// fields of conformance/upstream.Request).
type Request struct {
	CRD                []byte
	Object, Old        []byte
	Version            string
	Subresource        string
	FieldValidation    string
	CRDFieldValidation string
	OldCRD             []byte
	StoredVersions     []string
}

// Loaded is a case with its request resolved.
type Loaded struct {
	Case
	File    string
	ID      string // file stem + "/" + case name
	Request Request
}

// Load reads every *.yaml under dir, sorted by file name, strictly (unknown
// fields are errors), and resolves every case; an error names the file and
// the case.
func Load(dir string) ([]Loaded, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Loaded
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var cf File
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
			out = append(out, Loaded{Case: c, File: f, ID: id, Request: req})
		}
	}
	return out, nil
}

func (c Case) request(crds map[string]interface{}) (Request, error) {
	var req Request
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
		def = DeepCopy(def)
		for _, p := range c.Patch {
			def = MergePatch(def, p)
		}
		if c.Schema != nil || c.VersionPatch != nil {
			v0, err := firstVersion(def)
			if err != nil {
				return req, err
			}
			if c.Schema != nil {
				v0["schema"] = map[string]interface{}{"openAPIV3Schema": DeepCopy(c.Schema)}
			}
			if c.VersionPatch != nil {
				MergePatch(v0, DeepCopy(c.VersionPatch))
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
		def = DeepCopy(def)
		for _, p := range c.OldPatch {
			def = MergePatch(def, p)
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
	if req.Object, err = EncodeJSON(c.Object, c.ObjectRaw); err != nil {
		return req, fmt.Errorf("object: %v", err)
	}
	if req.Old, err = EncodeJSON(c.Old, c.OldRaw); err != nil {
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

// EncodeJSON returns raw when set, else v as compact JSON without HTML
// escaping (as a request body is sent); nil when both are nil.
func EncodeJSON(v interface{}, raw *string) ([]byte, error) {
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

// DeepCopy copies a decoded JSON value (through JSON).
func DeepCopy(v interface{}) interface{} {
	b, _ := json.Marshal(v)
	var out interface{}
	_ = json.Unmarshal(b, &out)
	return out
}

// MergePatch applies an RFC 7386 JSON merge patch.
func MergePatch(target, patch interface{}) interface{} {
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
		t[k] = MergePatch(t[k], v)
	}
	return t
}

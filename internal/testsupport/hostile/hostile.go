// Package hostile generates the hostile set: inputs an attacker controls
// (a CRD any cluster user with CRD rights can create, objects any user with
// create rights can send) built to exhaust memory or time, or to confuse the
// decoders. Every case is produced by a generator (nothing is committed as a
// blob) and declares its expected outcome: valid, or an error containing a
// given text.
//
// RunGo runs a case through the Go API (engine.Compile, Validator.Validate)
// in the current process; cmd/hostile (`make hostile`) runs every case
// through every surface (the Go API in a child process, the CLI) under a time
// and memory ceiling and writes docs/hostile.md.
package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine"
)

// Case is one hostile input.
type Case struct {
	Name  string
	Class string // the input class, for the report
	// CRD returns the CRD (YAML or JSON). Object returns the object
	// documents to validate against it; nil: the CRD alone is compiled
	// (and linted by the CLI).
	CRD    func() []byte
	Object func() []byte
	// Expect is "valid" or a text the outcome must contain.
	Expect string
	// ExpectWasm, when set, replaces Expect for the WebAssembly surfaces
	// (wazero, Node): a result they cannot hold is a clear error there.
	ExpectWasm string
	// ExpectNode, when set, replaces Expect for the Node surface: V8's
	// call stack is smaller than the Go runtime's, and bindings/js reports
	// input nesting deeper than it allows as a clear error.
	ExpectNode string
	// Fast cases run in the package's tests (seconds in total).
	Fast bool
	// Upstream is what the API server's own code does with the input, from
	// the audit of issue 16 ("" where it was not measured).
	Upstream string
}

// Valid is the Expect of a case that must validate.
const Valid = "valid"

// Check reports whether outcome (as RunGo or a surface renders it) meets
// the expectation.
func (c Case) Check(outcome string) bool {
	if c.Expect == Valid {
		return outcome == Valid
	}
	return outcome != Valid && strings.Contains(outcome, c.Expect)
}

// Find returns the case named name.
func Find(name string) (Case, bool) {
	for _, c := range Cases() {
		if c.Name == name {
			return c, true
		}
	}
	return Case{}, false
}

// RunGo compiles the CRD and validates the objects with the Go API and
// returns the outcome: "valid", or the errors (decode errors, CRD errors,
// validation errors), one per line.
func RunGo(c Case) string {
	compiled, err := engine.Compile(c.CRD())
	if err != nil {
		return "compile: " + err.Error()
	}
	var out []string
	for _, e := range compiled.Errors() {
		out = append(out, "CRD: "+clip(e.Error()))
	}
	if len(out) > 0 || c.Object == nil {
		return outcome(out)
	}
	docs := splitDocuments(c.Object())
	for _, doc := range docs {
		res, err := compiled.Validate(doc, engine.ValidateOptions{})
		if err != nil {
			out = append(out, "validate: "+err.Error())
			continue
		}
		if res.DecodeError != "" {
			out = append(out, clip(res.DecodeError))
		}
		for _, e := range res.Errors {
			// details may be megabytes (an enum's supported values): the
			// outcome keeps the beginning of each
			short := *e
			short.Detail = clip(short.Detail)
			if s, ok := short.BadValue.(string); ok {
				short.BadValue = clip(s)
			}
			out = append(out, short.Error())
		}
	}
	return outcome(out)
}

// Clip is clip, for the surfaces of cmd/hostile.
func Clip(s string) string { return clip(s) }

// Outcome renders a surface's errors as RunGo does ("valid" for none).
func Outcome(errs []string) string { return outcome(errs) }

// Documents splits an object stream into documents as RunGo does.
func Documents(b []byte) [][]byte { return splitDocuments(b) }

// clip shortens s to its first 2,000 bytes.
func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}

func outcome(errs []string) string {
	if len(errs) == 0 {
		return Valid
	}
	return strings.Join(errs, "\n")
}

// splitDocuments splits a multi-document YAML stream at "---" lines (the
// Go API validates one document at a time; the CLI reads streams itself).
// Empty documents are skipped, as the CLI does.
func splitDocuments(b []byte) [][]byte {
	if !bytes.Contains(b, []byte("\n---")) {
		return [][]byte{b}
	}
	var docs [][]byte
	for _, d := range bytes.Split(b, []byte("\n---")) {
		if len(bytes.TrimSpace(d)) > 0 && !bytes.Equal(bytes.TrimSpace(d), []byte("---")) {
			docs = append(docs, d)
		}
	}
	if len(docs) == 0 {
		return [][]byte{b}
	}
	return docs
}

// ---- builders ----

const (
	group   = "hostile.example.com"
	kind    = "Hostile"
	plural  = "hostiles"
	version = "v1"
)

// crdWith returns a CRD whose spec has the given schema.
func crdWith(spec map[string]interface{}) []byte {
	return crdWithRoot(map[string]interface{}{
		"type":       "object",
		"properties": map[string]interface{}{"spec": spec},
	})
}

func crdWithRoot(root map[string]interface{}) []byte {
	c := map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]interface{}{"name": plural + "." + group},
		"spec": map[string]interface{}{
			"group": group,
			"names": map[string]interface{}{"kind": kind, "listKind": kind + "List", "plural": plural, "singular": "hostile"},
			"scope": "Namespaced",
			"versions": []interface{}{map[string]interface{}{
				"name": version, "served": true, "storage": true,
				"schema": map[string]interface{}{"openAPIV3Schema": root},
			}},
		},
	}
	return mustJSON(c)
}

// object returns a Hostile object with the given spec.
func object(spec interface{}) []byte {
	return mustJSON(objectMap(spec))
}

func objectMap(spec interface{}) map[string]interface{} {
	return map[string]interface{}{
		"apiVersion": group + "/" + version,
		"kind":       kind,
		"metadata":   map[string]interface{}{"name": "h", "namespace": "default"},
		"spec":       spec,
	}
}

func mustJSON(v interface{}) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// stringSpec is an object schema with a string property s and the rules.
func stringSpec(maxLength int, rules ...map[string]interface{}) map[string]interface{} {
	s := map[string]interface{}{"type": "string"}
	if maxLength > 0 {
		s["maxLength"] = maxLength
	}
	spec := map[string]interface{}{
		"type":       "object",
		"properties": map[string]interface{}{"s": s},
	}
	if len(rules) > 0 {
		rs := make([]interface{}, len(rules))
		for i, r := range rules {
			rs[i] = r
		}
		spec["x-kubernetes-validations"] = rs
	}
	return spec
}

func rule(r string) map[string]interface{} { return map[string]interface{}{"rule": r} }

func plainCRD() []byte {
	return crdWith(map[string]interface{}{"type": "object", "x-kubernetes-preserve-unknown-fields": true})
}

// enumValues returns n distinct strings.
func enumValues(n int) []interface{} {
	out := make([]interface{}, n)
	for i := range out {
		out[i] = fmt.Sprintf("value-%07d", i)
	}
	return out
}

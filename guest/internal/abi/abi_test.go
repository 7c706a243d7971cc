package abi

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
)

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, maximum: 10}
  - name: v0
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object}
`

func call(t *testing.T, s *Server, req string) wire.Response {
	t.Helper()
	var env wire.Response
	raw := s.Handle([]byte(req))
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatalf("response is not JSON: %v: %s", err, raw)
	}
	if env.OK == (env.Error != nil) {
		t.Fatalf("response must have exactly one of result and error: %s", raw)
	}
	return env
}

func request(t *testing.T, fields map[string]interface{}) string {
	b, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestVersionReportsABIAndEngine(t *testing.T) {
	env := call(t, NewServer(), `{"op":"version"}`)
	want, _ := json.Marshal(wire.VersionResult{ABI: wire.ABIVersion, Engine: engine.Version, KubeVersions: engine.SupportedKubeVersions(), DefaultKubeVersion: engine.DefaultKubeVersion})
	if string(env.Result) != string(want) {
		t.Fatalf("got %s, want %s", env.Result, want)
	}
}

func TestCompileValidateFreeRoundTrip(t *testing.T) {
	s := NewServer()
	env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": crd}))
	var cr wire.CompileResult
	if err := json.Unmarshal(env.Result, &cr); err != nil {
		t.Fatal(err)
	}
	if cr.Handle == 0 || len(cr.CRD.Errors) != 0 || strings.Join(cr.Versions, ",") != "v1" {
		t.Fatalf("compile result %s", env.Result)
	}
	obj := `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"replicas":11}}`
	env = call(t, s, request(t, map[string]interface{}{"op": "validate", "handle": cr.Handle, "object": obj}))
	c, _ := engine.Compile([]byte(crd))
	res, _ := c.Validate([]byte(obj), engine.ValidateOptions{})
	want, _ := json.Marshal(engine.NewReport(c, res))
	if string(env.Result) != string(want) {
		t.Fatalf("validate result differs from native\n got %s\nwant %s", env.Result, want)
	}
	// The same object as bytes (base64) gives the same answer.
	env2 := call(t, s, request(t, map[string]interface{}{"op": "validate", "handle": cr.Handle, "objectBytes": []byte(obj)}))
	if string(env2.Result) != string(want) {
		t.Fatalf("objectBytes result differs: %s", env2.Result)
	}
	env = call(t, s, request(t, map[string]interface{}{"op": "validate", "handle": cr.Handle, "object": obj, "version": "v0"}))
	if env.Error == nil || env.Error.Code != "Invalid" || !strings.Contains(env.Error.Message, `version "v0" is not served`) {
		t.Fatalf("unserved version: %+v", env.Error)
	}
	call(t, s, request(t, map[string]interface{}{"op": "free", "handle": cr.Handle}))
	env = call(t, s, request(t, map[string]interface{}{"op": "validate", "handle": cr.Handle, "object": obj}))
	if env.Error == nil || env.Error.Code != "NotFound" {
		t.Fatalf("validate after free: %+v", env.Error)
	}
}

func TestInvalidCRDValidatesToTheCRDReport(t *testing.T) {
	s := NewServer()
	bad := strings.Replace(crd, "scope: Namespaced", "scope: Galactic", 1)
	env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": bad}))
	var cr wire.CompileResult
	_ = json.Unmarshal(env.Result, &cr)
	if len(cr.CRD.Errors) == 0 {
		t.Fatalf("expected CRD errors: %s", env.Result)
	}
	env = call(t, s, request(t, map[string]interface{}{"op": "validate", "handle": cr.Handle, "object": "{}"}))
	if !strings.Contains(string(env.Result), `"object":null`) || !strings.Contains(string(env.Result), "spec.scope") {
		t.Fatalf("got %s", env.Result)
	}
}

func TestErrorsHaveDocumentedCodes(t *testing.T) {
	tests := []struct {
		name, req string
		code      wire.ErrorCode
		contains  string
	}{
		{"not JSON", `nope`, "BadRequest", "not a valid JSON request object"},
		{"no op", `{"crd":""}`, "BadRequest", `request has no "op"`},
		{"unknown op", `{"op":"frobnicate"}`, "BadRequest", `unknown op "frobnicate"`},
		{"cost of an undecodable CRD", `{"op":"cost","crd":"kind: [x"}`, "DecodeError", ""},
		{"undecodable CRD", `{"op":"lint","crd":"kind: [x"}`, "DecodeError", ""},
		{"two CRDs", request(t, map[string]interface{}{"op": "compile", "crd": crd + "---\n" + crd}), "DecodeError", "expected exactly one CustomResourceDefinition, found 2"},
		{"unknown handle", `{"op":"validate","handle":9}`, "NotFound", "no compiled CRD with handle 9"},
		{"free unknown handle", `{"op":"free","handle":9}`, "NotFound", "no compiled CRD with handle 9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := call(t, NewServer(), tt.req)
			if env.Error == nil || env.Error.Code != tt.code || !strings.Contains(env.Error.Message, tt.contains) {
				t.Fatalf("got %+v, want %s containing %q", env.Error, tt.code, tt.contains)
			}
		})
	}
}

// TestEveryOpOfTheTableIsDispatched: each op of wire.Ops reaches its
// handler (an empty request fails there, never as an unknown op), and the
// unknown-op error names them all, in the table's order.
func TestEveryOpOfTheTableIsDispatched(t *testing.T) {
	for _, o := range wire.Ops {
		env := call(t, NewServer(), request(t, map[string]interface{}{"op": o.Op}))
		if env.Error != nil && strings.HasPrefix(env.Error.Message, "unknown op") {
			t.Errorf("%s: %s", o.Op, env.Error.Message)
		}
	}
	env := call(t, NewServer(), `{"op":"nope"}`)
	want := `unknown op "nope" (expected version, compile, lint, validate, validateAll, cost, free, upgrade, test, schema, bench, conversionReview, complete, admit or apply)`
	if env.Error == nil || env.Error.Message != want {
		t.Errorf("got %+v, want %q", env.Error, want)
	}
}

func TestOversizedRequestIsRefused(t *testing.T) {
	env := call(t, NewServer(), `{"op":"version","crd":"`+strings.Repeat("x", MaxRequestBytes)+`"}`)
	if env.Error == nil || env.Error.Code != "BadRequest" || !strings.Contains(env.Error.Message, "exceeds the limit") {
		t.Fatalf("got %+v", env.Error)
	}
}

func TestPanicBecomesAnErrorResponse(t *testing.T) {
	orig := compile
	defer func() { compile = orig }()
	compile = func(context.Context, []byte, string, string, string) (*engine.CRD, error) { panic("boom") }
	s := NewServer()
	env := call(t, s, `{"op":"compile","crd":"x"}`)
	if env.Error == nil || env.Error.Code != "Panic" || !strings.Contains(env.Error.Message, "internal error: boom") {
		t.Fatalf("got %+v", env.Error)
	}
	compile = orig
	if env := call(t, s, `{"op":"version"}`); !env.OK {
		t.Fatalf("server unusable after a panic: %+v", env.Error)
	}
}

func TestCostIsTheNativeCostReport(t *testing.T) {
	withRule := strings.Replace(crd, "              replicas: {type: integer, maximum: 10}\n",
		"              replicas: {type: integer, maximum: 10}\n              tags: {type: array, items: {type: string}}\n            x-kubernetes-validations:\n            - rule: \"self.tags.all(t, t.size() < 10)\"\n", 1)
	if withRule == crd {
		t.Fatal("test CRD changed shape")
	}
	obj := `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"tags":["a","b"]}}`
	env := call(t, NewServer(), request(t, map[string]interface{}{"op": "cost", "crd": withRule, "objects": []string{obj}}))
	rep, err := cost.AnalyzeBytes([]byte(withRule), []byte(obj))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(rep)
	if string(env.Result) != string(want) {
		t.Fatalf("cost result differs from native\n got %s\nwant %s", env.Result, want)
	}
	if !strings.Contains(string(want), "self.tags.all") {
		t.Fatalf("report does not list the rule: %s", want)
	}
}

// TestResultEnvelopeIsTheMarshaledResponse: encodeResult writes the bytes
// json.Marshal gives for the wire.Response carrying the result.
func TestResultEnvelopeIsTheMarshaledResponse(t *testing.T) {
	c, _ := engine.Compile([]byte(crd))
	res, _ := c.Validate([]byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"<a&b>"},"spec":{"replicas":11}}`), engine.ValidateOptions{})
	for _, result := range []interface{}{engine.NewReport(c, res), wire.FreeResult{}, wire.VersionResult{ABI: 1, Engine: "dev"}} {
		b, err := json.Marshal(result)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(wire.Response{OK: true, Result: b})
		if got := encodeResult(result); string(got) != string(want) {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	}
}

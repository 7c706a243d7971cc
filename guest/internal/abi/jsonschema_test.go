package abi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
	crdtypes "github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/jsonschema"
	"github.com/crdlab/crdlab/wire"
)

// twoVersions is the test CRD with a second served version and a rule.
var twoVersions = strings.Replace(strings.Replace(crd, "    served: false\n", "    served: true\n", 1),
	"              replicas: {type: integer, maximum: 10}\n",
	"              replicas: {type: integer, maximum: 10}\n              tags: {type: array, maxItems: 8, items: {type: string, maxLength: 16}}\n            x-kubernetes-validations:\n            - rule: \"self.tags.all(t, t.size() < 10)\"\n              messageExpression: \"'too long: ' + self.tags.join(',')\"\n", 1)

// nativeSchemas is what `crdlab schema` writes for data: the documents of
// jsonschema.Convert, rendered by Schema.JSON.
func nativeSchemas(t *testing.T, data string, opts jsonschema.Options) map[string]string {
	t.Helper()
	def, err := crdtypes.DecodeOne([]byte(data), "")
	if err != nil {
		t.Fatal(err)
	}
	if c := engine.CompileCRD(def); len(c.Errors()) > 0 {
		t.Fatalf("test CRD invalid: %v", c.Errors())
	}
	schemas, err := jsonschema.Convert(def, opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i := range schemas {
		b, err := schemas[i].JSON()
		if err != nil {
			t.Fatal(err)
		}
		out[schemas[i].Version] = string(b)
	}
	return out
}

func schemaResult(t *testing.T, env wire.Response) wire.SchemaResult {
	t.Helper()
	if env.Error != nil {
		t.Fatalf("schema: %+v", env.Error)
	}
	var res wire.SchemaResult
	if err := json.Unmarshal(env.Result, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSchemaIsTheNativeExport: "schema" answers, for CRD text and for a
// handle, under each option, the documents `crdlab schema` writes byte for
// byte, in the order asked for.
func TestSchemaIsTheNativeExport(t *testing.T) {
	s := NewServer()
	env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": twoVersions}))
	var cr wire.CompileResult
	if err := json.Unmarshal(env.Result, &cr); err != nil || cr.Handle == 0 {
		t.Fatalf("compile: %s", env.Result)
	}
	tests := []struct {
		name     string
		fields   map[string]interface{}
		opts     jsonschema.Options
		versions []string
		files    []string
	}{
		{"text, defaults", map[string]interface{}{"crd": twoVersions}, jsonschema.Options{}, []string{"v1", "v0"}, []string{"crontab_v1.json", "crontab_v0.json"}},
		{"handle, defaults", map[string]interface{}{"handle": cr.Handle}, jsonschema.Options{}, []string{"v1", "v0"}, []string{"crontab_v1.json", "crontab_v0.json"}},
		{"draft-07 strict catalog", map[string]interface{}{"handle": cr.Handle, "draft": "07", "strict": true, "layout": "catalog"},
			jsonschema.Options{Draft: jsonschema.Draft07, Strict: true}, []string{"v1", "v0"}, []string{"stable.example.com/crontab_v1.json", "stable.example.com/crontab_v0.json"}},
		{"one version", map[string]interface{}{"crd": twoVersions, "version": "v0", "strict": true}, jsonschema.Options{Strict: true}, []string{"v0"}, []string{"crontab_v0.json"}},
		{"versions in the order asked", map[string]interface{}{"handle": cr.Handle, "versions": []string{"v0", "v1"}}, jsonschema.Options{}, []string{"v0", "v1"}, []string{"crontab_v0.json", "crontab_v1.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.fields["op"] = "schema"
			res := schemaResult(t, call(t, s, request(t, tt.fields)))
			want := nativeSchemas(t, twoVersions, tt.opts)
			if len(res.CRD.Errors) != 0 || len(res.Schemas) != len(tt.versions) {
				t.Fatalf("got %d schemas, CRD errors %v; want %d", len(res.Schemas), res.CRD.Errors, len(tt.versions))
			}
			for i, d := range res.Schemas {
				if d.Version != tt.versions[i] || d.FileName != tt.files[i] || d.Group != "stable.example.com" || d.Kind != "CronTab" {
					t.Errorf("schema %d: %s %s %s %s; want %s in %s", i, d.Group, d.Version, d.Kind, d.FileName, tt.versions[i], tt.files[i])
				}
				if d.Document != want[d.Version] {
					t.Errorf("%s: document differs from the native export\n got %s\nwant %s", d.Version, d.Document, want[d.Version])
				}
			}
			if v1 := res.Schemas[0]; v1.Version == "v1" && !strings.Contains(strings.Join(v1.Unexpressed, "\n"), `CEL rule "self.tags.all(t, t.size() < 10)"`) {
				t.Errorf("v1 unexpressed %q: the CEL rule is not listed", v1.Unexpressed)
			}
		})
	}
}

// TestSchemaOfARejectedCRD: no documents, the CRD's errors (as `crdlab
// schema` prints them and writes nothing); the same for a CRD rejected
// for an unknown field under Strict, which Ignore accepts.
func TestSchemaOfARejectedCRD(t *testing.T) {
	s := NewServer()
	res := schemaResult(t, call(t, s, request(t, map[string]interface{}{"op": "schema", "crd": strings.Replace(crd, "scope: Namespaced", "scope: Galactic", 1)})))
	if len(res.Schemas) != 0 || len(res.CRD.Errors) == 0 || !strings.Contains(res.CRD.Errors[0].Message, "Galactic") {
		t.Fatalf("rejected CRD: %+v", res)
	}
	unknown := strings.Replace(crd, "        type: object\n", "        type: object\n        bogus: 1\n", 1)
	res = schemaResult(t, call(t, s, request(t, map[string]interface{}{"op": "schema", "crd": unknown})))
	if len(res.Schemas) != 0 || !strings.Contains(res.CRD.DecodeError, `unknown field "spec.versions[0].schema.openAPIV3Schema.bogus"`) {
		t.Fatalf("unknown field, Strict: %+v", res)
	}
	res = schemaResult(t, call(t, s, request(t, map[string]interface{}{"op": "schema", "crd": unknown, "crdFieldValidation": "Ignore"})))
	if len(res.Schemas) != 1 || res.CRD.DecodeError != "" {
		t.Fatalf("unknown field, Ignore: %+v", res)
	}
}

func TestSchemaAndBenchErrors(t *testing.T) {
	tests := []struct {
		name     string
		fields   map[string]interface{}
		code     wire.ErrorCode
		contains string
	}{
		{"schema without a CRD", map[string]interface{}{"op": "schema"}, "BadRequest", `schema request needs a "handle" or a "crd"`},
		{"schema of an unknown handle", map[string]interface{}{"op": "schema", "handle": 7}, "NotFound", "no compiled CRD with handle 7"},
		{"schema of an undecodable CRD", map[string]interface{}{"op": "schema", "crd": "kind: [x"}, "DecodeError", ""},
		{"unknown draft", map[string]interface{}{"op": "schema", "crd": crd, "draft": "04"}, "BadRequest", `draft: unknown JSON Schema draft "04"`},
		{"unknown layout", map[string]interface{}{"op": "schema", "crd": crd, "layout": "flat"}, "BadRequest", `layout must be kubeconform or catalog, not "flat"`},
		{"unserved version", map[string]interface{}{"op": "schema", "crd": crd, "versions": []string{"v0"}}, "Invalid", `version "v0" is not served by CustomResourceDefinition "crontabs.stable.example.com" (served: v1)`},
		{"bench without a CRD", map[string]interface{}{"op": "bench", "objects": []string{"{}"}}, "BadRequest", `bench request needs a "handle" or a "crd"`},
		{"bench of an unknown handle", map[string]interface{}{"op": "bench", "handle": 7}, "NotFound", "no compiled CRD with handle 7"},
		{"bench of an undecodable CRD", map[string]interface{}{"op": "bench", "crd": "kind: [x"}, "DecodeError", ""},
		{"bench of a CRD with an unknown field", map[string]interface{}{"op": "bench", "crd": strings.Replace(crd, "        type: object\n", "        type: object\n        bogus: 1\n", 1)}, "DecodeError", `unknown field "spec.versions[0].schema.openAPIV3Schema.bogus"`},
		{"too many samples", map[string]interface{}{"op": "bench", "crd": crd, "samples": 1001}, "BadRequest", "samples between 1 and 1000"},
		{"negative duration", map[string]interface{}{"op": "bench", "crd": crd, "durationMs": -1}, "BadRequest", "durationMs must be between 1 and 10000"},
		{"bench past its timeout", map[string]interface{}{"op": "bench", "crd": twoVersions, "durationMs": 200, "timeoutMs": 1,
			"objects": []string{`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"tags":["a"]}}`}}, "Timeout", "context deadline exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A Timeout proves the deadline ended the bench: it is checked
			// before every figure (no wall-clock bound, which a loaded
			// machine would break).
			env := call(t, NewServer(), request(t, tt.fields))
			if env.Error == nil || env.Error.Code != tt.code || !strings.Contains(env.Error.Message, tt.contains) {
				t.Fatalf("got %+v, want %s containing %q", env.Error, tt.code, tt.contains)
			}
		})
	}
}

// TestSchemaOfTheExamples: the export of examples/crontab-crd.yaml through
// the ABI is the native one.
func TestSchemaOfTheExamples(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "crontab-crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	res := schemaResult(t, call(t, NewServer(), request(t, map[string]interface{}{"op": "schema", "crd": string(data)})))
	want := nativeSchemas(t, string(data), jsonschema.Options{})
	if len(res.Schemas) != len(want) || len(want) == 0 {
		t.Fatalf("%d schemas, want %d", len(res.Schemas), len(want))
	}
	for _, d := range res.Schemas {
		if d.Document != want[d.Version] {
			t.Errorf("%s differs from the native export", d.Version)
		}
	}
}

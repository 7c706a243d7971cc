package abi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
)

// TestValidateAll: "validateAll" answers one report per document, each the
// native report, with its index and line; "validate" refuses a stream.
func TestValidateAll(t *testing.T) {
	s := NewServer()
	var cr wire.CompileResult
	json.Unmarshal(call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": crd})).Result, &cr)
	good := "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {replicas: 1}\n"
	bad := "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: b}\nspec: {replicas: 11}\n"
	v0 := "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\n"
	stream := good + "---\n# empty\n---\n" + bad + "---\n" + v0
	env := call(t, s, request(t, map[string]interface{}{"op": "validate", "handle": cr.Handle, "object": stream}))
	if env.Error == nil || env.Error.Code != wire.CodeInvalid || !strings.Contains(env.Error.Message, "holds 3 YAML documents") {
		t.Fatalf("validate of a stream: %+v", env.Error)
	}
	env = call(t, s, request(t, map[string]interface{}{"op": "validateAll", "handle": cr.Handle, "object": stream}))
	var res wire.ValidateAllResult
	if err := json.Unmarshal(env.Result, &res); err != nil || len(res.Documents) != 3 {
		t.Fatalf("validateAll: %s", env.Result)
	}
	c, _ := engine.Compile([]byte(crd))
	for i, tc := range []struct {
		doc  string
		line int
	}{{good, 1}, {bad, 8}, {v0, 13}} {
		d := res.Documents[i]
		r, _ := c.Validate([]byte(tc.doc), engine.ValidateOptions{})
		want, _ := json.Marshal(engine.NewReport(c, r))
		got, _ := json.Marshal(d.Report)
		if d.Index != i || d.Line != tc.line || string(got) != string(want) {
			t.Errorf("document %d: index %d line %d\n got %s\nwant %s", i, d.Index, d.Line, got, want)
		}
	}
	env = call(t, s, request(t, map[string]interface{}{"op": "validateAll", "handle": cr.Handle, "object": good, "version": "v0"}))
	json.Unmarshal(env.Result, &res)
	if len(res.Documents) != 1 || res.Documents[0].Error == nil || !strings.Contains(res.Documents[0].Error.Message, `version "v0" is not served`) {
		t.Errorf("per-document error: %s", env.Result)
	}
	env = call(t, s, request(t, map[string]interface{}{"op": "validateAll", "handle": cr.Handle, "object": good + "--- x\n"}))
	if env.Error == nil || env.Error.Message != "line 5: invalid Yaml document separator: x" {
		t.Errorf("bad separator: %+v", env.Error)
	}
}

// TestValidateAllTimeout: "validateAll" carries timeoutMs for the whole
// stream; documents not reached before it elapses answer the Timeout code,
// the ones validated before it keep their reports, and the instance
// answers the next call normally.
func TestValidateAllTimeout(t *testing.T) {
	s := NewServer()
	var cr wire.CompileResult
	json.Unmarshal(call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": crd})).Result, &cr)
	doc := "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {replicas: 1}\n"
	stream := strings.Repeat(doc+"---\n", 5000)
	env := call(t, s, request(t, map[string]interface{}{"op": "validateAll", "handle": cr.Handle, "object": stream, "timeoutMs": 1}))
	var res wire.ValidateAllResult
	if err := json.Unmarshal(env.Result, &res); err != nil || len(res.Documents) != 5000 {
		t.Fatalf("validateAll: %.300s", env.Result)
	}
	last := res.Documents[len(res.Documents)-1]
	if last.Error == nil || last.Error.Code != wire.CodeTimeout || !strings.Contains(last.Error.Message, "validating document 4999: context deadline exceeded") {
		t.Errorf("last document after the deadline: %+v", last)
	}
	env = call(t, s, request(t, map[string]interface{}{"op": "validateAll", "handle": cr.Handle, "object": doc + "---\n" + doc, "timeoutMs": 60000}))
	res = wire.ValidateAllResult{}
	json.Unmarshal(env.Result, &res)
	if len(res.Documents) != 2 || res.Documents[1].Report == nil || res.Documents[1].Error != nil {
		t.Errorf("the next call: %s", env.Result)
	}
}

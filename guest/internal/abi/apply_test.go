package abi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
)

// TestApply: "apply" answers the report of apply.Run on the same inputs
// (rendered by Report.Wire, `crdlab apply -o json` plus owners), from a
// stored object or none, at the request's time.
func TestApply(t *testing.T) {
	crdYAML := readTestFile(t, "examples/apply/upgrade/crd-v2-map.yaml")
	stored := readTestFile(t, "examples/apply/upgrade/stored.json")
	steps := readTestFile(t, "examples/apply/upgrade/after.yaml")
	before := readTestFile(t, "examples/apply/upgrade/before.yaml")
	c, err := engine.Compile([]byte(crdYAML))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, stored, steps, time string
	}{
		{"from a stored object", stored, steps, ""},
		{"a create, at a time", "", before, "2027-05-01T10:00:00Z"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := NewServer()
			h := compileHandle(t, s, crdYAML)
			parsed, err := apply.ParseSteps([]byte(tt.steps))
			if err != nil {
				t.Fatal(err)
			}
			opts := apply.Options{}
			if tt.time != "" {
				opts.Time, _ = time.Parse(time.RFC3339, tt.time)
			}
			var st []byte
			if tt.stored != "" {
				st = []byte(tt.stored)
			}
			rep, err := apply.Run(c, st, parsed, opts)
			if err != nil {
				t.Fatal(err)
			}
			w, err := rep.Wire()
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(w)
			env := call(t, s, request(t, map[string]interface{}{"op": "apply", "handle": h, "steps": tt.steps, "stored": tt.stored, "time": tt.time}))
			if !env.OK || string(env.Result) != string(want) {
				t.Fatalf("got %s %+v\nwant %s", env.Result, env.Error, want)
			}
			var res wire.ApplyResult
			if err := json.Unmarshal(env.Result, &res); err != nil || len(res.Steps) != len(parsed) || len(res.Steps[0].Owners) == 0 {
				t.Fatalf("result: %s (%v)", env.Result, err)
			}
		})
	}
}

// TestApplyErrors: what "apply" refuses, with which code.
func TestApplyErrors(t *testing.T) {
	s := NewServer()
	h := compileHandle(t, s, readTestFile(t, "examples/apply/upgrade/crd-v2-map.yaml"))
	steps := "- {manager: a, operation: Apply, object: {apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: x}}}\n"
	for _, tt := range []struct {
		name string
		req  map[string]interface{}
		code wire.ErrorCode
		msg  string
	}{
		{"no handle", map[string]interface{}{"op": "apply", "handle": 99, "steps": steps}, wire.CodeNotFound, "no compiled CRD"},
		{"no steps", map[string]interface{}{"op": "apply", "handle": h}, wire.CodeBadRequest, `needs "steps"`},
		{"bad steps", map[string]interface{}{"op": "apply", "handle": h, "steps": "- manager: a\n  operation: Patch\n"}, wire.CodeBadRequest, `steps: line 2: step 1: operation "Patch"`},
		{"bad time", map[string]interface{}{"op": "apply", "handle": h, "steps": steps, "time": "yesterday"}, wire.CodeBadRequest, `"time"`},
		{"bad fieldValidation", map[string]interface{}{"op": "apply", "handle": h, "steps": steps, "fieldValidation": "Loose"}, wire.CodeBadRequest, `"fieldValidation" "Loose"`},
		{"bad stored object", map[string]interface{}{"op": "apply", "handle": h, "steps": steps, "stored": "[1"}, wire.CodeInvalid, "stored object"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := call(t, s, request(t, tt.req))
			if env.OK || env.Error.Code != tt.code || !strings.Contains(env.Error.Message, tt.msg) {
				t.Errorf("got %+v %+v, want %s containing %q", env.OK, env.Error, tt.code, tt.msg)
			}
		})
	}
}

func compileHandle(t *testing.T, s *Server, crd string) uint32 {
	t.Helper()
	env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": crd}))
	var cr wire.CompileResult
	if !env.OK || json.Unmarshal(env.Result, &cr) != nil || cr.Handle == 0 {
		t.Fatalf("compile: %+v", env.Error)
	}
	return cr.Handle
}

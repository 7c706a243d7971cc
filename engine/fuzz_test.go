package engine_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/testsupport/cputime"
)

// fuzzMaxInput bounds fuzz inputs (objects and CRDs of the corpus are far
// smaller; larger inputs only slow the fuzzer down).
const fuzzMaxInput = 64 << 10

// fuzzCPU is the CPU time one input may use before it counts as runaway
// work (the corpus's inputs use milliseconds): CPU time, which other
// processes' load does not inflate. fuzzHang is the wall-clock hang
// detector for an input that never returns, far beyond any loaded run;
// go test -fuzz runs without -timeout's alarm, so it is needed.
const (
	fuzzCPU  = 10 * time.Second
	fuzzHang = 3 * time.Minute
)

// internalErrorMarkers are the prefixes of the errors the engine returns when
// it recovered from a panic: a fuzz input producing one found a crash.
var internalErrorMarkers = []string{
	"crdlab: internal error",
	"crdlab: CRD validation panicked",
	"crdlab: building validators panicked",
}

func isRecoveredPanic(msg string) bool {
	for _, m := range internalErrorMarkers {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// withDeadline runs fn and fails the test if it panics, uses more than
// fuzzCPU of CPU time or does not return within fuzzHang.
func withDeadline(t *testing.T, what string, input []byte, fn func()) {
	t.Helper()
	cpu := cputime.Start()
	done := make(chan interface{}, 1)
	go func() {
		defer func() { done <- recover() }()
		fn()
	}()
	select {
	case p := <-done:
		if p != nil {
			t.Fatalf("%s panicked: %v\ninput: %q", what, p, head(input))
		}
		cpu.Check(t, fuzzCPU, what)
	case <-time.After(fuzzHang):
		t.Fatalf("%s did not return within %v; input (%d bytes): %q", what, fuzzHang, len(input), head(input))
	}
}

func head(b []byte) []byte {
	if len(b) > 300 {
		return b[:300]
	}
	return b
}

// fuzzCRD exercises most of the schema features the pipeline implements:
// defaults, nullable, int-or-string, embedded resources, preserved unknown
// fields, list-type set/map, formats, patterns, CEL rules (including a
// transition rule), and the status and scale subresources.
const fuzzCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.fuzz.example.com
spec:
  group: fuzz.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [name]
            x-kubernetes-validations:
            - rule: "self.minReplicas <= self.replicas"
              message: "minReplicas must not exceed replicas"
            - rule: "self.name == oldSelf.name"
              message: "name is immutable"
            properties:
              name: {type: string, minLength: 1, maxLength: 63, pattern: '^[a-z]([-a-z0-9]*[a-z0-9])?$'}
              replicas: {type: integer, format: int32, minimum: 0, default: 1}
              minReplicas: {type: integer, default: 0}
              ratio: {type: number, multipleOf: 0.5, exclusiveMaximum: true, maximum: 100}
              port: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
              email: {type: string, format: email}
              created: {type: string, format: date-time}
              mode: {type: string, enum: [Fast, Slow], default: Fast}
              note: {type: string, nullable: true}
              tags:
                type: array
                maxItems: 8
                x-kubernetes-list-type: set
                items: {type: string, maxLength: 16}
              ports:
                type: array
                maxItems: 16
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name, protocol]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string, maxLength: 15}
                    protocol: {type: string, maxLength: 8, default: TCP}
                    port: {type: integer, minimum: 1, maximum: 65535}
                  x-kubernetes-validations:
                  - rule: "!has(self.port) || self.port != 22"
                    messageExpression: "'port ' + self.name + ' is reserved'"
                    reason: FieldValueForbidden
                    fieldPath: .port
              labels:
                type: object
                maxProperties: 4
                additionalProperties: {type: string}
                x-kubernetes-map-type: granular
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              choice:
                type: object
                properties:
                  a: {type: string}
                  b: {type: string}
                oneOf:
                - required: [a]
                - required: [b]
          status:
            type: object
            properties:
              replicas: {type: integer}
              selector: {type: string}
              conditions:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
                items:
                  type: object
                  required: [type, status]
                  properties:
                    type: {type: string}
                    status: {type: string, enum: ["True", "False", "Unknown"]}
`

// fuzzObject is a valid Widget (v1) used as the seed of objects and old objects.
const fuzzObject = `{"apiVersion":"fuzz.example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default","labels":{"a":"b"},"finalizers":["fuzz.example.com/f"]},"spec":{"name":"w","replicas":3,"ratio":1.5,"port":"http","email":"a@b.c","created":"2024-01-01T00:00:00Z","tags":["x","y"],"ports":[{"name":"http","port":80}],"labels":{"k":"v"},"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}},"extra":{"anything":[1,2,{"x":null}]},"choice":{"a":"x"}},"status":{"replicas":3,"selector":"app=w","conditions":[{"type":"Ready","status":"True"}]}}`

// fuzzCRDs are compiled once; FuzzValidate picks one per input.
var fuzzCRDs = sync.OnceValues(func() ([]*engine.CRD, error) {
	sources := [][]byte{[]byte(fuzzCRD)}
	if b, err := os.ReadFile("../examples/crontab-crd.yaml"); err == nil {
		sources = append(sources, b)
	}
	var out []*engine.CRD
	for _, src := range sources {
		c, err := engine.Compile(src)
		if err != nil {
			return nil, err
		}
		if len(c.Errors()) > 0 {
			return nil, c.Errors().ToAggregate()
		}
		out = append(out, c)
	}
	return out, nil
})

// checkCompile compiles data and checks the engine's contract: no panic and
// no hang; a decoding error is located; every CRD error has a field path;
// a CRD without errors yields a validator that accepts a request without
// an internal error and whose report marshals to JSON.
func checkCompile(t *testing.T, data []byte) {
	t.Helper()
	var c *engine.CRD
	var err error
	withDeadline(t, "engine.Compile", data, func() { c, err = engine.Compile(data) })
	if err != nil {
		var de *crd.DecodeError
		if !errors.As(err, &de) && !strings.HasPrefix(err.Error(), "expected exactly one CustomResourceDefinition") {
			t.Fatalf("Compile error without a location (%T): %v", err, err)
		}
		return
	}
	for _, e := range c.Errors() {
		if isRecoveredPanic(e.Detail) || isRecoveredPanic(e.Error()) {
			t.Fatalf("CRD validation panicked: %v\ninput: %q", e, head(data))
		}
		if e.Field == "" && e.Type != "InternalError" {
			t.Fatalf("CRD error without a field path: %v", e)
		}
	}
	if _, err := json.Marshal(engine.NewReport(c, nil)); err != nil {
		t.Fatalf("CRD report does not marshal: %v", err)
	}
	if len(c.Errors()) > 0 {
		return
	}
	v, err := c.Validator("")
	if err != nil {
		if isRecoveredPanic(err.Error()) {
			t.Fatalf("building validators panicked: %v\ninput: %q", err, head(data))
		}
		return
	}
	obj := []byte(`{"apiVersion":"` + c.Definition().Spec.Group + "/" + v.Version() + `","kind":"` + c.Definition().Spec.Names.Kind + `","metadata":{"name":"x","namespace":"default"},"spec":{"a":1},"status":{}}`)
	var res *engine.Result
	withDeadline(t, "Validator.Validate", obj, func() { res, err = v.Validate(obj, engine.ValidateOptions{FieldValidation: engine.Warn}) })
	if err != nil {
		if isRecoveredPanic(err.Error()) {
			t.Fatalf("validating against the fuzzed CRD panicked: %v\nCRD: %q", err, head(data))
		}
		return
	}
	if _, err := json.Marshal(engine.NewReport(c, res)); err != nil {
		t.Fatalf("object report does not marshal: %v", err)
	}
}

// compileSeeds are hand-written CRD edge cases.
var compileSeeds = []string{
	fuzzCRD,
	`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.b.c"},"spec":{"group":"b.c","scope":"Cluster","names":{"plural":"as","kind":"A"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-validations":[{"rule":"self.x.size() * self.x.size() < 1000000000000"}],"properties":{"x":{"type":"array","items":{"type":"string"}}}}}}}}]}}`,
	`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.b.c"},"spec":{"group":"b.c","scope":"Cluster","names":{"plural":"as","kind":"A"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"string","pattern":"(((((a*)*)*)*)*","maxLength":1e300,"default":"\u0000"}}}}}]}}`,
	// deep schema nesting
	`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.b.c"},"spec":{"group":"b.c","scope":"Cluster","names":{"plural":"as","kind":"A"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":` + strings.Repeat(`{"type":"object","properties":{"a":`, 300) + `{"type":"string"}` + strings.Repeat("}}", 300) + `}}}}]}}`,
	// a default that is invalid, a bad regex, a bad list-map key, an unknown format
	`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.b.c"},"spec":{"group":"b.c","scope":"Cluster","names":{"plural":"as","kind":"A"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"n":{"type":"integer","default":"x"},"r":{"type":"string","pattern":"(["},"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object"}},"f":{"type":"string","format":"nope"}}}}}}}]}}`,
	// CEL edge cases: syntax error, wrong result type, oldSelf under an
	// uncorrelatable list, messageExpression of the wrong type, a bad
	// fieldPath, an unbounded comprehension
	`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.b.c"},"spec":{"group":"b.c","scope":"Cluster","names":{"plural":"as","kind":"A"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-validations":[{"rule":"self.(("},{"rule":"1 + 1"},{"rule":"true","messageExpression":"42"},{"rule":"true","fieldPath":".nope[0]"},{"rule":"self.l.all(x, self.l.all(y, self.l.all(z, x + y + z != '')))"}],"properties":{"l":{"type":"array","items":{"type":"string"}},"al":{"type":"array","x-kubernetes-list-type":"atomic","items":{"type":"object","x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}}}}}}}]}}`,
	"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n",
	"",
	billionLaughsCRD,
}

// billionLaughsCRD hides the YAML alias bomb in a schema's enum.
const billionLaughsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: lols.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {plural: lols, kind: Lol}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
        x-b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
        x-c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
        x-d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
        x-e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
        x-f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
        x-g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
        x-h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
        enum: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`

// FuzzCompile feeds arbitrary bytes to engine.Compile as a CRD.
func FuzzCompile(f *testing.F) {
	for _, s := range compileSeeds {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile("../examples/crontab-crd.yaml"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMaxInput {
			t.Skip("input larger than fuzzMaxInput")
		}
		checkCompile(t, data)
	})
}

// validateModes are the request kinds FuzzValidate cycles through.
var validateModes = []struct {
	fv          engine.FieldValidation
	subresource string
}{
	{engine.Strict, ""},
	{engine.Warn, ""},
	{engine.Ignore, ""},
	{engine.Strict, "status"},
	{engine.Warn, "status"},
}

// checkValidate validates obj (and old, when not empty) against the CRD
// selected by crdIndex in the mode selected by mode.
func checkValidate(t *testing.T, crds []*engine.CRD, crdIndex, mode uint8, obj, old []byte) {
	t.Helper()
	c := crds[int(crdIndex)%len(crds)]
	m := validateModes[int(mode)%len(validateModes)]
	opts := engine.ValidateOptions{FieldValidation: m.fv, Subresource: m.subresource}
	if len(old) > 0 {
		opts.Old = old
	} else if m.subresource != "" {
		opts.Subresource = ""
	}
	var res *engine.Result
	var err error
	input := append(append([]byte{}, obj...), old...)
	withDeadline(t, "CRD.Validate", input, func() { res, err = c.Validate(obj, opts) })
	if err != nil {
		if isRecoveredPanic(err.Error()) {
			t.Fatalf("Validate recovered a panic: %v\nobject: %q\nold: %q\nmode: %+v", err, head(obj), head(old), m)
		}
		if res != nil {
			t.Fatalf("Validate returned both a result and an error: %v", err)
		}
		return
	}
	if res == nil {
		t.Fatal("Validate returned neither a result nor an error")
	}
	for _, e := range res.Errors {
		if e == nil {
			t.Fatal("nil error in Result.Errors")
		}
		if isRecoveredPanic(e.Detail) {
			t.Fatalf("validation error reports a recovered panic: %v\nobject: %q", e, head(obj))
		}
	}
	if res.DecodeError != "" && len(res.Errors) > 0 {
		t.Fatalf("result has both a decode error and validation errors: %q, %v", res.DecodeError, res.Errors)
	}
	if _, err := json.Marshal(engine.NewReport(c, res)); err != nil {
		t.Fatalf("report does not marshal to JSON: %v\nobject: %q", err, head(obj))
	}
}

// FuzzValidate validates arbitrary object bytes (and an arbitrary old
// object, making the request an update or a status update) against a fixed
// set of CRDs: it must never panic or hang, and the result must marshal.
func FuzzValidate(f *testing.F) {
	crds, err := fuzzCRDs()
	if err != nil {
		f.Fatalf("compiling the fuzz CRDs: %v", err)
	}
	var crontab []byte
	if b, err := os.ReadFile("../examples/valid.yaml"); err == nil {
		crontab = b
	}
	seeds := []struct {
		crd, mode uint8
		obj, old  string
	}{
		{0, 0, fuzzObject, ""},
		{0, 1, fuzzObject, fuzzObject},
		{0, 3, fuzzObject, fuzzObject},
		{0, 0, strings.Replace(fuzzObject, `"replicas":3`, `"replicas":3,"replicas":4`, 1), ""},
		{0, 1, strings.Replace(fuzzObject, `"ratio":1.5`, `"ratio":1e400`, 1), ""},
		{0, 2, strings.Replace(fuzzObject, `"name":"w","replicas"`, `"name":"\xff\xfe","replicas"`, 1), ""},
		{0, 0, strings.Replace(fuzzObject, `"extra":{`, `"extra":{"deep":`+strings.Repeat("[", 5000)+strings.Repeat("]", 5000)+`,`, 1), ""},
		{0, 0, strings.Replace(fuzzObject, `"replicas":3`, `"replicas":99999999999999999999999`, 1), ""},
		{0, 0, `{"apiVersion":"fuzz.example.com/v1beta1","kind":"Widget","metadata":{"name":"w"},"spec":{"anything":true}}`, ""},
		{0, 1, `{"apiVersion":"fuzz.example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"other"},"spec":null}`, `{"apiVersion":"fuzz.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"name":"old"}}`},
		{0, 0, "apiVersion: fuzz.example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: &s {name: w, extra: {self: *s}}\n", ""},
		{0, 0, objectBomb, ""},
		{0, 0, `null`, ""},
		{0, 0, ``, ""},
		{0, 0, `[]`, ""},
		{1, 0, string(crontab), ""},
		{1, 1, string(crontab), string(crontab)},
	}
	for _, s := range seeds {
		f.Add(s.crd, s.mode, []byte(s.obj), []byte(s.old))
	}
	f.Fuzz(func(t *testing.T, crdIndex, mode uint8, obj, old []byte) {
		if len(obj)+len(old) > fuzzMaxInput {
			t.Skip("input larger than fuzzMaxInput")
		}
		checkValidate(t, crds, crdIndex, mode, obj, old)
	})
}

// TestCompileEdgeCasesHoldTheContract names each hand-written CRD seed.
func TestCompileEdgeCasesHoldTheContract(t *testing.T) {
	for i, s := range compileSeeds {
		t.Run(fmt.Sprintf("seed%d", i), func(t *testing.T) {
			checkCompile(t, []byte(s))
		})
	}
}

// TestFuzzCRDCompilesCleanly pins that the fuzz CRD is valid and that its
// seed object validates without errors, so that FuzzValidate starts from
// the pipeline's success path, not from an early rejection.
func TestFuzzCRDCompilesCleanly(t *testing.T) {
	crds, err := fuzzCRDs()
	if err != nil {
		t.Fatal(err)
	}
	res, err := crds[0].Validate([]byte(fuzzObject), engine.ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Valid() {
		t.Fatalf("seed object invalid: decode %q, errors %v", res.DecodeError, res.Errors)
	}
}

// objectBomb is the alias bomb in an object, under a field that preserves
// unknown fields.
const objectBomb = `apiVersion: fuzz.example.com/v1
kind: Widget
metadata: {name: w}
spec:
  name: w
  extra:
    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
    c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
    e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
    f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
    g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
    h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
    i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`

// TestAliasBombsAreBounded pins that YAML alias bombs, in a CRD and in an
// object, are rejected or handled within seconds and a bounded amount of
// allocation instead of expanding to billions of values.
func TestAliasBombsAreBounded(t *testing.T) {
	crds, err := fuzzCRDs()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"crd", func() error { _, err := engine.Compile([]byte(billionLaughsCRD)); return err }},
		{"object", func() error {
			res, err := crds[0].Validate([]byte(objectBomb), engine.ValidateOptions{})
			if err == nil && res.DecodeError != "" {
				err = errors.New(res.DecodeError)
			}
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const maxAlloc = 256 << 20
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			cpu := cputime.Start()
			err := tc.run()
			runtime.ReadMemStats(&after)
			// The allocation bound below is the deterministic guard; in
			// CPU time (which other processes' load does not inflate),
			// the slower input uses 3 ms alone: a second, the floor every
			// such bound gets.
			cpu.Check(t, time.Second, tc.name)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > maxAlloc {
				t.Errorf("allocated %d MiB, want at most %d MiB", alloc>>20, maxAlloc>>20)
			}
			t.Logf("outcome: %v", err)
		})
	}
}

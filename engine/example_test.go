package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
)

func mustRead(name string) []byte {
	b, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return b
}

// Compile a CRD and validate an object against it: the errors are exactly
// the ones kube-apiserver returns.
func ExampleCompile() {
	c, err := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	if err != nil {
		panic(err)
	}
	fmt.Println("CRD errors:", len(c.Errors()))
	res, err := c.Validate(mustRead("../examples/invalid.yaml"), engine.ValidateOptions{})
	if err != nil {
		panic(err)
	}
	for _, e := range res.Errors {
		fmt.Println(e.Error())
	}
	// Output:
	// CRD errors: 0
	// spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'
	// spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10
}

// Validate returns the object as the API server would store it: unknown
// fields pruned (with fieldValidation Ignore), defaults applied.
func ExampleCRD_Validate() {
	c, _ := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	res, _ := c.Validate([]byte(`
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: defaulted
spec:
  image: nginx
  color: blue
`), engine.ValidateOptions{FieldValidation: engine.Ignore})
	spec := res.Object.(map[string]interface{})["spec"]
	b, _ := json.Marshal(spec)
	fmt.Println(string(b))
	fmt.Println("pruned:", res.Pruned)
	// Output:
	// {"cronSpec":"5 0 * * *","image":"nginx","replicas":1}
	// pruned: [spec.color]
}

// With fieldValidation Strict (the default, as kubectl), unknown fields fail
// the request while decoding.
func ExampleValidator_Validate() {
	c, _ := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	v, _ := c.Validator("v1")
	res, _ := v.Validate(mustRead("../examples/unknown-field.yaml"), engine.ValidateOptions{})
	fmt.Println(res.DecodeError)
	// Output:
	// CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.color"
}

// NewReport is the JSON document `crdlab validate -o json` prints.
func ExampleNewReport() {
	c, _ := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	res, _ := c.Validate(mustRead("../examples/valid.yaml"), engine.ValidateOptions{})
	b, _ := json.MarshalIndent(engine.NewReport(c, res), "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "crd": {
	//     "errors": [],
	//     "warnings": []
	//   },
	//   "object": {
	//     "result": {
	//       "apiVersion": "stable.example.com/v1",
	//       "kind": "CronTab",
	//       "metadata": {
	//         "generation": 1,
	//         "name": "my-new-cron-object",
	//         "namespace": "default"
	//       },
	//       "spec": {
	//         "cronSpec": "* * * * */5",
	//         "image": "my-awesome-cron-image",
	//         "replicas": 3
	//       }
	//     },
	//     "pruned": [],
	//     "errors": [],
	//     "warnings": []
	//   }
	// }
}

// InvalidMessage renders errors as kubectl prints them (several errors
// become "* " bullets).
func ExampleInvalidMessage() {
	c, _ := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	res, _ := c.Validate([]byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"replicas":0}}`), engine.ValidateOptions{})
	fmt.Print(engine.InvalidMessage("CronTab", "x", res.Errors))
	// Output:
	// The CronTab "x" is invalid: spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1
}

// The CRD create's fieldValidation: Strict (the default, as kubectl)
// rejects a CRD with unknown or duplicate fields as the API server does,
// Warn accepts it with warnings.
func ExampleCompileWithOptions() {
	crdYAML := []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","bogus":1}}}]}}`)
	strict, err := engine.CompileWithOptions(crdYAML, engine.CompileOptions{Filename: "widgets.json"})
	if err != nil {
		panic(err)
	}
	fmt.Println(strict.Valid())
	fmt.Println(strict.DecodeError())
	fmt.Println(strict.FieldErrors()[0].Pos)
	warn, err := engine.CompileWithOptions(crdYAML, engine.CompileOptions{FieldValidation: engine.Warn})
	if err != nil {
		panic(err)
	}
	fmt.Println(warn.Valid(), warn.Warnings())
	// Output:
	// false
	// CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: duplicate field "spec.scope", unknown field "spec.versions[0].schema.openAPIV3Schema.bogus"
	// widgets.json:3:52: duplicate field "spec.scope"
	// true [duplicate field "spec.scope" unknown field "spec.versions[0].schema.openAPIV3Schema.bogus"]
}

// An update reports the stored object as the API server reads it back:
// pruned and defaulted by the current schema.
func ExampleResult_oldObject() {
	c, err := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	if err != nil {
		panic(err)
	}
	old := []byte("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec: {image: a, removed: 1}\n")
	res, err := c.Validate([]byte("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec: {image: b}\n"), engine.ValidateOptions{Old: old})
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(res.OldObject.(map[string]interface{})["spec"])
	fmt.Println(string(b))
	// Output: {"cronSpec":"5 0 * * *","image":"a","replicas":1}
}

// Positions points each error at the line and column of its field in the
// document (for an editor's marks or a CI annotation).
func ExampleResult_Positions() {
	c, _ := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	res, _ := c.Validate(mustRead("../examples/invalid.yaml"), engine.ValidateOptions{})
	pos := res.Positions()
	for i, e := range res.Errors {
		fmt.Printf("invalid.yaml:%d:%d: %s\n", pos.Errors[i].Line, pos.Errors[i].Column, e.Field)
	}
	// Output:
	// invalid.yaml:8:3: spec.cronSpec
	// invalid.yaml:10:3: spec.replicas
}

// A CRD decoded separately (crd.DecodeOne, to name its file in decoding
// errors) keeps its positions when compiled with its source.
func ExampleCompileCRDWithSource() {
	src := []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Galactic
  names: {plural: crontabs, kind: CronTab}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`)
	def, err := crd.DecodeOne(src, "crontab.yaml")
	if err != nil {
		panic(err)
	}
	c := engine.CompileCRDWithSource(def, src)
	pos := c.Positions()
	for i, e := range c.Errors() {
		fmt.Printf("crontab.yaml:%d:%d: %s\n", pos.Errors[i].Line, pos.Errors[i].Column, e.Field)
	}
	// Output:
	// crontab.yaml:7:3: spec.scope
}

// CompileContext and ValidateContext bound the time of a request: a CEL
// rule interrupted by the deadline fails with an error naming it. Bodies
// over 3 MiB are rejected before decoding, as the API server rejects them.
func ExampleCRD_ValidateContext() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := engine.CompileContext(ctx, mustRead("../examples/crontab-crd.yaml"), engine.CompileOptions{})
	if err != nil {
		panic(err)
	}
	res, err := c.ValidateContext(ctx, mustRead("../examples/valid.yaml"), engine.ValidateOptions{})
	if err != nil {
		panic(err) // errors.Is(err, context.DeadlineExceeded) when the deadline passed outside the rules
	}
	fmt.Println("valid:", res.Valid())
	huge := append([]byte("# "), make([]byte, engine.MaxRequestBodyBytes)...)
	res, _ = c.ValidateContext(ctx, huge, engine.ValidateOptions{Version: "v1"})
	fmt.Println(res.DecodeError)
	// Output:
	// valid: true
	// Request entity too large: limit is 3145728
}

// ValidateAll validates each document of a YAML stream, with its index and
// line; Validate refuses a stream.
func ExampleCRD_ValidateAll() {
	c, err := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	if err != nil {
		panic(err)
	}
	stream := append(append(mustRead("../examples/valid.yaml"), "---\n"...), mustRead("../examples/invalid.yaml")...)
	_, err = c.Validate(stream, engine.ValidateOptions{})
	fmt.Println(err)
	results, err := c.ValidateAll(stream, engine.ValidateOptions{})
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Printf("document %d (line %d): valid=%v, %d errors\n", r.Index, r.Line, r.Result.Valid(), len(r.Result.Errors))
	}
	// Output:
	// the object holds 2 YAML documents, Validate takes one (use ValidateAll for a stream)
	// document 0 (line 1): valid=true, 0 errors
	// document 1 (line 11): valid=false, 2 errors
}

// ValidateAllContext bounds a whole stream: once the context is done, the
// documents not yet validated carry its error.
func ExampleCRD_ValidateAllContext() {
	c, err := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	if err != nil {
		panic(err)
	}
	stream := append(append(mustRead("../examples/valid.yaml"), "---\n"...), mustRead("../examples/invalid.yaml")...)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as if the deadline had passed
	results, err := c.ValidateAllContext(ctx, stream, engine.ValidateOptions{})
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Printf("document %d: %v (canceled: %v)\n", r.Index, r.Err, errors.Is(r.Err, context.Canceled))
	}
	// Output:
	// document 0: validating document 0: context canceled (canceled: true)
	// document 1: validating document 1: context canceled (canceled: true)
}

// Parse an object once, read its identity to find its CRD (as a
// catalogue of many CRDs does), then validate it without parsing it
// again.
func ExampleParseDocument() {
	c, err := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	if err != nil {
		panic(err)
	}
	doc := engine.ParseDocument(mustRead("../examples/invalid.yaml"))
	if obj, ok := doc.Object(); ok {
		fmt.Println(obj["apiVersion"], obj["kind"])
	}
	res, err := c.ValidateDocument(context.Background(), doc, engine.ValidateOptions{})
	if err != nil {
		panic(err)
	}
	for i, e := range res.Errors {
		fmt.Printf("%d:%d %s\n", res.Positions().Errors[i].Line, res.Positions().Errors[i].Column, e.Field)
	}
	// Output:
	// stable.example.com/v1 CronTab
	// 8:3 spec.cronSpec
	// 10:3 spec.replicas
}

package wasm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/crdlab/crdlab/bindings/wasm"
)

const crontabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
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
              replicas: {type: integer, minimum: 1, maximum: 10, default: 1}
`

// The module under test: TestMain sets $CRDLAB_WASM when it builds it.
func modulePathForExample() string { return os.Getenv("CRDLAB_WASM") }

// New loads the module (here from $CRDLAB_WASM; Options.Module takes bytes,
// e.g. from go:embed) and keeps compiled code in a cache directory so that
// the next process starts warm.
func ExampleNew() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{
		ModulePath: modulePathForExample(),
		CacheDir:   filepath.Join(os.TempDir(), "crdlab-example-cache"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	abi, _, err := r.Version(ctx)
	fmt.Println(abi, err)
	// Output: 1 <nil>
}

// Compile once, validate many: the report is the native engine's.
func ExampleCRD_Validate() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample(), CacheDir: filepath.Join(os.TempDir(), "crdlab-example-cache")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	crd, err := r.Compile(ctx, []byte(crontabCRD))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("CRD errors:", len(crd.Errors()), "served:", crd.ServedVersions())
	rep, err := crd.Validate(ctx, []byte("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {replicas: 15}\n"), wasm.ValidateOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range rep.Object.Errors {
		fmt.Println(e.Message)
	}
	rep, _ = crd.Validate(ctx, []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{}}`), wasm.ValidateOptions{})
	fmt.Println(rep.Object.Valid(), string(rep.Object.Result.(json.RawMessage)))
	// Output:
	// CRD errors: 0 served: [v1]
	// spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10
	// true {"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"generation":1,"name":"a","namespace":"default"},"spec":{"replicas":1}}
}

// Admit validates an object, then runs validating admission policies on
// it, as `crdlab validate --policy` does.
func ExampleCRD_Admit() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample(), CacheDir: filepath.Join(os.TempDir(), "crdlab-example-cache")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	crd, err := r.Compile(ctx, []byte(crontabCRD))
	if err != nil {
		fmt.Println(err)
		return
	}
	policies := `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: few-replicas}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: [CREATE], resources: [crontabs]}
  validations:
  - {expression: "object.spec.replicas <= 5", message: "at most 5 replicas"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: few-replicas}
spec: {policyName: few-replicas, validationActions: [Deny]}
`
	res, err := crd.Admit(ctx, []byte("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {replicas: 8}\n"), []byte(policies), wasm.AdmitOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Report.Object.Valid(), res.Admission.Allowed)
	fmt.Println(res.Admission.Message)
	// Output:
	// true false
	// crontabs.stable.example.com "a" is forbidden: ValidatingAdmissionPolicy 'few-replicas' with binding 'few-replicas' denied request: at most 5 replicas
}

// Lint checks a CRD alone, as `crdlab lint` does.
func ExampleRuntime_Lint() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample(), CacheDir: filepath.Join(os.TempDir(), "crdlab-example-cache")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	rep, err := r.Lint(ctx, []byte(strings.Replace(crontabCRD, "scope: Namespaced", "scope: Galactic", 1)))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range rep.Errors {
		fmt.Println(e.Message)
	}
	// Output:
	// spec.scope: Unsupported value: "Galactic": supported values: "Cluster", "Namespaced"
}

// With CompileOptions.OldCRD the CRD compiles as an update of the one in
// the cluster: its errors are the API server's verdict on the update.
func ExampleRuntime_CompileWithOptions_update() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	cluster := strings.Replace(crontabCRD, "scope: Namespaced", "scope: Cluster", 1)
	c, err := r.CompileWithOptions(ctx, []byte(crontabCRD), wasm.CompileOptions{OldCRD: []byte(cluster)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range c.Errors() {
		fmt.Println(e.Message)
	}
	// Output: spec.scope: Invalid value: "Namespaced": field is immutable
}

// Upgrade reports what applying a new CRD does to the stored objects: here
// a tighter maximum makes a stored object fail a fresh create, while
// writing it back unchanged is still allowed (ratcheting).
func ExampleRuntime_Upgrade() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	tighter := strings.Replace(crontabCRD, "maximum: 10", "maximum: 5", 1)
	stored := []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","namespace":"default"},"spec":{"replicas":8}}`)
	rep, err := r.Upgrade(ctx, []byte(crontabCRD), []byte(tighter), []wasm.UpgradeObject{{Source: "a.json", Data: stored}}, wasm.UpgradeOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	read := rep.Objects[0].Reads[0]
	fmt.Println("update accepted:", len(rep.CRDUpdate.Errors) == 0)
	fmt.Println("no-op update allowed:", read.NoOpUpdate.Allowed, "create allowed:", read.Create.Allowed)
	for _, c := range rep.Changes {
		fmt.Println(c.Severity, c.Kind, c.Path)
	}
	// Output:
	// update accepted: true
	// no-op update allowed: true create allowed: false
	// breaking BoundTightened spec.replicas
}

// Test runs test suites held in memory, as `crdlab test -o json`.
func ExampleRuntime_Test() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	suite := `name: CronTab
crd: crontab.yaml
tests:
  onCreate:
  - name: Defaults replicas
    initial: |
      apiVersion: stable.example.com/v1
      kind: CronTab
      spec: {}
    expected: |
      apiVersion: stable.example.com/v1
      kind: CronTab
      spec: {replicas: 1}
  - name: Rejects 11 replicas
    initial: |
      apiVersion: stable.example.com/v1
      kind: CronTab
      spec: {replicas: 11}
    expectedError: "should be less than or equal to 10"
`
	rep, err := r.Test(ctx, map[string][]byte{"crontab.yaml": []byte(crontabCRD), "crontab.testsuite.yaml": []byte(suite)}, wasm.TestOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range rep.Results {
		fmt.Println(c.Passed, c.Name)
	}
	// Output:
	// true CronTab/onCreate/Defaults replicas
	// true CronTab/onCreate/Rejects 11 replicas
}

// ConversionReview checks a conversion webhook's recorded answer as the
// API server does: `crdlab conversion-review -o json`.
func ExampleRuntime_ConversionReview() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	dir := filepath.Join("..", "..", "examples", "conversion")
	crd, _ := os.ReadFile(filepath.Join(dir, "crd.yaml"))
	review, _ := os.ReadFile(filepath.Join(dir, "request.json"))
	for _, answer := range []string{"response.json", "response-wrong-version.json"} {
		response, _ := os.ReadFile(filepath.Join(dir, answer))
		rep, err := r.ConversionReview(ctx, crd, review, response, wasm.ConversionReviewOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		if rep.Accepted {
			fmt.Println(answer, "accepted; pruned:", rep.Objects[0].Pruned)
		} else {
			fmt.Println(answer, "rejected:", rep.Error)
		}
	}
	// Output:
	// response.json accepted; pruned: [spec.cron]
	// response-wrong-version.json rejected: conversion webhook for stable.example.com/v1beta1, Kind=CronTab returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v1, received stable.example.com/v1beta1)
}

// Apply sends two managers' server-side applies to one object: the second
// conflicts, and the owners of each field are in the result.
func ExampleCRD_Apply() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample(), CacheDir: filepath.Join(os.TempDir(), "crdlab-example-cache")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	crd, err := r.Compile(ctx, []byte(crontabCRD))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := crd.Apply(ctx, []byte(`
- manager: alice
  operation: Apply
  object: {apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: a, namespace: default}, spec: {replicas: 2}}
- manager: bob
  operation: Apply
  object: {apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: a, namespace: default}, spec: {replicas: 3}}
`), wasm.ApplyOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Steps[0].Owners {
		fmt.Println(o.Path, o.Owners)
	}
	fmt.Println(res.Steps[1].Conflict)
	// Output:
	// .spec.replicas [alice (Apply)]
	// Apply failed with 1 conflict: conflict with "alice": .spec.replicas
}

// A Kubernetes release other than the default: the module lists the ones
// it reproduces, and the compiled CRD validates as that release does
// (int32 range checks arrived in 1.36).
func ExampleCompileOptions_kubeVersion() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample(), CacheDir: filepath.Join(os.TempDir(), "crdlab-example-cache")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	supported, def, _ := r.KubeVersions(ctx)
	fmt.Println("supported:", supported, "default:", def)
	crdText := strings.Replace(crontabCRD, "replicas: {type: integer, minimum: 1, maximum: 10, default: 1}", "replicas: {type: integer, format: int32}", 1)
	obj := []byte("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {replicas: 4294967296}\n")
	for _, kube := range []string{"1.35", "1.36"} {
		crd, err := r.CompileWithOptions(ctx, []byte(crdText), wasm.CompileOptions{KubeVersion: kube})
		if err != nil {
			fmt.Println(err)
			return
		}
		rep, _ := crd.Validate(ctx, obj, wasm.ValidateOptions{})
		fmt.Println(crd.KubeVersion(), "errors:", len(rep.Object.Errors))
	}
	_, err = r.CompileWithOptions(ctx, []byte(crdText), wasm.CompileOptions{KubeVersion: "1.30"})
	fmt.Println(err)
	// Output:
	// supported: [1.38 1.37 1.36 1.35 1.34 1.33 1.32 1.31] default: 1.37
	// 1.35 errors: 0
	// 1.36 errors: 1
	// crdlab wasm: BadRequest: unsupported Kubernetes version "1.30" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)
}

// Complete is the CEL completion of the playground and of `crdlab lsp`:
// what may follow "<receiver>." in a rule, given the schema node that
// carries it.
func ExampleRuntime_Complete() {
	ctx := context.Background()
	r, err := wasm.New(ctx, wasm.Options{ModulePath: modulePathForExample(), CacheDir: filepath.Join(os.TempDir(), "crdlab-example-cache")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close(ctx)
	node := []byte(`{"type":"object","properties":{"ports":{"type":"array","items":{"type":"object",
	  "properties":{"port":{"type":"integer"},"name":{"type":"string"}}}}}}`)
	res, err := r.Complete(ctx, node, "self.ports.all(p, p.na", wasm.CompleteOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Type, res.From, res.To)
	for _, o := range res.Options {
		fmt.Println(o.Label, o.Kind, o.Detail)
	}
	// Output:
	// object 20 22
	// name property string
	// port property int
}

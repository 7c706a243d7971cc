package engine_test

import (
	"fmt"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
)

// One CRD compiled for several Kubernetes releases through one
// CompileShare: what does not depend on the release is compiled once.
func ExampleNewCompileShare() {
	crdYAML := []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
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
              replicas: {type: integer, format: int32}
`)
	obj := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":4294967296}}`)
	share := engine.NewCompileShare()
	for _, kv := range []string{"1.35", "1.36", "1.37"} {
		c, err := engine.CompileWithOptions(crdYAML, engine.CompileOptions{KubeVersion: kv, Share: share})
		if err != nil {
			fmt.Println(err)
			return
		}
		r, err := c.Validate(obj, engine.ValidateOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(c.KubeVersion(), len(r.Errors) == 0)
	}
	// Output:
	// 1.35 true
	// 1.36 false
	// 1.37 false
}

// A decoded CRD compiled for a release.
func ExampleCompileCRDWithOptions() {
	defs, err := crd.Decode([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`), "")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := engine.CompileCRDWithOptions(defs[0], engine.CompileOptions{KubeVersion: "1.36"})
	fmt.Println(c.KubeVersion(), c.Valid(), err)
	_, err = engine.CompileCRDWithOptions(defs[0], engine.CompileOptions{KubeVersion: "1.30"})
	fmt.Println(err)
	// Output:
	// 1.36 true <nil>
	// unsupported Kubernetes version "1.30" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)
}

package engine_test

import (
	"fmt"

	"github.com/crdlab/crdlab/engine"
)

// Compiling for an older Kubernetes release: the CRD validates objects as
// that release's API server does (here, owner references before 1.37).
func ExampleCompileOptions_kubeVersion() {
	crdYAML := []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`)
	obj := []byte(`{"apiVersion": "example.com/v1", "kind": "Widget",
  "metadata": {"name": "a", "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "c"}]}}`)
	for _, v := range []string{"1.37", "1.35"} {
		c, err := engine.CompileWithOptions(crdYAML, engine.CompileOptions{KubeVersion: v})
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := c.Validate(obj, engine.ValidateOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(c.KubeVersion()+":", res.Errors[0].Error())
	}
	_, err := engine.CompileWithOptions(crdYAML, engine.CompileOptions{KubeVersion: "1.20"})
	fmt.Println(err)
	// Output:
	// 1.37: metadata.ownerReferences[0].uid: Required value: must not be empty
	// 1.35: metadata.ownerReferences.uid: Invalid value: "": must not be empty
	// unsupported Kubernetes version "1.20" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)
}

func ExampleSupportedKubeVersions() {
	fmt.Println(engine.SupportedKubeVersions())
	fmt.Println(engine.DefaultKubeVersion)
	// Output:
	// [1.38 1.37 1.36 1.35 1.34 1.33 1.32 1.31]
	// 1.37
}

func ExampleParseKubeVersions() {
	vs, err := engine.ParseKubeVersions("1.35-1.37")
	fmt.Println(vs, err)
	_, err = engine.ParseKubeVersions("1.30-1.37")
	fmt.Println(err)
	// Output:
	// [1.37 1.36 1.35] <nil>
	// unsupported Kubernetes version "1.30" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)
}

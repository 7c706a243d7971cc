package upstream_test

import (
	"fmt"

	"github.com/crdlab/crdlab/conformance/upstream"
)

// Run computes what kube-apiserver 1.37 answers to a create of a custom
// resource, as crdlab's report (wire.Report).
func ExampleRun() {
	crd := []byte(`
apiVersion: apiextensions.k8s.io/v1
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
              replicas: {type: integer, maximum: 10, default: 1}
`)
	obj := []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"replicas":15}}`)
	rep, err := upstream.Run(upstream.Request{CRD: crd, Object: obj})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(rep.CRD.Errors), "CRD errors")
	for _, e := range rep.Object.Errors {
		fmt.Println(e.Message)
	}
	// Output:
	// 0 CRD errors
	// spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10
}

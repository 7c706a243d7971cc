package admission_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/engine/crd"
)

// NewMutator compiles mutating policies; Mutate runs them on one request
// with the CRD's schema (TargetFor): the ApplyConfiguration merges into
// the object as server-side apply merges (here into a list-type map list).
func ExampleNewMutator() {
	def, err := crd.DecodeOne([]byte(`
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
              replicas: {type: integer}
              env:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties: {name: {type: string}, value: {type: string}}
`), "crd.yaml")
	if err != nil {
		panic(err)
	}
	in, err := admission.DecodeFile([]byte(`
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: add-tz}
spec:
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: [CREATE], resources: [crontabs]}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{spec: Object.spec{env: [Object.spec.env{name: "TZ", value: "UTC"}]}}'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: add-tz}
spec: {policyName: add-tz}
`), "policy.yaml")
	if err != nil {
		panic(err)
	}
	m, err := admission.NewMutator(admission.MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings})
	if err != nil {
		panic(err)
	}
	target, err := admission.TargetFor(def)
	if err != nil {
		panic(err)
	}
	obj, _ := admission.DecodeObject([]byte(`{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": {"name": "c", "namespace": "default"},
		"spec": {"replicas": 1, "env": [{"name": "LANG", "value": "C"}]}}`))
	r := m.Mutate(&admission.Request{
		Operation: "CREATE",
		Kind:      admission.GVK{Group: "stable.example.com", Version: "v1", Kind: "CronTab"},
		Resource:  admission.GVR{Group: "stable.example.com", Version: "v1", Resource: "crontabs"},
		Name:      "c", Namespace: "default", Object: obj,
	}, target)
	spec, _ := json.Marshal(r.Object["spec"])
	fmt.Println(string(spec))
	fmt.Println(r.Mutations[0].Policy, r.Mutations[0].Changed)
	// Output:
	// {"env":[{"name":"LANG","value":"C"},{"name":"TZ","value":"UTC"}],"replicas":1}
	// add-tz [/spec/env]
}

// TargetFor is a CRD's side of the mutations: its typed schema and the
// defaulting the API server applies after each patch.
func ExampleTargetFor() {
	def, err := crd.DecodeOne([]byte(`
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
              replicas: {type: integer, default: 1}
`), "crd.yaml")
	if err != nil {
		panic(err)
	}
	target, err := admission.TargetFor(def)
	if err != nil {
		panic(err)
	}
	obj := map[string]interface{}{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "spec": map[string]interface{}{}}
	target.Default(obj)
	fmt.Println(obj["spec"])
	// Output:
	// map[replicas:1]
}

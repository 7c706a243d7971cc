package admission_test

import (
	"fmt"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/engine/crd"
)

// TypeCheck finds the mistakes the API server reports in a policy's
// status.typeChecking: here a misspelled field of the CronTab schema.
func ExampleTypeCheck() {
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
`), "crd.yaml")
	if err != nil {
		panic(err)
	}
	in, err := admission.DecodeFile([]byte(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: max-replicas}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: [CREATE], resources: [crontabs]}
  validations:
  - expression: "object.spec.replica <= 5"
  - expression: "object.metadata.labels['team'] != ''"
`), "policy.yaml")
	if err != nil {
		panic(err)
	}
	warnings, err := admission.TypeCheck(in.Policies[0], []*crd.CustomResourceDefinition{def})
	if err != nil {
		panic(err)
	}
	for _, w := range warnings {
		fmt.Printf("%s: %s", w.FieldRef, w.Warning)
	}
	// Output:
	// spec.validations[0].expression: stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:12: undefined field 'replica'
	//  | object.spec.replica <= 5
	//  | ...........^
}

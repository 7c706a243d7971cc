package admission

import (
	"testing"
)

// FuzzDecodeAndValidate decodes arbitrary policy files and, when they
// decode, validates them as on create and evaluates them on a CronTab
// request: errors, never panics.
func FuzzDecodeAndValidate(f *testing.F) {
	f.Add([]byte(replicasPolicy))
	f.Add([]byte("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec: {policyName: p, validationActions: [Deny], paramRef: {selector: {matchExpressions: [{key: a, operator: In}]}}}\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicy, metadata: {name: x}, spec: {validations: [{expression: '1'}]}}]\n"))
	f.Add([]byte("apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: m}\nspec: {mutations: [{patchType: JSONPatch}, {patchType: ApplyConfiguration, applyConfiguration: {expression: ' '}}], matchConstraints: {resourceRules: [{}]}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := DecodeFile(data, "fuzz.yaml")
		if err != nil {
			return
		}
		for _, ce := range in.CreateErrors() {
			if len(ce.Errors) == 0 || ce.Error() == "" {
				t.Fatalf("an empty create error: %#v", ce)
			}
		}
		a, err := New(Config{Policies: in.Policies, Bindings: in.Bindings, Objects: in.Objects})
		if err != nil {
			return
		}
		a.Validate(crontabRequest(crontab(7)))
		del := crontabRequest(nil)
		del.Operation, del.OldObject = "DELETE", crontab(3)
		a.Validate(del)
	})
}

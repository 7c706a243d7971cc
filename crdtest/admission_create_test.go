package crdtest

import (
	"strings"
	"testing"
)

// TestSuiteWithAPolicyTheAPIServerRefusesDoesNotLoad: a policy or binding
// kube-apiserver would refuse to create (internal/admission's create
// validation) makes the suite a load error with the suite's file:line and
// the API server's text, whether it is a case's or the suite's.
func TestSuiteWithAPolicyTheAPIServerRefusesDoesNotLoad(t *testing.T) {
	const policyHead = "apiVersion: admissionregistration.k8s.io/v1\n      kind: ValidatingAdmissionPolicy\n      metadata: {name: p}\n      spec:\n"
	const obj = "    object: |\n      apiVersion: v1\n      kind: ConfigMap\n      metadata: {name: c, namespace: default}\n"
	for _, tc := range []struct{ name, suite, want string }{
		{"a case's policy without matchConstraints",
			"tests:\n  admission:\n  - name: a\n    policies:\n    - |\n      " + policyHead + "        validations: [{expression: 'true'}]\n" + obj,
			`f.crdtest.yaml:6: ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: spec.matchConstraints: Required value`},
		{"the audit annotation of the Kubernetes documentation as written",
			"tests:\n  admission:\n  - name: a\n    policies:\n    - |\n      " + policyHead +
				"        matchConstraints: {resourceRules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]}\n" +
				"        auditAnnotations: [{key: k, valueExpression: \"object.data.size() > 1 ? 'big' : null\"}]\n" + obj,
			`f.crdtest.yaml:6: ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: spec.auditAnnotations[0].valueExpression: Invalid value: "object.data.size() > 1 ? 'big' : null": compilation failed: ERROR: <input>:1:24: found no matching overload for '_?_:_' applied to '(bool, string, null)'`},
		{"the suite's binding with Deny and Warn",
			"policies:\n- |\n  apiVersion: admissionregistration.k8s.io/v1\n  kind: ValidatingAdmissionPolicyBinding\n  metadata: {name: b}\n  spec: {policyName: p, validationActions: [Deny, Warn]}\ntests:\n  admission:\n  - name: a\n" + obj,
			`f.crdtest.yaml:3: ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn`},
		{"a mutating policy without reinvocationPolicy",
			"tests:\n  admission:\n  - name: a\n    policies:\n    - |\n      apiVersion: admissionregistration.k8s.io/v1\n      kind: MutatingAdmissionPolicy\n      metadata: {name: m}\n      spec:\n        matchConstraints: {resourceRules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]}\n        mutations: [{patchType: JSONPatch, jsonPatch: {expression: \"[JSONPatch{op: 'test', path: '/data', value: {}}]\"}}]\n" + obj,
			`f.crdtest.yaml:6: MutatingAdmissionPolicy.admissionregistration.k8s.io "m" is invalid: spec.reinvocationPolicy: Required value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := RunFiles(map[string][]byte{"f.crdtest.yaml": []byte(tc.suite)}, Options{}, "f.crdtest.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.LoadErrors) != 1 || len(rep.Results) != 0 {
				t.Fatalf("load errors %v, %d results; want one load error", rep.LoadErrors, len(rep.Results))
			}
			if got := rep.LoadErrors[0].Err; !strings.HasPrefix(got, tc.want) {
				t.Errorf("load error\n%s\nwant it to start with\n%s", got, tc.want)
			}
		})
	}
}

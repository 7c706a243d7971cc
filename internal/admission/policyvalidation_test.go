package admission

import (
	"strings"
	"testing"
)

const createRules = `  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
`

// TestCreateValidationGivesTheAPIServersErrors pins the create errors of
// some policies and bindings (conformance/admission_create_test.go
// compares them with kube-apiserver's on many more).
func TestCreateValidationGivesTheAPIServersErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"a valid policy is created",
			"kind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n" + createRules + "  validations: [{expression: 'object.spec.replicas < 5'}]\n", ""},
		{"a policy without matchConstraints",
			"kind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  validations: [{expression: 'true'}]\n",
			`ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: spec.matchConstraints: Required value`},
		{"an empty expression and a reason outside the enum",
			"kind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n" + createRules + "  validations: [{expression: ' ', reason: Teapot}]\n",
			`ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: [spec.validations[0].expression: Required value: expression is not specified, spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"]`},
		{"a messageExpression that is not a string",
			"kind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n" + createRules + "  validations: [{expression: 'true', messageExpression: '1'}]\n",
			`ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: spec.validations[0].messageExpression: Invalid value: "1": must evaluate to string but got int`},
		{"a match condition may not use variables",
			"kind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n" + createRules + "  variables: [{name: v, expression: 'true'}]\n  matchConditions: [{name: m, expression: variables.v}]\n  validations: [{expression: 'true'}]\n",
			"ValidatingAdmissionPolicy.admissionregistration.k8s.io \"p\" is invalid: spec.matchConditions[0].expression: Invalid value: \"variables.v\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.v\n | ^"},
		{"a variable name that is not a CEL identifier",
			"kind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n" + createRules + "  variables: [{name: 'if', expression: 'true'}]\n  validations: [{expression: 'true'}]\n",
			`ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: spec.variables[0].name: Invalid value: "if": must be a valid CEL identifier`},
		{"a library newer than the compatibility version does not compile on create",
			"kind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n" + createRules + "  validations: [{expression: '[1].includes(1)'}]\n",
			"ValidatingAdmissionPolicy.admissionregistration.k8s.io \"p\" is invalid: spec.validations[0].expression: Invalid value: \"[1].includes(1)\": compilation failed: ERROR: <input>:1:13: undeclared reference to 'includes' (in container '')\n | [1].includes(1)\n | ............^"},
		{"a binding's missing policyName and validationActions come last",
			"kind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec:\n  paramRef: {name: a, selector: {}, parameterNotFoundAction: Deny}\n",
			`ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: [spec.paramRef.name: Forbidden: name and selector are mutually exclusive, spec.paramRef.selector: Forbidden: name and selector are mutually exclusive, spec.policyName: Required value, spec.validationActions: Required value]`},
		{"a binding with Deny and Warn",
			"kind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec: {policyName: p, validationActions: [Deny, Warn, Warn]}\n",
			`ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: [spec.validationActions[2]: Duplicate value: "Warn", spec.validationActions: Invalid value: ["Deny","Warn","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)]`},
		{"a binding's selector with a bad operator",
			"kind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec:\n  policyName: p\n  validationActions: [Deny]\n  matchResources: {objectSelector: {matchExpressions: [{key: a, operator: Has}]}}\n",
			`ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.matchResources.objectSelector.matchExpressions[0].operator: Invalid value: "Has": not a valid selector operator`},
		{"a mutating policy needs reinvocationPolicy and may not match DELETE",
			"kind: MutatingAdmissionPolicy\nmetadata: {name: m}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [DELETE], resources: [deployments]}]}\n  mutations: [{patchType: ApplyConfiguration, applyConfiguration: {expression: 'Object{}'}}]\n",
			`MutatingAdmissionPolicy.admissionregistration.k8s.io "m" is invalid: [spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE", spec.reinvocationPolicy: Required value]`},
		{"a mutating binding without policyName",
			"kind: MutatingAdmissionPolicyBinding\nmetadata: {name: mb}\nspec: {}\n",
			`MutatingAdmissionPolicyBinding.admissionregistration.k8s.io "mb" is invalid: spec.policyName: Required value`},
		{"a name with the reserved static suffix",
			"kind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b.static.k8s.io}\nspec: {policyName: p, validationActions: [Audit]}\n",
			`ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b.static.k8s.io" is invalid: metadata.name: Invalid value: "b.static.k8s.io": names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := DecodeDocument([]byte("# a comment\napiVersion: admissionregistration.k8s.io/v1\n"+tc.doc), "p.yaml", 3)
			if err != nil {
				t.Fatal(err)
			}
			errs := in.CreateErrors()
			got := ""
			if len(errs) > 0 {
				got = errs[0].Message()
				if want := "p.yaml:4: " + got; errs[0].Error() != want {
					t.Errorf("Error() = %q, want %q", errs[0].Error(), want)
				}
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if (in.CheckCreate() == nil) != (tc.want == "") {
				t.Errorf("CheckCreate() = %v", in.CheckCreate())
			}
		})
	}
}

// TestCreateErrorsAreOnePerRefusedObjectInKindOrder: every refused object
// has its error, valid ones none; CheckCreate is the first.
func TestCreateErrorsAreOnePerRefusedObjectInKindOrder(t *testing.T) {
	in, err := DecodeFile([]byte(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: b}
spec: {validationActions: [Deny]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: ok}
spec:
`+createRules+`  validations: [{expression: 'true'}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: p}
spec: {}
`), "f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	errs := in.CreateErrors()
	var got []string
	for _, e := range errs {
		got = append(got, e.Source+" "+e.Kind+" "+e.Name)
	}
	want := "f.yaml:15 ValidatingAdmissionPolicy p|f.yaml:1 ValidatingAdmissionPolicyBinding b"
	if strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", strings.Join(got, "|"), want)
	}
	if err := in.CheckCreate(); err == nil || err.Error() != errs[0].Error() {
		t.Errorf("CheckCreate() = %v, want the first", err)
	}
}

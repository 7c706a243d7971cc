package abi

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/wire"
)

func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// admitCall compiles the CronTab CRD and sends "admit" with fields.
func admitCall(t *testing.T, fields map[string]interface{}) (wire.AdmitResult, *wire.Error) {
	t.Helper()
	s := NewServer()
	env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": readExample(t, "crontab-crd.yaml")}))
	var c wire.CompileResult
	if err := json.Unmarshal(env.Result, &c); err != nil {
		t.Fatal(err)
	}
	fields["op"], fields["handle"] = "admit", c.Handle
	env = call(t, s, request(t, fields))
	var res wire.AdmitResult
	if env.Error == nil {
		if err := json.Unmarshal(env.Result, &res); err != nil {
			t.Fatal(err)
		}
	}
	return res, env.Error
}

// crontab is examples/admission/crontabs.yaml's CronTab named name.
func crontab(t *testing.T, name string) string {
	for _, doc := range strings.Split(readExample(t, "admission/crontabs.yaml"), "\n---\n") {
		if strings.Contains(doc, "name: "+name+",") {
			return doc
		}
	}
	t.Fatalf("no CronTab %s in examples/admission/crontabs.yaml", name)
	return ""
}

// "admit" decides as `crdlab validate --policy` does on the example of
// docs/validating-policies.md (the outcomes that page shows).
func TestAdmitDecidesAsValidatePolicy(t *testing.T) {
	policies := readExample(t, "admission/policy.yaml")
	evaluated := []string{"crontab-rules/crontab-rules", "trusted-images/trusted-images-warn"}
	for _, tt := range []struct {
		name string
		want wire.AdmissionOutcome
	}{
		{"small", wire.AdmissionOutcome{Allowed: true, AuditAnnotations: map[string]string{"crontab-rules/replicas": "2"}, Evaluated: evaluated}},
		{"big", wire.AdmissionOutcome{Policy: "crontab-rules", Binding: "crontab-rules", Reason: "Invalid", Code: 422,
			Message:          `crontabs.stable.example.com "big" is forbidden: ValidatingAdmissionPolicy 'crontab-rules' with binding 'crontab-rules' denied request: replicas must be at most 5, not 8`,
			AuditAnnotations: map[string]string{"crontab-rules/replicas": "8"}, Evaluated: evaluated}},
		{"elsewhere", wire.AdmissionOutcome{Allowed: true, AuditAnnotations: map[string]string{"crontab-rules/replicas": "1"}, Evaluated: evaluated,
			Warnings: []string{"Validation failed for ValidatingAdmissionPolicy 'trusted-images' with binding 'trusted-images-warn': image docker.io/cron:1.0 is not from registry.example.com"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, e := admitCall(t, map[string]interface{}{"object": crontab(t, tt.name), "policies": policies})
			if e != nil {
				t.Fatalf("%+v", e)
			}
			if res.Report == nil || res.Report.Object == nil || len(res.Report.Object.Errors) != 0 {
				t.Fatalf("report %+v", res.Report)
			}
			if res.Admission == nil || !reflect.DeepEqual(*res.Admission, tt.want) {
				t.Errorf("admission\n%+v\nwant\n%+v", res.Admission, tt.want)
			}
		})
	}
}

// A user the policy singles out, and a DELETE (no object, the old one is
// the object's): the request's fields reach the policies.
func TestAdmitRequestFields(t *testing.T) {
	policy := `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: who}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: ["*"], resources: [crontabs]}
  validations:
  - expression: "request.userInfo.username != 'jane' || request.operation == 'DELETE'"
    messageExpression: "request.operation + ' by ' + request.userInfo.username + ' in ' + request.userInfo.groups[0]"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: who}
spec: {policyName: who, validationActions: [Deny]}
`
	small := crontab(t, "small")
	for _, tt := range []struct {
		name    string
		fields  map[string]interface{}
		allowed bool
		message string
	}{
		{"admin", map[string]interface{}{}, true, ""},
		{"jane", map[string]interface{}{"user": "jane"}, false, `CREATE by jane in system:authenticated`},
		{"jane in a group", map[string]interface{}{"user": "jane", "groups": []string{"devs"}}, false, `CREATE by jane in devs`},
		{"jane updates", map[string]interface{}{"user": "jane", "old": small}, false, `UPDATE by jane in system:authenticated`},
		{"jane deletes", map[string]interface{}{"user": "jane", "operation": "delete"}, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.fields["object"], tt.fields["policies"] = small, policy
			res, e := admitCall(t, tt.fields)
			if e != nil {
				t.Fatalf("%+v", e)
			}
			a := res.Admission
			if a == nil || a.Allowed != tt.allowed || !strings.Contains(a.Message, tt.message) {
				t.Errorf("admission %+v, want allowed %v and a message with %q", a, tt.allowed, tt.message)
			}
		})
	}
}

// The RBAC objects among the policies answer the authorizer
// (examples/admission/rbac.yaml, the outcomes docs/authorizer.md shows).
func TestAdmitAuthorizerAnswersFromRBACObjects(t *testing.T) {
	policies := readExample(t, "admission/rbac.yaml")
	big := crontab(t, "big")
	for _, tt := range []struct {
		name    string
		fields  map[string]interface{}
		allowed bool
	}{
		{"admin", map[string]interface{}{}, true},
		{"jane", map[string]interface{}{"user": "jane"}, true},
		{"bob", map[string]interface{}{"user": "bob"}, false},
		{"team service account", map[string]interface{}{"user": "system:serviceaccount:crontab-team:deployer", "groups": []string{"system:serviceaccounts:crontab-team"}}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.fields["object"], tt.fields["policies"] = big, policies
			res, e := admitCall(t, tt.fields)
			if e != nil {
				t.Fatalf("%+v", e)
			}
			a := res.Admission
			if a == nil || a.Allowed != tt.allowed {
				t.Fatalf("admission %+v, want allowed %v", a, tt.allowed)
			}
			if !tt.allowed && !strings.HasSuffix(a.Message, "denied request: more than 3 replicas needs permission to update crontabs/scale") {
				t.Errorf("message %q", a.Message)
			}
		})
	}
}

// An invalid object gets its report and no admission; bad requests and
// policies are errors naming what is wrong.
func TestAdmitErrors(t *testing.T) {
	res, e := admitCall(t, map[string]interface{}{"object": readExample(t, "invalid.yaml"), "policies": readExample(t, "admission/policy.yaml")})
	if e != nil || res.Admission != nil || res.Report == nil || len(res.Report.Object.Errors) != 2 {
		t.Errorf("invalid object: %+v %+v", res, e)
	}
	for _, tt := range []struct {
		name   string
		fields map[string]interface{}
		code   wire.ErrorCode
		msg    string
	}{
		{"policy that does not decode", map[string]interface{}{"policies": "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: x}\nspec: {validations: 3}\n"},
			wire.CodeDecodeError, "policies:4"},
		{"policy the API server refuses to create", map[string]interface{}{"policies": "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: x}\nspec: {validations: [{expression: 'true'}]}\n"},
			wire.CodeDecodeError, `policies:1: ValidatingAdmissionPolicy.admissionregistration.k8s.io "x" is invalid: spec.matchConstraints: Required value`},
		{"operation", map[string]interface{}{"operation": "PATCH"}, wire.CodeBadRequest, `"operation" must be CREATE, UPDATE or DELETE, not "PATCH"`},
		{"update without old", map[string]interface{}{"operation": "UPDATE"}, wire.CodeBadRequest, `an UPDATE needs the stored object`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.fields["object"] = readExample(t, "valid.yaml")
			_, e := admitCall(t, tt.fields)
			if e == nil || e.Code != tt.code || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("error %+v, want %s with %q", e, tt.code, tt.msg)
			}
		})
	}
}

// MutatingAdmissionPolicies run before validation, as `crdlab validate`
// runs them (docs/mutating-policies.md): big's
// replicas are capped to 5 and elsewhere's image is mirrored, so the
// validating policies no longer deny nor warn; the mutated object is the
// one validated (the report's result) and the one in the outcome.
func TestAdmitRunsMutatingPoliciesBeforeValidation(t *testing.T) {
	policies := readExample(t, "admission/mutating.yaml") + "\n---\n" + readExample(t, "admission/policy.yaml")
	for _, tt := range []struct {
		name      string
		mutations []wire.AppliedMutation
		path      []string
		want      interface{}
	}{
		{"small", nil, []string{"spec", "replicas"}, json.Number("2")},
		{"big", []wire.AppliedMutation{{Policy: "cap-replicas", Binding: "cap-replicas", PatchType: "ApplyConfiguration", Changed: []string{"/spec/replicas"}}},
			[]string{"spec", "replicas"}, json.Number("5")},
		{"elsewhere", []wire.AppliedMutation{{Policy: "mirror-images", Binding: "mirror-images", PatchType: "JSONPatch", Changed: []string{"/metadata/annotations", "/spec/image"}}},
			[]string{"spec", "image"}, "registry.example.com/mirror/cron:1.0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, e := admitCall(t, map[string]interface{}{"object": crontab(t, tt.name), "policies": policies})
			if e != nil {
				t.Fatalf("%+v", e)
			}
			if res.Admission == nil || !res.Admission.Allowed || len(res.Admission.Warnings) != 0 {
				t.Errorf("validating admission %+v: want allowed without warnings", res.Admission)
			}
			if res.Report == nil || res.Report.Object == nil {
				t.Fatalf("report %+v", res.Report)
			}
			var stored map[string]interface{}
			b, _ := json.Marshal(res.Report.Object.Result)
			d := json.NewDecoder(strings.NewReader(string(b)))
			d.UseNumber()
			if err := d.Decode(&stored); err != nil {
				t.Fatal(err)
			}
			if got := dig(stored, tt.path); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("stored %v = %#v, want %#v", tt.path, got, tt.want)
			}
			if tt.mutations == nil {
				if res.Mutation != nil {
					t.Errorf("mutation %+v, want none (no match condition holds)", res.Mutation)
				}
				return
			}
			m := res.Mutation
			if m == nil || !m.Allowed || m.Object == nil {
				t.Fatalf("mutation %+v", m)
			}
			// the reinvocation pass runs the policy again: compare the first run
			if !reflect.DeepEqual(m.Mutations[:1], tt.mutations) {
				t.Errorf("mutations %+v, want %+v", m.Mutations, tt.mutations)
			}
			if got := fmt.Sprint(dig(m.Object, tt.path)); got != fmt.Sprint(tt.want) {
				t.Errorf("mutated %v = %s, want %v", tt.path, got, tt.want)
			}
		})
	}
}

// A mutating policy whose expression fails under failurePolicy Fail
// fails the request: the outcome says why, nothing is validated.
func TestAdmitMutatingPolicyFailureFailsTheRequest(t *testing.T) {
	policy := `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: broken}
spec:
  failurePolicy: Fail
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: ["*"], resources: [crontabs]}
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "replace", path: "/spec/nothing/here", value: 1}]'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: broken}
spec: {policyName: broken}
`
	res, e := admitCall(t, map[string]interface{}{"object": crontab(t, "small"), "policies": policy})
	if e != nil {
		t.Fatalf("%+v", e)
	}
	m := res.Mutation
	if m == nil || m.Allowed || m.Policy != "broken" || m.Message == "" {
		t.Fatalf("mutation %+v, want the request failed by broken", m)
	}
	if res.Admission != nil || res.Report == nil || res.Report.Object != nil {
		t.Errorf("after a failed mutation: report %+v, admission %+v, want the CRD's report alone", res.Report, res.Admission)
	}
}

// dig returns the value at path in obj.
func dig(obj map[string]interface{}, path []string) interface{} {
	var v interface{} = obj
	for _, k := range path {
		m, _ := v.(map[string]interface{})
		v = m[k]
	}
	return v
}

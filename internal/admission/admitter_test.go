package admission

import (
	"strings"
	"testing"
)

const replicasPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-replicas
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["stable.example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["crontabs"]
  variables:
  - name: replicas
    expression: "object.spec.replicas"
  validations:
  - expression: "variables.replicas <= 5"
    messageExpression: "'replicas ' + string(variables.replicas) + ' > 5'"
  auditAnnotations:
  - key: replicas
    valueExpression: "string(variables.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-replicas-binding
spec:
  policyName: max-replicas
  validationActions: [Deny, Warn, Audit]
`

func crontab(replicas int64) map[string]interface{} {
	return map[string]interface{}{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]interface{}{"name": "c", "namespace": "default"},
		"spec":     map[string]interface{}{"replicas": replicas},
	}
}

func crontabRequest(obj map[string]interface{}) *Request {
	return &Request{
		Operation: "CREATE",
		Kind:      GVK{"stable.example.com", "v1", "CronTab"},
		Resource:  GVR{"stable.example.com", "v1", "crontabs"},
		Name:      "c", Namespace: "default", Object: obj,
	}
}

func TestValidateDeniesWarnsAndAuditsAFailedValidation(t *testing.T) {
	in, err := DecodeFile([]byte(replicasPolicy), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Policies: in.Policies, Bindings: in.Bindings})
	if err != nil {
		t.Fatal(err)
	}
	d := a.Validate(crontabRequest(crontab(7)))
	if d.Denied == nil || d.Denied.Message != `crontabs.stable.example.com "c" is forbidden: `+"ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: replicas 7 > 5" {
		t.Fatalf("denied = %+v", d.Denied)
	}
	if len(d.Warnings) != 1 || !strings.HasPrefix(d.Warnings[0], "Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding': replicas 7 > 5") {
		t.Errorf("warnings = %q", d.Warnings)
	}
	if d.AuditAnnotations["max-replicas/replicas"] != "7" || !strings.Contains(d.AuditAnnotations[validationFailureKey], `"expressionIndex":0`) {
		t.Errorf("annotations = %v", d.AuditAnnotations)
	}
	d = a.Validate(crontabRequest(crontab(3)))
	if d.Denied != nil || len(d.Warnings) != 0 {
		t.Errorf("3 replicas: %+v", d)
	}
}

func TestDecodeFileLocatesUnknownFields(t *testing.T) {
	src := strings.Replace(replicasPolicy, "  validations:\n", "  validatons:\n", 1)
	_, err := DecodeFile([]byte(src), "p.yaml")
	if err == nil || err.Error() != `p.yaml:15:3: unknown field "spec.validatons"` {
		t.Fatalf("err = %v", err)
	}
}

package admission

import (
	"strings"
	"testing"
)

func TestCompileErrorsNameEachBadExpressionWithTheCompilersMessage(t *testing.T) {
	src := `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: p}
spec:
  variables:
  - name: total
    expression: "object.spec.replicas +"
  - name: ok
    expression: "1"
  matchConditions:
  - name: m
    expression: "variables.ok"
  validations:
  - expression: "object.spec.replicas < 5"
    messageExpression: "1"
  - expression: "variables.ok + 1"
  - expression: "nosuch.x == 1"
  auditAnnotations:
  - key: k
    valueExpression: "object.metadata.name"
`
	in, err := DecodeFile([]byte(src), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	errs, err := CompileErrors(in.Policies[0])
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`spec.variables[0].expression: Invalid value: "object.spec.replicas +": compilation failed: ERROR: <input>:1:23: Syntax error: mismatched input '<EOF>'`,
		`spec.matchConditions[0].expression: Invalid value: "variables.ok": must evaluate to bool but got int`,
		`spec.validations[1].expression: Invalid value: "variables.ok + 1": must evaluate to bool but got int`,
		`spec.validations[2].expression: Invalid value: "nosuch.x == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nosuch'`,
		`spec.auditAnnotations[0].valueExpression: Invalid value: "object.metadata.name": must evaluate to one of [string null_type] but got dyn`,
		`spec.validations[0].messageExpression: Invalid value: "1": must evaluate to string but got int`,
	}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(want), errs)
	}
	for i, w := range want {
		if got := errs[i].Error(); !strings.HasPrefix(got, w) {
			t.Errorf("error %d:\n got %s\nwant %s...", i, got, w)
		}
	}
}

func TestCompileErrorsOfAGoodPolicyAreNone(t *testing.T) {
	in, err := DecodeFile([]byte(replicasPolicy), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	errs, err := CompileErrors(in.Policies[0])
	if err != nil || len(errs) != 0 {
		t.Fatalf("got %v, %v", errs, err)
	}
}

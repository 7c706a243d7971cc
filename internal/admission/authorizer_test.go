package admission

import (
	"strings"
	"testing"
)

func TestAuthorizerExpressionsCompileAndAreNoted(t *testing.T) {
	src := strings.Replace(replicasPolicy, `  - expression: "variables.replicas <= 5"`, `  - expression: "authorizer.group('').resource('pods').check('create').allowed()"
    message: not allowed
  - expression: "variables.replicas <= 5"`, 1)
	in, err := DecodeFile([]byte(src), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Policies: in.Policies, Bindings: in.Bindings})
	if err != nil {
		t.Fatal(err)
	}
	d := a.Validate(crontabRequest(crontab(3)))
	if d.Denied == nil || !strings.Contains(d.Denied.Message, "denied request: expression 'authorizer.group('').resource('pods').check('create').allowed()' resulted in error: ") {
		t.Errorf("denied = %+v", d.Denied)
	}
	want := `ValidatingAdmissionPolicy 'max-replicas': expression "authorizer.group('').resource('pods').check('create').allowed()" uses the authorizer, which crdlab does not model: its result is an error here`
	if len(d.Notes) != 1 || d.Notes[0] != want {
		t.Errorf("notes = %q", d.Notes)
	}
}

package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/conformance/upstream"
	iadm "github.com/crdlab/crdlab/internal/admission"
)

// compileErrorPolicies are policies with compile errors in every kind of
// expression (the language server's diagnostics on policies,
// internal/admission.CompileErrors), beside the admission scenarios'.
var compileErrorPolicies = []string{`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: every-kind}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  variables:
  - {name: total, expression: "object.spec.replicas +"}
  - {name: ok, expression: "1"}
  - {name: ok, expression: "'now a string'"}
  - {name: usesOk, expression: "variables.ok.size()"}
  - {name: bad, expression: "variables.nosuch"}
  matchConditions:
  - {name: m1, expression: "variables.usesOk"}
  - {name: m2, expression: "request.kind.kindd == 'x'"}
  - {name: m3, expression: "authorizer.group('').resource('r').check('get').allowed()"}
  validations:
  - {expression: "object.spec.replicas < 5", messageExpression: "1"}
  - {expression: "variables.usesOk + 1"}
  - {expression: "nosuch.x == 1", messageExpression: "authorizer.path('/').check('get').reason()"}
  - {expression: "params.data.x == 'y'", messageExpression: "'p: ' + string(params.data.x)"}
  - {expression: "object.metadata.name.startsWith(", messageExpression: "'unterminated"}
  - {expression: "[1, 2].all(x, x > 0) && {'a': 1}.exists(k, k == 1)"}
  - {expression: "quantity('1').isLessThan(quantity('2')) && ip('1.2.3.4').family() == 4"}
  - {expression: "object.spec.foo"}
  auditAnnotations:
  - {key: a, valueExpression: "object.metadata.name"}
  - {key: b, valueExpression: "'x' + 1"}
  - {key: c, valueExpression: "null"}
  - {key: d, valueExpression: "string(object.spec.replicas)"}
`, `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: no-params}
spec:
  validations:
  - {expression: "params.x == 1"}
  - {expression: "self.x == 1"}
  - {expression: "oldObject == null || oldObject.spec == object.spec"}
  - {expression: "namespaceObject.metadata.name != 'a' && request.userInfo.username != ''"}
`}

// TestPolicyCompileErrorsAreUpstreams: the compilation errors of each
// policy's expressions, rendered as the API server renders them, equal
// upstream's composited compiler's (conformance/upstream.PolicyCompileErrors).
func TestPolicyCompileErrorsAreUpstreams(t *testing.T) {
	var docs []string
	for _, sc := range admissionScenarios() {
		docs = append(docs, admissionNamespaces+sc.yaml)
	}
	docs = append(docs, compileErrorPolicies...)
	policies, withErrors := 0, 0
	every := 0
	for _, doc := range docs {
		in, err := iadm.DecodeFile([]byte(doc), "p.yaml")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range in.Policies {
			policies++
			ours, err := iadm.CompileErrors(p)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range ours {
				got = append(got, e.Error())
			}
			b, _ := json.Marshal(p)
			want, err := upstream.PolicyCompileErrors(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) > 0 {
				withErrors++
			}
			if p.Metadata.Name == "every-kind" {
				every = len(want)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("policy %s:\ncrdlab:\n%s\nupstream:\n%s", p.Metadata.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
	if every < 10 {
		t.Errorf("every-kind: %d errors upstream, want at least 10 (one per kind of expression and of error)", every)
	}
	if policies < 20 || withErrors < 8 {
		t.Errorf("%d policies, %d with errors: too few to compare", policies, withErrors)
	}
	t.Logf("%d policies, %d with compile errors", policies, withErrors)
}

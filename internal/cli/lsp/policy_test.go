package lsp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/admission"
)

const policyURI = "file:///work/policy.yaml"

// policyText has compile errors in each kind of expression, in the three
// ways YAML writes a string.
const policyText = `apiVersion: v1
kind: ConfigMap
metadata: {name: unrelated}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replicas
spec:
  failurePolicy: Fail
  variables:
  - name: replicas
    expression: "object.spec.replicas"
  - name: broken
    expression: object.spec.(
  matchConditions:
  - name: only-deployments
    expression: "request.kind.kindd == 'Deployment'"
  validations:
  - expression: "variables.replicas <= 5"
    messageExpression: "'too many: ' + variables.replicas"
  - expression: |
      variables.replicas >= 0 &&
        nosuch.size() > 0
  - expression: "1 + 1"
  auditAnnotations:
  - key: high
    valueExpression: "'replicas: ' + string(variables.replicas) + undefinedVar"
`

// The diagnostics are the API server's compile errors of the policy's
// expressions (internal/admission.CompileErrors), each inside the
// expression's text at CEL's position.
func TestPolicyDiagnosticsAreTheCompileErrorsInsideTheExpressions(t *testing.T) {
	in, err := admission.DecodeFile([]byte(policyText), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	errs, err := admission.CompileErrors(in.Policies[0])
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range errs {
		want = append(want, e.Error())
	}
	cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
	cl.open(policyURI, policyText)
	diags := cl.waitDiags(policyURI, 1)
	if got := messages(diags, SeverityError); !slices.Equal(got, want) || len(got) != 5 {
		t.Fatalf("messages:\n%s\nwant the 5 of CompileErrors:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	lines := strings.Split(policyText, "\n")
	for _, c := range []struct {
		substr string
		line   int    // 0-based
		at     string // the text at the diagnostic's start
	}{
		{"spec.variables[1].expression", 14, "("},                        // a plain scalar: CEL's 1:13
		{"spec.matchConditions[0].expression", 17, ".kindd"},             // double-quoted
		{"spec.validations[1].expression", 23, "nosuch"},                 // a literal block, its second line
		{"spec.validations[2].expression", 24, `"1 + 1"`},                // a type error: no CEL position, the value
		{"spec.auditAnnotations[0].valueExpression", 27, "undefinedVar"}, // double-quoted, far in
	} {
		d := find(diags, c.substr)
		if d == nil {
			t.Errorf("no diagnostic %q", c.substr)
			continue
		}
		l := d.Range.Start.Line
		col := d.Range.Start.Character
		if l != c.line || !strings.HasPrefix(lines[l][col:], c.at) {
			t.Errorf("%s at %d:%d (%q), want line %d at %q", c.substr, l, col, lines[l][min(col, len(lines[l])):], c.line, c.at)
		}
	}
}

func TestPolicyThatDoesNotDecodeIsOneDiagnosticAtTheField(t *testing.T) {
	text := "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  validations:\n  - expression: \"true\"\n    nosuch: 1\n"
	cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
	cl.open(policyURI, text)
	diags := cl.waitDiags(policyURI, 1)
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "nosuch") || diags[0].Range.Start.Line != 6 {
		t.Fatalf("got %+v, want one error on line 7 naming the unknown field", diags)
	}
}

func TestPolicyWithoutErrorsAndBindingsHaveNoDiagnostics(t *testing.T) {
	text := "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  validations:\n  - expression: \"object.spec.replicas <= 5\"\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec:\n  policyName: p\n  validationActions: [Deny]\n"
	cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
	cl.open(policyURI, text)
	if diags := cl.waitDiags(policyURI, 1); len(diags) != 0 {
		t.Fatalf("got %+v", diags)
	}
}

const typeCheckCRDText = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
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
`

const typeCheckPolicyText = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: p}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
  validations:
  - expression: "object.spec.replica <= 5"
  - expression: "object.spec.replicas <= 5"
    messageExpression: "'n=' + object.spec.replicas"
`

// A policy's type-checking warnings (internal/admission.TypeCheck) are
// warnings inside the expressions, against the CRDs of the document and
// of the other open documents.
func TestPolicyTypeCheckingWarningsAreAtTheExpressions(t *testing.T) {
	for _, tc := range []struct {
		name      string
		crdInFile bool
	}{{"CRD in the same file", true}, {"CRD in another open document", false}} {
		t.Run(tc.name, func(t *testing.T) {
			cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
			text := typeCheckPolicyText
			if tc.crdInFile {
				text = typeCheckPolicyText + "---\n" + typeCheckCRDText
			} else {
				cl.open("file:///work/crd.yaml", typeCheckCRDText)
				cl.waitDiags("file:///work/crd.yaml", 1)
			}
			cl.open(policyURI, text)
			diags := cl.waitDiags(policyURI, 1)
			if got := messages(diags, SeverityError); len(got) != 0 {
				t.Fatalf("errors: %q", got)
			}
			warns := messages(diags, SeverityWarning)
			if len(warns) != 2 || !strings.HasPrefix(warns[0], "spec.validations[0].expression: example.com/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'replica'") ||
				!strings.HasPrefix(warns[1], "spec.validations[1].messageExpression: example.com/v1, Kind=Widget: ERROR: <input>:1:6: found no matching overload for '_+_'") {
				t.Fatalf("warnings:\n%s", strings.Join(warns, "\n"))
			}
			lines := strings.Split(text, "\n")
			for _, c := range []struct {
				substr string
				line   int
				at     string
			}{{"spec.validations[0].expression", 8, ".replica <="}, {"spec.validations[1].messageExpression", 10, "+ object"}} {
				d := find(diags, c.substr)
				l, col := d.Range.Start.Line, d.Range.Start.Character
				if l != c.line || !strings.HasPrefix(lines[l][col:], c.at) {
					t.Errorf("%s at %d:%d (%q), want line %d at %q", c.substr, l, col, lines[l][min(col, len(lines[l])):], c.line, c.at)
				}
			}
		})
	}
}

// A policy on CustomResourceDefinitions is type-checked without any CRD
// in the workspace: the kind is built in.
func TestPolicyOnCRDsIsTypeCheckedWithoutCRDs(t *testing.T) {
	text := `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: p}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apiextensions.k8s.io], apiVersions: [v1], operations: [CREATE], resources: [customresourcedefinitions]}
  validations:
  - expression: "object.spec.groups == 'x'"
`
	cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
	cl.open(policyURI, text)
	diags := cl.waitDiags(policyURI, 1)
	warns := messages(diags, SeverityWarning)
	if len(warns) != 1 || !strings.HasPrefix(warns[0], "spec.validations[0].expression: apiextensions.k8s.io/v1, Kind=CustomResourceDefinition: ERROR: <input>:1:12: undefined field 'groups'") {
		t.Fatalf("diagnostics %+v", diags)
	}
}

package admission

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
)

const typeCheckTestCRD = `apiVersion: apiextensions.k8s.io/v1
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
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
  - name: v2
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object}
`

// TestTypeCheckWarnsPerExpressionAndKind pins which expressions and kinds
// are checked, and the text of a warning.
func TestTypeCheckWarnsPerExpressionAndKind(t *testing.T) {
	def, err := crd.DecodeOne([]byte(typeCheckTestCRD), "crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, rule, spec string
		want             []string // "fieldRef|kinds"
	}{
		{"misspelled field", `{apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}`,
			`validations: [{expression: "object.spec.replica > 1"}, {expression: "object.spec.replicas > 1"}]`,
			[]string{"spec.validations[0].expression|example.com/v1, Kind=Widget"}},
		{"messageExpression checked, matchConditions not", `{apiGroups: [example.com], apiVersions: [v1], resources: [widget]}`,
			`matchConditions: [{name: m, expression: "object.nosuch"}]
  validations: [{expression: "true", messageExpression: "'n=' + object.spec.replicas"}]`,
			[]string{"spec.validations[0].messageExpression|example.com/v1, Kind=Widget"}},
		{"ObjectMeta and embedded metadata are typed", `{apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}`,
			`validations: [{expression: "object.metadata.labels.size() > 0 && object.spec.template.metadata.generation > 0"}, {expression: "object.metadata.generation == 'x'"}]`,
			[]string{"spec.validations[1].expression|example.com/v1, Kind=Widget"}},
		{"unserved version skipped", `{apiGroups: [example.com], apiVersions: [v2], resources: [widgets]}`,
			`validations: [{expression: "object.nosuch"}]`, nil},
		{"wildcard version skips the rule", `{apiGroups: [example.com], apiVersions: ["*"], resources: [widgets]}`,
			`validations: [{expression: "object.nosuch"}]`, nil},
		{"subresource left out", `{apiGroups: [example.com], apiVersions: [v1], resources: [widgets/status]}`,
			`validations: [{expression: "object.nosuch"}]`, nil},
		{"built-in kind has no schema", `{apiGroups: [apps], apiVersions: [v1], resources: [deployments]}`,
			`validations: [{expression: "object.nosuch"}]`, nil},
		{"CustomResourceDefinition is typed", `{apiGroups: [apiextensions.k8s.io], apiVersions: [v1], resources: [customresourcedefinitions]}`,
			`validations: [{expression: "object.spec.names.kind != '' && object.spec.versions.all(v, v.served)"}, {expression: "object.spec.version == 'v1'"}]`,
			[]string{"spec.validations[1].expression|apiextensions.k8s.io/v1, Kind=CustomResourceDefinition"}},
		{"params without a CRD are dyn", `{apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}`,
			`paramKind: {apiVersion: v1, kind: ConfigMap}
  validations: [{expression: "params.data.x == object.spec.replicas"}]`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  matchConstraints:\n    resourceRules:\n    - " + tc.rule + "\n  " + tc.spec + "\n"
			in, err := DecodeFile([]byte(src), "p.yaml")
			if err != nil {
				t.Fatal(err)
			}
			ws, err := TypeCheck(in.Policies[0], []*crd.CustomResourceDefinition{def})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range ws {
				if !strings.HasSuffix(w.Warning, "^\n") || !strings.Contains(w.Warning, ": ERROR: <input>:") {
					t.Errorf("warning text %q", w.Warning)
				}
				kind, _, _ := strings.Cut(w.Warning, ": ERROR")
				got = append(got, w.FieldRef+"|"+kind)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

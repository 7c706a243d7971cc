package upgrade

import (
	"fmt"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
)

// crdWith builds a one-version CRD whose spec schema's properties are props
// (YAML flow), with extra version fields.
func crdWith(t *testing.T, props, version string) *crd.CustomResourceDefinition {
	t.Helper()
	doc := fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - {name: v1, served: true, storage: true%s, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: %s}}}}}
`, version, props)
	defs, err := crd.Decode([]byte(doc), "test")
	if err != nil {
		t.Fatal(err)
	}
	return defs[0]
}

func TestDiffClassifiesSchemaChanges(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           []string // "severity kind path"
	}{
		{"unchanged", `{a: {type: string}}`, `{a: {type: string}}`, nil},
		{"field removed", `{a: {type: string}, b: {type: string}}`, `{a: {type: string}}`, []string{"breaking FieldRemoved spec.b"}},
		{"field added", `{a: {type: string}}`, `{a: {type: string}, b: {type: string}}`, []string{"info FieldAdded spec.b"}},
		{"type changed", `{a: {type: string}}`, `{a: {type: integer}}`, []string{"breaking TypeChanged spec.a"}},
		{"maximum lowered", `{a: {type: integer, maximum: 10}}`, `{a: {type: integer, maximum: 5}}`, []string{"breaking BoundTightened spec.a"}},
		{"maximum raised", `{a: {type: integer, maximum: 10}}`, `{a: {type: integer, maximum: 20}}`, []string{"info BoundLoosened spec.a"}},
		{"minLength added", `{a: {type: string}}`, `{a: {type: string, minLength: 1}}`, []string{"breaking BoundTightened spec.a"}},
		{"maxItems removed", `{a: {type: array, maxItems: 3, items: {type: string}}}`, `{a: {type: array, items: {type: string}}}`, []string{"info BoundLoosened spec.a"}},
		{"enum value removed", `{a: {type: string, enum: [x, y]}}`, `{a: {type: string, enum: [x]}}`, []string{"breaking EnumValuesRemoved spec.a"}},
		{"enum value added", `{a: {type: string, enum: [x]}}`, `{a: {type: string, enum: [x, y]}}`, []string{"info EnumValuesAdded spec.a"}},
		{"enum added", `{a: {type: string}}`, `{a: {type: string, enum: [x]}}`, []string{"breaking EnumAdded spec.a"}},
		{"integer format added", `{a: {type: integer}}`, `{a: {type: integer, format: int32}}`, []string{"info FormatChanged spec.a"}},
		{"pattern added", `{a: {type: string}}`, `{a: {type: string, pattern: "^a"}}`, []string{"breaking PatternChanged spec.a"}},
		{"format changed", `{a: {type: string, format: byte}}`, `{a: {type: string, format: date}}`, []string{"breaking FormatChanged spec.a"}},
		{"newly required", `{a: {type: string}}`, `{a: {type: string}}, required: [a]`, []string{"breaking FieldRequired spec.a"}},
		{"rule added", `{a: {type: string}}`, `{a: {type: string, x-kubernetes-validations: [{rule: "self != 'x'"}]}}`, []string{"breaking RuleAdded spec.a"}},
		{"transition rule added", `{a: {type: string}}`, `{a: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf"}]}}`, []string{"breaking TransitionRuleAdded spec.a"}},
		{"rule changed", `{a: {type: string, x-kubernetes-validations: [{rule: "self != 'x'"}]}}`, `{a: {type: string, x-kubernetes-validations: [{rule: "self != 'y'"}]}}`, []string{"breaking RuleAdded spec.a", "info RuleRemoved spec.a"}},
		{"default changed", `{a: {type: string, default: x}}`, `{a: {type: string, default: y}}`, []string{"warning DefaultChanged spec.a"}},
		{"default added", `{a: {type: string}}`, `{a: {type: string, default: y}}`, []string{"warning DefaultAdded spec.a"}},
		{"list type changed", `{a: {type: array, items: {type: string}}}`, `{a: {type: array, x-kubernetes-list-type: set, items: {type: string}}}`, []string{"warning ListTypeChanged spec.a"}},
		{"map type changed", `{a: {type: object, x-kubernetes-map-type: granular}}`, `{a: {type: object, x-kubernetes-map-type: atomic}}`, []string{"warning MapTypeChanged spec.a"}},
		{"nested item field removed", `{a: {type: array, items: {type: object, properties: {b: {type: string}}}}}`, `{a: {type: array, items: {type: object}}}`, []string{"breaking FieldRemoved spec.a[*].b"}},
		{"map value tightened", `{a: {type: object, additionalProperties: {type: string}}}`, `{a: {type: object, additionalProperties: {type: string, maxLength: 3}}}`, []string{"breaking BoundTightened spec.a[*]"}},
		{"preserve unknown removed", `{a: {type: object, x-kubernetes-preserve-unknown-fields: true}}`, `{a: {type: object}}`, []string{"breaking PreserveUnknownFieldsRemoved spec.a"}},
		{"nullable removed", `{a: {type: string, nullable: true}}`, `{a: {type: string}}`, []string{"breaking NullableRemoved spec.a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range Diff(crdWith(t, tt.old, ""), crdWith(t, tt.new, "")) {
				got = append(got, c.Severity+" "+c.Kind+" "+c.Path)
				if c.Message == "" || c.Version != "v1" {
					t.Errorf("finding %+v: want a message and version v1", c)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestDiffVersionFlags(t *testing.T) {
	props := `{a: {type: string}}`
	tests := []struct {
		name, old, new string
		want           string
	}{
		{"unserved", "", ", served: false", "breaking VersionUnserved"},
		{"deprecated", "", ", deprecated: true", "warning VersionDeprecated"},
		{"served again", ", served: false", "", "info VersionServed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldDef := crdWith(t, props, strings.Replace(tt.old, ", served: false", "", 1))
			if strings.Contains(tt.old, "served: false") {
				oldDef.Spec.Versions[0].Served = false
			}
			newDef := crdWith(t, props, strings.Replace(tt.new, ", served: false", "", 1))
			if strings.Contains(tt.new, "served: false") {
				newDef.Spec.Versions[0].Served = false
			}
			changes := Diff(oldDef, newDef)
			if len(changes) != 1 || changes[0].Severity+" "+changes[0].Kind != tt.want {
				t.Errorf("got %+v, want %s", changes, tt.want)
			}
		})
	}
}

package crdvalidation

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
)

// crdWithSchema builds a one-version CRD around an openAPIV3Schema body
// (indented YAML below "openAPIV3Schema:"), plus extra version fields.
func crdWithSchema(schema, versionExtra string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
` + versionExtra + `    schema:
      openAPIV3Schema:
` + indent(schema, 8)
}

func indent(s string, n int) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.Trim(s, "\n"), "\n") {
		b.WriteString(strings.Repeat(" ", n) + l + "\n")
	}
	return b.String()
}

func validate(t *testing.T, yaml string, opts Options) ([]string, []string) {
	t.Helper()
	return validateWith(t, yaml, func(c *crd.CustomResourceDefinition) (field.ErrorList, []string) {
		return ValidateCustomResourceDefinition(c, opts)
	})
}

// validateFake validates with f in place of CompileRules.
func validateFake(t *testing.T, yaml string, f *fakeCEL) ([]string, []string) {
	t.Helper()
	return validateWith(t, yaml, func(c *crd.CustomResourceDefinition) (field.ErrorList, []string) {
		return validateCustomResourceDefinition(c, &options{compileRules: f.CompileRules})
	})
}

func validateWith(t *testing.T, yaml string, run func(*crd.CustomResourceDefinition) (field.ErrorList, []string)) ([]string, []string) {
	t.Helper()
	c, err := crd.DecodeOne([]byte(yaml), "t.yaml")
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	errs, warnings := run(c)
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out, warnings
}

func TestValidateChecks(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		{
			name: "metadata.name must be plural.group",
			yaml: strings.Replace(crdWithSchema("type: object", ""), "name: widgets.example.com", "name: gadgets.example.com", 1),
			want: []string{`metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group`},
		},
		{
			// the CRD's metadata goes through objectmeta.ValidateObjectMetaAt:
			// label lengths in bytes, as api/validate/content says
			name: "metadata labels as every object's",
			yaml: strings.Replace(crdWithSchema("type: object", ""), "name: widgets.example.com", "name: widgets.example.com\n  labels: {a: "+strings.Repeat("x", 64)+"}", 1),
			want: []string{`metadata.labels: Invalid value: "` + strings.Repeat("x", 64) + `": must be no more than 63 bytes`},
		},
		{
			name: "group needs a dot",
			yaml: strings.NewReplacer("name: widgets.example.com", "name: widgets.example", "group: example.com", "group: example").Replace(crdWithSchema("type: object", "")),
			want: []string{`spec.group: Invalid value: "example": should be a domain with at least one dot`},
		},
		{
			name: "scope must be Cluster or Namespaced",
			yaml: strings.Replace(crdWithSchema("type: object", ""), "scope: Namespaced", "scope: Global", 1),
			want: []string{`spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"`},
		},
		{
			name: "kind and listKind may not be equal",
			yaml: strings.Replace(crdWithSchema("type: object", ""), "kind: Widget}", "kind: Widget, listKind: Widget}", 1),
			want: []string{`spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same`},
		},
		{
			name: "exactly one storage version, rendered in the internal shape",
			yaml: strings.Replace(crdWithSchema("type: object", ""), "storage: true", "storage: false", 1),
			want: []string{
				`spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version`,
				`status.storedVersions: Invalid value: null: must have at least one stored version`,
			},
		},
		{
			name: "identical schemas are hoisted to spec.validation",
			yaml: crdWithSchema("type: object\nproperties:\n  a: {type: strin}", ""),
			want: []string{`spec.validation.openAPIV3Schema.properties[a].type: Unsupported value: "strin": supported values: "array", "boolean", "integer", "number", "object", "string"`},
		},
		{
			name: "scale paths must be under spec and status",
			yaml: crdWithSchema("type: object", "    subresources:\n      scale: {specReplicasPath: .status.r, statusReplicasPath: status.r}\n"),
			want: []string{
				`spec.subresources.scale.specReplicasPath: Invalid value: ".status.r": should be a json path under .spec`,
				`spec.subresources.scale.statusReplicasPath: Invalid value: "status.r": must be a simple json path starting with .`,
			},
		},
		{
			name: "status subresource restricts the root schema",
			yaml: crdWithSchema("type: object\nnullable: true", "    subresources: {status: {}}\n"),
			want: []string{
				`spec.validation.openAPIV3Schema: Invalid value: {"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":true,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
				`spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root`,
			},
		},
		{
			name: "printer column type and format",
			yaml: crdWithSchema("type: object", "    additionalPrinterColumns:\n    - {name: a, type: str, format: x, jsonPath: .a}\n"),
			want: []string{
				`spec.additionalPrinterColumns[0].type: Invalid value: "str": must be one of boolean,date,integer,number,string`,
				`spec.additionalPrinterColumns[0].format: Invalid value: "x": must be one of byte,date,date-time,double,float,int32,int64,password`,
			},
		},
		{
			name: "selectable field must exist and be a scalar",
			yaml: crdWithSchema("type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      num: {type: number}", "    selectableFields:\n    - jsonPath: .spec.num\n    - jsonPath: .spec.x\n"),
			want: []string{
				`spec.selectableFields[0].jsonPath: Invalid value: ".spec.num": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
				`spec.selectableFields[1].jsonPath: Invalid value: ".spec.x": is an invalid path: does not refer to a valid field`,
			},
		},
		{
			name: "list-type map keys must be required or defaulted",
			yaml: crdWithSchema("type: object\nproperties:\n  l:\n    type: array\n    x-kubernetes-list-type: map\n    x-kubernetes-list-map-keys: [k]\n    items:\n      type: object\n      properties:\n        k: {type: string}", ""),
			want: []string{`spec.validation.openAPIV3Schema.properties[l].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`},
		},
		{
			name: "validation rule reason must be supported",
			yaml: crdWithSchema("type: object\nx-kubernetes-validations:\n- {rule: 'true', reason: Nope}", ""),
			want: []string{`spec.validation.openAPIV3Schema.x-kubernetes-validations[0].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`},
		},
		{
			name: "validation rule fieldPath must exist",
			yaml: crdWithSchema("type: object\nproperties:\n  a: {type: string}\nx-kubernetes-validations:\n- {rule: 'true', fieldPath: .b}", ""),
			want: []string{`spec.validation.openAPIV3Schema.x-kubernetes-validations[0].fieldPath: Invalid value: ".b": must be a valid path`},
		},
		{
			name: "preserveUnknownFields true is rejected",
			yaml: strings.Replace(crdWithSchema("type: object", ""), "  scope: Namespaced\n", "  scope: Namespaced\n  preserveUnknownFields: true\n", 1),
			want: []string{`spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := validate(t, tt.yaml, Options{})
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestWarningsOnCreate(t *testing.T) {
	y := crdWithSchema("type: object\nproperties:\n  s:\n    type: array\n    x-kubernetes-list-type: set\n    items:\n      type: object\n      x-kubernetes-map-type: atomic", "")
	errs, warnings := validate(t, y, Options{})
	if len(errs) != 0 {
		t.Fatalf("unexpected errors %v", errs)
	}
	want := `x-kubernetes-list-type: set for items of type "object" is not supported by server-side apply or CEL validation rules`
	if len(warnings) != 1 || warnings[0] != want {
		t.Errorf("warnings = %q, want [%q]", warnings, want)
	}
}

func TestWarningsAreDroppedWhenThereAreErrors(t *testing.T) {
	y := strings.Replace(crdWithSchema("type: object\nproperties:\n  s:\n    type: array\n    x-kubernetes-list-type: set\n    items:\n      type: object\n      x-kubernetes-map-type: atomic", ""), "scope: Namespaced", "scope: Global", 1)
	errs, warnings := validate(t, y, Options{})
	if len(errs) == 0 || warnings != nil {
		t.Errorf("want errors and no warnings, got %v / %v", errs, warnings)
	}
}

// fakeCEL stands in for CompileRules: it records the nodes it is asked
// about and answers from a table keyed by rule text, so that these tests pin
// how CRD validation walks the schema and turns results into errors
// independently of CEL compilation.
type fakeCEL struct {
	calls   []string
	results map[string]CELRuleResult
	err     error
}

func (f *fakeCEL) CompileRules(n CELNode) ([]CELRuleResult, error) {
	var steps []string
	for _, s := range n.Steps {
		switch s.Kind {
		case CELStepProperty:
			steps = append(steps, "."+s.Property)
		case CELStepItems:
			steps = append(steps, "[*]")
		case CELStepAdditionalProperties:
			steps = append(steps, "{*}")
		}
	}
	f.calls = append(f.calls, "self"+strings.Join(steps, ""))
	if f.err != nil {
		return nil, f.err
	}
	var out []CELRuleResult
	for _, r := range n.Schema.XValidations {
		out = append(out, f.results[r.Rule])
	}
	return out, nil
}

func TestCompileRulesIsCalledChildrenFirstWithSteps(t *testing.T) {
	y := crdWithSchema(`type: object
x-kubernetes-validations: [{rule: root}]
properties:
  b:
    type: array
    items:
      type: string
      x-kubernetes-validations: [{rule: item}]
  a:
    type: object
    additionalProperties:
      type: string
      x-kubernetes-validations: [{rule: value}]
  c:
    type: string
    not:
      maxLength: 1`, "")
	f := &fakeCEL{results: map[string]CELRuleResult{}}
	errs, _ := validateFake(t, y, f)
	if len(errs) != 0 {
		t.Fatalf("unexpected errors %v", errs)
	}
	want := "self.a{*},self.b[*],self"
	if got := strings.Join(f.calls, ","); got != want {
		t.Errorf("calls = %s, want %s", got, want)
	}
}

func TestCompileRulesSkippedBelowSchemaErrors(t *testing.T) {
	y := crdWithSchema("type: object\nx-kubernetes-validations: [{rule: root}]\nproperties:\n  a: {type: string, uniqueItems: true}", "")
	f := &fakeCEL{results: map[string]CELRuleResult{}}
	errs, _ := validateFake(t, y, f)
	if len(f.calls) != 0 {
		t.Errorf("checker called %v despite schema errors", f.calls)
	}
	if len(errs) != 1 {
		t.Errorf("want the uniqueItems error only, got %v", errs)
	}
}

func TestCELResultsBecomeErrors(t *testing.T) {
	y := crdWithSchema(`type: object
properties:
  l:
    type: array
    maxItems: 10
    items:
      type: object
      x-kubernetes-validations:
      - rule: costly
      - rule: broken
      - rule: required
      - rule: old
      - rule: notold
        optionalOldSelf: true
      - rule: msg
        messageExpression: m`, "")
	f := &fakeCEL{results: map[string]CELRuleResult{
		"costly":   {MaxCost: 2000000},
		"broken":   {MaxCost: 1, Error: &CELRuleError{Detail: "compilation failed: boom"}},
		"required": {MaxCost: 1, Error: &CELRuleError{Required: true, Detail: "needs something"}},
		"old":      {MaxCost: 1, UsesOldSelf: true},
		"notold":   {MaxCost: 1},
		"msg":      {MaxCost: 1, MessageExpressionError: "messageExpression compilation failed: bad"},
	}}
	got, _ := validateFake(t, y, f)
	p := "spec.validation.openAPIV3Schema.properties[l].items.x-kubernetes-validations"
	want := []string{
		p + `[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 2.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
		p + `[1].rule: Invalid value: {"Rule":"broken","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: boom`,
		p + `[2].rule: Required value: needs something`,
		p + `[3].rule: Invalid value: "old": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[l]`,
		p + `[4].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
		p + `[5].messageExpression: Invalid value: {"Rule":"msg","Message":"","MessageExpression":"m","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression compilation failed: bad`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCELTotalCostLimit(t *testing.T) {
	schemaWith := func(n int) string {
		var props strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&props, "  p%02d:\n    type: string\n    x-kubernetes-validations: [{rule: r}]\n", i)
		}
		return crdWithSchema("type: object\nproperties:\n"+props.String(), "")
	}
	f := &fakeCEL{results: map[string]CELRuleResult{"r": {MaxCost: 9000000}}}
	// 11 x 9M = 99M is within the 100M limit.
	if got, _ := validateFake(t, schemaWith(11), f); len(got) != 0 {
		t.Fatalf("unexpected errors %v", got)
	}
	// 12 x 9M = 108M: the 4 most expensive rules and the total are reported.
	got, _ := validateFake(t, schemaWith(12), f)
	if len(got) != 5 {
		t.Fatalf("want 4 contributors and the total, got %d:\n%s", len(got), strings.Join(got, "\n"))
	}
	for _, e := range got[:4] {
		if !strings.HasSuffix(e, ".x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema") {
			t.Errorf("unexpected contributor error %s", e)
		}
	}
	wantTotal := `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.080000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`
	if got[4] != wantTotal {
		t.Errorf("total = %s\nwant    %s", got[4], wantTotal)
	}
}

func TestCompileRulesErrorIsInternal(t *testing.T) {
	y := crdWithSchema("type: object\nx-kubernetes-validations: [{rule: x}]", "")
	f := &fakeCEL{err: errors.New("internal error: failed to retrieve type information for x-kubernetes-validations")}
	got, _ := validateFake(t, y, f)
	want := `spec.validation.openAPIV3Schema.x-kubernetes-validations: Internal error: internal error: failed to retrieve type information for x-kubernetes-validations`
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

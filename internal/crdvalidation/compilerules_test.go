package crdvalidation

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
)

// The expected numbers were produced by upstream's CELSchemaContext.TypeInfo
// and cel.Compile (NewExpressions environment) on the same schema.
func TestCompileRulesDerivesNodeTypesLikeUpstream(t *testing.T) {
	root := `{"type":"object","x-kubernetes-validations":[{"rule":"self.metadata.name != ''"}],"properties":{
		"spec":{"type":"object","properties":{
			"1x":{"type":"string","maxLength":5,"x-kubernetes-validations":[{"rule":"self.size() > 0"}]},
			"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,
				"x-kubernetes-validations":[{"rule":"self.kind != ''"}]},
			"l":{"type":"array","items":{"type":"object","properties":{"v":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.v > 0","messageExpression":"'v is ' + string(self.v)"},{"rule":"self.w > 0"}]}}}}}}`
	var props crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(root), &props); err != nil {
		t.Fatal(err)
	}
	prop := func(n string) CELStep {
		return CELStep{Kind: CELStepProperty, Property: n}
	}
	cases := []struct {
		name  string
		steps []CELStep
		want  []string
	}{
		{"root sees implicit metadata", nil, []string{"cost=3 card=1048576 old=false err="}},
		{"unescapable property converts itself", []CELStep{prop("spec"), prop("1x")}, []string{"cost=3 card=1048576 old=false err="}},
		{"embedded resource sees kind", []CELStep{prop("spec"), prop("e")}, []string{"cost=2 card=1048576 old=false err="}},
		{"list items", []CELStep{prop("spec"), prop("l"), {Kind: CELStepItems}}, []string{
			"cost=3 card=1048576 old=false err= msg=1844674407370955267",
			"cost=0 card=0 old=false err=compilation failed: ERROR: <input>:1:5: undefined field 'w'",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			node := &props
			for _, st := range c.steps {
				node = ChildSchema(node, st)
			}
			res, err := CompileRules(CELNode{Root: &props, Steps: c.steps, Schema: node}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range res {
				s := "cost=" + itoa(r.MaxCost) + " card=" + itoa(r.MaxCardinality) + " old=" + map[bool]string{true: "true", false: "false"}[r.UsesOldSelf] + " err="
				if r.Error != nil {
					s += strings.SplitN(r.Error.Detail, "\n", 2)[0]
				}
				if r.HasMessageExpression {
					s += " msg=" + itoa(r.MessageExpressionMaxCost)
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestCompileRulesReportsTypeConversionFailure(t *testing.T) {
	// A node with rules but no CEL type (an array without items) cannot be typed.
	props := crd.JSONSchemaProps{Type: "array", XValidations: crd.ValidationRules{{Rule: "true"}}}
	_, err := CompileRules(CELNode{Root: &props, Schema: &props}, nil)
	want := "internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations"
	if err == nil || err.Error() != want {
		t.Errorf("err %v, want %q", err, want)
	}
}

func itoa(v uint64) string {
	b := []byte{}
	if v == 0 {
		return "0"
	}
	for v > 0 {
		b = append([]byte{byte('0' + v%10)}, b...)
		v /= 10
	}
	return string(b)
}

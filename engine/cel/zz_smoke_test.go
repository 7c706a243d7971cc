package cel

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/schema"
)

func TestSmoke(t *testing.T) {
	s := &schema.Structural{Generic: schema.Generic{Type: "object"}, Properties: map[string]schema.Structural{
		"spec": {Generic: schema.Generic{Type: "object"}, Properties: map[string]schema.Structural{
			"replicas": {Generic: schema.Generic{Type: "integer"}},
			"name":     {Generic: schema.Generic{Type: "string"}},
			"items":    {Generic: schema.Generic{Type: "array"}, Items: &schema.Structural{Generic: schema.Generic{Type: "string"}}},
		}, ValidationExtensions: schema.ValidationExtensions{XValidations: crd.ValidationRules{
			{Rule: "self.replicas < 5", Message: "too many"},
			{Rule: "self.name.startsWith('a')", MessageExpression: "'bad name ' + self.name"},
			{Rule: "self.items.all(x, x.size() < 3)"},
			{Rule: "self.replicas >= oldSelf.replicas"},
			{Rule: "self.nope == 1"},
			{Rule: "self.replicas + 'a'"},
		}}},
	}}
	v := NewValidator(s, true, PerCallLimit)
	var obj map[string]interface{}
	json.Unmarshal([]byte(`{"spec":{"replicas":7,"name":"bob","items":["aaaa"]}}`), &obj)
	fix(obj)
	errs, rem, rep := v.Validate(nil, obj, obj, RuntimeCELCostBudget)
	for _, e := range errs {
		fmt.Println(e.Error())
	}
	fmt.Println(rem, rep.Costs)
	for _, c := range v.Properties["spec"].compiledRules {
		fmt.Println(c.MaxCost, c.MaxCardinality, c.Error)
	}
}

func fix(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			x[k] = fix(e)
		}
	case []interface{}:
		for i, e := range x {
			x[i] = fix(e)
		}
	case float64:
		if x == float64(int64(x)) {
			return int64(x)
		}
	}
	return v
}

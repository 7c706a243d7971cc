package engine

import (
	"reflect"
	"testing"
)

// TestResultCostsAreRuleCosts pins Result.Costs: one RuleCost per rule and
// messageExpression evaluation, in evaluation order, with the node's path
// and the rule's index.
func TestResultCostsAreRuleCosts(t *testing.T) {
	c := compileT(t, `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
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
            x-kubernetes-validations:
            - rule: self.a > 0
            - rule: self.a < 10
              messageExpression: '"a is too big"'
            properties:
              a: {type: integer}
`)
	res, err := c.Validate([]byte(`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"a":20}}`), ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(res); !reflect.DeepEqual(got, []string{"spec: Invalid value: a is too big"}) {
		t.Fatalf("errors %q", got)
	}
	if len(res.Costs) != 3 {
		t.Fatalf("costs %+v, want 3", res.Costs)
	}
	for i, want := range []RuleCost{{Path: "spec", Rule: 0}, {Path: "spec", Rule: 1}, {Path: "spec", Rule: 1, MessageExpression: true}} {
		got := res.Costs[i]
		if got.Cost == 0 && !want.MessageExpression { // a constant message costs nothing
			t.Errorf("cost %d is 0", i)
		}
		got.Cost = 0
		if got != want {
			t.Errorf("cost %d: %+v, want %+v", i, got, want)
		}
	}
}

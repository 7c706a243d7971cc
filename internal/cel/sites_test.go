package cel

import (
	"testing"

	"github.com/crdlab/crdlab/internal/limits"
)

// TestSitesMatchValidate: the rule sites of an object are the evaluations
// Validate runs, in its order, with the same runtime costs; every rule with
// a messageExpression has one messageExpression site per rule site.
func TestSitesMatchValidate(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
		"items":{"type":"array","maxItems":10,"items":{"type":"object","properties":{"n":{"type":"integer"}},
			"x-kubernetes-validations":[{"rule":"self.n > 0","messageExpression":"'bad ' + string(self.n)"}]},
			"x-kubernetes-validations":[{"rule":"self.all(x, x.n < 100)"}]},
		"m":{"type":"object","additionalProperties":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 5"}]}},
		"t":{"type":"integer","x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}}`)
	v := NewValidator(s, false, limits.PerCallLimit)
	obj := mustObject(t, `{"items":[{"n":1},{"n":-2},{"n":3}],"m":{"b":"xx","a":"yyyyyy"},"t":1}`)
	_, _, rep := v.Validate(nil, obj, nil, limits.RuntimeCELCostBudget)
	var want []RuleCost
	for _, c := range rep.Costs {
		if !c.MessageExpression {
			want = append(want, c)
		}
	}
	sites := v.Sites(nil, obj)
	var got []RuleCost
	messages := 0
	for i := range sites {
		c, err := sites[i].Eval()
		if err != nil {
			t.Errorf("%s: %v", sites[i].Path, err)
		}
		if sites[i].MessageExpression {
			messages++
			if sites[i].Path[:6] != "items[" {
				t.Errorf("messageExpression site at %s", sites[i].Path)
			}
			continue
		}
		got = append(got, RuleCost{Path: sites[i].Path, Rule: sites[i].Rule, Cost: c})
	}
	if len(got) != len(want) || len(want) != 6 {
		t.Fatalf("sites %v, Validate %v (want 6: the transition rule is skipped)", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("site %d: %+v, Validate %+v", i, got[i], want[i])
		}
	}
	if messages != 3 {
		t.Errorf("%d messageExpression sites, want 3 (one per item)", messages)
	}
	// Eval is repeatable: same cost every time.
	for i := 0; i < 3; i++ {
		if c, _ := sites[0].Eval(); c != got[0].Cost {
			t.Errorf("evaluation %d: cost %d, first %d", i, c, got[0].Cost)
		}
	}
}

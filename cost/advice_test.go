package cost

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/cel-go/common"
	"github.com/google/cel-go/parser"

	"github.com/crdlab/crdlab/engine/crd"
)

// TestAdvice pins each advice kind on testdata/advice.yaml and checks every
// figure against an independent analysis of the CRD with the change made.
func TestAdvice(t *testing.T) {
	def := mustCRD(t, "testdata/advice.yaml")
	rep, err := Analyze(def)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		node, field, kind, sub string
	}{
		{"minReplicas", FieldMessageExpression, AdviceStringConversion, "string(self)"},
		{"suffixed", FieldRule, AdviceConcatenationInLoop, `x + "-suffix"`},
		{"ports", FieldRule, AdviceNestedComprehension, "self.exists_one(b, a.name == b.name)"},
		{"hosts", FieldRule, AdviceMatches, `h.matches("^[a-z0-9.-]+$")`},
		{"composed", FieldRule, AdviceNestedComprehension, "self.exists_one(b, a.name == b.name)"},
		{"composed", FieldRule, AdviceBoundInComposition, ""},
	}
	for _, tt := range tests {
		t.Run(tt.node+"/"+tt.kind, func(t *testing.T) {
			r := findRule(t, rep, tt.node, tt.field)
			if !r.OverBudget {
				t.Fatalf("not over budget: %d", r.EstimatedCost)
			}
			var ad *Advice
			for i := range r.Advice {
				if r.Advice[i].Kind == tt.kind {
					ad = &r.Advice[i]
				}
			}
			if ad == nil {
				t.Fatalf("no %s advice in %+v", tt.kind, r.Advice)
			}
			if ad.SubExpression != tt.sub {
				t.Errorf("sub-expression %q, want %q", ad.SubExpression, tt.sub)
			}
			// re-estimate independently: the CRD with the change made
			changed := cloneCRD(t, def)
			n := changed.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties[tt.node]
			want := uint64(0)
			if tt.kind == AdviceBoundInComposition {
				if ad.Move == nil || ad.Move.Keyword != MaxItems || ad.Move.Max != 10 || ad.Move.DataPath != "spec.composed" {
					t.Fatalf("move %+v", ad.Move)
				}
				v := ad.Move.Max
				n.MaxItems = &v
				want = ad.Move.EstimatedCost
				if !strings.Contains(ad.Message, "allOf") || !strings.Contains(ad.Message, "kubernetes#139523") {
					t.Errorf("message %q", ad.Message)
				}
			} else {
				if ad.EstimatedCostWithout == nil || *ad.EstimatedCostWithout >= r.EstimatedCost {
					t.Fatalf("cost without: %v (with: %d)", ad.EstimatedCostWithout, r.EstimatedCost)
				}
				want = *ad.EstimatedCostWithout
				xv := &n.XValidations[0]
				if tt.field == FieldMessageExpression {
					xv.MessageExpression = replaced(t, xv.MessageExpression, ad.SubExpression, tt.kind)
				} else {
					xv.Rule = replaced(t, xv.Rule, ad.SubExpression, tt.kind)
				}
				if !strings.Contains(ad.Message, tt.sub) {
					t.Errorf("message %q does not name %s", ad.Message, tt.sub)
				}
			}
			changed.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties[tt.node] = n
			rep2, err := Analyze(changed)
			if err != nil {
				t.Fatal(err)
			}
			r2 := findRule(t, rep2, tt.node, tt.field)
			if r2.CompileError != "" {
				t.Fatalf("changed expression: %s", r2.CompileError)
			}
			if got := r2.EstimatedCost; got != want {
				t.Errorf("advice says %d, the changed CRD costs %d", want, got)
			}
		})
	}
	// expressions under their limits get no advice
	for _, r := range rep.Rules {
		if !r.OverBudget && len(r.Advice) > 0 {
			t.Errorf("%s: advice under the limit", r.ErrorPath)
		}
	}
}

func findRule(t *testing.T, rep *Report, node, field string) *Rule {
	t.Helper()
	for i := range rep.Rules {
		if rep.Rules[i].DataPath == "spec."+node && rep.Rules[i].Field == field {
			return &rep.Rules[i]
		}
	}
	t.Fatalf("no %s on spec.%s", field, node)
	return nil
}

func cloneCRD(t *testing.T, def *crd.CustomResourceDefinition) *crd.CustomResourceDefinition {
	data, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	c, err := crd.DecodeOne(data, "clone")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// replaced is expr, unparsed, with sub replaced by the constant advise
// uses for its kind.
func replaced(t *testing.T, expr, sub, kind string) string {
	p, _ := parser.NewParser(parser.Macros(parser.AllMacros...), parser.PopulateMacroCalls(true))
	tree, iss := p.Parse(common.NewTextSource(expr))
	if iss != nil && len(iss.GetErrors()) > 0 {
		t.Fatal(iss.ToDisplayString())
	}
	canonical, err := parser.Unparse(tree.Expr(), tree.SourceInfo())
	if err != nil {
		t.Fatal(err)
	}
	repl := "true"
	if kind == AdviceStringConversion || kind == AdviceConcatenationInLoop {
		repl = "''"
	}
	return strings.Replace(canonical, sub, repl, 1)
}

package cost

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
)

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func analyze(t *testing.T, crdFile string, objects ...string) *Report {
	t.Helper()
	var objs [][]byte
	for _, o := range objects {
		objs = append(objs, read(t, o))
	}
	rep, err := AnalyzeBytes(read(t, crdFile), objs...)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// The Kubernetes docs' examples (custom-resource-definitions, "Resource use
// by validation functions"): numbers pinned from upstream (see
// conformance/cost_test.go, which checks them against upstream directly).
func TestDocsExamplesVerdictsAndNumbers(t *testing.T) {
	tests := []struct {
		file        string
		accepted    bool
		max         uint64
		cardinality uint64
		bounded     bool
		total       uint64
		costErrors  int
	}{
		{"docs-unbounded.yaml", false, 329857577777, 1, true, 329857577777, 3},
		{"docs-bounded.yaml", true, 202, 1, true, 202, 0},
		{"docs-flat-list.yaml", true, 6291454, 1, true, 6291454, 0},
		{"docs-nested-list.yaml", false, 6291454, 1048576, false, 6291454 * 1048576, 3},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rep := analyze(t, tt.file)
			if rep.Accepted != tt.accepted {
				t.Errorf("accepted = %v, want %v (errors %v)", rep.Accepted, tt.accepted, rep.Errors)
			}
			if len(rep.Rules) != 1 {
				t.Fatalf("%d rules, want 1", len(rep.Rules))
			}
			r := rep.Rules[0]
			if r.Estimate.Max != tt.max || r.Cardinality != tt.cardinality || r.CardinalityBounded != tt.bounded {
				t.Errorf("max %d card %d bounded %v, want %d %d %v", r.Estimate.Max, r.Cardinality, r.CardinalityBounded, tt.max, tt.cardinality, tt.bounded)
			}
			if r.EstimatedCost != tt.total || rep.TotalEstimatedCost != tt.total {
				t.Errorf("cost %d total %d, want %d", r.EstimatedCost, rep.TotalEstimatedCost, tt.total)
			}
			if len(rep.CostErrors) != tt.costErrors {
				t.Errorf("%d cost errors, want %d: %v", len(rep.CostErrors), tt.costErrors, rep.CostErrors)
			}
			if r.OverBudget != !tt.accepted {
				t.Errorf("overBudget = %v", r.OverBudget)
			}
		})
	}
}

func TestSchemaPathsNameTheNodeAsCRDErrorsDo(t *testing.T) {
	rep := analyze(t, "mixed.yaml")
	want := []string{
		"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
		"spec.validation.openAPIV3Schema.properties[spec].properties[names].x-kubernetes-validations[0].rule",
		"spec.validation.openAPIV3Schema.properties[spec].properties[names].x-kubernetes-validations[1].rule",
		"spec.validation.openAPIV3Schema.properties[spec].properties[names].x-kubernetes-validations[1].messageExpression",
		"spec.validation.openAPIV3Schema.properties[spec].properties[replicas].x-kubernetes-validations[0].rule",
		"spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule",
	}
	var got []string
	for _, r := range rep.Rules {
		got = append(got, r.ErrorPath)
		if !strings.HasPrefix(r.ErrorPath, r.Path+".x-kubernetes-validations[") {
			t.Errorf("errorPath %s is not under path %s", r.ErrorPath, r.Path)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("paths:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMessageExpressionCostIsNotMultipliedByCardinality(t *testing.T) {
	const c = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          items:
            type: array
            maxItems: 10
            items:
              type: object
              properties:
                n: {type: integer}
              x-kubernetes-validations:
              - rule: "self.n > 0"
                messageExpression: "'n is ' + string(self.n)"
`
	rep, err := AnalyzeBytes([]byte(c))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rules) != 2 {
		t.Fatalf("%d rules, want 2", len(rep.Rules))
	}
	rule, msg := rep.Rules[0], rep.Rules[1]
	if rule.Field != FieldRule || msg.Field != FieldMessageExpression {
		t.Fatalf("fields %q %q", rule.Field, msg.Field)
	}
	if rule.Cardinality != 10 || rule.EstimatedCost != rule.Estimate.Max*10 {
		t.Errorf("rule: card %d cost %d max %d", rule.Cardinality, rule.EstimatedCost, rule.Estimate.Max)
	}
	if msg.EstimatedCost != msg.Estimate.Max || msg.Estimate.Min != nil {
		t.Errorf("messageExpression: cost %d, max %d, min %v", msg.EstimatedCost, msg.Estimate.Max, msg.Estimate.Min)
	}
	if rep.Schemas[0].TotalEstimatedCost != rule.EstimatedCost+msg.EstimatedCost {
		t.Errorf("total %d", rep.Schemas[0].TotalEstimatedCost)
	}
}

func TestCardinalityIsTheProductOfEnclosingBounds(t *testing.T) {
	tests := []struct {
		name    string
		outer   string
		inner   string
		card    uint64
		bounded bool
	}{
		{"both bounded", "maxItems: 4", "maxProperties: 5", 20, true},
		{"outer unbounded", "", "maxProperties: 5", 0, false},
		{"inner unbounded", "maxItems: 4", "", 0, false},
		{"zero", "maxItems: 0", "maxProperties: 5", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: array
            ` + tt.outer + `
            items:
              type: object
              ` + tt.inner + `
              additionalProperties:
                type: integer
                x-kubernetes-validations:
                - rule: "self > 0"
`
			rep, err := AnalyzeBytes([]byte(c))
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Rules) != 1 {
				t.Fatalf("%d rules: %v", len(rep.Rules), rep.Errors)
			}
			r := rep.Rules[0]
			if r.CardinalityBounded != tt.bounded {
				t.Errorf("bounded = %v, want %v", r.CardinalityBounded, tt.bounded)
			}
			if tt.bounded && r.Cardinality != tt.card {
				t.Errorf("cardinality %d, want %d", r.Cardinality, tt.card)
			}
			if !tt.bounded && r.Cardinality <= 1000 {
				t.Errorf("unbounded cardinality %d should come from the request size", r.Cardinality)
			}
			if r.DataPath != "a[*][*]" {
				t.Errorf("dataPath %q", r.DataPath)
			}
		})
	}
}

// Each suggested bound is re-estimated: at Max the expression fits, at
// Max+1 it does not.
func TestSuggestionsAreTheLargestBoundsThatFit(t *testing.T) {
	for _, file := range []string{"docs-unbounded.yaml", "docs-nested-list.yaml"} {
		t.Run(file, func(t *testing.T) {
			defs, err := crd.Decode(read(t, file), file)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Analyze(defs[0])
			if err != nil {
				t.Fatal(err)
			}
			r := rep.Rules[0]
			if len(r.Suggestions) == 0 {
				t.Fatal("no suggestion")
			}
			a := &analyzer{}
			for _, s := range r.Suggestions {
				c := findCandidate(t, r, s)
				if got, _ := a.probe(&r, c, s.Max); got > PerExpressionLimit || got != s.EstimatedCost {
					t.Errorf("%s: cost %d at max (suggestion says %d)", s, got, s.EstimatedCost)
				}
				if got, _ := a.probe(&r, c, s.Max+1); got <= PerExpressionLimit {
					t.Errorf("%s: %d still fits at max+1", s, got)
				}
			}
		})
	}
}

func findCandidate(t *testing.T, r Rule, s Suggestion) candidate {
	t.Helper()
	for _, c := range candidates(r.root, r.steps) {
		if p, _ := pathsOf(r.Schema, c.steps); p == s.Path && c.keyword == s.Keyword {
			return c
		}
	}
	t.Fatalf("no candidate for %s", s)
	return candidate{}
}

func TestSuggestionsForTheDocsUnboundedList(t *testing.T) {
	rep := analyze(t, "docs-unbounded.yaml")
	var got []string
	for _, s := range rep.Rules[0].Suggestions {
		got = append(got, s.String())
	}
	want := "maxItems ≤ 31 on foo, or maxLength ≤ 12 on foo[*]"
	if strings.Join(got, ", or ") != want {
		t.Errorf("suggestions %q, want %q", strings.Join(got, ", or "), want)
	}
	var total []string
	for _, s := range rep.Schemas[0].Suggestions {
		total = append(total, s.String())
	}
	if strings.Join(total, ", or ") != "maxItems ≤ 317 on foo, or maxLength ≤ 227 on foo[*]" {
		t.Errorf("total suggestions %q", total)
	}
}

func TestSchemaTotalOverLimitSuggestsASharedBound(t *testing.T) {
	rep := analyze(t, "total-over-limit.yaml")
	if rep.Accepted || !rep.Schemas[0].OverLimit {
		t.Fatal("want the total over the limit")
	}
	contributors := 0
	for _, r := range rep.Rules {
		if r.OverBudget {
			t.Errorf("%s over the per-expression budget", r.ErrorPath)
		}
		if r.ContributesToTotalOverLimit {
			contributors++
			if r.SuggestionNote == "" {
				t.Errorf("%s: no note", r.ErrorPath)
			}
		}
	}
	if contributors != 4 {
		t.Errorf("%d contributors, upstream names 4", contributors)
	}
	s := rep.Schemas[0].Suggestions
	if len(s) != 1 || s[0].Keyword != MaxItems || s[0].DataPath != "items" || s[0].EstimatedCost > PerCRDLimit || s[0].Target != "schemaTotal" {
		t.Errorf("suggestions %+v", s)
	}
}

func TestPerVersionSchemasAreCostedSeparately(t *testing.T) {
	c := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations: [{rule: "self.metadata.name != 'a'"}]
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations: [{rule: "self.metadata.name != 'b'"}]
`
	rep, err := AnalyzeBytes([]byte(c), []byte("apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: b}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Schemas) != 2 || rep.Schemas[0].Schema != "spec.versions[0].schema.openAPIV3Schema" || rep.Schemas[1].Schema != "spec.versions[1].schema.openAPIV3Schema" {
		t.Fatalf("schemas %+v", rep.Schemas)
	}
	if len(rep.Rules) != 2 || rep.Rules[1].DataPath != "<root>" {
		t.Fatalf("rules %+v", rep.Rules)
	}
	if rep.Rules[0].Evaluations[0] != 0 || rep.Rules[1].Evaluations[0] != 1 {
		t.Errorf("the v2 object must run the v2 rule only: %v %v", rep.Rules[0].Evaluations, rep.Rules[1].Evaluations)
	}
	if o := rep.Objects[0]; o.Version != "v2" || len(o.Errors) != 1 {
		t.Errorf("object %+v", o)
	}
}

func TestRuntimeCostsSumToTheObjectTotal(t *testing.T) {
	rep := analyze(t, "mixed.yaml", "mixed-object.yaml")
	o := rep.Objects[0]
	var sum uint64
	evals := 0
	for _, r := range rep.Rules {
		sum += r.RuntimeCost[0]
		evals += r.Evaluations[0]
	}
	if sum != o.TotalCost || sum == 0 {
		t.Errorf("sum %d, object total %d", sum, o.TotalCost)
	}
	// every rule runs once; the failing rule's messageExpression too
	if evals != 6 {
		t.Errorf("%d evaluations, want 6", evals)
	}
	if o.Name != "w1" || o.Version != "v1" || o.OverBudget || len(o.Errors) != 1 {
		t.Errorf("object %+v", o)
	}
}

func TestObjectWithBlockingErrorsIsNoted(t *testing.T) {
	rep, err := AnalyzeBytes(read(t, "docs-bounded.yaml"), read(t, "unbounded-object.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Objects[0].Note, "would not run the rules") {
		t.Errorf("note %q", rep.Objects[0].Note)
	}
}

func TestBadInputReturnsErrors(t *testing.T) {
	if _, err := AnalyzeBytes([]byte("kind: [")); err == nil {
		t.Error("bad YAML: no error")
	}
	if _, err := Analyze(nil); err == nil {
		t.Error("nil CRD: no error")
	}
	rep, err := AnalyzeBytes(read(t, "mixed.yaml"), []byte("- not an object"), []byte("{"))
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range rep.Objects {
		if o.Error == "" {
			t.Errorf("object %d: no error", i)
		}
	}
	// a CRD without versions or schema has no rules
	rep, err = Analyze(&crd.CustomResourceDefinition{})
	if err != nil || len(rep.Rules) != 0 || rep.Accepted {
		t.Errorf("empty CRD: %v %+v", err, rep)
	}
}

func TestJSONIsStable(t *testing.T) {
	rep := analyze(t, "docs-unbounded.yaml", "unbounded-object.yaml")
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"rules":`, `"path":`, `"index":0`, `"expression":`, `"field":"rule"`, `"cardinality":1`,
		`"estimate":{"min":2,"max":329857577777}`, `"estimatedCost":329857577777`, `"runtimeCost":[19]`, `"totalEstimatedCost":329857577777`,
		`"suggestions":[`, `"objects":[`, `"limits":{"perExpression":10000000,"perCRD":100000000,"perCall":1000000,"perObject":10000000}`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s:\n%s", key, b)
		}
	}
}

func TestDataPattern(t *testing.T) {
	for in, want := range map[string]string{
		"<nil>":              "<root>",
		"":                   "<root>",
		"spec":               "spec",
		"spec.items[3]":      "spec.items[*]",
		"spec.m[a.b].x[0]":   "spec.m[*].x[*]",
		"spec.m[k[1]]":       "spec.m[*]",
		"spec.list[0][1].xy": "spec.list[*][*].xy",
	} {
		if got := dataPattern(in); got != want {
			t.Errorf("dataPattern(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGroupAndPercent(t *testing.T) {
	for in, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", 100000000: "100,000,000"} {
		if got := group(in); got != want {
			t.Errorf("group(%d) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[float64]string{0: "0%", 0.00001: "<0.01%", 0.5: "50.00%", 1.25829: "125.83%", 1000: ">10000%"} {
		if got := percent(in); got != want {
			t.Errorf("percent(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestSuggestionSearchIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          foo:
            type: array
            items: {type: string}
            x-kubernetes-validations:
`)
	for i := 0; i < 60; i++ {
		b.WriteString("            - rule: \"self.all(x, x.contains('a'))\"\n")
	}
	rep, err := AnalyzeBytes([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.SuggestionsTruncated {
		t.Error("want the search truncated")
	}
	if len(rep.Rules[0].Suggestions) == 0 {
		t.Error("the first rules still get suggestions")
	}
	if !strings.Contains(rep.Text(), "the search for bounds stopped early") {
		t.Error("text does not say the search stopped")
	}
}

package cel_test

import (
	"fmt"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

func replicasSchema() *schema.Structural {
	return &schema.Structural{
		Generic: schema.Generic{Type: "object"},
		Properties: map[string]schema.Structural{
			"spec": {
				Generic: schema.Generic{Type: "object"},
				Properties: map[string]schema.Structural{
					"replicas": {Generic: schema.Generic{Type: "integer"}},
				},
				ValidationExtensions: schema.ValidationExtensions{XValidations: crd.ValidationRules{
					{Rule: "self.replicas <= 10", MessageExpression: "'replicas ' + string(self.replicas) + ' exceeds 10'"},
					{Rule: "self.replicas >= oldSelf.replicas", Message: "replicas may not decrease"},
				}},
			},
		},
	}
}

func ExampleValidator_Validate() {
	s := replicasSchema()
	v := cel.NewValidator(s, true, limits.PerCallLimit)

	obj := map[string]interface{}{"spec": map[string]interface{}{"replicas": int64(12)}}
	errs, remaining, report := v.Validate(nil, obj, nil, limits.RuntimeCELCostBudget)
	fmt.Println(errs.ToAggregate(), remaining, len(report.Costs))

	old := map[string]interface{}{"spec": map[string]interface{}{"replicas": int64(20)}}
	errs, _, _ = v.Validate(nil, obj, old, limits.RuntimeCELCostBudget,
		cel.WithRatcheting(cel.NewCorrelatedObject(obj, old, s)))
	fmt.Println(errs.ToAggregate())
	// Output:
	// spec: Invalid value: replicas 12 exceeds 10 9999989 2
	// [spec: Invalid value: replicas 12 exceeds 10, spec: Invalid value: replicas may not decrease]
}

func ExampleCompile() {
	s := replicasSchema()
	spec := s.Properties["spec"]
	declType := cel.SchemaDeclType(s, true).Fields["spec"].Type
	results, err := cel.Compile(&spec, declType, limits.PerCallLimit)
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Println(r.MaxCost, r.MaxCardinality, r.UsesOldSelf, r.Error)
	}
	// Output:
	// 3 1048576 false <nil>
	// 5 1048576 true <nil>
}

func ExampleEscape() {
	for _, name := range []string{"namespace", "x-y", "a.b", "1x"} {
		escaped, ok := cel.Escape(name)
		fmt.Printf("%s %q %v\n", name, escaped, ok)
	}
	// Output:
	// namespace "__namespace__" true
	// x-y "x__dash__y" true
	// a.b "a__dot__b" true
	// 1x "" false
}

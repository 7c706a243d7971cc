package cost_test

import (
	"fmt"
	"os"
	"time"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine/crd"
)

// The Kubernetes docs' unbounded list: the API server rejects the CRD, and
// the report names the bounds that would make it pass.
func ExampleAnalyzeBytes() {
	crdYAML, _ := os.ReadFile("testdata/docs-unbounded.yaml")
	rep, err := cost.AnalyzeBytes(crdYAML)
	if err != nil {
		panic(err)
	}
	r := rep.Rules[0]
	fmt.Println(rep.Accepted, r.Path, r.Estimate.Max, r.Cardinality, r.OverBudget)
	for _, s := range r.Suggestions {
		fmt.Println(s)
	}
	// Output:
	// false spec.validation.openAPIV3Schema.properties[foo] 329857577777 1 true
	// maxItems ≤ 31 on foo
	// maxLength ≤ 12 on foo[*]
}

// With objects, the report has the runtime cost of each rule on each object.
func ExampleAnalyze() {
	crdYAML, _ := os.ReadFile("testdata/mixed.yaml")
	object, _ := os.ReadFile("testdata/mixed-object.yaml")
	rep, err := cost.AnalyzeBytes(crdYAML, object)
	if err != nil {
		panic(err)
	}
	for _, r := range rep.Rules {
		fmt.Println(r.DataPath, r.Field, r.RuntimeCost[0])
	}
	fmt.Println("total", rep.Objects[0].TotalCost, "of", cost.PerObjectBudget)
	// Output:
	// spec rule 5
	// spec.names rule 53
	// spec.names rule 20
	// spec.names messageExpression 6
	// spec.replicas rule 2
	// spec.tags rule 16
	// total 102 of 10000000
}

// Benchmark times each rule on each object (and each validation phase);
// the cost units are exact, the times depend on the machine.
func ExampleBenchmark() {
	crdYAML, _ := os.ReadFile("testdata/docs-bounded.yaml")
	def, _ := crd.DecodeOne(crdYAML, "docs-bounded.yaml")
	object := []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nfoo: [a, b]\n")
	br, err := cost.Benchmark(def, [][]byte{object}, cost.BenchOptions{Duration: time.Millisecond})
	if err != nil {
		panic(err)
	}
	r := br.Rules[0]
	fmt.Println(r.DataPath, r.Evaluations, r.Cost, r.EstimatedCost, r.Timing.MedianNs > 0)
	for _, p := range br.Objects[0].Phases {
		fmt.Print(p.Phase, " ")
	}
	fmt.Println()
	// Output:
	// foo 1 9 202 true
	// decode prune default openapi cel request
}

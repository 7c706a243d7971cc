package benchmarks_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/crdlab/crdlab/benchmarks"
)

// Generate builds a deterministic object from a CRD's schema; Repair makes
// it valid against upstream by dropping what upstream rejects.
func ExampleGenerate() {
	crd, err := os.ReadFile("../examples/crontab-crd.yaml")
	if err != nil {
		panic(err)
	}
	obj, err := benchmarks.Generate(crd, benchmarks.DefaultGenerateOptions)
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(obj)
	fmt.Println(string(b))
	// Output: {"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"bench-object","namespace":"default"},"spec":{"image":"example"}}
}

// UpstreamCompile and Validate run upstream's CRD create and custom
// resource create paths, the baseline of the benchmarks.
func ExampleUpstreamCompile() {
	crd, err := os.ReadFile("../examples/crontab-crd.yaml")
	if err != nil {
		panic(err)
	}
	c, err := benchmarks.UpstreamCompile(crd)
	if err != nil {
		panic(err)
	}
	res, err := c.Validate([]byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"replicas":11}}`), "")
	if err != nil {
		panic(err)
	}
	for _, e := range res.Errors {
		fmt.Println(e.Message)
	}
	fmt.Println(res.Result.(map[string]interface{})["spec"])
	// Output:
	// spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10
	// map[cronSpec:5 0 * * * replicas:11]
}

// LoadCase reads one CRD of the curated set and its example objects.
func ExampleLoadCase() {
	c, err := benchmarks.LoadCase(benchmarks.Cases[0])
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Name, len(c.Objects))
	// Output: crontab 2
}

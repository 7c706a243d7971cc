package abi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/cost"
	crdtypes "github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

// TestBenchIsTheNativeBenchmark: "bench" answers cost.Benchmark's report:
// the same rules, objects, phases and cost units as natively (the times
// are the module's own), for CRD text and for a handle.
func TestBenchIsTheNativeBenchmark(t *testing.T) {
	objects := []string{
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"tags":["a","bb","ccc"]}}`,
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n",
	}
	def, err := crdtypes.DecodeOne([]byte(twoVersions), "")
	if err != nil {
		t.Fatal(err)
	}
	opts := cost.BenchOptions{Duration: 2 * time.Millisecond, Samples: 3}
	native, err := cost.Benchmark(def, [][]byte{[]byte(objects[0]), []byte(objects[1])}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer()
	env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": twoVersions}))
	var cr wire.CompileResult
	_ = json.Unmarshal(env.Result, &cr)
	for _, src := range []map[string]interface{}{{"crd": twoVersions}, {"handle": cr.Handle}} {
		src["op"], src["objects"], src["durationMs"], src["samples"] = "bench", objects, 2, 3
		env := call(t, s, request(t, src))
		if env.Error != nil {
			t.Fatalf("bench: %+v", env.Error)
		}
		var got cost.BenchReport
		if err := json.Unmarshal(env.Result, &got); err != nil {
			t.Fatal(err)
		}
		if masked(&got) != masked(native) {
			t.Errorf("bench differs from native (times masked)\n got %s\nwant %s", masked(&got), masked(native))
		}
		if len(got.Rules) != 2 || got.Rules[0].Cost == 0 || got.Rules[0].Timing == nil || got.Rules[0].Timing.Iterations < 3 || got.Rules[0].PerEvaluationNs <= 0 {
			t.Errorf("rules %+v: want the rule and its messageExpression, timed", got.Rules)
		}
		if len(got.Objects) != 2 || len(got.Objects[0].Phases) != 6 || !strings.HasPrefix(got.Objects[1].Error, "skipped: a ConfigMap") {
			t.Errorf("objects %+v", got.Objects)
		}
	}
}

// masked renders a benchmark report without its times and machine.
func masked(r *cost.BenchReport) string {
	c := *r
	c.Machine = cost.Machine{}
	c.Rules = append([]cost.RuleBench{}, r.Rules...)
	for i := range c.Rules {
		if c.Rules[i].Timing != nil {
			c.Rules[i].Timing = &cost.Timing{}
		}
		c.Rules[i].PerEvaluationNs, c.Rules[i].NsPerCostUnit = 0, 0
	}
	c.Objects = append([]cost.ObjectBench{}, r.Objects...)
	for i := range c.Objects {
		ph := append([]cost.PhaseBench{}, c.Objects[i].Phases...)
		for j := range ph {
			ph[j].Timing = cost.Timing{}
		}
		c.Objects[i].Phases = ph
	}
	b, _ := json.Marshal(c)
	return string(b)
}

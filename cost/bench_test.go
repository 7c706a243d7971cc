package cost

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/engine/crd"
)

const configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n"

func mustCRD(t *testing.T, file string) *crd.CustomResourceDefinition {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	def, err := crd.DecodeOne(data, file)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// TestBenchmarkCostsEqualAnalyze: the runtime cost units of the benchmark
// are those Analyze reports, objects of another kind are skipped with a
// note (never given cost 0), and every phase is timed.
func TestBenchmarkCostsEqualAnalyze(t *testing.T) {
	def := mustCRD(t, "testdata/mixed.yaml")
	object, _ := os.ReadFile("testdata/mixed-object.yaml")
	objects := [][]byte{object, []byte(configMap)}
	rep, err := Analyze(def, objects...)
	if err != nil {
		t.Fatal(err)
	}
	br, err := Benchmark(def, objects, BenchOptions{Duration: time.Millisecond, Samples: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(br.Objects) != 2 || len(br.Rules) != len(rep.Rules) {
		t.Fatalf("%d objects, %d rules; want 2 and %d", len(br.Objects), len(br.Rules), len(rep.Rules))
	}
	for _, o := range []string{br.Objects[1].Error, rep.Objects[1].Error} {
		if !strings.HasPrefix(o, "skipped: a ConfigMap of v1 is not a Widget of example.com") {
			t.Errorf("other kind: %q", o)
		}
	}
	if rep.Objects[1].TotalCost != 0 || rep.Rules[0].Evaluations[1] != 0 {
		t.Errorf("skipped object evaluated")
	}
	for _, rb := range br.Rules {
		r := rep.Rules[rb.Rule]
		if rb.Cost != r.RuntimeCost[0] || rb.Evaluations != r.Evaluations[0] {
			t.Errorf("%s: cost %d in %d, Analyze %d in %d", rb.ErrorPath, rb.Cost, rb.Evaluations, r.RuntimeCost[0], r.Evaluations[0])
		}
		if rb.Timing == nil || rb.Timing.MedianNs <= 0 || rb.Timing.P10Ns > rb.Timing.MedianNs || rb.Timing.MedianNs > rb.Timing.P90Ns {
			t.Errorf("%s: timing %+v", rb.ErrorPath, rb.Timing)
		}
		if rb.NsPerCostUnit != rb.Timing.MedianNs/float64(rb.Cost) {
			t.Errorf("%s: ns per unit %v", rb.ErrorPath, rb.NsPerCostUnit)
		}
	}
	var phases []string
	for _, p := range br.Objects[0].Phases {
		phases = append(phases, p.Phase)
		if p.Timing.MedianNs <= 0 || p.Timing.Iterations < 3 {
			t.Errorf("phase %s: %+v", p.Phase, p.Timing)
		}
	}
	// the CRD is rejected (a messageExpression over budget): no request
	if got := strings.Join(phases, ","); got != "decode,prune,default,openapi,cel" || br.RequestNote == "" {
		t.Errorf("phases %s, note %q", got, br.RequestNote)
	}
}

func TestBenchmarkRequestPhase(t *testing.T) {
	def := mustCRD(t, "testdata/docs-bounded.yaml")
	obj := []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nfoo: [a, b]\n")
	br, err := Benchmark(def, [][]byte{obj}, BenchOptions{Duration: time.Millisecond, Samples: 2})
	if err != nil {
		t.Fatal(err)
	}
	ps := br.Objects[0].Phases
	if len(ps) != 6 || ps[5].Phase != PhaseRequest || br.RequestNote != "" {
		t.Fatalf("phases %+v", ps)
	}
	if r := br.Rules[0]; r.Evaluations != 1 || r.Cost == 0 {
		t.Errorf("rule %+v", r)
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.5, 3}, {0.1, 1.4}, {0.9, 4.6}, {1, 5}} {
		if got := quantile(xs, c.q); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	if quantile(nil, 0.5) != 0 {
		t.Error("empty")
	}
}

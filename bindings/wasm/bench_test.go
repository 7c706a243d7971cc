package wasm

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
)

// crontabWithRule is the CronTab example with a CEL rule and its
// messageExpression (the example itself has none).
func crontabWithRule(t testing.TB) string {
	s := strings.Replace(string(crontabCRD(t)), "              properties:\n                cronSpec:",
		"              x-kubernetes-validations:\n              - rule: \"self.tags.all(a, a.size() < 5)\"\n                messageExpression: \"'tags: ' + self.tags.join(', ')\"\n              properties:\n                tags:\n                  type: array\n                  maxItems: 10\n                  items:\n                    type: string\n                    maxLength: 20\n                cronSpec:", 1)
	if !strings.Contains(s, "self.tags.all") {
		t.Fatal("examples/crontab-crd.yaml changed shape")
	}
	return s
}

// maskBench renders a benchmark report without its times and machine.
func maskBench(t testing.TB, raw []byte) string {
	var r cost.BenchReport
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	r.Machine = cost.Machine{}
	for i := range r.Rules {
		if r.Rules[i].Timing != nil {
			r.Rules[i].Timing = &cost.Timing{}
		}
		r.Rules[i].PerEvaluationNs, r.Rules[i].NsPerCostUnit = 0, 0
	}
	for i := range r.Objects {
		for j := range r.Objects[i].Phases {
			r.Objects[i].Phases[j].Timing = cost.Timing{}
		}
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// TestParityBench: the benchmark through the module is cost.Benchmark's
// report with the module's times: the same rules, evaluations, cost units,
// errors, objects and phases (times and machine masked), for CRD text and
// for a compiled CRD; the module's figures are times, and its machine is
// wasip1/wasm.
func TestParityBench(t *testing.T) {
	ctx := context.Background()
	r := newRuntime(t, Options{MaxInstances: 1})
	type input struct {
		name    string
		crd     []byte
		objects [][]byte
	}
	inputs := []input{{"crontab+rule", []byte(crontabWithRule(t)), [][]byte{
		crontab(`{"image":"a","tags":["x","yy"]}`), crontab(`{"image":"a","tags":["toolong"]}`),
		readFile(t, repoRoot+"/examples/valid.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n"), []byte("spec: [unclosed\n"),
	}}}
	if !testing.Short() {
		crds := corpusCRDs(t)
		// The HTTPRoute CRD (many rules) by default; the whole sample
		// with CRDLAB_CORPUS=all.
		for _, n := range corpusSample(slices.Sorted(maps.Keys(crds))) {
			if !strings.HasSuffix(n, "standard/gateway.networking.k8s.io_httproutes.yaml#0") && os.Getenv("CRDLAB_CORPUS") != "all" {
				continue
			}
			c, err := engine.Compile(crds[n])
			if err != nil || len(c.Errors()) > 0 {
				continue
			}
			def := c.Definition()
			in := input{name: n, crd: crds[n]}
			for _, v := range c.ServedVersions() {
				in.objects = append(in.objects, []byte(`{"apiVersion":"`+def.Spec.Group+"/"+v+`","kind":"`+def.Spec.Names.Kind+`","metadata":{"name":"parity","namespace":"default"}}`))
			}
			inputs = append(inputs, in)
		}
	}
	opts := BenchOptions{Duration: time.Millisecond, Samples: 1}
	rules := 0
	for _, in := range inputs {
		def, err := crd.DecodeOne(in.crd, "")
		if err != nil {
			t.Fatal(err)
		}
		native, err := cost.Benchmark(def, in.objects, cost.BenchOptions{Duration: opts.Duration, Samples: opts.Samples})
		if err != nil {
			t.Fatalf("%s: %v", in.name, err)
		}
		nb, _ := json.Marshal(native)
		want := maskBench(t, nb)
		got, err := r.Bench(ctx, in.crd, in.objects, opts)
		if err != nil {
			t.Fatalf("%s: %v", in.name, err)
		}
		if m := maskBench(t, got); m != want {
			t.Errorf("%s: module and native differ (times masked)\nnative: %.2000s\nmodule: %.2000s", in.name, want, m)
		}
		var rep cost.BenchReport
		_ = json.Unmarshal(got, &rep)
		if rep.Machine.GOOS != "wasip1" || rep.Machine.GOARCH != "wasm" {
			t.Errorf("%s: machine %+v", in.name, rep.Machine)
		}
		for _, rb := range rep.Rules {
			if rb.Evaluations > 0 && (rb.Timing == nil || rb.Timing.MedianNs <= 0 || rb.PerEvaluationNs <= 0) {
				t.Errorf("%s: %s evaluated %d times, timing %+v", in.name, rb.Expression, rb.Evaluations, rb.Timing)
			}
		}
		rules += len(rep.Rules)
	}
	if rules == 0 {
		t.Fatal("no rule timed")
	}
	// A compiled CRD: the same report.
	c, err := r.Compile(ctx, inputs[0].crd)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.Bench(ctx, inputs[0].objects, opts)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := r.Bench(ctx, inputs[0].crd, inputs[0].objects, opts)
	if maskBench(t, got) != maskBench(t, first) {
		t.Error("CRD.Bench and Runtime.Bench differ")
	}
	t.Logf("%d CRDs, %d rule figures", len(inputs), rules)
}

// TestBenchDeadline: the context's deadline ends a benchmark (an error
// matching context.DeadlineExceeded), and the runtime answers the next
// call. Which side ends it depends on the machine's load: the module
// (Timeout: it checks the deadline, sent as timeoutMs, before every
// figure; pinned without a host by guest/internal/abi's "bench past its
// timeout") or, when the deadline passes before the module answers, the
// host, which abandons the call. No wall-clock bound: it would fail on a
// loaded machine.
func TestBenchDeadline(t *testing.T) {
	r := newRuntime(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	objs := [][]byte{crontab(`{"image":"a","tags":["x"]}`)}
	_, err := r.Bench(ctx, []byte(crontabWithRule(t)), append(objs, objs[0], objs[0], objs[0]), BenchOptions{Duration: 200 * time.Millisecond, Samples: 2})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want a deadline error", err)
	}
	if _, err := r.Bench(context.Background(), []byte(crontabWithRule(t)), objs, BenchOptions{Duration: time.Millisecond, Samples: 1}); err != nil {
		t.Fatalf("after a deadline: %v", err)
	}
}

package cost

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// stopAfter is a context that ends after its Err has been asked n times:
// it stops Benchmark at a chosen figure, whatever the machine's speed.
type stopAfter struct {
	context.Context
	n int
}

func (c *stopAfter) Err() error {
	if c.n <= 0 {
		return context.DeadlineExceeded
	}
	c.n--
	return nil
}

// TestBenchmarkContext: an ended context stops the benchmark with its
// error, before the first figure or between two; a live one changes
// nothing.
func TestBenchmarkContext(t *testing.T) {
	def := mustCRD(t, "testdata/mixed.yaml")
	object, _ := os.ReadFile("testdata/mixed-object.yaml")
	opts := BenchOptions{Duration: time.Millisecond, Samples: 3}
	full, err := Benchmark(def, [][]byte{object}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Rules) == 0 {
		t.Fatal("testdata/mixed.yaml has no rules to time")
	}
	for _, n := range []int{0, 1, 3, 8} {
		opts.Context = &stopAfter{context.Background(), n}
		br, err := Benchmark(def, [][]byte{object}, opts)
		if !errors.Is(err, context.DeadlineExceeded) || br != nil {
			t.Errorf("stopped after %d checks: %v, report %v; want context.DeadlineExceeded", n, err, br != nil)
		}
	}
	opts.Context = context.Background()
	br, err := Benchmark(def, [][]byte{object}, opts)
	if err != nil || len(br.Rules) != len(full.Rules) || len(br.Objects[0].Phases) != len(full.Objects[0].Phases) {
		t.Fatalf("with a live context: %v, %d rules and %d phases; want %d and %d", err, len(br.Rules), len(br.Objects[0].Phases), len(full.Rules), len(full.Objects[0].Phases))
	}
}

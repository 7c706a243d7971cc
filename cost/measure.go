package cost

import (
	"context"
	"math"
	"runtime"
	"sort"
	"time"
)

// BenchOptions sets how long each figure of a benchmark is measured.
type BenchOptions struct {
	// Duration is the time spent timing one figure (one rule on one object,
	// or one phase), spread over Samples batches; default 20ms.
	Duration time.Duration
	// Samples is the number of timed batches; the median and the spread
	// are taken over their per-operation times. Default 11.
	Samples int
	// Context, when set, is checked before every figure: once it ends,
	// Benchmark stops and returns its error (a figure being measured runs
	// to its end, about Duration).
	Context context.Context
}

// stopped returns the error of the options' context, if it has ended.
func (o BenchOptions) stopped() error {
	if o.Context == nil {
		return nil
	}
	return o.Context.Err()
}

func (o BenchOptions) withDefaults() BenchOptions {
	if o.Duration <= 0 {
		o.Duration = 20 * time.Millisecond
	}
	if o.Samples <= 0 {
		o.Samples = 11
	}
	return o
}

// Timing is the wall time of one operation, over Samples batches of equal
// size: the median and the 10th and 90th percentiles of the batches'
// per-operation times, and the heap allocations per operation.
type Timing struct {
	Iterations  int     `json:"iterations"`
	MedianNs    float64 `json:"medianNs"`
	P10Ns       float64 `json:"p10Ns"`
	P90Ns       float64 `json:"p90Ns"`
	AllocsPerOp float64 `json:"allocsPerOp"`
	BytesPerOp  float64 `json:"bytesPerOp"`
}

// maxBatch bounds the iterations of one batch.
const maxBatch = 1 << 20

// measure times run(i) for i in [0, n) in batches, calling prepare(n)
// untimed before each batch (for operations that consume their input).
// The batch size is calibrated so that a batch lasts Duration/Samples.
func measure(opts BenchOptions, prepare func(n int), run func(i int)) Timing {
	opts = opts.withDefaults()
	if prepare == nil {
		prepare = func(int) {}
	}
	batch := func(n int) time.Duration {
		prepare(n)
		start := time.Now()
		for i := 0; i < n; i++ {
			run(i)
		}
		return time.Since(start)
	}
	batch(1) // warm-up
	target := opts.Duration / time.Duration(opts.Samples)
	n := 1
	for n < maxBatch {
		d := batch(n)
		if d >= target {
			break
		}
		next := n * 2
		if d > 0 {
			if est := int(float64(n) * float64(target) / float64(d) * 1.2); est > next {
				next = est
			}
		}
		if next > 100*n {
			next = 100 * n
		}
		n = next
		if n > maxBatch {
			n = maxBatch
		}
	}
	per := make([]float64, opts.Samples)
	var mallocs, bytes uint64
	var m0, m1 runtime.MemStats
	for s := range per {
		prepare(n)
		runtime.ReadMemStats(&m0)
		start := time.Now()
		for i := 0; i < n; i++ {
			run(i)
		}
		d := time.Since(start)
		runtime.ReadMemStats(&m1)
		per[s] = float64(d.Nanoseconds()) / float64(n)
		mallocs += m1.Mallocs - m0.Mallocs
		bytes += m1.TotalAlloc - m0.TotalAlloc
	}
	sort.Float64s(per)
	total := float64(n * opts.Samples)
	return Timing{
		Iterations:  n * opts.Samples,
		MedianNs:    quantile(per, 0.5),
		P10Ns:       quantile(per, 0.1),
		P90Ns:       quantile(per, 0.9),
		AllocsPerOp: math.Round(float64(mallocs)/total*10) / 10,
		BytesPerOp:  math.Round(float64(bytes) / total),
	}
}

// quantile interpolates linearly between the sorted values xs.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	pos := q * float64(len(xs)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return xs[lo] + (xs[hi]-xs[lo])*(pos-float64(lo))
}

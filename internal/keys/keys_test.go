package keys

import (
	"maps"
	"slices"
	"testing"
)

func TestSortedReturnsEveryKeyInOrder(t *testing.T) {
	for _, m := range []map[string]int{nil, {}, {"b": 1, "a": 2, "c": 3}, {"x": 0}} {
		got := Sorted(m)
		if want := slices.Sorted(maps.Keys(m)); !slices.Equal(got, want) {
			t.Errorf("Sorted(%v) = %v, want %v", m, got, want)
		}
	}
}

func TestSortedAllocatesOnce(t *testing.T) {
	m := map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": true, "f": true, "g": true, "h": true, "i": true}
	if n := testing.AllocsPerRun(100, func() { _ = Sorted(m) }); n > 1 {
		t.Errorf("Sorted allocates %v times, want 1", n)
	}
}

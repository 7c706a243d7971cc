// Package keys returns the keys of a map in sorted order: crdlab visits map
// entries in sorted key order wherever upstream iterates a Go map (whose
// order is random), so that outputs are deterministic (RATIONALE.md).
package keys

import (
	"cmp"
	"slices"
)

// Sorted returns the keys of m in ascending order, in a slice allocated
// once at its final size (collecting maps.Keys with slices.Sorted grows its
// slice step by step: several allocations per call on the validation path).
func Sorted[M ~map[K]V, K cmp.Ordered, V any](m M) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

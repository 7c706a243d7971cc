package schema

import "sort"

// sortedKeys returns the keys of m in increasing order. Upstream iterates Go
// maps in random order; wherever the order can be observed we use sorted keys.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

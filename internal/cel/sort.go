package cel

import "sort"

// sortedKeys returns the keys of m in sorted order. Upstream iterates Go maps
// in random order; sorting makes our error order deterministic (upstream
// callers sort nothing, so tests compare error sets for multi-key objects).
func sortedKeys(m map[string]interface{}) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

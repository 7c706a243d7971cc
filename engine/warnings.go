package engine

// recordWarnings does what kube-apiserver's warning recorder
// (k8s.io/apiserver/pkg/endpoints/filters/warning.go) does to the warnings
// of one response: empty ones are dropped and a repeated text is sent once,
// in first-seen order. (Its 4 KiB header truncation is not applied: crdlab
// returns every warning in full.)
func recordWarnings(ws []string) []string {
	out := make([]string, 0, len(ws))
	seen := make(map[string]bool, len(ws))
	for _, w := range ws {
		if w == "" || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

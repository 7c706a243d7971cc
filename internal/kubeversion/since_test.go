package kubeversion

import "testing"

// TestEveryChangeHasARelease: a change left out of the since table would
// default to release 0 and apply at every release.
func TestEveryChangeHasARelease(t *testing.T) {
	for c := Change(0); c < numChanges; c++ {
		if since[c] < 31 {
			t.Errorf("change %d has no release in the since table", c)
		}
	}
}

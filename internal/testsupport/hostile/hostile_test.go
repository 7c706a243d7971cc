package hostile

import (
	"testing"
	"time"
)

// TestFastCases runs the fast subset of the hostile set through the Go API in
// this process (`make hostile` runs everything, every surface, in child
// processes under a time and memory ceiling).
func TestFastCases(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile inputs allocate hundreds of megabytes")
	}
	for _, c := range Cases() {
		if !c.Fast {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			start := time.Now()
			out := RunGo(c)
			if !c.Check(out) {
				t.Errorf("outcome %.300q, want %q", out, c.Expect)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestCaseNamesAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Cases() {
		if seen[c.Name] {
			t.Errorf("duplicate case %s", c.Name)
		}
		seen[c.Name] = true
		if c.CRD == nil || c.Expect == "" {
			t.Errorf("%s: CRD and Expect are required", c.Name)
		}
	}
}

package hostile

import (
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/testsupport/cputime"
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
			cpu := cputime.Start()
			out := RunGo(c)
			if !c.Check(out) {
				t.Errorf("outcome %.300q, want %q", out, c.Expect)
			}
			// The slowest fast case uses 0.82 s of CPU time alone
			// (enum-100k-on-1000-items);
			// ten times that, in CPU time, which other processes' load
			// does not inflate (make hostile's ceilings are the real ones).
			cpu.Check(t, 10*time.Second, c.Name)
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

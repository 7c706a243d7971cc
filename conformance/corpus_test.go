package conformance

import (
	"fmt"
	"testing"

	"github.com/crdlab/crdlab/internal/testsupport/testenv"
)

// TestCorpus compares CRD validation (errors and warnings) for every CRD of
// the real-world corpus, and object validation for Gateway API's examples.
// CRDs are compared as shipped, with their x-kubernetes-validations: CEL
// compilation, cost limits and (for the examples) rule evaluation included.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus: skipped in -short mode")
	}
	dirs, err := CorpusDirs()
	if err != nil {
		fmt.Printf("conformance corpus: skipped: %v\n", err)
		testenv.Unavailable(t, "corpus unavailable: %v", err)
	}
	corp, err := LoadCorpus(dirs)
	if err != nil {
		t.Fatal(err)
	}
	crds := corp.CRDs
	var tl tally
	for r, names := range corp.Skips {
		for _, n := range names {
			tl.skip(n, r)
		}
	}
	compare := func(t *testing.T, name string, c CorpusCRD, object []byte) {
		ran := false
		ok := t.Run(name, func(t *testing.T) {
			ran = true
			compared := c.Request(object)
			up := Deterministic(RunUpstream(compared))
			if *dump {
				t.Logf("upstream: err=%v\n%s", up.Err, pretty(up.Report))
			}
			cl := Deterministic(RunCrdlab(compared))
			if d := Compare(up, cl, func() Outcome { return Deterministic(RunUpstream(compared)) }); d != "" {
				t.Errorf("%s\n%s", c.Doc.Name, d)
			}
		})
		if ran {
			tl.result(ok)
		}
	}
	t.Run("crds", func(t *testing.T) {
		for _, c := range crds {
			compare(t, c.Doc.Name, c, nil)
		}
	})
	if len(corp.Examples) > 0 {
		t.Run("gateway-api-examples", func(t *testing.T) {
			for _, e := range corp.Examples {
				compare(t, e.Doc.Name, e.CRD, e.Object)
			}
		})
	}
	withCEL := 0
	for _, c := range crds {
		if c.CEL {
			withCEL++
		}
	}
	tl.print(fmt.Sprintf("corpus (%d distinct CRDs, %d with CEL rules, compared with them)", len(crds), withCEL))
}

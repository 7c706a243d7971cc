package conformance

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var dump = flag.Bool("dump", false, "print the upstream (and crdlab) report of every case")

// tally counts the outcomes of one test's subtests and prints a summary.
type tally struct {
	mu                      sync.Mutex
	passed, failed, skipped int
	skips                   map[string][]string // reason -> subtests
}

func (t *tally) skip(name, reason string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.skips == nil {
		t.skips = map[string][]string{}
	}
	t.skipped++
	t.skips[reason] = append(t.skips[reason], name)
}

func (t *tally) result(ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ok {
		t.passed++
	} else {
		t.failed++
	}
}

func (t *tally) print(what string) {
	fmt.Printf("conformance %s: %d passed, %d failed, %d skipped\n", what, t.passed, t.failed, t.skipped)
	reasons := slices.Sorted(maps.Keys(t.skips))
	for _, r := range reasons {
		fmt.Printf("  skipped (%s): %d: %s\n", r, len(t.skips[r]), strings.Join(t.skips[r], ", "))
	}
}

// TestCases runs every case of testdata/cases through upstream and crdlab.
// Subtests are named <file>/<case>, so `-run 'TestCases/crontab/'` works.
func TestCases(t *testing.T) {
	cases, err := LoadCases("testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	var tl tally
	for _, c := range cases {
		c := c
		skipped, ran := false, false
		ok := t.Run(c.ID, func(t *testing.T) {
			ran = true
			up := Deterministic(RunUpstream(c.Request))
			if *dump {
				t.Logf("upstream: err=%v\n%s", up.Err, pretty(up.Report))
			}
			if probs := CheckExpect(c.Expect, up.Upstream, up.Err); len(probs) > 0 {
				t.Errorf("the case does not test what it says (%s):\n  %s", c.Description, strings.Join(probs, "\n  "))
			}
			switch {
			case c.KnownDifference != "":
				skipped = true
				reason := "known difference: " + c.KnownDifference
				tl.skip(c.ID, reason)
				t.Skip(reason)
			case c.Skip != "":
				skipped = true
				tl.skip(c.ID, c.Skip)
				t.Skip(c.Skip)
			}
			cl := Deterministic(RunCrdlab(c.Request))
			if *dump {
				t.Logf("crdlab: err=%v\n%s", cl.Err, pretty(cl.Report))
			}
			if d := Compare(up, cl, func() Outcome { return Deterministic(RunUpstream(c.Request)) }); d != "" {
				t.Errorf("%s\n%s", c.Description, d)
			}
		})
		if ran && !skipped {
			tl.result(ok)
		}
	}
	tl.print(fmt.Sprintf("cases (%d)", len(cases)))
}

func TestDeterministicReplacesUpstreamSelfTypeSuffix(t *testing.T) {
	in := Outcome{Report: map[string]interface{}{
		"crd": map[string]interface{}{"errors": []interface{}{
			map[string]interface{}{"detail": "applied to '(list(selfType123456.a.@idx), list(selfType987.b.@idx))'"},
		}},
		"n": 1.5,
	}}
	got := Deterministic(in).Report.(map[string]interface{})
	detail := got["crd"].(map[string]interface{})["errors"].([]interface{})[0].(map[string]interface{})["detail"]
	if want := "applied to '(list(selfType.a.@idx), list(selfType.b.@idx))'"; detail != want {
		t.Errorf("detail = %q, want %q", detail, want)
	}
	if got["n"] != 1.5 {
		t.Errorf("non-string values must be kept, got %v", got["n"])
	}
}

func TestKnownDifferenceIsParsedAndCELIsOnlyATag(t *testing.T) {
	cases, err := LoadCases("testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	cel := 0
	for _, c := range cases {
		if c.CEL {
			cel++
		}
	}
	if cel < 150 {
		t.Errorf("expected at least 150 CEL cases, found %d", cel)
	}
	// Pin the parsing on a case file of our own (the committed known
	// differences may go away).
	dir := t.TempDir()
	file := `crds:
  w:
    apiVersion: apiextensions.k8s.io/v1
    kind: CustomResourceDefinition
    metadata: {name: widgets.example.com}
    spec:
      group: example.com
      scope: Namespaced
      names: {plural: widgets, kind: Widget}
      versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
cases:
- name: k
  description: a case with a known difference
  crd: w
  cel: true
  knownDifference: "the reason"
`
	if err := os.WriteFile(filepath.Join(dir, "99_known.yaml"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	parsed, err := LoadCases(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(parsed) != 1 || parsed[0].KnownDifference != "the reason" || !parsed[0].CEL {
		t.Errorf("knownDifference/cel not parsed: %+v", parsed)
	}
}

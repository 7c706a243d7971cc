package crdtest

import (
	"fmt"
	"testing"
)

// Run runs the suites found under paths (see Discover) as subtests of t,
// one per case, named as CaseResult.Name; a failing case reports its
// file:line and the diff or error. Suite files that cannot be loaded fail
// t. The whole operator-repository test is:
//
//	func TestCRDValidation(t *testing.T) { crdtest.Run(t, "testdata/") }
func Run(t *testing.T, paths ...string) {
	t.Helper()
	RunWithOptions(t, Options{}, paths...)
}

// RunWithOptions is Run with Options (extra CRD files, a case filter).
func RunWithOptions(t *testing.T, opts Options, paths ...string) {
	t.Helper()
	p, err := load(osFS{}, opts, paths)
	if err != nil {
		t.Fatalf("crdtest: %v", err)
	}
	for _, le := range p.loadErrors {
		t.Errorf("crdtest: %s", le.Err)
	}
	if len(p.cases) == 0 && len(p.loadErrors) == 0 {
		t.Fatalf("crdtest: no test cases found under %v", paths)
	}
	for _, c := range p.cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := runOne(c)
			if !res.Passed {
				t.Error(fmt.Sprintf("%s:%d: %s", res.File, res.Line, res.Message))
			}
		})
	}
}

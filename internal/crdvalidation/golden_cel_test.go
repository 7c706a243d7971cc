package crdvalidation_test

import (
	"testing"

	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/crdvalidation"
)

// TestGoldenCELCases runs the cel_* cases (CRD validation calls
// internal/cel): compile errors, messageExpression types, oldSelf
// correlatability, per-rule and per-schema cost limits, as upstream reports
// them (checked with the upstream harness, see testdata/README.md).
func TestGoldenCELCases(t *testing.T) {
	crdvalidation.RunGoldenCasesForTest(t, "testdata/cases", true, crdvalidation.Options{CompileCache: cel.NewCompileCache()})
}

package validation_test

import (
	"testing"

	"github.com/crdlab/crdlab/engine/cel"
	"github.com/crdlab/crdlab/engine/crd/validation"
)

// TestGoldenCELCases runs the cel_* cases with the real CEL checker
// (engine/cel): compile errors, messageExpression types, oldSelf
// correlatability, per-rule and per-schema cost limits, as upstream reports
// them (checked with the upstream harness, see testdata/README.md).
func TestGoldenCELCases(t *testing.T) {
	validation.RunGoldenCasesForTest(t, "testdata/cases", true, validation.Options{CEL: cel.NewCRDChecker()})
}

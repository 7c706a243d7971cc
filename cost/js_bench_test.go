package cost

import (
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/internal/testsupport/tsdecl"
)

// TestJSTypesAreBench: the benchmark interfaces of index.d.ts (BenchReport,
// RuleBench, ...) have this package's JSON members, optional exactly where
// Go omits empty ones.
func TestJSTypesAreBench(t *testing.T) {
	src := tsdecl.Read(t, "../bindings/js/src/index.d.ts")
	names := map[string]interface{}{"BenchReport": BenchReport{}, "BenchMachine": Machine{}, "RuleBench": RuleBench{},
		"ObjectBench": ObjectBench{}, "PhaseBench": PhaseBench{}, "BenchTiming": Timing{}}
	for name, v := range names {
		tsdecl.CheckInterface(t, src, name, reflect.TypeOf(v))
	}
}

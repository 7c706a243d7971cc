package cost

import (
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/internal/testsupport/tsdecl"
)

// TestJSTypesAreCost: the cost interfaces of the JavaScript bindings'
// index.d.ts (CostReport, CostRule, ...) have this package's JSON members,
// optional exactly where Go omits empty ones.
func TestJSTypesAreCost(t *testing.T) {
	src := tsdecl.Read(t, "../bindings/js/src/index.d.ts")
	for _, v := range []interface{}{Report{}, Limits{}, Rule{}, Suggestion{}, SchemaTotal{}, ObjectCosts{}, Advice{}} {
		typ := reflect.TypeOf(v)
		name := "Cost" + typ.Name()
		switch typ.Name() {
		case "ObjectCosts":
			name = "CostObject"
		case "Limits":
			name = "CostLimits"
		}
		tsdecl.CheckInterface(t, src, name, typ)
	}
}

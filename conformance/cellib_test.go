package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"k8s.io/apiserver/pkg/cel/environment"
	k8slibrary "k8s.io/apiserver/pkg/cel/library"
)

// celLibGoldenRow mirrors goldenRow in engine/cel/library/golden_test.go.
type celLibGoldenRow struct {
	Expr         string    `json:"expr"`
	Stored       bool      `json:"stored,omitempty"`
	CompileError string    `json:"compileError,omitempty"`
	Result       string    `json:"result,omitempty"`
	Static       [2]uint64 `json:"static"`
	Runtime      uint64    `json:"runtime"`
}

// TestCelLibGoldenAgainstUpstream replays every row of
// engine/cel/library/testdata/costs.golden (produced by crdlab's library
// package) in upstream's base environment
// (environment.MustBaseEnvSet(DefaultCompatibilityVersion())) with upstream's
// library.CostEstimator, and requires the same compile error, result, static
// estimate and runtime cost.
func TestCelLibGoldenAgainstUpstream(t *testing.T) {
	data, err := os.ReadFile("../engine/cel/library/testdata/costs.golden")
	if err != nil {
		t.Fatal(err)
	}
	var rows []celLibGoldenRow
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	ver := environment.DefaultCompatibilityVersion()
	if ver.String() != "1.36" {
		t.Fatalf("DefaultCompatibilityVersion = %s, the golden table assumes 1.36", ver)
	}
	envSet := environment.MustBaseEnvSet(ver)
	for _, want := range rows {
		got := celLibUpstreamRow(t, envSet, want.Expr)
		if got != want {
			t.Errorf("%s:\n upstream %+v\n   crdlab %+v", want.Expr, got, want)
		}
	}
}

func celLibUpstreamRow(t *testing.T, envSet *environment.EnvSet, expr string) celLibGoldenRow {
	row := celLibGoldenRow{Expr: expr}
	src := expr
	env := envSet.NewExpressionsEnv()
	if strings.HasPrefix(src, "stored:") {
		src = strings.TrimPrefix(src, "stored:")
		row.Stored = true
		env = envSet.StoredExpressionsEnv()
	}
	ast, iss := env.Compile(src)
	if iss.Err() != nil {
		row.CompileError = iss.Err().Error()
		return row
	}
	est, err := env.EstimateCost(ast, &k8slibrary.CostEstimator{})
	if err != nil {
		t.Fatalf("%s: estimate: %v", expr, err)
	}
	row.Static = [2]uint64{est.Min, est.Max}
	prg, err := env.Program(ast)
	if err != nil {
		row.CompileError = "program: " + err.Error()
		return row
	}
	val, det, err := prg.Eval(cel.NoVars())
	if err != nil {
		row.Result = "error(" + err.Error() + ")"
	} else {
		row.Result = celLibRender(val)
	}
	if det != nil && det.ActualCost() != nil {
		row.Runtime = *det.ActualCost()
	}
	return row
}

// celLibRender is a copy of renderVal in engine/cel/library/render_test.go.
func celLibRender(v ref.Val) string {
	switch x := v.(type) {
	case *types.Err:
		return "error(" + x.Error() + ")"
	case *types.Optional:
		if !x.HasValue() {
			return "optional.none()"
		}
		return "optional.of(" + celLibRender(x.GetValue()) + ")"
	case types.String:
		return fmt.Sprintf("%q", string(x))
	case types.Bytes:
		return fmt.Sprintf("b%q", []byte(x))
	case types.Double:
		return fmt.Sprintf("double(%v)", float64(x))
	case types.Uint:
		return fmt.Sprintf("%du", uint64(x))
	case types.Int, types.Bool, types.Null:
		return fmt.Sprintf("%v", x.Value())
	case traits.Lister:
		var parts []string
		for it := x.Iterator(); it.HasNext() == types.True; {
			parts = append(parts, celLibRender(it.Next()))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case traits.Mapper:
		var parts []string
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			parts = append(parts, celLibRender(k)+": "+celLibRender(x.Get(k)))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	name := v.Type().TypeName()
	ptr := ""
	if reflect.TypeOf(v).Kind() == reflect.Ptr {
		ptr = "*"
	}
	if s, err := v.ConvertToNative(reflect.TypeOf("")); err == nil {
		return fmt.Sprintf("%s%s(%q)", ptr, name, s)
	}
	rv := reflect.ValueOf(v.Value())
	if rv.Kind() == reflect.Struct {
		if f := rv.FieldByName("Name"); f.IsValid() {
			return fmt.Sprintf("%s%s(%s)", ptr, name, f.String())
		}
	}
	return fmt.Sprintf("%s%s(%v)", ptr, name, v.Value())
}

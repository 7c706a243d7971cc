// Command upstream writes k8s.io/dynamic-resource-allocation/cel's answers
// for the expressions of conformance/dra_test.go (draExpressions) on the
// devices of examples/dra/slices, one JSON line per expression and
// environment: the compile error or estimated cost, and for stored
// expressions the outcomes DeviceMatches gave each device in 16 runs (map
// iteration is random upstream). gen.sh builds it against one release;
// internal/dra's TestUpstreamGoldenAtOlderReleases compares crdlab with its
// output. It lives in testdata so that the main module never requires
// k8s.io modules.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apiserver/pkg/cel/environment"
	dracel "k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
)

type row struct {
	Expr   string   `json:"expr"`
	Stored bool     `json:"stored"`
	Err    string   `json:"err,omitempty"`
	Cost   uint64   `json:"cost,omitempty"`
	Runs   []string `json:"runs,omitempty"`
}

func main() {
	repo := os.Args[1]
	cc := os.Args[2] == "true"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(repo, "conformance/dra_test.go"), nil, 0)
	if err != nil {
		panic(err)
	}
	var exprs []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if ok && vs.Names[0].Name == "draExpressions" {
			for _, e := range vs.Values[0].(*ast.CompositeLit).Elts {
				s, _ := strconv.Unquote(e.(*ast.BasicLit).Value)
				exprs = append(exprs, s)
			}
		}
		return true
	})
	files, _ := filepath.Glob(filepath.Join(repo, "examples/dra/slices/*.yaml"))
	var devs []dracel.Device
	for _, fn := range files {
		data, _ := os.ReadFile(fn)
		var s resourceapi.ResourceSlice
		if err := yaml.UnmarshalStrict(data, &s); err != nil {
			panic(err)
		}
		for _, d := range s.Spec.Devices {
			devs = append(devs, dracel.Device{Driver: s.Spec.Driver, AllowMultipleAllocations: d.AllowMultipleAllocations, Attributes: d.Attributes, Capacity: d.Capacity})
		}
	}
	enc := json.NewEncoder(os.Stdout)
	for _, stored := range []bool{true, false} {
		for _, e := range exprs {
			env := environment.NewExpressions
			if stored {
				env = environment.StoredExpressions
			}
			r := dracel.GetCompiler(dracel.Features{EnableConsumableCapacity: cc}).CompileCELExpression(e, dracel.Options{EnvType: &env})
			out := row{Expr: e, Stored: stored}
			if r.Error != nil {
				out.Err = fmt.Sprintf("%s: %s", r.Error.Type, r.Error.Detail)
			} else {
				out.Cost = r.MaxCost
				if stored {
					for _, d := range devs {
						seen := map[string]bool{}
						for range 16 {
							m, det, err := r.DeviceMatches(context.Background(), d)
							seen[fmt.Sprintf("matches=%v err=%v cost=%v", m, err, ptr.Deref(det.ActualCost(), 0))] = true
						}
						b, _ := json.Marshal(seen)
						out.Runs = append(out.Runs, string(b))
					}
				}
			}
			enc.Encode(out)
		}
	}
}

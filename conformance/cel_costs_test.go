package conformance

// Replays internal/cel/testdata/costs.golden against upstream: for every rule,
// upstream's static max cost (cel.Compile), runtime cost (budget consumed by
// Validator.Validate) and result must equal the golden row.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	upschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	upcel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

func TestCELCostGoldenAgainstUpstream(t *testing.T) {
	dir := "../internal/cel/testdata/"
	if d := os.Getenv("CRDLAB_ROOT"); d != "" {
		dir = d + "/internal/cel/testdata/"
	}
	schemaJS, err := os.ReadFile(dir + "costs_schema.json")
	if err != nil {
		t.Fatal(err)
	}
	objJS, err := os.ReadFile(dir + "costs_object.json")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(dir + "costs.golden")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range strings.Split(strings.TrimSpace(string(golden)), "\n") {
		cols := strings.Split(row, "\t")
		expr := cols[0]
		t.Run(expr, func(t *testing.T) {
			var v1 apiextensionsv1.JSONSchemaProps
			if err := json.Unmarshal(schemaJS, &v1); err != nil {
				t.Fatal(err)
			}
			spec := v1.Properties["spec"]
			spec.XValidations = apiextensionsv1.ValidationRules{{Rule: expr}}
			v1.Properties["spec"] = spec
			var internal apiextensions.JSONSchemaProps
			if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
				t.Fatal(err)
			}
			ss, err := upschema.NewStructural(&internal)
			if err != nil {
				t.Fatal(err)
			}
			specSS := ss.Properties["spec"]
			dt := model.SchemaDeclType(ss, true).Fields["spec"].Type
			res, err := upcel.Compile(&specSS, dt, celconfig.PerCallLimit, environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()), upcel.StoredExpressionsEnvLoader())
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Error != nil {
				want := "error=" + strings.ReplaceAll(celNormalize(res[0].Error.Detail), "\n", "\\n")
				if cols[1] != want {
					t.Errorf("golden %q, upstream %q", cols[1], want)
				}
				return
			}
			var staticMin, staticMax, runtime uint64
			fmt.Sscanf(cols[1], "static=%d,%d", &staticMin, &staticMax)
			fmt.Sscanf(cols[2], "runtime=%d", &runtime)
			if res[0].MaxCost != staticMax {
				t.Errorf("static max: golden %d, upstream %d", staticMax, res[0].MaxCost)
			}
			obj := celDecode(t, string(objJS))
			v := upcel.NewValidator(ss, true, celconfig.PerCallLimit)
			errs, rem := v.Validate(context.Background(), nil, ss, obj, nil, celconfig.RuntimeCELCostBudget)
			if got := uint64(celconfig.RuntimeCELCostBudget - rem); got != runtime {
				t.Errorf("runtime: golden %d, upstream %d", runtime, got)
			}
			result := "true"
			if len(errs) > 0 {
				result = strings.ReplaceAll(errs[0].Detail, "\n", "\\n")
				if strings.HasPrefix(result, "failed rule: ") {
					result = "false"
				}
			}
			if cols[3] != "result="+result {
				t.Errorf("result: golden %q, upstream %q", cols[3], "result="+result)
			}
		})
	}
}

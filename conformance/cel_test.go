package conformance

// Differential tests of internal/cel against upstream's
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel: compile results
// (errors, static costs, cardinalities, oldSelf use) at every schema node,
// and evaluation results (errors, remaining budget, ratcheting warnings).
// Run: cd conformance && go test -run CEL ./...

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	upschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	upcel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	kjson "k8s.io/apimachinery/pkg/util/json"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/warning"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

type celCase struct {
	name   string
	schema string
	// objects to validate; each entry is {new} or {new, old}.
	objects [][]string
}

var celSelfTypeRE = regexp.MustCompile(`selfType\d+`)

func celNormalize(s string) string { return celSelfTypeRE.ReplaceAllString(s, "selfType") }

func celUpstreamStructural(t *testing.T, js string) *upschema.Structural {
	t.Helper()
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &v1); err != nil {
		t.Fatalf("upstream schema: %v", err)
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		t.Fatal(err)
	}
	ss, err := upschema.NewStructural(&internal)
	if err != nil {
		t.Fatalf("upstream structural: %v", err)
	}
	return ss
}

func celOurStructural(t *testing.T, js string) *schema.Structural {
	t.Helper()
	var p crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatalf("our schema: %v", err)
	}
	ss, err := schema.NewStructural(&p)
	if err != nil {
		t.Fatalf("our structural: %v", err)
	}
	return ss
}

func celDecode(t *testing.T, s string) interface{} {
	t.Helper()
	if s == "" {
		return nil
	}
	var v interface{}
	if err := kjson.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func celUpstreamCompileReport(ss *upschema.Structural) []string {
	var out []string
	var walk func(path string, s *upschema.Structural, dt *apiservercel.DeclType)
	walk = func(path string, s *upschema.Structural, dt *apiservercel.DeclType) {
		if s == nil {
			return
		}
		if len(s.XValidations) > 0 {
			res, err := upcel.Compile(s, dt, celconfig.PerCallLimit, environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()), upcel.StoredExpressionsEnvLoader())
			if err != nil {
				out = append(out, fmt.Sprintf("%s: error %v", path, err))
			}
			for i, r := range res {
				e, me := "", ""
				if r.Error != nil {
					e = string(r.Error.Type) + ":" + r.Error.Detail
				}
				if r.MessageExpressionError != nil {
					me = string(r.MessageExpressionError.Type) + ":" + r.MessageExpressionError.Detail
				}
				out = append(out, celNormalize(fmt.Sprintf("%s[%d] cost=%d card=%d old=%v msgcost=%d fp=%q err=%q msgerr=%q", path, i, r.MaxCost, r.MaxCardinality, r.UsesOldSelf, r.MessageExpressionMaxCost, r.NormalizedRuleFieldPath, e, me)))
			}
		}
		var elem *apiservercel.DeclType
		if dt != nil {
			elem = dt.ElemType
		}
		if s.Items != nil {
			walk(path+".items", s.Items, elem)
		}
		keys := slices.Sorted(maps.Keys(s.Properties))
		for _, k := range keys {
			p := s.Properties[k]
			var ft *apiservercel.DeclType
			if esc, ok := apiservercel.Escape(k); ok {
				if dt != nil {
					if f, ok := dt.Fields[esc]; ok {
						ft = f.Type
					}
				}
			} else {
				ft = model.SchemaDeclType(&p, p.XEmbeddedResource)
			}
			if ft != nil {
				walk(path+"."+k, &p, ft)
			}
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			walk(path+".additionalProperties", s.AdditionalProperties.Structural, elem)
		}
	}
	walk("", ss, model.SchemaDeclType(ss, true))
	return out
}

func celOurCompileReport(ss *schema.Structural) []string {
	var out []string
	var walk func(path string, s *schema.Structural, dt *cel.DeclType)
	walk = func(path string, s *schema.Structural, dt *cel.DeclType) {
		if s == nil {
			return
		}
		if len(s.XValidations) > 0 {
			res, err := cel.Compile(s, dt, limits.PerCallLimit)
			if err != nil {
				out = append(out, fmt.Sprintf("%s: error %v", path, err))
			}
			for i, r := range res {
				e, me := "", ""
				if r.Error != nil {
					e = string(r.Error.Type) + ":" + r.Error.Detail
				}
				if r.MessageExpressionError != nil {
					me = string(r.MessageExpressionError.Type) + ":" + r.MessageExpressionError.Detail
				}
				out = append(out, celNormalize(fmt.Sprintf("%s[%d] cost=%d card=%d old=%v msgcost=%d fp=%q err=%q msgerr=%q", path, i, r.MaxCost, r.MaxCardinality, r.UsesOldSelf, r.MessageExpressionMaxCost, r.NormalizedRuleFieldPath, e, me)))
			}
		}
		var elem *cel.DeclType
		if dt != nil {
			elem = dt.ElemType
		}
		if s.Items != nil {
			walk(path+".items", s.Items, elem)
		}
		keys := slices.Sorted(maps.Keys(s.Properties))
		for _, k := range keys {
			p := s.Properties[k]
			var ft *cel.DeclType
			if esc, ok := cel.Escape(k); ok {
				if dt != nil {
					if f, ok := dt.Fields[esc]; ok {
						ft = f.Type
					}
				}
			} else {
				ft = cel.SchemaDeclType(&p, p.XEmbeddedResource)
			}
			if ft != nil {
				walk(path+"."+k, &p, ft)
			}
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			walk(path+".additionalProperties", s.AdditionalProperties.Structural, elem)
		}
	}
	walk("", ss, cel.SchemaDeclType(ss, true))
	return out
}

type celWarnRecorder struct{ warnings []string }

func (w *celWarnRecorder) AddWarning(_, text string) { w.warnings = append(w.warnings, text) }

func celSorted(list []string) []string {
	sort.Strings(list)
	return list
}

func TestCELDifferential(t *testing.T) {
	for _, tc := range celCases {
		t.Run(tc.name, func(t *testing.T) {
			up := celUpstreamStructural(t, tc.schema)
			ours := celOurStructural(t, tc.schema)
			upRep, ourRep := celUpstreamCompileReport(up), celOurCompileReport(ours)
			if celVerbose() {
				t.Logf("compile:\n%s", strings.Join(upRep, "\n"))
			}
			if strings.Join(upRep, "\n") != strings.Join(ourRep, "\n") {
				t.Errorf("compile results differ\nupstream:\n%s\nours:\n%s", strings.Join(upRep, "\n"), strings.Join(ourRep, "\n"))
			}
			upV := upcel.NewValidator(up, true, celconfig.PerCallLimit)
			ourV := cel.NewValidator(ours, true, limits.PerCallLimit)
			if (upV == nil) != (ourV == nil) {
				t.Fatalf("validator nil: upstream %v ours %v", upV == nil, ourV == nil)
			}
			for i, o := range tc.objects {
				newJS, oldJS := o[0], ""
				if len(o) > 1 {
					oldJS = o[1]
				}
				// upstream
				rec := &celWarnRecorder{}
				ctx := warning.WithWarningRecorder(context.Background(), rec)
				upNew, upOld := celDecode(t, newJS), celDecode(t, oldJS)
				var upOpts []upcel.Option
				if upOld != nil {
					upOpts = append(upOpts, upcel.WithRatcheting(common.NewCorrelatedObject(upNew, upOld, &model.Structural{Structural: up})))
				}
				upErrs, upRem := upV.Validate(ctx, nil, up, upNew, upOld, celconfig.RuntimeCELCostBudget, upOpts...)
				// ours
				ourNew, ourOld := celDecode(t, newJS), celDecode(t, oldJS)
				var ourOpts []cel.Option
				if ourOld != nil {
					ourOpts = append(ourOpts, cel.WithRatcheting(cel.NewCorrelatedObject(ourNew, ourOld, ours)))
				}
				ourErrs, ourRem, rep := ourV.Validate(nil, ourNew, ourOld, limits.RuntimeCELCostBudget, ourOpts...)
				var a, b []string
				for _, e := range upErrs {
					a = append(a, celNormalize(fmt.Sprintf("%s|%s", e.Type, e.Error())))
				}
				for _, e := range ourErrs {
					b = append(b, celNormalize(fmt.Sprintf("%s|%s", e.Type, e.Error())))
				}
				// Upstream iterates maps in random order; compare as sets.
				a, b = celSorted(a), celSorted(b)
				if strings.Join(a, "\n") != strings.Join(b, "\n") {
					t.Errorf("object %d: errors differ\nupstream:\n%s\nours:\n%s", i, strings.Join(a, "\n"), strings.Join(b, "\n"))
				}
				if celVerbose() {
					t.Logf("object %d: remaining %d\n%s\ncosts %v\nwarnings %v", i, upRem, strings.Join(a, "\n"), rep.Costs, rec.warnings)
				}
				if upRem != ourRem {
					t.Errorf("object %d: remaining budget upstream %d ours %d", i, upRem, ourRem)
				}
				uw, ow := celSorted(rec.warnings), celSorted(append([]string(nil), rep.Warnings...))
				if strings.Join(uw, "\n") != strings.Join(ow, "\n") {
					t.Errorf("object %d: warnings differ\nupstream:\n%s\nours:\n%s", i, strings.Join(uw, "\n"), strings.Join(ow, "\n"))
				}
			}
		})
	}
}

// celVerbose reports whether CEL_DUMP is set: the tests then log what
// upstream produced, to review the tables.
func celVerbose() bool { return os.Getenv("CEL_DUMP") != "" }

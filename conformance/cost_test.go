package conformance

// Differential test of cost (crdlab cost) against upstream: for the
// Kubernetes docs' cost examples and for the corpus CRDs with many rules
// (Gateway API, Istio), every rule's and messageExpression's static max cost,
// cardinality and summed cost must equal what upstream's CRD validation
// computes (CELSchemaContext + cel.Compile in the NewExpressions
// environment, getExpressionCost), and the CRD verdict and cost errors must
// equal upstream's CRD create validation.
//
// The corpus is fetched with `bash scripts/corpus.sh` (or
// CRDLAB_CORPUS_GATEWAY / CRDLAB_CORPUS_ISTIO); absent corpora are skipped.

import (
	"bytes"
	"context"
	"fmt"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	upvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	upschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	upcel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	sigyaml "sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/internal/testsupport/corpus"
	"github.com/crdlab/crdlab/internal/yamldoc"
)

// upstreamRuleCost is one expression as upstream's CRD validation costs it.
type upstreamRuleCost struct {
	path          string // ...x-kubernetes-validations[i].rule|messageExpression
	max           uint64
	cardinality   uint64
	estimatedCost uint64
	compileError  string
}

// upstreamCosts walks an internal schema exactly as
// ValidateCustomResourceDefinitionOpenAPISchema hands out CEL contexts and
// compiles each node's rules as it does on create.
func upstreamCosts(t *testing.T, root *apiextensions.JSONSchemaProps, rootPath *field.Path) []upstreamRuleCost {
	var out []upstreamRuleCost
	envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	var walk func(s *apiextensions.JSONSchemaProps, p *field.Path, ctx *upvalidation.CELSchemaContext)
	walk = func(s *apiextensions.JSONSchemaProps, p *field.Path, ctx *upvalidation.CELSchemaContext) {
		if len(s.XValidations) > 0 {
			vp := p.Child("x-kubernetes-validations")
			ti, err := ctx.TypeInfo()
			if err != nil || ti == nil {
				t.Errorf("%s: upstream type info: %v", p, err)
			} else if res, err := upcel.Compile(ti.Schema, ti.DeclType, celconfig.PerCallLimit, envSet, upcel.NewExpressionsEnvLoader()); err != nil {
				t.Errorf("%s: upstream compile: %v", p, err)
			} else {
				for i, r := range res {
					card := r.MaxCardinality
					if ctx.MaxCardinality != nil {
						card = *ctx.MaxCardinality
					}
					rc := upstreamRuleCost{path: vp.Index(i).Child("rule").String(), max: r.MaxCost, cardinality: card, estimatedCost: mulGuard(r.MaxCost, card)}
					if r.Error != nil {
						rc.compileError = r.Error.Detail
					}
					out = append(out, rc)
					if s.XValidations[i].MessageExpression != "" {
						m := upstreamRuleCost{path: vp.Index(i).Child("messageExpression").String(), cardinality: card}
						if r.MessageExpression != nil {
							m.max, m.estimatedCost = r.MessageExpressionMaxCost, r.MessageExpressionMaxCost
						}
						if r.MessageExpressionError != nil {
							m.compileError = r.MessageExpressionError.Detail
						}
						out = append(out, m)
					}
				}
			}
		}
		names := slices.Sorted(maps.Keys(s.Properties))
		for _, k := range names {
			prop := s.Properties[k]
			walk(&prop, p.Child("properties").Key(k), ctx.ChildPropertyContext(&prop, k))
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			walk(s.AdditionalProperties.Schema, p.Child("additionalProperties"), ctx.ChildAdditionalPropertiesContext(s.AdditionalProperties.Schema))
		}
		if s.Items != nil && s.Items.Schema != nil {
			walk(s.Items.Schema, p.Child("items"), ctx.ChildItemsContext(s.Items.Schema))
		}
	}
	walk(root, rootPath, upvalidation.RootCELContext(root))
	return out
}

func mulGuard(base, card uint64) uint64 {
	if base == 0 {
		return 0
	}
	if math.MaxUint64/base < card {
		return math.MaxUint64
	}
	return base * card
}

func isCostDetail(d string) bool {
	return strings.Contains(d, "exceeds budget by factor of") || strings.Contains(d, "contributed to estimated rule cost total exceeding cost limit")
}

// costCase is one CRD document to compare.
type costCase struct {
	name string
	data []byte
	// accepted is the verdict the Kubernetes docs state (nil: none stated).
	accepted *bool
}

func boolp(b bool) *bool { return &b }

func docsCostCases(t *testing.T) []costCase {
	dir := "../cost/testdata/"
	if d := os.Getenv("CRDLAB_ROOT"); d != "" {
		dir = d + "/cost/testdata/"
	}
	var out []costCase
	for _, c := range []struct {
		file     string
		accepted *bool
	}{
		{"docs-unbounded.yaml", boolp(false)},
		{"docs-bounded.yaml", boolp(true)},
		{"docs-flat-list.yaml", boolp(true)},
		{"docs-nested-list.yaml", boolp(false)},
		{"mixed.yaml", nil},
		{"total-over-limit.yaml", boolp(false)},
	} {
		data, err := os.ReadFile(dir + c.file)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, costCase{name: "docs/" + c.file, data: data, accepted: c.accepted})
	}
	return out
}

// corpusCostCases returns the CRDs with rules of Gateway API (standard and
// experimental channels) and Istio.
func corpusCostCases(t *testing.T) []costCase {
	var out []costCase
	add := func(prefix, file string) {
		data, err := os.ReadFile(file)
		if err != nil {
			return
		}
		docs, err := yamldoc.Split(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for i, d := range docs {
			doc := d.Data
			if !bytes.Contains(doc, []byte("kind: CustomResourceDefinition")) || !bytes.Contains(doc, []byte("x-kubernetes-validations")) {
				continue
			}
			out = append(out, costCase{name: fmt.Sprintf("%s/%s#%d", prefix, filepath.Base(file), i), data: doc})
		}
	}
	// module finds a corpus module (scripts/corpus.sh, see internal/testsupport/corpus)
	// unless the environment names its directory.
	var dirs []string
	var dirsErr error
	module := func(env, contains string) string {
		if d := os.Getenv(env); d != "" {
			return d
		}
		if dirs == nil && dirsErr == nil {
			dirs, dirsErr = corpus.Dirs(corpus.Options{})
		}
		for _, d := range dirs {
			if strings.Contains(filepath.ToSlash(d), contains) {
				return d
			}
		}
		return ""
	}
	gw := module("CRDLAB_CORPUS_GATEWAY", "sigs.k8s.io/gateway-api@")
	for _, ch := range []string{"standard", "experimental"} {
		if gw == "" {
			break
		}
		files, _ := filepath.Glob(filepath.Join(gw, "config/crd", ch, "*.yaml"))
		for _, f := range files {
			add("gateway-api/"+ch, f)
		}
	}
	if istio := module("CRDLAB_CORPUS_ISTIO", "istio.io/istio@"); istio != "" {
		add("istio", filepath.Join(istio, "manifests/charts/base/files/crd-all.gen.yaml"))
	}
	if dirsErr != nil && testenv.InCI() {
		t.Fatalf("corpus unavailable in CI, where it must be fetched: %v", dirsErr)
	}
	if len(out) == 0 {
		t.Logf("corpus not found (run bash ../scripts/corpus.sh; %v): only the docs examples are compared", dirsErr)
	}
	return out
}

func TestCostAgainstUpstream(t *testing.T) {
	cases := append(docsCostCases(t), corpusCostCases(t)...)
	rules := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v1, err := upstream.DecodeCRD(tc.data)
			if err != nil {
				t.Skipf("upstream does not decode the CRD: %v", err)
			}
			up, err := upstream.CreateCRD(v1)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := cost.AnalyzeBytes(tc.data)
			if err != nil {
				t.Fatalf("cost.AnalyzeBytes: %v", err)
			}
			// verdict and cost errors
			upAccepted := len(up.Errors) == 0
			if rep.Accepted != upAccepted {
				t.Errorf("verdict: ours accepted=%v, upstream accepted=%v\nupstream errors: %v\nours: %v", rep.Accepted, upAccepted, up.Errors, rep.Errors)
			}
			if tc.accepted != nil && upAccepted != *tc.accepted {
				t.Errorf("upstream accepted=%v, the Kubernetes docs say %v", upAccepted, *tc.accepted)
			}
			var upCost, ourCost []string
			for _, e := range up.Errors {
				if isCostDetail(e.Detail) {
					upCost = append(upCost, fmt.Sprintf("%s|%s|%s", string(e.Type), e.Field, e.Detail))
				}
			}
			for _, e := range rep.CostErrors {
				ourCost = append(ourCost, fmt.Sprintf("%s|%s|%s", e.Type, e.Field, e.Detail))
			}
			if strings.Join(upCost, "\n") != strings.Join(ourCost, "\n") {
				t.Errorf("cost errors differ\nupstream:\n%s\nours:\n%s", strings.Join(upCost, "\n"), strings.Join(ourCost, "\n"))
			}
			// per-expression numbers
			in := up.Internal
			var want []upstreamRuleCost
			totals := map[string]uint64{}
			if in.Spec.Validation != nil && in.Spec.Validation.OpenAPIV3Schema != nil {
				p := field.NewPath("spec", "validation", "openAPIV3Schema")
				want = append(want, upstreamCosts(t, in.Spec.Validation.OpenAPIV3Schema, p)...)
			}
			for i, v := range in.Spec.Versions {
				if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
					p := field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
					want = append(want, upstreamCosts(t, v.Schema.OpenAPIV3Schema, p)...)
				}
			}
			got := map[string]cost.Rule{}
			for _, r := range rep.Rules {
				got[r.ErrorPath] = r
			}
			if len(rep.Rules) != len(want) {
				t.Errorf("%d expressions, upstream %d", len(rep.Rules), len(want))
			}
			for _, w := range want {
				r, ok := got[w.path]
				if !ok {
					t.Errorf("%s: missing from the report", w.path)
					continue
				}
				rules++
				if r.Estimate.Max != w.max || r.Cardinality != w.cardinality || r.EstimatedCost != w.estimatedCost {
					t.Errorf("%s (%s): ours max=%d card=%d cost=%d, upstream max=%d card=%d cost=%d",
						w.path, r.Expression, r.Estimate.Max, r.Cardinality, r.EstimatedCost, w.max, w.cardinality, w.estimatedCost)
				}
				if r.Field == cost.FieldRule && w.compileError == "" && (r.Estimate.Min == nil || *r.Estimate.Min > r.Estimate.Max) {
					t.Errorf("%s: min estimate %v missing or above max %d", w.path, r.Estimate.Min, r.Estimate.Max)
				}
				if r.CompileError != w.compileError {
					t.Errorf("%s: compile error %q, upstream %q", w.path, r.CompileError, w.compileError)
				}
				totals[r.Schema] = addGuard(totals[r.Schema], w.estimatedCost)
			}
			for _, s := range rep.Schemas {
				if len(want) > 0 && s.TotalEstimatedCost != totals[s.Schema] {
					t.Errorf("%s: total %d, upstream's rules sum to %d", s.Schema, s.TotalEstimatedCost, totals[s.Schema])
				}
			}
		})
	}
	t.Logf("%d CRDs, %d expressions compared", len(cases), rules)
}

func addGuard(a, b uint64) uint64 {
	if math.MaxUint64-a < b {
		return math.MaxUint64
	}
	return a + b
}

// TestCostSuggestionsAgainstUpstream applies each bound that crdlab cost
// suggests to the CRD and asks upstream's CRD validation: at the suggested
// maximum the cost error must be gone, one above it must still be there
// (the maximum is the largest that fits).
func TestCostSuggestionsAgainstUpstream(t *testing.T) {
	checked := 0
	for _, tc := range docsCostCases(t) {
		rep, err := cost.AnalyzeBytes(tc.data)
		if err != nil {
			t.Fatal(err)
		}
		type sugg struct {
			s         cost.Suggestion
			errorPath string // the error that must vanish
			detail    string // its detail prefix
			tight     bool   // Max+1 must bring the error back
		}
		var all []sugg
		for _, r := range rep.Rules {
			for _, s := range r.Suggestions {
				if s.Target == "perExpression" {
					all = append(all, sugg{s, r.ErrorPath, "estimated ", true})
				} else {
					all = append(all, sugg{s, r.Schema, "x-kubernetes-validations estimated rule cost total", false})
				}
			}
		}
		for _, st := range rep.Schemas {
			for _, s := range st.Suggestions {
				all = append(all, sugg{s, st.Schema, "x-kubernetes-validations estimated rule cost total", true})
			}
		}
		for _, sg := range all {
			name := fmt.Sprintf("%s/%s/%s", tc.name, sg.errorPath, sg.s)
			t.Run(name, func(t *testing.T) {
				has := func(v int64) bool {
					v1, err := upstream.DecodeCRD(tc.data)
					if err != nil {
						t.Fatal(err)
					}
					if err := setBound(v1, sg.s.Path, sg.s.Keyword, v); err != nil {
						t.Fatal(err)
					}
					up, err := upstream.CreateCRD(v1)
					if err != nil {
						t.Fatal(err)
					}
					for _, e := range up.Errors {
						if e.Field == sg.errorPath && strings.HasPrefix(e.Detail, sg.detail) && isCostDetail(e.Detail) {
							return true
						}
					}
					return false
				}
				if has(sg.s.Max) {
					t.Errorf("upstream still reports the cost error at %s with %s", sg.errorPath, sg.s)
				}
				if sg.tight && (sg.s.Current == nil || sg.s.Max < *sg.s.Current) && !has(sg.s.Max+1) {
					t.Errorf("upstream accepts %s = %d too: the suggested maximum is not the largest", sg.s.Keyword, sg.s.Max+1)
				}
			})
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no suggestion checked")
	}
	t.Logf("%d suggestions checked", checked)
}

// setBound sets keyword to v on the schema node at path (a field path under
// spec.validation.openAPIV3Schema, applied to every version, or under
// spec.versions[i].schema.openAPIV3Schema).
func setBound(c *apiextensionsv1.CustomResourceDefinition, path, keyword string, v int64) error {
	const shared = "spec.validation.openAPIV3Schema"
	var roots []*apiextensionsv1.JSONSchemaProps
	rest := ""
	switch {
	case strings.HasPrefix(path, shared):
		rest = strings.TrimPrefix(path, shared)
		for i := range c.Spec.Versions {
			roots = append(roots, c.Spec.Versions[i].Schema.OpenAPIV3Schema)
		}
	default:
		var i int
		if _, err := fmt.Sscanf(path, "spec.versions[%d].schema.openAPIV3Schema", &i); err != nil || i >= len(c.Spec.Versions) {
			return fmt.Errorf("unexpected path %q", path)
		}
		rest = path[strings.Index(path, "openAPIV3Schema")+len("openAPIV3Schema"):]
		roots = append(roots, c.Spec.Versions[i].Schema.OpenAPIV3Schema)
	}
	var steps []string
	for _, tok := range strings.Split(strings.TrimPrefix(rest, "."), ".") {
		if tok != "" {
			steps = append(steps, tok)
		}
	}
	for _, r := range roots {
		if err := setBoundAt(r, steps, keyword, v); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
	}
	return nil
}

func setBoundAt(s *apiextensionsv1.JSONSchemaProps, steps []string, keyword string, v int64) error {
	if len(steps) == 0 {
		switch keyword {
		case cost.MaxItems:
			s.MaxItems = &v
		case cost.MaxProperties:
			s.MaxProperties = &v
		case cost.MaxLength:
			s.MaxLength = &v
		default:
			return fmt.Errorf("keyword %q", keyword)
		}
		return nil
	}
	switch tok := steps[0]; {
	case strings.HasPrefix(tok, "properties[") && strings.HasSuffix(tok, "]"):
		name := tok[len("properties[") : len(tok)-1]
		p, ok := s.Properties[name]
		if !ok {
			return fmt.Errorf("no property %q", name)
		}
		if err := setBoundAt(&p, steps[1:], keyword, v); err != nil {
			return err
		}
		s.Properties[name] = p
		return nil
	case tok == "items" && s.Items != nil && s.Items.Schema != nil:
		return setBoundAt(s.Items.Schema, steps[1:], keyword, v)
	case tok == "additionalProperties" && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		return setBoundAt(s.AdditionalProperties.Schema, steps[1:], keyword, v)
	default:
		return fmt.Errorf("unexpected step %q", tok)
	}
}

// TestCostRuntimeAgainstUpstream compares the per-object runtime total with
// the budget upstream's CR validator consumes (schemas without defaults, so
// the object evaluated is the object given).
func TestCostRuntimeAgainstUpstream(t *testing.T) {
	dir := "../cost/testdata/"
	if d := os.Getenv("CRDLAB_ROOT"); d != "" {
		dir = d + "/cost/testdata/"
	}
	for _, tc := range []struct{ crd, object string }{
		{"mixed.yaml", "mixed-object.yaml"},
		{"docs-unbounded.yaml", "unbounded-object.yaml"},
		{"docs-bounded.yaml", "unbounded-object.yaml"},
		{"total-over-limit.yaml", "mixed-object.yaml"},
	} {
		t.Run(tc.crd+"/"+tc.object, func(t *testing.T) {
			crdData, err := os.ReadFile(dir + tc.crd)
			if err != nil {
				t.Fatal(err)
			}
			objData, err := os.ReadFile(dir + tc.object)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := cost.AnalyzeBytes(crdData, objData)
			if err != nil {
				t.Fatal(err)
			}
			v1, err := upstream.DecodeCRD(crdData)
			if err != nil {
				t.Fatal(err)
			}
			var internal apiextensions.JSONSchemaProps
			if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v1.Spec.Versions[0].Schema.OpenAPIV3Schema, &internal, nil); err != nil {
				t.Fatal(err)
			}
			ss, err := upschema.NewStructural(&internal)
			if err != nil {
				t.Fatal(err)
			}
			js, err := sigyaml.YAMLToJSON(objData)
			if err != nil {
				t.Fatal(err)
			}
			obj := celDecode(t, string(js))
			errs, rem := upcel.NewValidator(ss, true, celconfig.PerCallLimit).Validate(context.Background(), nil, ss, obj, nil, celconfig.RuntimeCELCostBudget)
			want := uint64(celconfig.RuntimeCELCostBudget - rem)
			if len(rep.Objects) != 1 {
				t.Fatalf("%d objects in the report", len(rep.Objects))
			}
			if got := rep.Objects[0].TotalCost; got != want {
				t.Errorf("runtime total %d, upstream %d", got, want)
			}
			var sum uint64
			for _, r := range rep.Rules {
				sum += r.RuntimeCost[0]
			}
			if sum != want {
				t.Errorf("per-rule runtime costs sum to %d, upstream total %d", sum, want)
			}
			if len(errs) != len(rep.Objects[0].Errors) {
				t.Errorf("%d CEL errors, upstream %d: %v", len(rep.Objects[0].Errors), len(errs), errs)
			}
		})
	}
}

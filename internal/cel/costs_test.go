package cel

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/limits"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testdata/costs_schema.json and costs_object.json are the fixture of
// testdata/costs.golden; conformance/cel_test.go replays the same rows
// against upstream.
func costFixture(t *testing.T) (schemaJSON, objectJSON string) {
	t.Helper()
	s, err := os.ReadFile("testdata/costs_schema.json")
	if err != nil {
		t.Fatal(err)
	}
	o, err := os.ReadFile("testdata/costs_object.json")
	if err != nil {
		t.Fatal(err)
	}
	return string(s), string(o)
}

// costGoldenFile is the golden table: rule, static cost estimate (min,max),
// runtime cost and result on the fixture object.
const costGoldenFile = "testdata/costs.golden"

func costRow(t *testing.T, expr string) string {
	t.Helper()
	costSchema, costObject := costFixture(t)
	var props crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(costSchema), &props); err != nil {
		t.Fatal(err)
	}
	spec := props.Properties["spec"]
	spec.XValidations = crd.ValidationRules{{Rule: expr}}
	props.Properties["spec"] = spec
	b, _ := json.Marshal(&props)
	s := mustSchema(t, string(b))
	specSchema := s.Properties["spec"]
	dt := SchemaDeclType(s, true).Fields["spec"].Type
	res, err := Compile(&specSchema, dt, limits.PerCallLimit)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Error != nil {
		return fmt.Sprintf("%s\terror=%s", expr, strings.ReplaceAll(res[0].Error.Detail, "\n", "\\n"))
	}
	envs, err := prepareEnvs(dt, StoredExpressions, kubeversion.Release{})
	if err != nil {
		t.Fatal(err)
	}
	ast, _ := envs.oldSelf.Compile(expr)
	est, err := envs.oldSelf.EstimateCost(ast, newCostEstimator(dt, kubeversion.Release{}))
	if err != nil {
		t.Fatal(err)
	}
	v := NewValidator(s, true, limits.PerCallLimit)
	errs, _, rep := v.Validate(nil, mustObject(t, costObject), nil, limits.RuntimeCELCostBudget)
	result := "true"
	if len(errs) > 0 {
		result = strings.ReplaceAll(errs[0].Detail, "\n", "\\n")
		if strings.HasPrefix(result, "failed rule: ") {
			result = "false"
		}
	}
	var rt uint64
	for _, c := range rep.Costs {
		if !c.MessageExpression {
			rt = c.Cost
		}
	}
	return fmt.Sprintf("%s\tstatic=%d,%d\truntime=%d\tresult=%s", expr, est.Min, est.Max, rt, result)
}

// costExpressions are the rows of the golden table (first column).
var costExpressions = []string{
	"self.n > 1",
	"self.s == 'hello-world'",
	"self.s.startsWith('hello')",
	"self.s.contains('wor')",
	"self.s.matches('^[a-z-]+$')",
	"self.s.size() <= 64",
	"self.u.size() > 0",
	"self.u.matches('^https://')",
	"self.s + self.s != ''",
	"self.l.all(x, x > 0)",
	"self.l.exists(x, x == 5)",
	"self.l.exists_one(x, x == 5)",
	"self.l.filter(x, x % 2 == 0).size() == 5",
	"self.l.map(x, x * 2).all(y, y % 2 == 0)",
	"self.l.all(a, self.l.all(b, a + b > 0))",
	"self.sl.all(x, x.size() < 10)",
	"self.sl.all(a, self.sl.exists(b, a == b))",
	"self.set == ['y', 'x']",
	"self.set + ['z'] == ['x', 'y', 'z']",
	"self.m.all(k, self.m[k].size() == 1)",
	"'a' in self.m",
	"has(self.m.a)",
	"self.objs.all(o, o.v > 0 && o.name.size() < 5)",
	"self.objs.exists(o, o.name == 'b')",
	"self.d > duration('1m')",
	"self.ts < timestamp('2030-01-01T00:00:00Z')",
	"self.f * 2.0 == 3.0",
	"self.ios == '50%'",
	"size(self.sl) == 3",
	"self.sl.join(',').size() > 0",
	"self.s.split('-').size() == 2",
	"self.s.lowerAscii() == self.s",
	"self.s.replace('-', '_') != ''",
	"self.s.indexOf('w') == 6",
	"self.l.sum() == 55",
	"self.l.isSorted()",
	"self.l.min() == 1 && self.l.max() == 10",
	"self.l.indexOf(3) == 2",
	"self.s.find('[a-z]+') == 'hello'",
	"self.s.findAll('o').size() == 2",
	"isURL(self.u) && url(self.u).getPort() == '8443'",
	"quantity(self.q).isLessThan(quantity('2'))",
	"quantity(self.q).add(quantity('500m')).compareTo(quantity('2')) == 0",
	"isQuantity(self.q)",
	"ip('10.0.0.1').family() == 4",
	"cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))",
	"!format.dns1123Label().validate(self.s).hasValue()",
	"isSemver('1.2.3') && semver('1.2.3').isLessThan(semver('1.3.0'))",
	"sets.contains(self.l, [1, 2])",
	"self.sl.sortBy(x, x)[0] == 'a'",
	"self.l.all(i, v, v > i)",
	"optional.of(self.s).hasValue()",
	"self.?missing.orValue('') == ''",
	"self.l[20] == 1",
}

func TestCostGolden(t *testing.T) {
	var rows []string
	for _, e := range costExpressions {
		rows = append(rows, costRow(t, e))
	}
	got := strings.Join(rows, "\n") + "\n"
	if *update {
		if err := os.WriteFile(costGoldenFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(costGoldenFile)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
		for i := range gl {
			if i >= len(wl) || wl[i] != gl[i] {
				w := ""
				if i < len(wl) {
					w = wl[i]
				}
				t.Errorf("row %d:\n got %s\nwant %s", i, gl[i], w)
			}
		}
	}
}

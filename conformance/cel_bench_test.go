package conformance

// Side-by-side benchmarks of rule evaluation: crdlab's
// (*cel.Validator).Validate against upstream's schema/cel Validator.Validate
// on the same structural schema and the same decoded objects.
//
//	cd conformance && go test -run '^$' -bench CEL -benchmem -count 6 . | tee /tmp/bench.txt
//	benchstat /tmp/bench.txt   (or compare the upstream/crdlab pairs by eye)
//
// Workloads:
//   - GatewayAPI: every HTTPRoute and Gateway (v1) example of
//     sigs.k8s.io/gateway-api's examples/ against its CRD (module cache;
//     skipped when absent; fetch with scripts/corpus.sh);
//   - List1000: one object with a list of 1,000 items, 3 rules per item;
//   - BudgetExhausted: rules that together exhaust the 10M per-object budget.
//
// Before timing, each benchmark checks that both sides return the same
// errors and remaining budget, so a speed-up cannot change a result.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	upschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	upcel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	sigyaml "sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

// celBenchCase is one schema and the objects validated against it per op.
type celBenchCase struct {
	upSchema  *upschema.Structural
	ourSchema *schema.Structural
	upV       *upcel.Validator
	ourV      *cel.Validator
	// upObjs and ourObjs are separately decoded copies of the same objects.
	upObjs, ourObjs []interface{}
}

func newCELBenchCase(b *testing.B, schemaJSON string, objs []string) *celBenchCase {
	b.Helper()
	t := &testing.T{}
	c := &celBenchCase{upSchema: celUpstreamStructural(t, schemaJSON), ourSchema: celOurStructural(t, schemaJSON)}
	if t.Failed() {
		b.Fatal("schema does not build")
	}
	c.upV = upcel.NewValidator(c.upSchema, true, celconfig.PerCallLimit)
	c.ourV = cel.NewValidator(c.ourSchema, true, limits.PerCallLimit)
	for _, o := range objs {
		c.upObjs = append(c.upObjs, celDecode(t, o))
		c.ourObjs = append(c.ourObjs, celDecode(t, o))
	}
	return c
}

func (c *celBenchCase) runUpstream() (errs []string, rem []int64) {
	ctx := context.Background()
	for _, o := range c.upObjs {
		e, r := c.upV.Validate(ctx, nil, c.upSchema, o, nil, celconfig.RuntimeCELCostBudget)
		for _, x := range e {
			errs = append(errs, x.Error())
		}
		rem = append(rem, r)
	}
	return
}

func (c *celBenchCase) runOurs() (errs []string, rem []int64) {
	for _, o := range c.ourObjs {
		e, r, _ := c.ourV.Validate(nil, o, nil, limits.RuntimeCELCostBudget)
		for _, x := range e {
			errs = append(errs, x.Error())
		}
		rem = append(rem, r)
	}
	return
}

// check fails the benchmark unless both sides agree on every object
// (error lists compared as sets: upstream visits map entries in random order).
func (c *celBenchCase) check(b *testing.B) {
	b.Helper()
	ue, ur := c.runUpstream()
	oe, or := c.runOurs()
	sort.Strings(ue)
	sort.Strings(oe)
	if fmt.Sprint(ur) != fmt.Sprint(or) || strings.Join(ue, "\n") != strings.Join(oe, "\n") {
		b.Fatalf("results differ\nupstream remaining %v\n%s\nours remaining %v\n%s", ur, strings.Join(ue, "\n"), or, strings.Join(oe, "\n"))
	}
}

func (c *celBenchCase) bench(b *testing.B) {
	c.check(b)
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c.runUpstream()
		}
	})
	b.Run("crdlab", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c.runOurs()
		}
	})
}

// gatewayAPIDir is the gateway-api module in the module cache.
func gatewayAPIDir() string {
	if d := os.Getenv("CRDLAB_GATEWAY_API"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = filepath.Join(home, "go")
	}
	return filepath.Join(gopath, "pkg", "mod", "sigs.k8s.io", "gateway-api@v1.6.3")
}

// gatewayBenchCases returns one case per kind (HTTPRoute, Gateway) with all
// v1 examples of that kind.
func gatewayBenchCases(b *testing.B) map[string]*celBenchCase {
	dir := gatewayAPIDir()
	if _, err := os.Stat(filepath.Join(dir, "examples")); err != nil {
		b.Skipf("gateway-api not in the module cache (%s); run bash ../scripts/corpus.sh", dir)
	}
	schemas := map[string]string{}
	for kind, file := range map[string]string{"HTTPRoute": "httproutes", "Gateway": "gateways"} {
		data, err := os.ReadFile(filepath.Join(dir, "config", "crd", "standard", "gateway.networking.k8s.io_"+file+".yaml"))
		if err != nil {
			b.Fatal(err)
		}
		js, err := sigyaml.YAMLToJSON(data)
		if err != nil {
			b.Fatal(err)
		}
		var c apiextensionsv1.CustomResourceDefinition
		if err := json.Unmarshal(js, &c); err != nil {
			b.Fatal(err)
		}
		for _, v := range c.Spec.Versions {
			if v.Name == "v1" {
				sj, _ := json.Marshal(v.Schema.OpenAPIV3Schema)
				schemas[kind] = string(sj)
			}
		}
	}
	objs := map[string][]string{}
	filepath.Walk(filepath.Join(dir, "examples"), func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return nil
		}
		data, _ := os.ReadFile(path)
		for _, doc := range strings.Split(string(data), "\n---") {
			js, err := sigyaml.YAMLToJSON([]byte(doc))
			if err != nil {
				continue
			}
			var head struct{ APIVersion, Kind string }
			if json.Unmarshal(js, &head) != nil || head.APIVersion != "gateway.networking.k8s.io/v1" {
				continue
			}
			if _, ok := schemas[head.Kind]; ok {
				objs[head.Kind] = append(objs[head.Kind], string(js))
			}
		}
		return nil
	})
	out := map[string]*celBenchCase{}
	for kind, sj := range schemas {
		if len(objs[kind]) == 0 {
			b.Fatalf("no %s examples", kind)
		}
		out[kind] = newCELBenchCase(b, sj, objs[kind])
	}
	return out
}

func BenchmarkCELGatewayAPI(b *testing.B) {
	cases := gatewayBenchCases(b)
	for _, kind := range []string{"HTTPRoute", "Gateway"} {
		b.Run(fmt.Sprintf("%s-%dobjs", kind, len(cases[kind].ourObjs)), cases[kind].bench)
	}
}

// celBenchListSchema: a list of objects, three rules per item (one with a
// messageExpression that fails for some items), one on the list.
const celBenchListSchema = `{"type":"object","properties":{"spec":{"type":"object","properties":{
	"items":{"type":"array","maxItems":5000,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
		"x-kubernetes-validations":[{"rule":"self.size() <= 5000"}],
		"items":{"type":"object","required":["name"],
			"x-kubernetes-validations":[
				{"rule":"self.name.startsWith('item-')","message":"name must start with item-"},
				{"rule":"!has(self.port) || (self.port >= 1 && self.port <= 65535)","messageExpression":"'port ' + string(self.port) + ' out of range'"},
				{"rule":"!has(self.tags) || self.tags.all(t, t.size() <= 16)"}
			],
			"properties":{
				"name":{"type":"string","maxLength":63},
				"port":{"type":"integer"},
				"tags":{"type":"array","maxItems":8,"items":{"type":"string","maxLength":32}}
			}}}}}}}`

func celBenchListObject(n int) string {
	items := make([]string, n)
	for i := range items {
		port := 1 + i%70000 // some out of range
		items[i] = fmt.Sprintf(`{"name":"item-%d","port":%d,"tags":["a","b%d"]}`, i, port, i)
	}
	return `{"apiVersion":"x/v1","kind":"K","metadata":{"name":"n"},"spec":{"items":[` + strings.Join(items, ",") + `]}}`
}

func BenchmarkCELList1000(b *testing.B) {
	newCELBenchCase(b, celBenchListSchema, []string{celBenchListObject(1000)}).bench(b)
}

// celBenchBudgetSchema: every item's rule costs ~0.5M, so 30 items exhaust
// the 10M per-object budget.
const celBenchBudgetSchema = `{"type":"object","properties":{"spec":{"type":"object","properties":{
	"items":{"type":"array","items":{"type":"object",
		"x-kubernetes-validations":[{"rule":"self.vals.all(x, self.vals.all(y, x + y >= 0))"}],
		"properties":{"vals":{"type":"array","items":{"type":"integer"}}}}}}}}}`

func celBenchBudgetObject() string {
	vals := make([]string, 300)
	for i := range vals {
		vals[i] = fmt.Sprint(i)
	}
	item := `{"vals":[` + strings.Join(vals, ",") + `]}`
	items := make([]string, 30)
	for i := range items {
		items[i] = item
	}
	return `{"spec":{"items":[` + strings.Join(items, ",") + `]}}`
}

func BenchmarkCELBudgetExhausted(b *testing.B) {
	newCELBenchCase(b, celBenchBudgetSchema, []string{celBenchBudgetObject()}).bench(b)
}

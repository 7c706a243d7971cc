package cel

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
	"github.com/crdlab/crdlab/internal/testsupport/cputime"
)

// Fuzz targets for rule compilation and evaluation. Run with
//
//	go test -run '^$' -fuzz '^FuzzCompileRule$' -fuzztime 2m ./internal/cel/
//	go test -run '^$' -fuzz '^FuzzEvaluate$' -fuzztime 2m ./internal/cel/
//
// Minimized crashers live in testdata/fuzz/<target>/ and run as regular
// tests with `go test ./internal/cel/`.

// fuzzCPU bounds the CPU time of one compilation or validation: upstream
// relies on the parser limits and runtime cost limits to bound work, so
// exceeding this is runaway work (a missing limit), not slowness; CPU time,
// which other processes' load does not inflate. fuzzHang is the wall-clock
// hang detector for one that never returns, far beyond any loaded run (go
// test -fuzz runs without -timeout's alarm).
const (
	fuzzCPU  = 20 * time.Second
	fuzzHang = 3 * time.Minute
)

// fuzzCompileSchemas are the fixed schemas rules are compiled against: a
// scalar, an object with every scalar type, lists of each list-type, maps and
// nested objects, and an embedded resource.
var fuzzCompileSchemas = []string{
	`{"type":"string","maxLength":64}`,
	`{"type":"object","properties":{
		"s":{"type":"string","maxLength":253},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},
		"q":{"x-kubernetes-int-or-string":true},"d":{"type":"string","format":"date-time"},"dur":{"type":"string","format":"duration"},
		"bytes":{"type":"string","format":"byte"},
		"set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
		"ml":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"type":"integer"}}}},
		"m":{"type":"object","additionalProperties":{"type":"string"}},
		"any":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
		"nested":{"type":"object","properties":{"namespace":{"type":"string"},"x-y":{"type":"array","items":{"type":"array","items":{"type":"integer"}}}}}
	}}`,
	`{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`,
}

func fuzzStructurals(t testing.TB) []*schema.Structural {
	out := make([]*schema.Structural, len(fuzzCompileSchemas))
	for i, js := range fuzzCompileSchemas {
		out[i] = mustSchema(t, js)
	}
	return out
}

// withDeadline runs f and fails the test when it panics, uses more than
// fuzzCPU of CPU time or does not return within fuzzHang.
func withDeadline(t *testing.T, what string, f func()) {
	t.Helper()
	cpu := cputime.Start()
	done := make(chan struct{})
	var panicked interface{}
	go func() {
		defer close(done)
		defer func() { panicked = recover() }()
		f()
	}()
	select {
	case <-done:
		if panicked != nil {
			t.Fatalf("%s panicked: %v", what, panicked)
		}
		cpu.Check(t, fuzzCPU, what)
	case <-time.After(fuzzHang):
		t.Fatalf("%s did not finish within %v", what, fuzzHang)
	}
}

func FuzzCompileRule(f *testing.F) {
	seeds := [][2]string{
		{"self.size() > 0", "'size ' + string(self.size())"},
		{"self.s.matches('^(a+)+$')", "self.s"},
		{"self.set.all(x, self.set.all(y, self.set.all(z, x + y + z != '')))", ""},
		{"[1,2,3].all(x, [1,2,3].all(y, [1,2,3].all(z, x*y*z > 0)))", ""},
		{"quantity(self.q).isGreaterThan(quantity('1Ei'))", ""},
		{"isQuantity('9223372036854775807Ei')", ""},
		{"url('http://[::1').getHost() == ''", ""},
		{"ip('::ffff:1.2.3.4').family() == 6 && cidr('0.0.0.0/0').containsIP('1.2.3.4')", ""},
		{"self.?nested.?namespace.orValue('') == ''", ""},
		{"optional.of(self.i).hasValue()", ""},
		{"has(self.nested.__namespace__) && self.nested.x__dash__y.all(r, r.all(c, c > 0))", ""},
		{"self.ml.exists_one(e, e.k == 'a')", "self.ml.map(e, e.k).join(',')"},
		{"self.m.all(k, self.m[k].startsWith(k))", ""},
		{"oldSelf == self", ""},
		{"self.i == oldSelf.i", "string(oldSelf.i)"},
		{"self.d < timestamp('2024-01-01T00:00:00Z') && duration(self.dur) > duration('1s')", ""},
		{"self.apiVersion == 'v1' && self.metadata.name.size() < 10", ""},
		{"format.dns1123Label().validate(self.s).hasValue()", ""},
		{"semver('1.2.3').isLessThan(semver(self.s))", ""},
		{"self.s.find('[') == ''", ""},
		{strings.Repeat("(", 300) + "true" + strings.Repeat(")", 300), ""},
		{strings.Repeat("!", 5000) + "true", ""},
		{"'" + strings.Repeat("x", 200000) + "' == self.s", ""},
		{"self.s.split('').map(c, c + c).size() > 0", "1"},
		{"", ""},
		{"1 +", "'"},
		{"self.x.y.z", "self.q.r"},
		{"int(self.n) == 9223372036854775807 + 1", ""},
		{"self.bytes.size() > 0 && string(self.bytes) != ''", ""},
		{"self.any.foo.bar == 1", "string(self.any.foo)"},
		{"sets.contains(self.set, ['a']) && lists.range(3).size() == 3", ""},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	structurals := fuzzStructurals(f)
	f.Fuzz(func(t *testing.T, rule, msgExpr string) {
		for si, base := range structurals {
			s := *base
			s.XValidations = crd.ValidationRules{{Rule: rule, MessageExpression: msgExpr}}
			var results []CompilationResult
			var err error
			withDeadline(t, "Compile", func() {
				results, err = Compile(&s, SchemaDeclType(&s, si == 2), limits.PerCallLimit)
			})
			if err != nil {
				t.Fatalf("schema %d: environment error: %v", si, err)
			}
			if len(results) != 1 {
				t.Fatalf("schema %d: %d results for one rule", si, len(results))
			}
			r := results[0]
			empty := strings.TrimSpace(rule) == ""
			switch {
			case empty && (r.Program != nil || r.Error != nil):
				t.Fatalf("schema %d: empty rule compiled to program=%v error=%v", si, r.Program != nil, r.Error)
			case !empty && (r.Program == nil) == (r.Error == nil):
				t.Fatalf("schema %d: rule %q: exactly one of program and error expected, got program=%v error=%v", si, rule, r.Program != nil, r.Error)
			case r.Error != nil && (r.Error.Detail == "" || (r.Error.Type != ErrorTypeInvalid && r.Error.Type != ErrorTypeInternal)):
				t.Fatalf("schema %d: malformed compile error %#v", si, r.Error)
			case r.MessageExpression != nil && r.MessageExpressionError != nil:
				t.Fatalf("schema %d: messageExpression both compiled and failed: %v", si, r.MessageExpressionError)
			}
			if r.Program == nil {
				continue
			}
			// A compiled rule must evaluate (or fail) against an empty object
			// and a zero-valued scalar without panicking or hanging.
			var obj interface{} = map[string]interface{}{}
			if s.Type == "string" {
				obj = ""
			}
			v := NewValidator(&s, si == 2, limits.PerCallLimit)
			withDeadline(t, "Validate", func() {
				errs, rem, rep := v.Validate(nil, obj, obj, limits.RuntimeCELCostBudget)
				checkBudgetInvariants(t, errs.ToAggregate(), rem, rep, limits.RuntimeCELCostBudget, limits.PerCallLimit)
			})
		}
	})
}

// fuzzEvalSchema is the fixed schema of FuzzEvaluate: its rules cover every
// library and include expensive ones, so arbitrary objects exercise runtime
// cost limits.
const fuzzEvalSchema = `{"type":"object","properties":{"spec":{"type":"object",
	"x-kubernetes-validations":[
		{"rule":"!has(self.s) || self.s.matches('^(a|aa)+$') || self.s.size() < 5","messageExpression":"'bad s: ' + self.s"},
		{"rule":"!has(self.items) || self.items.all(x, self.items.all(y, self.items.all(z, x + y + z != 'zzz')))"},
		{"rule":"!has(self.items) || self.items.map(x, x + x).filter(x, x.contains('a')).size() >= 0","reason":"FieldValueForbidden","fieldPath":".items"},
		{"rule":"!has(self.q) || !isQuantity(string(self.q)) || quantity(string(self.q)).compareTo(quantity('1Ei')) <= 0","message":"quantity too large"},
		{"rule":"!has(self.u) || !isURL(self.u) || url(self.u).getScheme() in ['http', 'https', '']"},
		{"rule":"!has(self.ip) || !isIP(self.ip) || ip(self.ip).family() in [4, 6]"},
		{"rule":"!has(self.cidr) || !isCIDR(self.cidr) || cidr(self.cidr).prefixLength() >= 0"},
		{"rule":"self.?nested.?deep.orValue({}).size() < 100","messageExpression":"string(self.?nested.?deep.orValue({}).size())"},
		{"rule":"!has(self.m) || self.m.all(k, self.m[k].size() < 1000 && k.size() < 100)"},
		{"rule":"!has(self.ml) || self.ml.all(e, self.ml.exists(f, f.k == e.k))","reason":"FieldValueRequired"},
		{"rule":"!has(self.n) || self.n * 2.0 != 1.0 && int(self.i) >= -9223372036854775807"},
		{"rule":"!has(self.s) || self.s.split('a').size() < 1000"},
		{"rule":"self == oldSelf || !has(oldSelf.s) || has(self.s)","message":"s may not be removed"},
		{"rule":"!has(oldSelf.items) || self.?items.orValue([]).size() >= 0","optionalOldSelf":true}
	],
	"properties":{
		"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},
		"q":{"x-kubernetes-int-or-string":true},"u":{"type":"string"},"ip":{"type":"string"},"cidr":{"type":"string"},
		"items":{"type":"array","items":{"type":"string"}},
		"m":{"type":"object","additionalProperties":{"type":"string"}},
		"ml":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
			"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"type":"integer"}},
				"x-kubernetes-validations":[{"rule":"!has(self.v) || self.v >= 0","messageExpression":"self.k + ' has a negative v'"}]}},
		"nested":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
		"list":{"type":"array","items":{"type":"array","items":{"type":"integer",
			"x-kubernetes-validations":[{"rule":"self < 1000000"}]}}}
	}}}}`

// fuzzPerCallLimit and fuzzBudget are lower than upstream's limits (1M per
// call, 10M per object) with the same enforcement: cel-go's runtime cost
// tracker is slow on large comprehensions (see the report in
// conformance/cel_bench_test.go), and Go's fuzzer kills inputs that run for
// more than 10 s, so full-size limits would report slowness as hangs.
const (
	fuzzPerCallLimit = 100_000
	fuzzBudget       = 1_000_000
)

func FuzzEvaluate(f *testing.F) {
	big := strings.Repeat("a", 100000)
	deep := strings.Repeat(`{"x":`, 200) + "1" + strings.Repeat("}", 200)
	items := make([]string, 300)
	for i := range items {
		items[i] = `"` + strings.Repeat("y", i%7) + `"`
	}
	manyItems := "[" + strings.Join(items, ",") + "]"
	seeds := [][2]string{
		{`{"spec":{"s":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"}}`, ``},
		{`{"spec":{"s":"` + big + `"}}`, `{"spec":{"s":"` + big + `b"}}`},
		{`{"spec":{"items":` + manyItems + `}}`, ``},
		{`{"spec":{"items":` + manyItems + `}}`, `{"spec":{"items":["a"]}}`},
		{`{"spec":{"q":"9223372036854775807Ei"}}`, ``},
		{`{"spec":{"q":"1e1000000"}}`, ``},
		{`{"spec":{"q":-9223372036854775808}}`, ``},
		{`{"spec":{"q":"0.000000000000000000000000000001m"}}`, ``},
		{`{"spec":{"u":"http://[::1","ip":"::ffff:1.2.3.4","cidr":"1.2.3.4/33"}}`, ``},
		{`{"spec":{"u":"%zz://a b","ip":"01.2.3.4","cidr":"fe80::1%eth0/64"}}`, ``},
		{`{"spec":{"nested":{"deep":` + deep + `}}}`, ``},
		{`{"spec":{"m":{"a":"b","` + big[:200] + `":"c"}}}`, ``},
		{`{"spec":{"ml":[{"k":"a","v":-1},{"k":"b"},{"k":"a"}]}}`, `{"spec":{"ml":[{"k":"a","v":-1}]}}`},
		{`{"spec":{"n":0.5,"i":-9223372036854775808}}`, ``},
		{`{"spec":{"list":[[1,2,3],[1000000,2000000]]}}`, `{"spec":{"list":[[1000000]]}}`},
		{`{"spec":{}}`, `{"spec":{"s":"x"}}`},
		{`{"spec":null}`, `{"spec":{"s":"x"}}`},
		{`{"spec":"wrong type"}`, `[]`},
		{`{"spec":{"s":1,"items":{"a":1},"m":[],"ml":"x","i":"1","n":true}}`, `{"spec":{"s":null}}`},
		{`{"spec":{"s":"` + strings.Repeat("a", 5000) + `"}}`, ``},
		{`[`, `null`},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	s := mustSchema(f, fuzzEvalSchema)
	v := NewValidator(s, true, fuzzPerCallLimit)
	if v == nil {
		f.Fatal("no validator")
	}
	f.Fuzz(func(t *testing.T, objJSON, oldJSON string) {
		obj, ok := fuzzDecode(objJSON)
		if !ok {
			return
		}
		old, _ := fuzzDecode(oldJSON)
		for _, budget := range []int64{fuzzBudget, int64(len(objJSON)) * 10} {
			withDeadline(t, "Validate", func() {
				errs, rem, rep := v.Validate(nil, obj, nil, budget)
				checkBudgetInvariants(t, errs.ToAggregate(), rem, rep, budget, fuzzPerCallLimit)
				if old != nil {
					errs, rem, rep = v.Validate(nil, obj, old, budget, WithRatcheting(NewCorrelatedObject(obj, old, s)))
					checkBudgetInvariants(t, errs.ToAggregate(), rem, rep, budget, fuzzPerCallLimit)
				}
			})
		}
	})
}

// fuzzDecode decodes JSON to unstructured values as upstream does (integers
// as int64, other numbers as float64).
func fuzzDecode(js string) (interface{}, bool) {
	d := json.NewDecoder(strings.NewReader(js))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	return fixNumbers(v), true
}

// checkBudgetInvariants pins the runtime cost limits: an evaluation that costs
// more than perCallLimit must have been stopped with upstream's call-cost
// error, a validation whose evaluations together exceed the budget must say
// it ran out of budget, and otherwise the remaining budget is exactly the
// budget minus the recorded costs.
func checkBudgetInvariants(t *testing.T, agg error, rem int64, rep *Evaluation, budget int64, perCallLimit uint64) {
	t.Helper()
	msg := ""
	if agg != nil {
		msg = agg.Error()
	}
	var sum uint64
	for _, c := range rep.Costs {
		sum += c.Cost
		if c.Cost > perCallLimit {
			if !strings.Contains(msg, "call cost exceeds limit") && !strings.Contains(msg, "running out of cost budget") {
				t.Fatalf("evaluation %+v exceeded the per-call limit without an error; errors: %s", c, msg)
			}
			if rem != -1 {
				t.Fatalf("evaluation %+v exceeded the per-call limit but validation continued (remaining %d)", c, rem)
			}
		}
	}
	switch {
	case rem >= 0 && uint64(budget) != uint64(rem)+sum:
		t.Fatalf("remaining budget %d + recorded costs %d != budget %d", rem, sum, budget)
	case rem < 0 && budget > 0 && rem != -1:
		t.Fatalf("exhausted budget reported as %d, want -1", rem)
	case rem < 0 && !strings.Contains(msg, "cost") && !strings.Contains(msg, "Internal error"):
		t.Fatalf("budget exhausted (remaining %d) without a cost error: %s", rem, msg)
	}
}

// TestFuzzEvaluateSeedsReachCostLimits pins that the FuzzEvaluate harness
// exercises both runtime limits, so its invariants are not vacuous.
func TestFuzzEvaluateSeedsReachCostLimits(t *testing.T) {
	s := mustSchema(t, fuzzEvalSchema)
	v := NewValidator(s, true, fuzzPerCallLimit)
	items := make([]interface{}, 100)
	for i := range items {
		items[i] = "y"
	}
	obj := map[string]interface{}{"spec": map[string]interface{}{"items": items}}
	tests := []struct {
		name    string
		budget  int64
		wantErr string
	}{
		{"per-call limit stops a cubic comprehension", fuzzBudget, "no further validation rules will be run due to call cost exceeds limit for rule: !has(self.items) || self.items.all(x, self.items.all(y, self.items.all(z, x + y + z != 'zzz')))"},
		{"per-object budget stops validation", 50, "validation failed due to running out of cost budget, no further validation rules will be run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs, rem, rep := v.Validate(nil, obj, nil, tt.budget)
			if rem != -1 {
				t.Errorf("remaining budget %d, want -1", rem)
			}
			agg := errs.ToAggregate()
			if agg == nil || !strings.Contains(agg.Error(), tt.wantErr) {
				t.Fatalf("errors %v, want one containing %q", agg, tt.wantErr)
			}
			checkBudgetInvariants(t, agg, rem, rep, tt.budget, fuzzPerCallLimit)
		})
	}
}

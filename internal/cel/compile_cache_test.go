package cel

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

// cacheSchema has rules that compile, fail, use oldSelf, have a
// messageExpression (valid and invalid) and a fieldPath.
const cacheSchema = `{
  "type": "object",
  "properties": {
    "a": {"type": "string", "maxLength": %d},
    "b": {"type": "integer"}
  },
  "x-kubernetes-validations": [
    {"rule": "self.a.contains('xy')", "fieldPath": ".a"},
    {"rule": "self.b == oldSelf.b", "message": "immutable"},
    {"rule": "self.nope > 1"},
    {"rule": "self.b > 0", "messageExpression": "'b is ' + string(self.b)", "fieldPath": ".b"},
    {"rule": "self.b > 0", "messageExpression": "self.b", "fieldPath": ".b"},
    {"rule": "  "}
  ]
}`

func describeResults(rs []CompilationResult) []string {
	var out []string
	for _, r := range rs {
		s := fmt.Sprintf("prog=%v old=%v max=%d min=%d card=%d msg=%v msgMax=%d fp=%q", r.Program != nil, r.UsesOldSelf, r.MaxCost, r.MinCost, r.MaxCardinality, r.MessageExpression != nil, r.MessageExpressionMaxCost, r.NormalizedRuleFieldPath)
		if r.Error != nil {
			s += fmt.Sprintf(" err=%s:%s", r.Error.Type, r.Error.Detail)
		}
		if r.MessageExpressionError != nil {
			s += fmt.Sprintf(" msgErr=%s:%s", r.MessageExpressionError.Type, r.MessageExpressionError.Detail)
		}
		out = append(out, s)
	}
	return out
}

func compileBoth(t *testing.T, maxLen int, kind EnvKind) (uncached, first, second []CompilationResult) {
	t.Helper()
	s := mustSchema(t, fmt.Sprintf(cacheSchema, maxLen))
	var err error
	if uncached, err = CompileWith(s, SchemaDeclType(s, false), limits.PerCallLimit, kind); err != nil {
		t.Fatal(err)
	}
	c := NewCompileCache()
	// Two structurally equal but distinct schemas and DeclTypes.
	s1 := mustSchema(t, fmt.Sprintf(cacheSchema, maxLen))
	s2 := mustSchema(t, fmt.Sprintf(cacheSchema, maxLen))
	if first, err = c.Compile(s1, SchemaDeclType(s1, false), limits.PerCallLimit, kind); err != nil {
		t.Fatal(err)
	}
	if second, err = c.Compile(s2, SchemaDeclType(s2, false), limits.PerCallLimit, kind); err != nil {
		t.Fatal(err)
	}
	return
}

func TestCompileCacheReturnsTheUncachedResults(t *testing.T) {
	for _, kind := range []EnvKind{StoredExpressions, NewExpressions} {
		uncached, first, second := compileBoth(t, 10, kind)
		want := describeResults(uncached)
		for name, got := range map[string][]CompilationResult{"miss": first, "hit": second} {
			g := describeResults(got)
			if len(g) != len(want) {
				t.Fatalf("kind %d %s: %d results, want %d", kind, name, len(g), len(want))
			}
			for i := range want {
				if g[i] != want[i] {
					t.Errorf("kind %d %s rule %d:\n got %s\nwant %s", kind, name, i, g[i], want[i])
				}
			}
		}
	}
}

func TestCompileCacheSharesProgramsForEqualTypes(t *testing.T) {
	_, first, second := compileBoth(t, 10, StoredExpressions)
	if first[0].Program == nil || first[0].Program != second[0].Program {
		t.Errorf("equal DeclTypes in one scope should share the compiled program")
	}
}

func TestCompileCacheKeepsSizeEstimatesApart(t *testing.T) {
	c := NewCompileCache()
	small := mustSchema(t, fmt.Sprintf(cacheSchema, 10))
	big := mustSchema(t, fmt.Sprintf(cacheSchema, 1000))
	rs, _ := c.Compile(small, SchemaDeclType(small, false), limits.PerCallLimit, StoredExpressions)
	rb, _ := c.Compile(big, SchemaDeclType(big, false), limits.PerCallLimit, StoredExpressions)
	if rs[0].Program == rb[0].Program {
		t.Errorf("different maxLength must not share a compilation")
	}
	if rs[0].MaxCost == rb[0].MaxCost {
		t.Errorf("costs should differ with maxLength, both %d", rs[0].MaxCost)
	}
}

func TestCompileCacheKeepsEnvironmentKindsApart(t *testing.T) {
	c := NewCompileCache()
	s := mustSchema(t, fmt.Sprintf(cacheSchema, 10))
	dt := SchemaDeclType(s, false)
	stored, _ := c.Compile(s, dt, limits.PerCallLimit, StoredExpressions)
	fresh, _ := c.Compile(s, dt, limits.PerCallLimit, NewExpressions)
	if stored[0].Program == fresh[0].Program {
		t.Errorf("StoredExpressions and NewExpressions must compile separately")
	}
}

func TestCompileCacheResolvesFieldPathPerSchema(t *testing.T) {
	c := NewCompileCache()
	withA := mustSchema(t, `{"type":"object","properties":{"a":{"type":"string"}},"x-kubernetes-validations":[{"rule":"true","fieldPath":".a"}]}`)
	// Same DeclType digest is impossible without "a", so check a hit keeps
	// the path of the schema at hand: compile twice, second time a copy.
	first, _ := c.Compile(withA, SchemaDeclType(withA, false), limits.PerCallLimit, StoredExpressions)
	again := mustSchema(t, `{"type":"object","properties":{"a":{"type":"string"}},"x-kubernetes-validations":[{"rule":"true","fieldPath":".a"}]}`)
	second, _ := c.Compile(again, SchemaDeclType(again, false), limits.PerCallLimit, StoredExpressions)
	if first[0].NormalizedRuleFieldPath != "a" || second[0].NormalizedRuleFieldPath != "a" {
		t.Errorf("field paths %q, %q, want a", first[0].NormalizedRuleFieldPath, second[0].NormalizedRuleFieldPath)
	}
	if first[0].Program != second[0].Program {
		t.Errorf("second compile should be a cache hit")
	}
}

func TestCompileCachesAreIndependent(t *testing.T) {
	// Each CRD compile has its own cache: nothing is shared between two
	// caches, nor with a nil cache.
	s := mustSchema(t, fmt.Sprintf(cacheSchema, 10))
	c1, c2 := NewCompileCache(), NewCompileCache()
	a, _ := c1.Compile(s, SchemaDeclType(s, false), limits.PerCallLimit, StoredExpressions)
	b, _ := c2.Compile(s, SchemaDeclType(s, false), limits.PerCallLimit, StoredExpressions)
	n, _ := (*CompileCache)(nil).Compile(s, SchemaDeclType(s, false), limits.PerCallLimit, StoredExpressions)
	if a[0].Program == b[0].Program || a[0].Program == n[0].Program {
		t.Errorf("no compilation may be reused outside its cache")
	}
	if a2, _ := c1.Compile(s, SchemaDeclType(s, false), limits.PerCallLimit, StoredExpressions); a2[0].Program != a[0].Program {
		t.Errorf("second compile through the same cache should be a hit")
	}
}

func TestNewValidatorWithCacheSharesCompilations(t *testing.T) {
	s := mustSchema(t, fmt.Sprintf(cacheSchema, 10))
	c := NewCompileCache()
	v1 := NewValidatorWithCache(s, false, limits.PerCallLimit, c)
	v2 := NewValidatorWithCache(mustSchema(t, fmt.Sprintf(cacheSchema, 10)), false, limits.PerCallLimit, c)
	v3 := NewValidator(s, false, limits.PerCallLimit)
	if v1.compiledRules[0].Program != v2.compiledRules[0].Program {
		t.Errorf("validators built through one cache should share programs")
	}
	if v1.compiledRules[0].Program == v3.compiledRules[0].Program {
		t.Errorf("a validator built without a cache must compile its own programs")
	}
}

// Compiling a CRD compiles each rule for the CRD checks, for the checks of
// default values and for the serving validators; through one cache the
// compilations of equal rules on equal types are shared.
func ExampleCompileCache() {
	c := NewCompileCache()
	var props crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"n":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.n >= 0"}]}`), &props)
	s, _ := schema.NewStructural(&props)
	a, _ := c.Compile(s, SchemaDeclType(s, true), limits.PerCallLimit, StoredExpressions)
	b, _ := c.Compile(s, SchemaDeclType(s, true), limits.PerCallLimit, StoredExpressions)
	fmt.Println(a[0].Program == b[0].Program, a[0].MaxCost)
	// Output: true 3
}

func TestCompileCacheIsSafeForConcurrentUse(t *testing.T) {
	want := describeResults(func() []CompilationResult {
		s := mustSchema(t, fmt.Sprintf(cacheSchema, 10))
		r, _ := CompileWith(s, SchemaDeclType(s, false), limits.PerCallLimit, StoredExpressions)
		return r
	}())
	schemas := make([]*schema.Structural, 8)
	for i := range schemas {
		schemas[i] = mustSchema(t, fmt.Sprintf(cacheSchema, 10))
	}
	done := make(chan []string, len(schemas))
	c := NewCompileCache()
	for _, s := range schemas {
		go func() {
			r, _ := c.Compile(s, SchemaDeclType(s, false), limits.PerCallLimit, StoredExpressions)
			done <- describeResults(r)
		}()
	}
	for range schemas {
		got := <-done
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("concurrent compile:\n got %v\nwant %v", got, want)
		}
	}
}

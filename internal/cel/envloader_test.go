package cel

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/limits"
)

// lists.includes exists from compatibility version 1.37: it compiles in the
// StoredExpressions environment only. CompileWithLoader picks the
// environment of each rule and of each messageExpression separately, with
// or without a cache.
func TestCompileWithLoaderChoosesTheEnvironmentPerExpression(t *testing.T) {
	const src = `{
  "type": "object",
  "properties": {"tags": {"type": "array", "maxItems": 4, "items": {"type": "string", "maxLength": 4}}},
  "x-kubernetes-validations": [
    {"rule": "self.tags.includes('a')"},
    {"rule": "self.tags.size() > 0", "messageExpression": "self.tags.includes('b') ? 'b' : 'no b'"}
  ]
}`
	stored := map[string]bool{"self.tags.includes('a')": true}
	storedMsg := map[string]bool{}
	load := func(expr string, message bool) EnvKind {
		m := stored
		if message {
			m = storedMsg
		}
		if m[expr] {
			return StoredExpressions
		}
		return NewExpressions
	}
	for _, cache := range []*CompileCache{nil, NewCompileCache()} {
		for round := 0; round < 2; round++ { // the second round hits the cache
			s := mustSchema(t, src)
			rs, err := cache.CompileWithLoader(s, SchemaDeclType(s, false), limits.PerCallLimit, load)
			if err != nil {
				t.Fatal(err)
			}
			if rs[0].Error != nil {
				t.Errorf("cache=%v: a stored rule must compile in StoredExpressions: %v", cache != nil, rs[0].Error)
			}
			if rs[1].Error != nil || rs[1].MessageExpressionError == nil || !strings.Contains(rs[1].MessageExpressionError.Detail, "includes") {
				t.Errorf("cache=%v: a new messageExpression must fail in NewExpressions: %+v", cache != nil, rs[1])
			}
		}
	}
	// The same rule, not stored: a compile error in NewExpressions, also
	// through a cache that compiled it in StoredExpressions before.
	c := NewCompileCache()
	s := mustSchema(t, src)
	if rs, _ := c.CompileWithLoader(s, SchemaDeclType(s, false), limits.PerCallLimit, load); rs[0].Error != nil {
		t.Fatal(rs[0].Error)
	}
	rs, _ := c.Compile(s, SchemaDeclType(s, false), limits.PerCallLimit, NewExpressions)
	if rs[0].Error == nil || !strings.Contains(rs[0].Error.Detail, "compilation failed") {
		t.Errorf("a new rule using includes must fail in NewExpressions, got %+v", rs[0])
	}
}

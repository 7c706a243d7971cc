package cel

import (
	"errors"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/limits"
)

// Programs compiled in NewExpressions are built (their instantiation errors
// are reported) and then replaced by checkedOnly; StoredExpressions keeps
// real programs. With and without a cache.
func TestNewExpressionsKeepNoProgram(t *testing.T) {
	const src = `{
  "type": "object",
  "properties": {"s": {"type": "string", "maxLength": 8}},
  "x-kubernetes-validations": [
    {"rule": "self.s.size() > 1", "messageExpression": "'short: ' + self.s"},
    {"rule": "self.s.find('[') == ''"}
  ]
}`
	for _, cache := range []*CompileCache{nil, NewCompileCache()} {
		s := mustSchema(t, src)
		dt := SchemaDeclType(s, false)
		rs, err := cache.Compile(s, dt, limits.PerCallLimit, NewExpressions)
		if err != nil {
			t.Fatal(err)
		}
		if rs[0].Error != nil || rs[0].Program != checkedOnly || rs[0].MessageExpression != checkedOnly || rs[0].MaxCost == 0 {
			t.Errorf("cache=%v: NewExpressions: got %+v, want checkedOnly programs with costs", cache != nil, rs[0])
		}
		if _, _, err := rs[0].Program.Eval(map[string]any{}); !errors.Is(err, errCheckedOnly) {
			t.Errorf("cache=%v: evaluating checkedOnly: got %v", cache != nil, err)
		}
		if rs[1].Error == nil || !strings.HasPrefix(rs[1].Error.Detail, "program instantiation failed: ") {
			t.Errorf("cache=%v: an invalid constant regex must fail at program instantiation in NewExpressions, got %+v", cache != nil, rs[1])
		}
		stored, err := cache.Compile(s, dt, limits.PerCallLimit, StoredExpressions)
		if err != nil {
			t.Fatal(err)
		}
		if stored[0].Program == nil || stored[0].Program == checkedOnly || stored[0].MessageExpression == checkedOnly {
			t.Errorf("cache=%v: StoredExpressions must keep real programs, got %+v", cache != nil, stored[0])
		}
		if stored[0].MaxCost != rs[0].MaxCost || stored[0].MessageExpressionMaxCost != rs[0].MessageExpressionMaxCost {
			t.Errorf("cache=%v: costs differ between environments: %+v vs %+v", cache != nil, stored[0], rs[0])
		}
	}
}

package cel

import (
	"context"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/limits"
)

func TestValidateReportsUpstreamErrors(t *testing.T) {
	cases := []struct {
		name     string
		schema   string
		obj, old string
		want     []string
	}{
		{
			name:   "message replaces the default detail",
			schema: `{"type":"object","properties":{"n":{"type":"integer","x-kubernetes-validations":[{"rule":"self < 3","message":" too big "}]}}}`,
			obj:    `{"n":5}`,
			want:   []string{"n: Invalid value: 5: too big"},
		},
		{
			name:   "default detail names the rule",
			schema: `{"type":"object","properties":{"s":{"type":"string","x-kubernetes-validations":[{"rule":"self == 'a'"}]}}}`,
			obj:    `{"s":"b"}`,
			want:   []string{`s: Invalid value: "b": failed rule: self == 'a'`},
		},
		{
			name:   "objects and arrays omit the value",
			schema: `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a == 1"}]}}}`,
			obj:    `{"o":{"a":2}}`,
			want:   []string{"o: Invalid value: failed rule: self.a == 1"},
		},
		{
			name:   "messageExpression wins, failing one falls back to message",
			schema: `{"type":"object","properties":{"s":{"type":"string","x-kubernetes-validations":[{"rule":"self == 'a'","messageExpression":"'got ' + self"},{"rule":"self == 'a'","message":"fallback","messageExpression":"'x'.substring(5)"},{"rule":"self == 'a'","messageExpression":"' '"}]}}}`,
			obj:    `{"s":"b"}`,
			want:   []string{`s: Invalid value: "b": got b`, `s: Invalid value: "b": fallback`, `s: Invalid value: "b": failed rule: self == 'a'`},
		},
		{
			name:   "reason and fieldPath",
			schema: `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a == 1","reason":"FieldValueForbidden","fieldPath":".a","message":"no"},{"rule":"self.a == 1","reason":"FieldValueRequired","fieldPath":"['a']","message":"req"},{"rule":"self.a == 1","reason":"FieldValueDuplicate"}]}}}`,
			obj:    `{"o":{"a":2}}`,
			want:   []string{"o.a: Forbidden: no", "o.a: Required value: req", "o: Duplicate value"},
		},
		{
			name:   "runtime errors name the rule",
			schema: `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"},"x-kubernetes-validations":[{"rule":"self['x'] == 'y'"},{"rule":"int(self['a']) > 0"}]}}}`,
			obj:    `{"m":{"a":"q"}}`,
			want:   []string{`m: Invalid value: "object": no such key: x evaluating rule: self['x'] == 'y'`, `m: Invalid value: "object": type conversion error from 'string' to 'int' evaluating rule: int(self['a']) > 0`},
		},
		{
			name:   "int-or-string bypasses type checking",
			schema: `{"type":"object","properties":{"v":{"x-kubernetes-int-or-string":true,"x-kubernetes-validations":[{"rule":"self > 1"}]}}}`,
			obj:    `{"v":"abc"}`,
			want:   []string{`v: Invalid value: "": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self > 1`},
		},
		{
			name:   "compile errors surface at validation",
			schema: `{"type":"object","properties":{"s":{"type":"string","x-kubernetes-validations":[{"rule":"self == 1"}]}}}`,
			obj:    `{"s":"x"}`,
			want:   []string{"s: Invalid value: \"string\": rule compile error: compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(string, int)'\n | self == 1\n | .....^"},
		},
		{
			name:   "transition rules skip creates",
			schema: `{"type":"object","properties":{"s":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"immutable"}]}}}`,
			obj:    `{"s":"x"}`,
		},
		{
			name:   "transition rules run on updates",
			schema: `{"type":"object","properties":{"s":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"immutable"}]}}}`,
			obj:    `{"s":"x"}`, old: `{"s":"y"}`,
			want: []string{`s: Invalid value: "x": immutable`},
		},
		{
			name:   "optionalOldSelf runs on create with none",
			schema: `{"type":"object","properties":{"s":{"type":"string","x-kubernetes-validations":[{"rule":"oldSelf.hasValue() || self == 'init'","optionalOldSelf":true}]}}}`,
			obj:    `{"s":"x"}`,
			want:   []string{`s: Invalid value: "x": failed rule: oldSelf.hasValue() || self == 'init'`},
		},
		{
			name:   "null values are not validated",
			schema: `{"type":"object","properties":{"s":{"type":"string","nullable":true,"x-kubernetes-validations":[{"rule":"self == 'a'"}]}}}`,
			obj:    `{"s":null}`,
		},
		{
			name:   "escaped property names",
			schema: `{"type":"object","x-kubernetes-validations":[{"rule":"self.spec.__namespace__ == 'a' && self.spec.x__dash__y == 'b'"}],"properties":{"spec":{"type":"object","properties":{"namespace":{"type":"string"},"x-y":{"type":"string"}}}}}`,
			obj:    `{"spec":{"namespace":"a","x-y":"c"}}`,
			want:   []string{"<nil>: Invalid value: failed rule: self.spec.__namespace__ == 'a' && self.spec.x__dash__y == 'b'"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := NewValidator(mustSchema(t, c.schema), true, limits.PerCallLimit)
			errs, rem, _ := v.Validate(nil, mustObject(t, c.obj), mustObject(t, c.old), limits.RuntimeCELCostBudget)
			got := errStrings(errs)
			if strings.Join(got, "\n--\n") != strings.Join(c.want, "\n--\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n--\n"), strings.Join(c.want, "\n--\n"))
			}
			if rem <= 0 || rem > limits.RuntimeCELCostBudget {
				t.Errorf("remaining budget %d out of range", rem)
			}
		})
	}
}

func TestValidateRatchetsUnchangedInvalidValues(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
		"a":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 3"}]},
		"b":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 3"}]},
		"c":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 3 && self == oldSelf"}]}}}`)
	v := NewValidator(s, true, limits.PerCallLimit)
	newObj := mustObject(t, `{"a":"long","b":"long","c":"long"}`)
	oldObj := mustObject(t, `{"a":"long","b":"x","c":"long"}`)
	errs, _, rep := v.Validate(nil, newObj, oldObj, limits.RuntimeCELCostBudget, WithRatcheting(NewCorrelatedObject(newObj, oldObj, s)))
	want := []string{`b: Invalid value: "long": failed rule: self.size() < 3`, `c: Invalid value: "long": failed rule: self.size() < 3 && self == oldSelf`}
	if got := errStrings(errs); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("errors %q, want %q", got, want)
	}
	if len(rep.Warnings) != 1 || rep.Warnings[0] != `a: Invalid value: "long": failed rule: self.size() < 3` {
		t.Errorf("warnings %q", rep.Warnings)
	}
}

func TestValidateCorrelatesMapListItemsByKey(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
		"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"type":"integer"}},
		"x-kubernetes-validations":[{"rule":"self.v >= oldSelf.v","message":"shrank"}]}}}}`)
	v := NewValidator(s, true, limits.PerCallLimit)
	errs, _, _ := v.Validate(nil, mustObject(t, `{"l":[{"k":"b","v":1},{"k":"a","v":9},{"k":"new","v":0}]}`), mustObject(t, `{"l":[{"k":"a","v":5},{"k":"b","v":2}]}`), limits.RuntimeCELCostBudget)
	if got := errStrings(errs); len(got) != 1 || got[0] != "l[0]: Invalid value: shrank" {
		t.Errorf("errors %q", got)
	}
}

func TestValidateStopsWhenBudgetRunsOut(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer"},"x-kubernetes-validations":[{"rule":"self.all(a, self.all(b, a + b >= 0))"},{"rule":"self.size() > 0"}]}}}`)
	v := NewValidator(s, true, limits.PerCallLimit)
	items := make([]interface{}, 40)
	for i := range items {
		items[i] = int64(i)
	}
	obj := map[string]interface{}{"l": items}
	errs, rem, rep := v.Validate(nil, obj, nil, 1000)
	if rem != -1 || len(errs) != 1 || errs[0].Error() != `l: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run` {
		t.Errorf("got %q remaining %d", errStrings(errs), rem)
	}
	if len(rep.Costs) != 1 || rep.Costs[0].Cost <= 1000 {
		t.Errorf("costs %+v", rep.Costs)
	}
	// The per-call limit aborts one rule and stops validation.
	v = NewValidator(s, true, 100)
	errs, rem, _ = v.Validate(nil, obj, nil, limits.RuntimeCELCostBudget)
	if rem != -1 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(a, self.all(b, a + b >= 0))") {
		t.Errorf("got %q remaining %d", errStrings(errs), rem)
	}
	// No budget left before starting.
	errs, _, _ = NewValidator(s, true, limits.PerCallLimit).Validate(field.NewPath("x"), obj, nil, 0)
	if len(errs) != 1 || errs[0].Field != "x.l" {
		t.Errorf("zero budget: %q", errStrings(errs))
	}
}

func TestValidateHonoursCancellation(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer"},"x-kubernetes-validations":[{"rule":"self.all(a, self.all(b, a + b >= 0))"}]}}}`)
	items := make([]interface{}, 200)
	for i := range items {
		items[i] = int64(i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	errs, _, _ := NewValidator(s, true, limits.PerCallLimit).Validate(nil, map[string]interface{}{"l": items}, nil, limits.RuntimeCELCostBudget, WithContext(ctx))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "operation interrupted") {
		t.Errorf("got %q", errStrings(errs))
	}
}

func TestNewValidatorIsNilWithoutRules(t *testing.T) {
	if v := NewValidator(mustSchema(t, `{"type":"object","properties":{"a":{"type":"string"}}}`), true, limits.PerCallLimit); v != nil {
		t.Fatalf("got validator %+v", v)
	}
	var v *Validator
	errs, rem, _ := v.Validate(nil, map[string]interface{}{}, nil, 5)
	if errs != nil || rem != 5 {
		t.Errorf("nil validator: %v %d", errs, rem)
	}
}

func TestValidFieldPath(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"a":{"type":"object","properties":{"b.c":{"type":"string"}}},"m":{"type":"object","additionalProperties":{"type":"object","properties":{"x":{"type":"string"}}}}}}`)
	cases := []struct{ in, want, err string }{
		{".a", "a", ""},
		{".a['b.c']", "a.b.c", ""},
		{".m['k'].x", "m[k].x", ""},
		{".m.k", "m[k]", ""},
		{".nope", "", "does not refer to a valid field"},
		{"a", "", "expected [ or . but got: a"},
		{".a[b]", "", "expected single quoted string but got b"},
		{".a['b.c'", "", "unexpected end of JSON path"},
		{".a['x\\q']", "", "invalid string literal: invalid escape char \\q"},
		{".a['b.c'].z", "", "does not refer to a valid field"},
	}
	for _, c := range cases {
		p, _, err := ValidFieldPath(c.in, s)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: err %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || p.String() != c.want {
			t.Errorf("%q: got %v, %v; want %q", c.in, p, err, c.want)
		}
	}
	if _, _, err := ValidFieldPath(".a['b.c']", s, WithFieldPathAllowArrayNotation(false)); err == nil || err.Error() != "array notation is not allowed" {
		t.Errorf("array notation: %v", err)
	}
}

func TestValidatorIsSafeForConcurrentUse(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
		"n":{"type":"integer"}},
		"x-kubernetes-validations":[{"rule":"self.set + ['z'] != ['q']"},{"rule":"self.n >= oldSelf.n","message":"dec"}]}}}`)
	v := NewValidator(s, true, limits.PerCallLimit)
	done := make(chan string)
	for g := 0; g < 8; g++ {
		go func(g int) {
			obj := mustObject(t, `{"spec":{"set":["a","b"],"n":1}}`)
			old := mustObject(t, `{"spec":{"set":["a"],"n":2}}`)
			errs, _, _ := v.Validate(nil, obj, old, limits.RuntimeCELCostBudget, WithRatcheting(NewCorrelatedObject(obj, old, s)))
			done <- strings.Join(errStrings(errs), "|")
		}(g)
	}
	for g := 0; g < 8; g++ {
		if got := <-done; got != "spec: Invalid value: dec" {
			t.Errorf("goroutine result %q", got)
		}
	}
}

func BenchmarkValidateMapList(b *testing.B) {
	s := mustSchema(b, `{"type":"object","properties":{"l":{"type":"array","maxItems":100,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
		"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string","maxLength":16},"v":{"type":"integer"}},
		"x-kubernetes-validations":[{"rule":"self.v >= 0"},{"rule":"self.v >= oldSelf.v"}]},
		"x-kubernetes-validations":[{"rule":"self.all(x, x.k.size() > 0)"}]}}}`)
	v := NewValidator(s, true, limits.PerCallLimit)
	items := make([]interface{}, 100)
	for i := range items {
		items[i] = map[string]interface{}{"k": "key" + itoaInt(i), "v": int64(i)}
	}
	obj := map[string]interface{}{"l": items}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Validate(nil, obj, obj, limits.RuntimeCELCostBudget, WithRatcheting(NewCorrelatedObject(obj, obj, s)))
	}
}

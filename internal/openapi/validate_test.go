package openapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
)

// decodeObj decodes JSON the way the API server decodes custom resources:
// integers as int64, other numbers as float64.
func decodeObj(t testing.TB, s string) interface{} {
	t.Helper()
	if s == "" {
		return nil
	}
	v, err := (&crd.JSON{Raw: []byte(s)}).Value() // numbers as the API server decodes them: int64 or float64
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

func mustValidator(t testing.TB, s string) *Validator {
	t.Helper()
	var p crd.JSONSchemaProps
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.DisallowUnknownFields()
	if err := d.Decode(&p); err != nil {
		t.Fatalf("schema %s: %v", s, err)
	}
	v, err := NewSchemaValidator(&p, nil)
	if err != nil {
		t.Fatalf("NewSchemaValidator: %v", err)
	}
	return v
}

func render(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func checkErrs(t *testing.T, got field.ErrorList, want []string) {
	t.Helper()
	g := render(got)
	if strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors differ\ngot:\n  %s\nwant:\n  %s", strings.Join(g, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestValidateKeywordMessages(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		obj    string
		want   []string
	}{
		{"type mismatch reports the JSON type of the value",
			`{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}`,
			`{"spec":{"replicas":"3"}}`,
			[]string{`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`}},
		{"null without nullable is a type error",
			`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"a":null}`,
			[]string{`a: Invalid value: "null": a in body must be of type string: "null"`}},
		{"null with nullable passes", `{"type":"object","properties":{"a":{"type":"string","nullable":true}}}`, `{"a":null}`, nil},
		{"integral float passes as integer", `{"type":"integer"}`, `2.0`, nil},
		{"integer passes as number", `{"type":"number"}`, `2`, nil},
		{"int-or-string accepts both", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true},"b":{"x-kubernetes-int-or-string":true}}}`, `{"a":1,"b":"x"}`, nil},
		{"int-or-string rejects booleans",
			`{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true}}}`, `{"a":true}`,
			[]string{`a: Invalid value: "boolean": a in body must be of type integer,string: "boolean"`}},
		{"maxLength counts runes and reports Too long",
			`{"type":"object","properties":{"s":{"type":"string","maxLength":2}}}`, `{"s":"äöü"}`,
			[]string{`s: Too long: may not be more than 2 bytes`}},
		{"minLength",
			`{"type":"object","properties":{"s":{"type":"string","minLength":2}}}`, `{"s":"a"}`,
			[]string{`s: Invalid value: "a": s in body should be at least 2 chars long`}},
		{"pattern",
			`{"type":"object","properties":{"s":{"type":"string","pattern":"^a+$"}}}`, `{"s":"b"}`,
			[]string{`s: Invalid value: "b": s in body should match '^a+$'`}},
		{"invalid pattern reports the compile error",
			`{"type":"object","properties":{"s":{"type":"string","pattern":"("}}}`, `{"s":"b"}`,
			[]string{"s: Invalid value: \"b\": s in body should match '(, but pattern is invalid: error parsing regexp: missing closing ): `(`'"}},
		{"only the first string failure is reported",
			`{"type":"object","properties":{"s":{"type":"string","maxLength":1,"pattern":"^x$"}}}`, `{"s":"abc"}`,
			[]string{`s: Too long: may not be more than 1 byte`}},
		{"format",
			`{"type":"object","properties":{"d":{"type":"string","format":"date-time"}}}`, `{"d":"yesterday"}`,
			[]string{`d: Invalid value: "yesterday": d in body must be of type date-time: "yesterday"`}},
		{"unsupported format is stripped", `{"type":"string","format":"bogus"}`, `"x"`, nil},
		{"k8s-short-name",
			`{"type":"object","properties":{"n":{"type":"string","format":"k8s-short-name"}}}`, `{"n":"Upper"}`,
			[]string{`n: Invalid value: "Upper": n in body must be of type k8s-short-name: "Upper"`}},
		{"maximum",
			`{"type":"object","properties":{"n":{"type":"integer","maximum":5}}}`, `{"n":6}`,
			[]string{`n: Invalid value: 6: n in body should be less than or equal to 5`}},
		{"exclusive maximum",
			`{"type":"object","properties":{"n":{"type":"number","maximum":5,"exclusiveMaximum":true}}}`, `{"n":5}`,
			[]string{`n: Invalid value: 5: n in body should be less than 5`}},
		{"minimum then maximum after multipleOf",
			`{"type":"object","properties":{"n":{"type":"number","minimum":10,"maximum":1,"multipleOf":2}}}`, `{"n":3.5}`,
			[]string{
				`n: Invalid value: 3.5: n in body should be a multiple of 2`,
				`n: Invalid value: 3.5: n in body should be greater than or equal to 10`,
				`n: Invalid value: 3.5: n in body should be less than or equal to 1`,
			}},
		{"int32 range is checked as a plain error at the root",
			`{"type":"object","properties":{"n":{"type":"integer","format":"int32"}}}`, `{"n":3000000000}`,
			[]string{`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in n`}},
		{"fractional boundary on an integer falls back to float comparison",
			`{"type":"object","properties":{"n":{"type":"integer","maximum":2.5}}}`, `{"n":3}`,
			[]string{
				`<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in n`,
				`n: Invalid value: 3: n in body should be less than or equal to 2.5`,
			}},
		{"enum lists supported values",
			`{"type":"object","properties":{"e":{"type":"string","enum":["a","b"]}}}`, `{"e":"c"}`,
			[]string{`e: Unsupported value: "c": supported values: "a", "b"`}},
		{"enum of integers matches truncated floats as upstream", `{"enum":[1,2]}`, `1.5`, nil},
		{"enum rejects null", `{"type":"string","nullable":true,"enum":["a"]}`, `null`,
			[]string{`<nil>: Unsupported value: null: supported values: "a"`}},
		{"required",
			`{"type":"object","required":["b","a"],"properties":{"s":{"type":"object","required":["x"]}}}`, `{"s":{}}`,
			[]string{`s.x: Required value`, `b: Required value`, `a: Required value`}},
		{"min and max properties",
			`{"type":"object","properties":{"m":{"type":"object","maxProperties":1,"additionalProperties":{"type":"string"}},"n":{"type":"object","minProperties":2,"additionalProperties":{"type":"string"}}}}`,
			`{"m":{"a":"x","b":"y"},"n":{}}`,
			[]string{
				`m: Too many: 2: must have at most 1 item`,
				`n: Invalid value: 0: n in body should have at least 2 properties`,
			}},
		{"additionalProperties schema paths have a leading dot at the root",
			`{"type":"object","additionalProperties":{"type":"integer"}}`, `{"x":"y"}`,
			[]string{`x: Invalid value: "string": .x in body must be of type integer: "string"`}},
		{"additionalProperties false",
			`{"type":"object","properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"z":2}`,
			[]string{`<nil>: Invalid value: "z": .z in body is a forbidden property`}},
		{"minItems maxItems",
			`{"type":"object","properties":{"l":{"type":"array","minItems":2},"m":{"type":"array","maxItems":1}}}`, `{"l":[1],"m":[1,2,3]}`,
			[]string{
				`l: Invalid value: 1: l in body should have at least 2 items`,
				`m: Too many: 3: must have at most 1 item`,
			}},
		{"uniqueItems",
			`{"type":"array","uniqueItems":true}`, `[1,2,1]`,
			[]string{`<nil>: Invalid value: "":  in body shouldn't contain duplicates`}},
		{"items paths use brackets",
			`{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}}}`, `{"l":["a",1]}`,
			[]string{`l[1]: Invalid value: "integer": l[1] in body must be of type string: "integer"`}},
		{"anyOf reports the best failing branch",
			`{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer","minimum":5}]}}}`, `{"v":3}`,
			[]string{
				`<nil>: Invalid value: "": "v" must validate at least one schema (anyOf)`,
				`v: Invalid value: 3: v in body should be greater than or equal to 5`,
			}},
		{"oneOf with two matches",
			`{"type":"object","properties":{"v":{"oneOf":[{"minimum":1},{"maximum":5}]}}}`, `{"v":3}`,
			[]string{`<nil>: Invalid value: "": "v" must validate one and only one schema (oneOf). Found 2 valid alternatives`}},
		{"allOf merges every failure",
			`{"type":"object","properties":{"v":{"allOf":[{"minimum":5},{"maximum":1}]}}}`, `{"v":3}`,
			[]string{
				`v: Invalid value: 3: v in body should be greater than or equal to 5`,
				`v: Invalid value: 3: v in body should be less than or equal to 1`,
				`<nil>: Invalid value: "": "v" must validate all the schemas (allOf). None validated`,
			}},
		{"not",
			`{"type":"object","properties":{"v":{"not":{"type":"integer"}}}}`, `{"v":3}`,
			[]string{`<nil>: Invalid value: "": "v" must not validate the schema (not)`}},
		{"keyword order: type, composition, string, format, enum, object",
			`{"type":"integer","allOf":[{"minLength":5}],"pattern":"^x","format":"date","enum":["a"]}`, `"y"`,
			[]string{
				`<nil>: Invalid value: "string":  in body must be of type integer: "string"`,
				`<nil>: Invalid value: "y":  in body should be at least 5 chars long`,
				`<nil>: Invalid value: "": "" must validate all the schemas (allOf). None validated`,
				`<nil>: Invalid value: "y":  in body should match '^x'`,
				`<nil>: Unsupported value: "y": supported values: "a"`,
			}},
		{"identical messages are reported once",
			`{"type":"object","properties":{"v":{"type":"string","allOf":[{"type":"string"},{"type":"string"}]}}}`, `{"v":1}`,
			[]string{
				`v: Invalid value: "integer": v in body must be of type string: "integer"`,
				`<nil>: Invalid value: "": "v" must validate all the schemas (allOf). None validated`,
			}},
		{"properties are visited in sorted order",
			`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"},"c":{"type":"string"}}}`, `{"c":1,"a":1,"b":1}`,
			[]string{
				`a: Invalid value: "integer": a in body must be of type string: "integer"`,
				`b: Invalid value: "integer": b in body must be of type string: "integer"`,
				`c: Invalid value: "integer": c in body must be of type string: "integer"`,
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := mustValidator(t, tc.schema)
			checkErrs(t, v.Validate(nil, decodeObj(t, tc.obj)), tc.want)
		})
	}
}

func TestValidateUnderFieldPath(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{"replicas":{"type":"integer"}},"required":["phase"],"anyOf":[{"required":["x"]}]}`)
	checkErrs(t, v.Validate(field.NewPath("status"), decodeObj(t, `{"replicas":"x"}`)), []string{
		`status: Invalid value: "": "" must validate at least one schema (anyOf)`,
		`status.x: Required value`,
		`status.replicas: Invalid value: "string": replicas in body must be of type integer: "string"`,
		`status.phase: Required value`,
	})
}

func TestValidateUpdateRatcheting(t *testing.T) {
	const schemaJSON = `{"type":"object","properties":{
		"apiVersion":{"type":"string","maxLength":3},
		"spec":{"type":"object","properties":{
			"a":{"type":"string","maxLength":1},
			"b":{"type":"string","maxLength":1},
			"list":{"type":"array","items":{"type":"string","maxLength":1}},
			"ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
				"items":{"type":"object","properties":{"name":{"type":"string"},"v":{"type":"string","maxLength":1}}}},
			"m":{"type":"object","additionalProperties":{"type":"string","maxLength":1}},
			"x":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"s":{"type":"string","maxLength":1}}},
			"all":{"type":"object","allOf":[{"properties":{"s":{"maxLength":1}}}],"properties":{"s":{"type":"string"},"t":{"type":"string"}}}
		}}}}`
	cases := []struct {
		name     string
		old, obj string
		want     []string
	}{
		{"unchanged invalid property passes",
			`{"spec":{"a":"xx","b":"y"}}`, `{"spec":{"a":"xx","b":"z"}}`, nil},
		{"changed invalid property fails",
			`{"spec":{"a":"xx"}}`, `{"spec":{"a":"xxx"}}`,
			[]string{`spec.a: Too long: may not be more than 1 byte`}},
		{"new invalid property fails",
			`{"spec":{}}`, `{"spec":{"a":"xx"}}`,
			[]string{`spec.a: Too long: may not be more than 1 byte`}},
		{"atomic list elements do not correlate",
			`{"spec":{"list":["xx","y"]}}`, `{"spec":{"list":["xx","z"]}}`,
			[]string{`spec.list[0]: Too long: may not be more than 1 byte`}},
		{"unchanged atomic list passes",
			`{"spec":{"list":["xx"]}}`, `{"spec":{"list":["xx"]}}`, nil},
		{"map list elements correlate by key",
			`{"spec":{"ports":[{"name":"p","v":"xx"},{"name":"q","v":"y"}]}}`,
			`{"spec":{"ports":[{"name":"q","v":"z"},{"name":"p","v":"xx"}]}}`, nil},
		{"map list element with a new key is validated",
			`{"spec":{"ports":[{"name":"p","v":"xx"}]}}`, `{"spec":{"ports":[{"name":"r","v":"xx"}]}}`,
			[]string{`spec.ports[0].v: Too long: may not be more than 1 byte`}},
		{"additionalProperties values correlate by key",
			`{"spec":{"m":{"k":"xx"}}}`, `{"spec":{"m":{"k":"xx","l":"y"}}}`, nil},
		{"unknown fields prevent ratcheting of their parent's own errors",
			`{"spec":{"x":{"s":"xx","u":1}}}`, `{"spec":{"x":{"s":"xx","u":1}}}`, nil},
		{"allOf subschemas are not ratcheted below the node",
			`{"spec":{"all":{"s":"xx","t":"a"}}}`, `{"spec":{"all":{"s":"xx","t":"b"}}}`,
			[]string{
				`spec.all.s: Too long: may not be more than 1 byte`,
				`<nil>: Invalid value: "": "spec.all" must validate all the schemas (allOf). None validated`,
			}},
		{"apiVersion at the root is never ratcheted",
			`{"apiVersion":"long/v1","spec":{}}`, `{"apiVersion":"long/v1","spec":{"b":"y"}}`,
			[]string{`apiVersion: Too long: may not be more than 3 bytes`}},
	}
	v := mustValidator(t, schemaJSON)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkErrs(t, v.ValidateUpdate(nil, decodeObj(t, tc.obj), decodeObj(t, tc.old)), tc.want)
		})
	}
}

func TestGetUnrecognizedFormats(t *testing.T) {
	var p crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(`{"type":"object","format":"x","properties":{
		"a":{"type":"string","format":"date-time"},
		"b":{"type":"string","format":"nope"},
		"c":{"type":"integer","format":"uint64"},
		"d":{"type":"number","format":"double"},
		"e":{"type":"array","items":{"type":"string","format":"k8s-long-name"}}
	}}`), &p); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(GetUnrecognizedFormats(&p), ",")
	if want := "x,nope,uint64"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestNewSchemaValidatorRejectsRefs(t *testing.T) {
	var p crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"$ref":"#/definitions/x"}}}`), &p); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSchemaValidator(&p, nil); err == nil || !strings.Contains(err.Error(), "schema references not supported") {
		t.Errorf("want a reference error, got %v", err)
	}
}

func TestNilSchemaValidatesEverything(t *testing.T) {
	v, err := NewSchemaValidator(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if errs := v.Validate(nil, decodeObj(t, `{"a":[1,"x",null]}`)); len(errs) != 0 {
		t.Errorf("unexpected errors: %v", render(errs))
	}
}

func TestValidatorIsSafeForConcurrentUse(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
		"items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"string","maxLength":1,"pattern":"^[a-z]$"}}}}}}`)
	old := `{"l":[{"k":"a","v":"xx"},{"k":"b","v":"yy"}]}`
	obj := `{"l":[{"k":"b","v":"yy"},{"k":"a","v":"xx"},{"k":"c","v":"ZZ"}]}`
	want := []string{`l[2].v: Too long: may not be more than 1 byte`}
	done := make(chan struct{})
	for i := 0; i < 8; i++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for j := 0; j < 200; j++ {
				got := render(v.ValidateUpdate(nil, decodeObj(t, obj), decodeObj(t, old)))
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("got %v", got)
					return
				}
			}
		}()
	}
	for i := 0; i < 8; i++ {
		<-done
	}
}

func TestEnumValueShortcutMatchesValue(t *testing.T) {
	for _, raw := range []string{`"a"`, `""`, `"a\"b"`, `"\u00e9"`, "\"\xff\"", "\"a\tb\"", `1`, `"é"`, `null`, `["a"]`, `"a\\b"`} {
		j := &crd.JSON{Raw: []byte(raw)}
		want, werr := j.Value()
		got, gerr := enumValue(j)
		if !reflect.DeepEqual(got, want) || (werr == nil) != (gerr == nil) {
			t.Errorf("%s: enumValue = %#v, %v; Value = %#v, %v", raw, got, gerr, want, werr)
		}
	}
}

package defaulting

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

// fakeChecks records what the walk asks of objectmeta, openapi and CEL and
// answers from its tables.
type fakeChecks struct {
	calls       []string
	coerceErr   map[string]*field.Error    // by JSON of the coerced object
	metaErrs    map[string]field.ErrorList // by JSON of the validated object
	openapiErrs map[string]field.ErrorList // by path
	celErrs     map[string]field.ErrorList // by path + "|" + "old" or "nil"
	celCost     int64                      // cost of each CEL call
}

func (f *fakeChecks) validator(requirePruned bool) *defaultValidator {
	return &defaultValidator{
		requirePruned: requirePruned,
		coerce: func(pth *field.Path, obj interface{}, s *schema.Structural, isResourceRoot, drop bool) *field.Error {
			f.calls = append(f.calls, fmt.Sprintf("coerce %s %s root=%v", pathString(pth), compact(obj), isResourceRoot))
			return f.coerceErr[compact(obj)]
		},
		validateMeta: func(pth *field.Path, obj interface{}, s *schema.Structural, isResourceRoot bool) field.ErrorList {
			f.calls = append(f.calls, fmt.Sprintf("meta %s %s root=%v", pathString(pth), compact(obj), isResourceRoot))
			return f.metaErrs[compact(obj)]
		},
		validateOpenAPI: func(pth *field.Path, s *schema.Structural, obj interface{}) field.ErrorList {
			f.calls = append(f.calls, fmt.Sprintf("openapi %s %s", pth, compact(obj)))
			return f.openapiErrs[pth.String()]
		},
		cel: func(pth *field.Path, s *schema.Structural, isResourceRoot bool, obj, old interface{}, budget int64) (field.ErrorList, int64) {
			o := "old"
			if old == nil {
				o = "nil"
			}
			f.calls = append(f.calls, fmt.Sprintf("cel %s %s %s root=%v budget=%d", pth, compact(obj), o, isResourceRoot, budget))
			return f.celErrs[pth.String()+"|"+o], budget - f.celCost
		},
	}
}

func pathString(p *field.Path) string {
	if p == nil {
		return "nil"
	}
	return p.String()
}

func compact(v interface{}) string {
	return strings.Join(strings.Fields(encodeNoTest(v)), "")
}

func renderErrs(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestValidateDefaultsWalk(t *testing.T) {
	root := field.NewPath("spec", "validation", "openAPIV3Schema")
	tests := []struct {
		name         string
		schema       string
		root         bool
		requirePrune bool
		fake         fakeChecks
		budget       int64
		wantCalls    []string
		wantErrs     []string
	}{
		{
			name:         "unpruned object default is reported and still validated",
			schema:       `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{}},"default":{"a":1,"b":2}}}}`,
			requirePrune: true,
			wantCalls: []string{
				`coerce spec.validation.openAPIV3Schema.properties[spec].default {"a":1,"b":2} root=false`,
				`meta spec.validation.openAPIV3Schema.properties[spec].default {"a":1,"b":2} root=false`,
				`openapi spec.validation.openAPIV3Schema.properties[spec].default {"a":1,"b":2}`,
				`cel spec.validation.openAPIV3Schema.properties[spec].default {"a":1,"b":2} old root=false budget=10000000`,
				`cel spec.validation.openAPIV3Schema.properties[spec].default {"a":1,"b":2} nil root=false budget=10000000`,
			},
			wantErrs: []string{`spec.validation.openAPIV3Schema.properties[spec].default: Invalid value: {"a":1,"b":2}: must not have unknown fields`},
		},
		{
			name:   "unpruned default is accepted when pruned defaults are not required",
			schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{}},"default":{"a":1,"b":2}}}}`,
			fake:   fakeChecks{celCost: 1},
			wantCalls: []string{
				`coerce spec.validation.openAPIV3Schema.properties[spec].default {"a":1,"b":2} root=false`,
				`meta spec.validation.openAPIV3Schema.properties[spec].default {"a":1,"b":2} root=false`,
				`openapi spec.validation.openAPIV3Schema.properties[spec].default {"a":1,"b":2}`,
				`cel spec.validation.openAPIV3Schema.properties[spec].default {"a":1,"b":2} old root=false budget=10000000`,
				`cel spec.validation.openAPIV3Schema.properties[spec].default {"a":1,"b":2} nil root=false budget=10000000`,
			},
		},
		{
			name:         "apiVersion kind metadata of an embedded resource default are not unknown fields",
			schema:       `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{}},"default":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{}}}}}`,
			requirePrune: true,
			fake:         fakeChecks{openapiErrs: map[string]field.ErrorList{"spec.validation.openAPIV3Schema.properties[e].default": {field.Required(field.NewPath("x"), "")}}},
			wantCalls: []string{
				`coerce spec.validation.openAPIV3Schema.properties[e].default {"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{}} root=true`,
				`meta spec.validation.openAPIV3Schema.properties[e].default {"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{}} root=true`,
				`openapi spec.validation.openAPIV3Schema.properties[e].default {"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{}}`,
			},
			wantErrs: []string{`x: Required value`},
		},
		{
			name:         "apiVersion at a non-embedded object default is an unknown field",
			schema:       `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{}},"default":{"apiVersion":"v1"}}}}`,
			requirePrune: true,
			fake:         fakeChecks{coerceErr: map[string]*field.Error{`{"apiVersion":"v1"}`: field.Invalid(field.NewPath("c"), 1, "coerce failed")}},
			wantCalls: []string{
				`coerce spec.validation.openAPIV3Schema.properties[o].default {"apiVersion":"v1"} root=false`,
			},
			wantErrs: []string{
				`spec.validation.openAPIV3Schema.properties[o].default: Invalid value: {"apiVersion":"v1"}: must not have unknown fields`,
				`c: Invalid value: 1: coerce failed`,
			},
		},
		{
			name:   "metadata defaults of an embedded resource are validated inside a surrounding object",
			schema: `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","default":"Bad_Name"}}}}}}}`,
			fake: fakeChecks{metaErrs: map[string]field.ErrorList{
				`{"apiVersion":"validation/v1","kind":"Validation","metadata":{"name":"Bad_Name"}}`: {field.Invalid(field.NewPath("metadata", "name"), "Bad_Name", "bad name")},
			}},
			requirePrune: true,
			wantCalls: []string{
				`coerce nil {"apiVersion":"validation/v1","kind":"Validation","metadata":{"name":"Bad_Name"}} root=true`,
				`meta nil {"apiVersion":"validation/v1","kind":"Validation","metadata":{"name":"Bad_Name"}} root=true`,
			},
			wantErrs: []string{`spec.validation.openAPIV3Schema.properties[e].properties[metadata].properties[name].default: Invalid value: "Bad_Name": must result in valid metadata: metadata.name: Invalid value: "Bad_Name": bad name`},
		},
		{
			name:   "coerce failure inside metadata is wrapped",
			schema: `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"kind":{"type":"string","default":"K"}}}}}`,
			fake: fakeChecks{coerceErr: map[string]*field.Error{
				`{"apiVersion":"validation/v1","kind":"K"}`: field.Invalid(field.NewPath("kind"), "K", "nope"),
			}},
			wantCalls: []string{`coerce nil {"apiVersion":"validation/v1","kind":"K"} root=true`},
			wantErrs:  []string{`spec.validation.openAPIV3Schema.properties[e].properties[kind].default: Invalid value: "K": must result in valid metadata: kind: Invalid value: "K": nope`},
		},
		{
			name:   "list defaults in root metadata are placed as the only item of the list",
			schema: `{"type":"object","properties":{"metadata":{"type":"object","properties":{"finalizers":{"type":"array","items":{"type":"string","default":"f"}}}}}}`,
			root:   true,
			fake:   fakeChecks{celCost: 10},
			wantCalls: []string{
				`coerce nil {"apiVersion":"validation/v1","kind":"Validation","metadata":{"finalizers":["f"]}} root=true`,
				`meta nil {"apiVersion":"validation/v1","kind":"Validation","metadata":{"finalizers":["f"]}} root=true`,
				`openapi spec.validation.openAPIV3Schema.properties[metadata].properties[finalizers].items.default "f"`,
				`cel spec.validation.openAPIV3Schema.properties[metadata].properties[finalizers].items.default "f" old root=false budget=10000000`,
				`cel spec.validation.openAPIV3Schema.properties[metadata].properties[finalizers].items.default "f" nil root=false budget=10000000`,
			},
		},
		{
			name:   "self before items before properties in sorted order; additionalProperties not followed",
			schema: `{"type":"object","properties":{"z":{"type":"string","default":"z"},"a":{"type":"array","default":[],"items":{"type":"string","default":"i"}},"m":{"type":"object","additionalProperties":{"type":"string","default":"never"}}}}`,
			fake:   fakeChecks{celCost: 100},
			budget: 1000,
			wantCalls: []string{
				`coerce spec.validation.openAPIV3Schema.properties[a].default [] root=false`,
				`meta spec.validation.openAPIV3Schema.properties[a].default [] root=false`,
				`openapi spec.validation.openAPIV3Schema.properties[a].default []`,
				`cel spec.validation.openAPIV3Schema.properties[a].default [] old root=false budget=1000`,
				`cel spec.validation.openAPIV3Schema.properties[a].default [] nil root=false budget=1000`,
				`coerce spec.validation.openAPIV3Schema.properties[a].items.default "i" root=false`,
				`meta spec.validation.openAPIV3Schema.properties[a].items.default "i" root=false`,
				`openapi spec.validation.openAPIV3Schema.properties[a].items.default "i"`,
				`cel spec.validation.openAPIV3Schema.properties[a].items.default "i" old root=false budget=900`,
				`cel spec.validation.openAPIV3Schema.properties[a].items.default "i" nil root=false budget=900`,
				`coerce spec.validation.openAPIV3Schema.properties[z].default "z" root=false`,
				`meta spec.validation.openAPIV3Schema.properties[z].default "z" root=false`,
				`openapi spec.validation.openAPIV3Schema.properties[z].default "z"`,
				`cel spec.validation.openAPIV3Schema.properties[z].default "z" old root=false budget=800`,
				`cel spec.validation.openAPIV3Schema.properties[z].default "z" nil root=false budget=800`,
			},
		},
		{
			name:   "CEL errors on the first run skip the run without oldSelf",
			schema: `{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"string","default":"y"}}}`,
			fake: fakeChecks{celErrs: map[string]field.ErrorList{
				"spec.validation.openAPIV3Schema.properties[a].default|old": {field.Invalid(field.NewPath("spec", "validation", "openAPIV3Schema", "properties[a]", "default"), "x", "failed rule")},
				"spec.validation.openAPIV3Schema.properties[b].default|nil": {field.Invalid(field.NewPath("b"), "y", "needs oldSelf")},
			}},
			wantCalls: []string{
				`coerce spec.validation.openAPIV3Schema.properties[a].default "x" root=false`,
				`meta spec.validation.openAPIV3Schema.properties[a].default "x" root=false`,
				`openapi spec.validation.openAPIV3Schema.properties[a].default "x"`,
				`cel spec.validation.openAPIV3Schema.properties[a].default "x" old root=false budget=10000000`,
				`coerce spec.validation.openAPIV3Schema.properties[b].default "y" root=false`,
				`meta spec.validation.openAPIV3Schema.properties[b].default "y" root=false`,
				`openapi spec.validation.openAPIV3Schema.properties[b].default "y"`,
				`cel spec.validation.openAPIV3Schema.properties[b].default "y" old root=false budget=10000000`,
				`cel spec.validation.openAPIV3Schema.properties[b].default "y" nil root=false budget=10000000`,
			},
			wantErrs: []string{
				`spec.validation.openAPIV3Schema.properties[a].default: Invalid value: "x": failed rule`,
				`b: Invalid value: "y": needs oldSelf`,
			},
		},
		{
			name:   "an exhausted CEL budget stops the walk",
			schema: `{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"string","default":"y"}}}`,
			fake:   fakeChecks{celCost: 6},
			budget: 5,
			wantCalls: []string{
				`coerce spec.validation.openAPIV3Schema.properties[a].default "x" root=false`,
				`meta spec.validation.openAPIV3Schema.properties[a].default "x" root=false`,
				`openapi spec.validation.openAPIV3Schema.properties[a].default "x"`,
				`cel spec.validation.openAPIV3Schema.properties[a].default "x" old root=false budget=5`,
				`cel spec.validation.openAPIV3Schema.properties[a].default "x" nil root=false budget=5`,
			},
		},
		{
			name:   "the resource root default is checked as a resource",
			schema: `{"type":"object","properties":{"spec":{}},"default":{"spec":1}}`,
			root:   true,
			wantCalls: []string{
				`coerce spec.validation.openAPIV3Schema.default {"spec":1} root=true`,
				`meta spec.validation.openAPIV3Schema.default {"spec":1} root=true`,
				`openapi spec.validation.openAPIV3Schema.default {"spec":1}`,
				`cel spec.validation.openAPIV3Schema.default {"spec":1} old root=true budget=10000000`,
				`cel spec.validation.openAPIV3Schema.default {"spec":1} nil root=true budget=10000000`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sch(t, tt.schema)
			if tt.root {
				clone := *s
				clone.XEmbeddedResource = true
				s = &clone
			}
			budget := tt.budget
			if budget == 0 {
				budget = limits.RuntimeCELCostBudget
			}
			fake := tt.fake
			v := fake.validator(tt.requirePrune)
			f := NewRootObjectFunc().WithTypeMeta(validationAPIVersion, validationKind)
			errs, err, _ := v.validate(root, s, s, f, false, budget)
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !reflect.DeepEqual(fake.calls, tt.wantCalls) {
				t.Errorf("calls:\n\t%s\nwant:\n\t%s", strings.Join(fake.calls, "\n\t"), strings.Join(tt.wantCalls, "\n\t"))
			}
			if got := renderErrs(errs); !reflect.DeepEqual(got, tt.wantErrs) {
				t.Errorf("errors:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.wantErrs, "\n\t"))
			}
		})
	}
}

func TestValidateDefaultsDoesNotChangeTheSchema(t *testing.T) {
	s := sch(t, `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"default":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","unknown":1}}}}}`)
	before := compact(s.Properties["e"].Default.Object)
	v := (&fakeChecks{}).validator(true)
	v.coerce = func(pth *field.Path, obj interface{}, s *schema.Structural, isResourceRoot, drop bool) *field.Error {
		// what objectmeta.Coerce does to unknown metadata fields
		delete(obj.(map[string]interface{})["metadata"].(map[string]interface{}), "unknown")
		return nil
	}
	var validated string
	v.validateOpenAPI = func(pth *field.Path, s *schema.Structural, obj interface{}) field.ErrorList {
		validated = compact(obj)
		return nil
	}
	if _, err, _ := v.validate(field.NewPath("x"), s, s, NewRootObjectFunc(), false, limits.RuntimeCELCostBudget); err != nil {
		t.Fatal(err)
	}
	if after := compact(s.Properties["e"].Default.Object); after != before {
		t.Errorf("schema default changed from %s to %s", before, after)
	}
	if want := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"}}`; validated != want {
		t.Errorf("OpenAPI validation saw %s, want the coerced %s", validated, want)
	}
}

func TestValidateDefaultsResourceRootWithNilSchema(t *testing.T) {
	errs, err := ValidateDefaultsWithOptions(field.NewPath("x"), nil, true, true, ValidateOptions{})
	if err != nil || len(errs) != 0 {
		t.Fatalf("got %v, %v", errs, err)
	}
}

package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
)

// badCRD has one version (its schema is hoisted to spec.validation in the
// internal view the errors name) and two schema errors.
const badCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              image: {type: strin}
              "a.b":
                type: array
`

func TestCRDErrorPositions(t *testing.T) {
	c, err := Compile([]byte(badCRD))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Position{
		// hoisted: spec.validation... is spec.versions[0].schema... in v1
		"spec.validation.openAPIV3Schema.properties[spec].properties[image].type": {20, 23},
		// missing items: the key "a.b"
		"spec.validation.openAPIV3Schema.properties[spec].properties[a.b].items": {21, 15},
	}
	p := c.Positions()
	if len(p.Errors) != len(c.Errors()) || len(c.Errors()) == 0 {
		t.Fatalf("%d positions for %d errors", len(p.Errors), len(c.Errors()))
	}
	found := 0
	for i, e := range c.Errors() {
		if !p.Errors[i].Known() {
			t.Errorf("%s: no position", e.Field)
		}
		if w, ok := want[e.Field]; ok {
			found++
			if p.Errors[i] != w {
				t.Errorf("%s: position %v, want %v", e.Field, p.Errors[i], w)
			}
		}
	}
	if found != len(want) {
		t.Errorf("errors %v, want fields %v", c.Errors(), want)
	}
	// the report carries them
	rep := NewReport(c, nil)
	if rep.CRD.Errors[0].Position == nil || rep.CRD.Errors[0].Position.Line != p.Errors[0].Line {
		t.Errorf("report position %v, want %v", rep.CRD.Errors[0].Position, p.Errors[0])
	}
	// a CRD compiled from a decoded value has no source
	def, err := crd.DecodeOne([]byte(badCRD), "")
	if err != nil {
		t.Fatal(err)
	}
	if p := CompileCRD(def).Positions(); p.Errors[0].Known() {
		t.Errorf("CompileCRD: position %v without a source", p.Errors[0])
	}
	if p := CompileCRDWithSource(def, []byte(badCRD)).Positions(); p.Errors[0] != c.Positions().Errors[0] {
		t.Errorf("CompileCRDWithSource: position %v, want %v", p.Errors[0], c.Positions().Errors[0])
	}
}

func TestV1Path(t *testing.T) {
	c := compileT(t, twoSchemas)
	for in, want := range map[string]string{
		"spec.validation.openAPIV3Schema.type": "spec.versions[0].schema.openAPIV3Schema.type",
		"spec.validation":                      "spec.versions[0].schema",
		"spec.version":                         "spec.versions[0].name",
		"spec.versions[1].name":                "spec.versions[1].name",
		"spec.subresources.status":             "spec.versions[0].subresources.status",
		"spec.validationX":                     "spec.validationX",
		"metadata.name":                        "metadata.name",
	} {
		if got := c.v1Path(in); got != want {
			t.Errorf("v1Path(%q) = %q, want %q", in, got, want)
		}
	}
}

// requiredCRD is the CronTab of the documentation with image required.
func requiredCRD(t *testing.T) *CRD {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "examples", "crontab-crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "            spec:\n              type: object\n", "            spec:\n              type: object\n              required: [image]\n", 1)
	return compileT(t, src)
}

func TestObjectErrorPositions(t *testing.T) {
	c := requiredCRD(t)
	tests := []struct {
		name, object string
		fv           FieldValidation
		errors       map[string]Position // by field
		warnings     []Position
		decode       Position
	}{
		{
			name: "yaml",
			object: `# comment
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: x
spec:
  cronSpec: "* * * *"
  replicas: 15
`,
			errors: map[string]Position{"spec.cronSpec": {7, 3}, "spec.replicas": {8, 3}, "spec.image": {6, 1}},
		},
		{
			name:   "json",
			object: "{\n  \"apiVersion\": \"stable.example.com/v1\",\n  \"kind\": \"CronTab\",\n  \"metadata\": {\"name\": \"x\"},\n  \"spec\": {\"image\": \"i\",\n    \"replicas\": 15}\n}\n",
			errors: map[string]Position{"spec.replicas": {6, 5}},
		},
		{
			name:     "warn",
			object:   "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec:\n  image: i\n  color: blue\n",
			fv:       Warn,
			warnings: []Position{{6, 3}},
		},
		{
			name:   "strict",
			object: "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec:\n  image: i\n  color: blue\n",
			decode: Position{6, 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.Validate([]byte(tt.object), ValidateOptions{FieldValidation: tt.fv})
			if err != nil {
				t.Fatal(err)
			}
			p := res.Positions()
			if len(res.Errors) != len(tt.errors) {
				t.Fatalf("errors %v, want fields %v", res.Errors, tt.errors)
			}
			for i, e := range res.Errors {
				if w, ok := tt.errors[e.Field]; !ok || p.Errors[i] != w {
					t.Errorf("%s: position %v, want %v", e.Field, p.Errors[i], w)
				}
			}
			if len(p.Warnings) != len(tt.warnings) {
				t.Fatalf("warnings %q at %v, want %v", res.Warnings, p.Warnings, tt.warnings)
			}
			for i := range tt.warnings {
				if p.Warnings[i] != tt.warnings[i] {
					t.Errorf("warning %q at %v, want %v", res.Warnings[i], p.Warnings[i], tt.warnings[i])
				}
			}
			if p.DecodeError != tt.decode {
				t.Errorf("decode error %q at %v, want %v", res.DecodeError, p.DecodeError, tt.decode)
			}
			// the report JSON
			b, err := json.Marshal(NewReport(c, res))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.errors {
				if !strings.Contains(string(b), `"position":{"line":`+itoa(w.Line)+`,"column":`+itoa(w.Column)+`}`) {
					t.Errorf("report lacks position %v: %s", w, b)
				}
			}
		})
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestValidResultHasNoPositions(t *testing.T) {
	c := requiredCRD(t)
	res, err := c.Validate([]byte("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec: {image: i}\n"), ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(NewReport(c, res))
	if strings.Contains(string(b), "osition") {
		t.Errorf("a valid object's report has positions: %s", b)
	}
}

// A kind: List holding the CRD: the paths are under items[0].
func TestCRDInAListPositions(t *testing.T) {
	list := "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(badCRD, "\n"), "\n", "\n  ") + "\n"
	c, err := Compile([]byte(list))
	if err != nil {
		t.Fatal(err)
	}
	direct, _ := Compile([]byte(badCRD))
	p, want := c.Positions(), direct.Positions()
	for i := range want.Errors {
		// three lines down, two columns right
		if w := (Position{want.Errors[i].Line + 3, want.Errors[i].Column + 2}); p.Errors[i] != w {
			t.Errorf("%s: %v, want %v", c.Errors()[i].Field, p.Errors[i], w)
		}
	}
}

// Issue 16: an object the decoder rejects for its depth has nothing to
// point at, so Positions does not parse it (goyaml.v3 recurses once per
// level, which overflows the JavaScript engine's stack in the wasm
// module), and an object nesting deeper than position.MaxDepth that
// decodes gets no positions rather than a parse.
func TestPositionsOfDeepObjects(t *testing.T) {
	c := requiredCRD(t)
	obj := func(depth int) []byte {
		return []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"image":"i","x":` +
			strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}}")
	}
	tests := []struct {
		name        string
		depth       int
		decodeError string
	}{
		{"rejected by the decoder", 10000, "exceeded max depth"},
		{"rejected by the decoder, 100,000", 100000, "exceeded max depth"},
		{"decoded, deeper than position.MaxDepth", 5000, `unknown field "spec.x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.Validate(obj(tt.depth), ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.DecodeError, tt.decodeError) {
				t.Fatalf("DecodeError = %q, want it to contain %q", res.DecodeError, tt.decodeError)
			}
			var p Positions
			// goyaml.v3 parsing the object allocates per level: thousands.
			allocs := testing.AllocsPerRun(1, func() { p = res.Positions() })
			if allocs > 20 {
				t.Errorf("Positions made %v allocations: it parsed the object", allocs)
			}
			if p.DecodeError.Known() {
				t.Errorf("DecodeError position %+v, want none", p.DecodeError)
			}
		})
	}
	// Below the bound the decoding error still points at the field.
	res, err := c.Validate(obj(100), ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Positions(); p.DecodeError != (Position{Line: 1, Column: 100}) {
		t.Errorf("DecodeError position %+v, want 1:100 (the key x)", p.DecodeError)
	}
}

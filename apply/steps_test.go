package apply

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	sj "github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

// TestStepsSchemaAgreesWithParseSteps validates steps files against
// docs/apply-steps.schema.json and ParseSteps: both accept the good ones
// and refuse the bad ones.
func TestStepsSchemaAgreesWithParseSteps(t *testing.T) {
	raw, err := os.ReadFile("../docs/apply-steps.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := sj.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	c := sj.NewCompiler()
	if err := c.AddResource("steps.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("steps.json")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("../examples/apply/steps.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file string
		ok   bool
	}{
		{"example", string(example), true},
		{"block-scalar-object", "- manager: a\n  operation: Apply\n  object: |\n    apiVersion: v1\n    kind: X\n", true},
		{"delete-needs-nothing", "- operation: Delete\n", true},
		{"update-without-manager", "- operation: Update\n  object: {kind: X}\n", true},
		{"status-subresource", "- manager: a\n  operation: Apply\n  subresource: status\n  object: {kind: X}\n", true},
		{"not-a-list", "manager: a\n", false},
		{"empty-list", "[]\n", false},
		{"unknown-field", "- manager: a\n  operation: Apply\n  object: {kind: X}\n  forse: true\n", false},
		{"bad-operation", "- manager: a\n  operation: Patch\n  object: {kind: X}\n", false},
		{"apply-without-manager", "- operation: Apply\n  object: {kind: X}\n", false},
		{"apply-without-object", "- manager: a\n  operation: Apply\n", false},
		{"force-not-bool", "- manager: a\n  operation: Apply\n  force: \"yes\"\n  object: {kind: X}\n", false},
		{"bad-subresource", "- manager: a\n  operation: Apply\n  subresource: scale\n  object: {kind: X}\n", false},
		{"object-is-a-list", "- manager: a\n  operation: Apply\n  object: [1]\n", false},
		{"no-operation", "- manager: a\n  object: {kind: X}\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js, err := yaml.YAMLToJSON([]byte(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var v interface{}
			if err := json.Unmarshal(js, &v); err != nil {
				t.Fatal(err)
			}
			inst, _ := sj.UnmarshalJSON(strings.NewReader(string(js)))
			schemaErr := sch.Validate(inst)
			_, parseErr := ParseSteps([]byte(tc.file))
			if (schemaErr == nil) != tc.ok {
				t.Errorf("schema: ok=%v, want %v (%v)", schemaErr == nil, tc.ok, schemaErr)
			}
			if (parseErr == nil) != tc.ok {
				t.Errorf("ParseSteps: ok=%v, want %v (%v)", parseErr == nil, tc.ok, parseErr)
			}
		})
	}
}

// TestParseStepsErrorsNameTheLine pins the line numbers of bad steps.
func TestParseStepsErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct {
		file string
		want string
	}{
		{"- manager: a\n  operation: Apply\n  object: {kind: X}\n- manager: b\n  operation: Aply\n  object: {}\n", `line 5: step 2: operation "Aply": want Apply, Update or Delete`},
		{"- manager: a\n  operation: Apply\n  objekt: {}\n", `line 3: step 1: unknown field "objekt" (want manager, operation, force, subresource, object)`},
		{"- manager: a\n  operation: Apply\n", `line 1: step 1: object is required for Apply`},
		{"- manager: a\n  manager: b\n  operation: Apply\n  object: {}\n", `line 2: step 1: duplicate field "manager"`},
		{"{a: 1}\n", `line 1: want a list of steps ({manager, operation, force, subresource, object})`},
		{"- [unclosed\n", `not YAML: yaml: line 1: did not find expected ',' or ']'`},
	} {
		_, err := ParseSteps([]byte(tc.file))
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseSteps(%q) = %v, want %s", tc.file, err, tc.want)
		}
		var se *StepError
		if err != nil && !errors.As(err, &se) {
			t.Errorf("error %T is not a *StepError", err)
		}
	}
}

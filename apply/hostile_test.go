package apply

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/testsupport/cputime"
)

func freeCRD(t *testing.T) *engine.CRD {
	t.Helper()
	b, err := os.ReadFile("testdata/hostile-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.Compile(b)
	if err != nil || !c.Valid() {
		t.Fatalf("compile: %v %v", err, c.Errors())
	}
	return c
}

func obj(spec string) []byte {
	return []byte(`{"apiVersion":"stable.example.com/v1","kind":"Thing","metadata":{"name":"t","namespace":"default"},"spec":` + spec + `}`)
}

// TestHostileStepsFilesAreRefusedClearly: malformed, oversized and deeply
// nested steps files give an error naming the problem, never a panic.
func TestHostileStepsFilesAreRefusedClearly(t *testing.T) {
	many := strings.Repeat("- {operation: Delete}\n", MaxSteps+1)
	deep := "- manager: a\n  operation: Apply\n  object: " + strings.Repeat("{a: ", 200) + "1" + strings.Repeat("}", 200) + "\n"
	for _, tc := range []struct {
		name, file, want string
	}{
		{"too-many-steps", many, "1001 steps, more than the 1000 allowed"},
		{"deep-object", deep, "object: nested deeper than 100 levels"},
		{"binary", "\x00\x01\x02", "not YAML"},
		{"scalar", "42\n", "want a list of steps"},
		{"step-is-a-list", "- [a, b]\n", "step 1: want a mapping"},
		{"object-scalar", "- {manager: a, operation: Apply, object: 3}\n", "step 1: object: want a mapping"},
		{"object-block-not-yaml", "- manager: a\n  operation: Apply\n  object: \"{a: [\"\n", "step 1: object: not YAML"},
		{"manager-not-string", "- {manager: [a], operation: Apply, object: {}}\n", "step 1: manager: want a string"},
		{"too-big", strings.Repeat("#", MaxStepsBytes+1), "more than the 16777216 allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSteps([]byte(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseSteps: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestHostileRequestsAreAnsweredNotPanicking: requests the API server
// refuses come back as refused steps; big and deep objects finish.
func TestHostileRequestsAreAnsweredNotPanicking(t *testing.T) {
	c := freeCRD(t)
	var big []string
	for i := 0; i < 5000; i++ {
		big = append(big, fmt.Sprintf(`"s%d"`, i))
	}
	var mapItems []string
	for i := 0; i < 2000; i++ {
		mapItems = append(mapItems, fmt.Sprintf(`{"name":"n%d","v":%d}`, i, i))
	}
	deep := strings.Repeat(`{"a":`, 3000) + "1" + strings.Repeat("}", 3000)
	for _, tc := range []struct {
		name   string
		stored string
		steps  []Step
		code   int // of the last step
		want   string
	}{
		{"huge-set", "", []Step{
			{Manager: "a", Operation: Apply, Object: obj(`{"set":[` + strings.Join(big, ",") + `]}`)},
			{Manager: "b", Operation: Apply, Object: obj(`{"set":[` + strings.Join(big[:10], ",") + `]}`)},
		}, 0, ""},
		{"huge-map-list", "", []Step{
			{Manager: "a", Operation: Apply, Object: obj(`{"items":[` + strings.Join(mapItems, ",") + `]}`)},
			{Manager: "b", Operation: Apply, Object: obj(`{"items":[{"name":"n1","v":2}]}`)},
		}, 409, "Apply failed with 1 conflict"},
		{"deep-free-form", "", []Step{{Manager: "a", Operation: Apply, Object: obj(`{"free":` + deep + `}`)}}, 0, ""},
		{"duplicate-map-keys-apply", "", []Step{{Manager: "a", Operation: Apply, Object: obj(`{"items":[{"name":"x"},{"name":"x"}]}`)}}, 500, `duplicate entries for key [name="x"]`},
		{"duplicate-map-keys-update", "", []Step{{Manager: "a", Operation: Update, Object: obj(`{"items":[{"name":"x"},{"name":"x"}]}`)}}, 422, `spec.items[1]: Duplicate value: {"name":"x"}`},
		{"patch-not-an-object", "", []Step{{Manager: "a", Operation: Apply, Object: []byte(`[1,2]`)}}, 400, "error decoding patch"},
		{"metadata-not-a-map", "", []Step{{Manager: "a", Operation: Apply, Object: []byte(`{"apiVersion":"stable.example.com/v1","kind":"Thing","metadata":3}`)}}, 500, "failed to create typed patch object"},
		{"garbage-managed-fields", `{"apiVersion":"stable.example.com/v1","kind":"Thing","metadata":{"name":"t","namespace":"default","managedFields":[{"manager":"x","operation":"Merge","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}}]}}`,
			[]Step{{Manager: "a", Operation: Apply, Object: obj(`{"set":["a"]}`)}}, 500, "failed to decode managed fields: operation must be `Apply` or `Update`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stored []byte
			if tc.stored != "" {
				stored = []byte(tc.stored)
			}
			cpu := cputime.Start()
			rep, err := Run(c, stored, tc.steps, Options{})
			if err != nil {
				t.Fatal(err)
			}
			// A guard against quadratic work: the slowest case uses
			// 0.36 s of CPU time alone; ten times that, in CPU time,
			// which other processes' load does not inflate.
			cpu.Check(t, 4*time.Second, "the steps")
			last := rep.Steps[len(rep.Steps)-1]
			if last.Code != tc.code {
				t.Errorf("code %d, want %d (%s%s)", last.Code, tc.code, last.Error, last.Conflict)
			}
			if msg := last.Error + last.Conflict; !strings.Contains(msg, tc.want) {
				t.Errorf("message %q, want it to contain %q", msg, tc.want)
			}
		})
	}
}

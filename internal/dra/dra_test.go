package dra

import (
	"context"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/field"
	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

func ptr[T any](v T) *T { return &v }

var gpu = Device{
	Driver: "gpu.example.com",
	Attributes: map[string]Attribute{
		"model":                      {String: ptr("a100")},
		"memoryGB":                   {Int: ptr(int64(40))},
		"driverVersion":              {Version: ptr("1.2.3")},
		"dra.example.com/numa":       {Int: ptr(int64(1))},
		"gpu.example.com/sharedable": {Bool: ptr(true)},
	},
	Capacity: map[string]string{"memory": "40Gi"},
}

func TestMatchesEvaluatesSelectorsAgainstADevice(t *testing.T) {
	for _, tc := range []struct {
		name, expr string
		minor      int
		matches    bool
		err        string
	}{
		{"driver", `device.driver == "gpu.example.com"`, 37, true, ""},
		{"unqualified attribute takes the driver's domain", `device.attributes["gpu.example.com"].model == "a100"`, 37, true, ""},
		{"qualified attribute", `device.attributes["dra.example.com"].numa == 1`, 37, true, ""},
		{"semver", `device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.0.0"))`, 37, true, ""},
		{"quantity", `device.capacity["gpu.example.com"].memory.compareTo(quantity("32Gi")) >= 0`, 37, true, ""},
		{"false", `device.attributes["gpu.example.com"].memoryGB > 80`, 37, false, ""},
		{"missing attribute at 1.37 has guidance", `device.attributes["gpu.example.com"].cores > 2`, 37, false,
			"no such key: cores. consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for optional fields"},
		{"missing attribute at 1.36 has none", `device.attributes["gpu.example.com"].cores > 2`, 36, false, "no such key: cores"},
		{"missing domain is an empty map", `device.attributes["other.example.com"].x`, 37, false, "no such key: x. consider"},
		{"cel.bind", `cel.bind(g, device.attributes["gpu.example.com"], g.model == "a100" && g.memoryGB >= 40)`, 34, true, ""},
		{"allowMultipleAllocations", `!device.allowMultipleAllocations`, 37, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, err := NewEnv(kubeversion.Of(tc.minor), kcel.StoredExpressions, Defaults(kubeversion.Of(tc.minor)))
			if err != nil {
				t.Fatal(err)
			}
			sel, cerr := env.Compile(tc.expr)
			if cerr != nil {
				t.Fatalf("compile: %v", cerr)
			}
			r := sel.Matches(context.Background(), gpu)
			if r.Matches != tc.matches {
				t.Errorf("matches = %v, want %v (err %v)", r.Matches, tc.matches, r.Err)
			}
			switch {
			case tc.err == "" && r.Err != nil:
				t.Errorf("unexpected error %v", r.Err)
			case tc.err != "" && (r.Err == nil || !strings.HasPrefix(r.Err.Error(), tc.err)):
				t.Errorf("error = %v, want prefix %q", r.Err, tc.err)
			}
			if r.Cost == nil {
				t.Error("no actual cost")
			}
		})
	}
}

func TestValidateExpressionGivesTheAPIServersErrors(t *testing.T) {
	p := field.NewPath("spec", "selectors").Index(0).Child("cel", "expression")
	for _, tc := range []struct {
		name, expr string
		minor      int
		want       string
	}{
		{"valid", `device.driver == "x"`, 37, ""},
		{"syntax error", `device.driver ==`, 37, `spec.selectors[0].cel.expression: Invalid value: "device.driver ==": compilation failed: ERROR: <input>:1:17: Syntax error`},
		{"wrong output type", `device.driver`, 37, `must evaluate to bool or the unknown type, not string`},
		{"allowMultipleAllocations undeclared at 1.35", `device.allowMultipleAllocations`, 35, `undefined field 'allowMultipleAllocations'`},
		{"allowMultipleAllocations declared at 1.37", `device.allowMultipleAllocations`, 37, ""},
		{"too costly", `device.attributes.all(d, device.attributes[d].all(a, device.attributes.all(d2, device.attributes[d2].all(a2, a == a2))))`, 37, `spec.selectors[0].cel.expression: Forbidden: too complex, exceeds cost limit`},
		{"too long", strings.Repeat(" ", MaxExpressionLength) + "true", 37, `spec.selectors[0].cel.expression: Too long: may not be more than 10240 bytes`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := NewValidator(kubeversion.Of(tc.minor)).ValidateExpression(tc.expr, p)
			got := ""
			if len(errs) > 0 {
				got = errs.ToAggregate().Error()
			}
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func BenchmarkNewEnv(b *testing.B) {
	rel := kubeversion.Of(37)
	if _, err := NewEnv(rel, kcel.NewExpressions, Defaults(rel)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := NewEnv(rel, kcel.NewExpressions, Defaults(rel)); err != nil {
			b.Fatal(err)
		}
	}
}

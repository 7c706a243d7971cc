package conformance

import (
	"os"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/internal/builtin"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// draClass is a DeviceClass with the given selector expressions.
func draClass(exprs ...string) string {
	var b strings.Builder
	b.WriteString("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.example.com\nspec:\n  selectors:\n")
	for _, e := range exprs {
		b.WriteString("  - cel:\n      expression: " + yamlQuote(e) + "\n")
	}
	return b.String()
}

func yamlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// draClaim is a ResourceClaim (or, template, a ResourceClaimTemplate) with
// one exactly request and one firstAvailable request.
func draClaim(template bool, exactly, first string) string {
	indent := "  "
	head := "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n  namespace: default\nspec:\n"
	if template {
		head = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: c\n  namespace: default\nspec:\n  spec:\n"
		indent = "    "
	}
	body := "devices:\n  requests:\n  - name: a\n    exactly:\n      deviceClassName: gpu.example.com\n      selectors:\n      - cel:\n          expression: " + yamlQuote(exactly) + "\n" +
		"  - name: b\n    firstAvailable:\n    - name: one\n      deviceClassName: gpu.example.com\n      selectors:\n      - cel:\n          expression: " + yamlQuote(first) + "\n"
	var b strings.Builder
	b.WriteString(head)
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		b.WriteString(indent + l + "\n")
	}
	return b.String()
}

// TestDRASelectorValidationMatchesKubeAPIServer creates DeviceClasses,
// ResourceClaims and ResourceClaimTemplates whose only problems (if any)
// are their selectors through kube-apiserver 1.37's registry strategies
// (upstream.ValidateBuiltin) and internal/builtin: the same Invalid message
// (texts, paths, order), or both accept.
func TestDRASelectorValidationMatchesKubeAPIServer(t *testing.T) {
	costly := `device.attributes.all(d, device.attributes[d].all(a, device.attributes.all(d2, device.attributes[d2].all(a2, a == a2))))`
	ok := `device.driver == "gpu.example.com"`
	example := func(f string) string {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	cases := map[string]string{
		"class valid":                      draClass(ok),
		"class example":                    example("../examples/dra/class.yaml"),
		"claim example":                    example("../examples/dra/claim.yaml"),
		"class syntax error":               draClass(`device.driver ==`),
		"class undeclared reference":       draClass(`devices.driver == "x"`),
		"class undefined field":            draClass(`device.nosuch == "x"`),
		"class output type":                draClass(`device.driver`),
		"class int output":                 draClass(`1`),
		"class any output":                 draClass(`device.attributes["gpu.example.com"].mig`),
		"class too costly":                 draClass(costly),
		"class too long":                   draClass(strings.Repeat(" ", 10*1024) + "true"),
		"class at the length limit":        draClass(strings.Repeat(" ", 10*1024-4) + "true"),
		"class allowMultipleAllocations":   draClass(`device.allowMultipleAllocations`),
		"class includes (gate off)":        draClass(`[1].includes(1)`),
		"class several errors":             draClass(`device.driver ==`, ok, `device.driver`, costly),
		"class semver and quantity":        draClass(`device.attributes["gpu.example.com"].v.isGreaterThan(semver("1.0.0")) && device.capacity["gpu.example.com"].m.isLessThan(quantity("1Gi"))`),
		"class cel.bind":                   draClass(`cel.bind(g, device.attributes["gpu.example.com"], g.a == 1)`),
		"claim valid":                      draClaim(false, ok, ok),
		"claim exactly error":              draClaim(false, `device.driver`, ok),
		"claim firstAvailable error":       draClaim(false, ok, `device.driver ==`),
		"claim both errors":                draClaim(false, costly, `1 + `),
		"template valid":                   draClaim(true, ok, ok),
		"template errors":                  draClaim(true, `device.driver`, costly),
		"class missing cel":                "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\nspec:\n  selectors:\n  - {}\n",
		"class optional chaining is valid": draClass(`device.attributes["gpu.example.com"].?mig.orValue(false)`),
	}
	invalid := 0
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			body := builtinJSON(t, doc)
			up, err := upstream.ValidateBuiltin(upstream.BuiltinRequest{Object: body})
			if err != nil {
				t.Fatalf("upstream: %v", err)
			}
			if up.DecodeError != "" {
				t.Fatalf("upstream decode error (fix the case): %s", up.DecodeError)
			}
			o, err := builtin.Serve(builtin.Request{Body: body, Release: kubeversion.Of(37)})
			if err != nil {
				t.Fatal(err)
			}
			if o.Checked != builtin.SelectorsChecked {
				t.Fatalf("Checked = %q", o.Checked)
			}
			got := invalidMessage(o)
			if got != up.Invalid {
				t.Errorf("\n upstream %s\n   crdlab %s", up.Invalid, got)
			}
			if up.Invalid != "" {
				invalid++
			}
		})
	}
	if invalid < 10 {
		t.Errorf("only %d cases rejected by kube-apiserver", invalid)
	}
}

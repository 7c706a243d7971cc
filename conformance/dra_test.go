package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apiserver/pkg/cel/environment"
	dracel "k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/dra"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// draExpressions are selectors in the spirit of upstream's cel/compile_test.go
// (its table is Go code and cannot be read at test time): every variable,
// the libraries DRA relies on, compile, type and output-type errors, cost
// limits, missing attributes and domains.
var draExpressions = []string{
	`true`,
	`device.driver == "gpu.example.com"`,
	`device.driver`,
	`device.attributes["gpu.example.com"].model == "a100"`,
	`device.attributes["gpu.example.com"].model`,
	`device.attributes["gpu.example.com"].memoryGB >= 40`,
	`device.attributes["gpu.example.com"].mig`,
	`!device.attributes["gpu.example.com"].mig`,
	`device.attributes["gpu.example.com"].?mig.orValue(false)`,
	`!(device.attributes["gpu.example.com"].?mig.orValue(true))`,
	`has(device.attributes["gpu.example.com"].mig)`,
	`"mig" in device.attributes["gpu.example.com"]`,
	`device.attributes["pci.example.com"].numaNode == 0`,
	`device.attributes["other.example.com"].x == 1`,
	`device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("500.0.0"))`,
	`device.attributes["gpu.example.com"].driverVersion.major() >= 535`,
	`device.attributes["gpu.example.com"].driverVersion == semver("550.54.15")`,
	`device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0`,
	`device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("32Gi"))`,
	`device.capacity["gpu.example.com"].cores.asInteger() > 5000`,
	`device.capacity["gpu.example.com"].missing.isZero()`,
	`cel.bind(g, device.attributes["gpu.example.com"], g.model == "a100" && g.memoryGB >= 40)`,
	`device.allowMultipleAllocations`,
	`!device.allowMultipleAllocations`,
	`device.attributes.exists(d, d == "pci.example.com")`,
	`device.attributes["gpu.example.com"].exists(a, a.startsWith("m"))`,
	`device.attributes.all(d, device.attributes[d].all(a, device.attributes.all(d2, device.attributes[d2].all(a2, a == a2))))`,
	`device.attributes["gpu.example.com"].model.matches("^a[0-9]+$")`,
	`device.attributes["gpu.example.com"].model.size() > 2`,
	`size(device.attributes) > 0`,
	`device.attributes["gpu.example.com"].model.includes("a100")`,
	`[1, 2, 3].includes(2)`,
	`device.driver ==`,
	`device.nosuchfield == 1`,
	`unknownVar == 1`,
	`1`,
	`"string"`,
	`device.attributes["gpu.example.com"].memoryGB + 1`,
	`isSemver("1.2.3")`,
	`semver("1.2.3").isLessThan(semver("1.10.0"))`,
	`device.attributes["gpu.example.com"].model.lowerAscii() == "a100"`,
	`[1,2,3].sum() == 6`,
	`device.attributes["gpu.example.com"].memoryGB / 0 == 1`,
}

// draDevices reads the devices of examples/dra/slices as upstream's types
// (sigs.k8s.io/yaml into resource.k8s.io/v1) and as crdlab's.
func draDevices(t *testing.T) (names []string, up []dracel.Device, ours []dra.Device) {
	t.Helper()
	files, err := filepath.Glob("../examples/dra/slices/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example slices: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var slice resourceapi.ResourceSlice
		if err := yaml.UnmarshalStrict(data, &slice); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		jsonData, err := yaml.YAMLToJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		obj, err := dra.Decode(jsonData)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for i, d := range slice.Spec.Devices {
			names = append(names, slice.Spec.Driver+"/"+slice.Spec.Pool.Name+"/"+d.Name)
			up = append(up, dracel.Device{Driver: slice.Spec.Driver, AllowMultipleAllocations: d.AllowMultipleAllocations, Attributes: d.Attributes, Capacity: d.Capacity})
			ours = append(ours, obj.Device(i))
		}
	}
	return names, up, ours
}

type draOutcome struct {
	err     string
	maxCost uint64
}

func draUpstreamCompile(expr string, stored bool) (dracel.CompilationResult, draOutcome) {
	env := environment.NewExpressions
	if stored {
		env = environment.StoredExpressions
	}
	// 1.37's default gates: DRAConsumableCapacity on, DRAListTypeAttributes off.
	r := dracel.GetCompiler(dracel.Features{EnableConsumableCapacity: true}).CompileCELExpression(expr, dracel.Options{EnvType: &env})
	if r.Error != nil {
		return r, draOutcome{err: fmt.Sprintf("%s: %s", r.Error.Type, r.Error.Detail)}
	}
	return r, draOutcome{maxCost: r.MaxCost}
}

// TestDRASelectorsAgainstUpstream compiles every expression in both
// environments of 1.37 with upstream's k8s.io/dynamic-resource-allocation/cel
// and crdlab's internal/dra (error type and text, estimated cost), and
// evaluates the stored-expression programs with DeviceMatches against every
// device of examples/dra/slices (result, runtime error with the allocator's
// EnhanceRuntimeError, actual cost).
func TestDRASelectorsAgainstUpstream(t *testing.T) {
	rel := kubeversion.Of(37)
	names, upDevices, ourDevices := draDevices(t)
	compared := 0
	for _, stored := range []bool{true, false} {
		kind := kcel.NewExpressions
		if stored {
			kind = kcel.StoredExpressions
		}
		env, err := dra.NewEnv(rel, kind, dra.Defaults(rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, expr := range draExpressions {
			upRes, want := draUpstreamCompile(expr, stored)
			var got draOutcome
			sel, cerr := env.Compile(expr)
			if cerr != nil {
				got.err = fmt.Sprintf("%s: %s", cerr.Type, cerr.Detail)
			} else {
				got.maxCost = sel.MaxCost
			}
			if got != want {
				t.Errorf("stored=%v %s:\n upstream %+v\n   crdlab %+v", stored, expr, want, got)
				continue
			}
			if !stored || cerr != nil {
				continue
			}
			for i := range upDevices {
				r := sel.Matches(context.Background(), ourDevices[i])
				gotRun := fmt.Sprintf("matches=%v err=%v cost=%v", r.Matches, r.Err, ptr.Deref(r.Cost, 0))
				// Upstream iterates maps in Go's random order, so a
				// comprehension that stops early costs differently from run
				// to run: crdlab's (sorted) cost must be one of upstream's.
				var seen []string
				for range 32 {
					m, details, err := upRes.DeviceMatches(context.Background(), upDevices[i])
					err = dracel.EnhanceRuntimeError(err)
					wantRun := fmt.Sprintf("matches=%v err=%v cost=%v", m, err, ptr.Deref(details.ActualCost(), 0))
					if wantRun == gotRun {
						seen = nil
						break
					}
					seen = append(seen, wantRun)
				}
				if seen != nil {
					t.Errorf("%s on %s:\n upstream %s\n   crdlab %s", expr, names[i], seen[0], gotRun)
				}
				compared++
			}
		}
	}
	t.Logf("%d compiles (both environments) and %d evaluations compared", 2*len(draExpressions), compared)
	if compared < len(upDevices)*20 {
		t.Errorf("only %d evaluations compared", compared)
	}
}

// TestDRAExampleClaimSelectorsAgainstUpstream compiles the selectors of
// examples/dra's class and claim as above.
func TestDRAExampleClaimSelectorsAgainstUpstream(t *testing.T) {
	for _, f := range []string{"../examples/dra/class.yaml", "../examples/dra/claim.yaml"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		js, err := yaml.YAMLToJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		obj, err := dra.Decode(js)
		if err != nil {
			t.Fatal(err)
		}
		sels := obj.ClassSelectors
		for _, r := range obj.Requests {
			sels = append(sels, r.Selectors...)
		}
		if len(sels) == 0 {
			t.Fatalf("%s: no selectors", f)
		}
		for _, s := range sels {
			found := false
			for _, e := range draExpressions {
				found = found || e == s.CEL.Expression
			}
			if !found {
				t.Errorf("%s: selector %q is not among draExpressions (add it)", f, s.CEL.Expression)
			}
		}
	}
}

package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/testsupport/corpus"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
)

// TestAdmissionGatewaySafeUpgrades runs Gateway API's safe-upgrades policy
// (config/crd/standard/gateway.networking.k8s.io_vap_safeupgrades.yaml of
// the corpus's gateway-api module, fetched through the Go module proxy by
// scripts/corpus.sh) on CRD creates and updates, in crdlab and upstream:
// experimental-channel CRDs over standard ones and a v1.4 bundle over v1.6
// are denied, v1.6.3 over v1.6.1 passes.
func TestAdmissionGatewaySafeUpgrades(t *testing.T) {
	dir, err := corpus.Module(corpus.Options{}, "sigs.k8s.io/gateway-api@")
	if err != nil {
		testenv.Unavailable(t, "corpus unavailable: %v", err)
	}
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(dir, "config", "crd", rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	policy := read("standard/gateway.networking.k8s.io_vap_safeupgrades.yaml")
	standard := read("standard/gateway.networking.k8s.io_gateways.yaml")
	experimental := read("experimental/gateway.networking.k8s.io_httproutes.yaml")
	standardRoutes := read("standard/gateway.networking.k8s.io_httproutes.yaml")
	version := func(crd, v string) string {
		out := strings.Replace(crd, "bundle-version: v1.6.3", "bundle-version: "+v, 1)
		if out == crd {
			t.Fatalf("no bundle-version v1.6.3 annotation to replace")
		}
		return out
	}
	crd := func(name, op, obj, old string) admissionRequest {
		return admissionRequest{name: name, op: op, obj: obj, old: old, resource: crdsV1, kind: crdV1}
	}
	n := runAdmissionScenario(t, admissionScenario{name: "gateway-safe-upgrades", yaml: "---\n" + policy}, []admissionRequest{
		crd("experimental-over-standard", "UPDATE", experimental, standardRoutes),
		crd("standard-over-experimental", "UPDATE", standardRoutes, experimental),
		crd("v1.4-over-v1.6", "UPDATE", version(standard, "v1.4.1"), standard),
		crd("v1.6.3-over-v1.6.1", "UPDATE", standard, version(standard, "v1.6.1")),
		crd("create-v1.4", "CREATE", version(standard, "v1.4.1"), ""),
		crd("create-experimental", "CREATE", experimental, ""),
		crd("create-rc", "CREATE", version(standard, "v1.3.0-rc.1"), ""),
		crd("not-gateway", "CREATE", crdObjectStandard, ""),
	})
	if n != 8 {
		t.Errorf("%d requests run", n)
	}
}

// TestPolicyTypeCheckingGatewaySafeUpgrades: Gateway API's safe-upgrades
// policy type-checks as upstream's status controller does it: as written
// (its wildcard resource is not checked), with the resource named (typed
// as a CustomResourceDefinition by the definitions resolver: no warning),
// and with two mistakes.
func TestPolicyTypeCheckingGatewaySafeUpgrades(t *testing.T) {
	dir, err := corpus.Module(corpus.Options{}, "sigs.k8s.io/gateway-api@")
	if err != nil {
		testenv.Unavailable(t, "corpus unavailable: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "config", "crd", "standard", "gateway.networking.k8s.io_vap_safeupgrades.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	policy := string(b)
	// resources: ["*"] is not type-checked: name the resource
	named := strings.Replace(policy, `resources:   ["*"]`, `resources:   ["customresourcedefinitions"]`, 1)
	broken := strings.Replace(strings.Replace(named, "object.metadata", "object.metdata", 1), "object.spec.group", "object.spec.groups", 1)
	if named == policy || broken == named {
		t.Fatal("the policy changed: nothing to replace")
	}
	for _, tc := range []struct {
		name, src string
		want      int
	}{{"as written (a wildcard resource)", policy, 0}, {"the resource named", named, 0}, {"two mistakes in the first expression", broken, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			if n := compareTypeChecking(t, tc.src, nil, nil); n != tc.want {
				t.Errorf("%d warnings upstream, want %d", n, tc.want)
			}
		})
	}
}

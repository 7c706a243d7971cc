package builtin

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/kubeversion"
)

func TestSurfaceDescribesEverySupportedRelease(t *testing.T) {
	for _, r := range kubeversion.Supported() {
		if _, ok := load().byRelease[r.Minor()]; !ok {
			t.Errorf("surface.tsv has no resources for %s", r)
		}
		if n := len(load().byRelease[r.Minor()]); n < 50 {
			t.Errorf("%s serves only %d resources", r, n)
		}
	}
}

func TestLookupAnswersWhatEachReleaseServes(t *testing.T) {
	tests := []struct {
		rel              int
		apiVersion, kind string
		resource         string // "" when not served
		namespaced       bool
	}{
		{37, "v1", "ConfigMap", "configmaps", true},
		{31, "v1", "Namespace", "namespaces", false},
		{37, "apps/v1", "Deployment", "deployments", true},
		{37, "networking.k8s.io/v1", "Ingress", "ingresses", true},
		{37, "extensions/v1beta1", "Ingress", "", false},
		{37, "policy/v1beta1", "PodSecurityPolicy", "", false},
		{31, "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema", "flowschemas", false},
		{32, "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema", "", false},
		{37, "resource.k8s.io/v1beta1", "ResourceClaim", "", false}, // beta, off by default
		{37, "coordination.k8s.io/v1alpha2", "LeaseCandidate", "", false},
		{33, "resource.k8s.io/v1", "ResourceClaim", "", false},
		{34, "resource.k8s.io/v1", "ResourceClaim", "resourceclaims", true},
		{37, "v1", "Configmap", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.apiVersion+"/"+tt.kind, func(t *testing.T) {
			r := Lookup(kubeversion.Of(tt.rel), tt.apiVersion, tt.kind)
			if tt.resource == "" {
				if r != nil {
					t.Fatalf("1.%d serves %s %s as %s", tt.rel, tt.apiVersion, tt.kind, r.Resource)
				}
				return
			}
			if r == nil {
				t.Fatalf("1.%d does not serve %s %s", tt.rel, tt.apiVersion, tt.kind)
			}
			if r.Resource != tt.resource || r.Namespaced != tt.namespaced || !r.Creatable() {
				t.Fatalf("got %+v", r)
			}
		})
	}
}

func TestDeprecationWarningIsTheAPIServers(t *testing.T) {
	r := Lookup(kubeversion.Of(31), "flowcontrol.apiserver.k8s.io/v1beta3", "PriorityLevelConfiguration")
	if r == nil {
		t.Fatal("not served at 1.31")
	}
	want := "flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration"
	if got := r.DeprecationWarning(kubeversion.Of(31)); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if w := Lookup(kubeversion.Of(37), "v1", "ConfigMap").DeprecationWarning(kubeversion.Of(37)); w != "" {
		t.Fatalf("v1 ConfigMap warns %q", w)
	}
}

func TestNoMatchErrorIsKubectls(t *testing.T) {
	got := NoMatchError("web", "", "ingress.yaml", "extensions/v1beta1", "Ingress")
	want := "resource mapping not found for name: \"web\" namespace: \"\" from \"ingress.yaml\": no matches for kind \"Ingress\" in version \"extensions/v1beta1\"\nensure CRDs are installed first"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestIsBuiltinGroupKnowsRemovedGroups(t *testing.T) {
	for g, want := range map[string]bool{"": true, "apps": true, "extensions": true, "rbac.authorization.k8s.io": true, "gateway.networking.k8s.io": false, "example.com": false} {
		if got := IsBuiltinGroup(g); got != want {
			t.Errorf("IsBuiltinGroup(%q) = %v", g, got)
		}
	}
}

func TestParseSurfaceRejectsMalformedLines(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "fields") {
			t.Fatalf("recover() = %v", r)
		}
	}()
	parseSurface("1.37\tcore\tv1\n")
}

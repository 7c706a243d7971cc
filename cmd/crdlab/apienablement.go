package main

import (
	"fmt"
	"strconv"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/internal/builtin"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// The API server's switches that decide which versions of the admission
// policy kinds it serves and whether it runs the mutating ones:
// --runtime-config (kube-apiserver's flag: "api/all", "api/alpha",
// "api/beta", "GROUP/VERSION" or "GROUP/VERSION/RESOURCE", each =true
// or =false, true when the value is left out) and --feature-gates
// (MutatingAdmissionPolicy, off by default before 1.36).

type enablementFlags struct {
	runtimeConfig []string
	featureGates  []string
}

func (e *enablementFlags) declare(fs *flag.FlagSet) {
	fs.StringSliceVar(&e.runtimeConfig, "runtime-config", nil, "kube-apiserver's --runtime-config: API versions served besides the release's defaults (`GROUP/VERSION[=true|false]`, GROUP/VERSION/RESOURCE, api/alpha, api/beta, api/all; comma-separated), e.g. admissionregistration.k8s.io/v1beta1 serves v1beta1 admission policies")
	fs.StringSliceVar(&e.featureGates, "feature-gates", nil, "kube-apiserver's --feature-gates (`NAME=true|false`, comma-separated): MutatingAdmissionPolicy (off by default before 1.36: mutating policies are then not run)")
}

// apiEnablement is the switches' meaning at a release.
type apiEnablement struct {
	rel     kubeversion.Release
	runtime map[string]bool
	mapGate bool // the MutatingAdmissionPolicy feature gate
}

// policyVersions are the versions of the policy kinds each release has
// storage for (pkg/registry/admissionregistration/rest's v1alpha1Storage
// and v1beta1Storage), from their first and to their last release.
var policyVersions = []struct {
	version, resource string
	from, to          int
}{
	{"v1alpha1", "validatingadmissionpolicies", 31, 32},
	{"v1alpha1", "validatingadmissionpolicybindings", 31, 32},
	{"v1beta1", "validatingadmissionpolicies", 31, kubeversion.Newest},
	{"v1beta1", "validatingadmissionpolicybindings", 31, kubeversion.Newest},
	{"v1alpha1", "mutatingadmissionpolicies", 32, kubeversion.Newest},
	{"v1alpha1", "mutatingadmissionpolicybindings", 32, kubeversion.Newest},
	{"v1beta1", "mutatingadmissionpolicies", 34, kubeversion.Newest},
	{"v1beta1", "mutatingadmissionpolicybindings", 34, kubeversion.Newest},
}

// policyResources are the policy kinds' resources.
var policyResources = map[string]string{
	"ValidatingAdmissionPolicy":        "validatingadmissionpolicies",
	"ValidatingAdmissionPolicyBinding": "validatingadmissionpolicybindings",
	"MutatingAdmissionPolicy":          "mutatingadmissionpolicies",
	"MutatingAdmissionPolicyBinding":   "mutatingadmissionpolicybindings",
}

// mapGateGA is the release from which the MutatingAdmissionPolicy feature
// gate is on by default.
const mapGateGA = 36

func (e *enablementFlags) parse(rel kubeversion.Release) (*apiEnablement, error) {
	out := &apiEnablement{rel: rel, runtime: map[string]bool{}, mapGate: rel.Minor() >= mapGateGA}
	for _, kv := range e.runtimeConfig {
		key, val, hasVal := strings.Cut(kv, "=")
		on := true
		if hasVal {
			b, err := strconv.ParseBool(val)
			if err != nil {
				return nil, fmt.Errorf("--runtime-config %s: invalid value %q: true or false", kv, val)
			}
			on = b
		}
		switch parts := strings.Split(key, "/"); {
		case key == "api/all" || key == "api/ga" || key == "api/beta" || key == "api/alpha":
		case key == "" || len(parts) < 2 || len(parts) > 3:
			return nil, fmt.Errorf("--runtime-config %s: want api/all, api/ga, api/beta, api/alpha, GROUP/VERSION or GROUP/VERSION/RESOURCE", kv)
		}
		out.runtime[key] = on
	}
	for _, kv := range e.featureGates {
		name, val, ok := strings.Cut(kv, "=")
		b, err := strconv.ParseBool(val)
		if !ok || err != nil {
			return nil, fmt.Errorf("--feature-gates %s: want NAME=true or NAME=false", kv)
		}
		if name != "MutatingAdmissionPolicy" {
			return nil, fmt.Errorf("--feature-gates %s: crdlab models the MutatingAdmissionPolicy gate only", kv)
		}
		out.mapGate = b
	}
	return out, nil
}

// enabled is resourceconfig's answer for a version the release has: the
// most specific --runtime-config key wins; without one, a GA version is
// on, a beta or alpha one off.
func (a *apiEnablement) enabled(group, version, resource string) bool {
	for _, key := range []string{group + "/" + version + "/" + resource, group + "/" + version} {
		if on, ok := a.runtime[key]; ok {
			return on
		}
	}
	level := "api/ga"
	switch {
	case strings.Contains(version, "alpha"):
		level = "api/alpha"
	case strings.Contains(version, "beta"):
		level = "api/beta"
	}
	if on, ok := a.runtime[level]; ok {
		return on
	}
	if on, ok := a.runtime["api/all"]; ok {
		return on
	}
	return level == "api/ga"
}

// served is admission.DecodeDocumentServed's question for the policy
// kinds: "" when the release, with the switches, serves apiVersion and
// kind, else kubectl's error for the object named name of file.
func (a *apiEnablement) served(apiVersion, kind, name, file string) string {
	group, version, _ := strings.Cut(apiVersion, "/")
	resource := policyResources[kind]
	if r := builtin.Lookup(a.rel, apiVersion, kind); r != nil && a.enabled(group, version, resource) {
		return ""
	}
	for _, v := range policyVersions {
		if v.version == version && v.resource == resource && a.rel.Minor() >= v.from && a.rel.Minor() <= v.to && a.enabled(group, version, resource) {
			return ""
		}
	}
	return builtin.NoMatchError(name, "", file, apiVersion, kind)
}

// mutatingNote is the note of a run whose mutating policies the
// MutatingAdmissionPolicy feature gate keeps from running, "" when they run.
func (a *apiEnablement) mutatingNote() string {
	if a == nil || a.mapGate {
		return ""
	}
	return fmt.Sprintf("MutatingAdmissionPolicies are not run: the MutatingAdmissionPolicy feature gate is off (by default before 1.36; --feature-gates MutatingAdmissionPolicy=true turns it on at %s)", a.rel)
}

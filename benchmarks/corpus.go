// Package benchmarks compares crdlab's engine with upstream
// (k8s.io/apiextensions-apiserver v0.37.2) on real-world CRDs: compiling a
// CRD (decode, CRD validation, building the per-version validators) and
// validating an object (decode, prune, coerce ObjectMeta, default, validate
// as a create request). The benchmarks live in bench_test.go and are named
// BenchmarkCompile/impl=crdlab|upstream/crd=NAME and
// BenchmarkValidate/impl=.../crd=NAME/obj=NAME so that benchstat can put
// the two implementations side by side.
//
// The corpus is not vendored: the repository's scripts/corpus.sh fetches it
// into the Go module cache (through the Go module proxy, or from the cache).
// When the modules cannot be downloaded the corpus benchmarks are skipped
// and only the CronTab example of the repository runs.
package benchmarks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/internal/yamldoc"
)

// Case is one CRD of the benchmark with the objects validated against it.
type Case struct {
	// Name is the benchmark's crd= label.
	Name string
	// CRD is one CustomResourceDefinition document (YAML).
	CRD []byte
	// Objects are the objects to validate, by obj= label: examples shipped
	// with the project and one generated from the schema ("generated").
	Objects []Object
}

// Object is one object validated in the benchmark.
type Object struct {
	Name string
	JSON []byte
}

// CaseSpec says where a case's CRD and example objects are.
type CaseSpec struct {
	Name string
	// Module is MODULE@VERSION, one of scripts/corpus.sh's modules; "" for
	// the repository's examples/.
	Module string
	File   string // relative to the module (or the repository root)
	// Doc selects the document of a multi-document file by metadata.name.
	Doc string
	// Examples are files (relative to the module) whose documents of the
	// CRD's kind are validated as they are.
	Examples []string
}

// Cases is the curated benchmark set: one or two CRDs per project,
// chosen for variety (size, CEL rules, list types, int-or-string,
// embedded resources, preserved unknown fields).
var Cases = []CaseSpec{
	{Name: "crontab", File: "examples/crontab-crd.yaml", Examples: []string{"examples/valid.yaml", "examples/defaults.yaml"}},
	{Name: "gateway-httproute", Module: "sigs.k8s.io/gateway-api@v1.6.3", File: "config/crd/standard/gateway.networking.k8s.io_httproutes.yaml",
		Examples: []string{"examples/standard/http-filter.yaml", "examples/standard/basic-http.yaml"}},
	{Name: "gateway-gateway", Module: "sigs.k8s.io/gateway-api@v1.6.3", File: "config/crd/standard/gateway.networking.k8s.io_gateways.yaml",
		Examples: []string{"examples/standard/basic-http.yaml", "examples/standard/tls-basic.yaml"}},
	{Name: "istio-virtualservice", Module: "istio.io/istio@v0.0.0-20260827124520-eed52ebb66ad", File: "manifests/charts/base/files/crd-all.gen.yaml", Doc: "virtualservices.networking.istio.io"},
	{Name: "capi-cluster", Module: "sigs.k8s.io/cluster-api@v1.14.2", File: "core/config/crd/bases/cluster.x-k8s.io_clusters.yaml"},
	{Name: "certmanager-certificate", Module: "github.com/cert-manager/cert-manager@v1.21.2", File: "deploy/crds/cert-manager.io_certificates.yaml"},
	{Name: "prometheus-servicemonitor", Module: "github.com/prometheus-operator/prometheus-operator@v0.85.0", File: "example/prometheus-operator-crd-full/monitoring.coreos.com_servicemonitors.yaml"},
	{Name: "prometheus-prometheus", Module: "github.com/prometheus-operator/prometheus-operator@v0.85.0", File: "example/prometheus-operator-crd-full/monitoring.coreos.com_prometheuses.yaml"},
	{Name: "kyverno-clusterpolicy", Module: "github.com/kyverno/kyverno@v1.19.1", File: "config/crds/kyverno/kyverno.io_clusterpolicies.yaml"},
	{Name: "argocd-application", Module: "github.com/argoproj/argo-cd/v3@v3.5.0", File: "manifests/crds/application-crd.yaml"},
}

// FetchScript is the repository's corpus script, relative to this package.
const FetchScript = RepoRoot + "/scripts/corpus.sh"

// moduleDirs maps MODULE@VERSION to its directory in the module cache for
// every module scripts/corpus.sh prints. The script prints the modules it
// could fetch even when it fails on others; a module cache directory ends
// in MODULE@VERSION (the module paths here have no capital letters, which
// the cache would escape).
var moduleDirs = sync.OnceValue(func() map[string]string {
	dirs := map[string]string{}
	out, _ := exec.Command("bash", FetchScript).Output()
	for _, d := range strings.Split(string(out), "\n") {
		if d = strings.TrimSpace(d); d == "" {
			continue
		}
		for _, spec := range Cases {
			if spec.Module != "" && strings.HasSuffix(filepath.ToSlash(d), "/"+spec.Module) {
				dirs[spec.Module] = d
			}
		}
	}
	return dirs
})

// RepoRoot is the crdlab repository, relative to this package.
const RepoRoot = ".."

// LoadCase reads a case's CRD and objects. The error says what is missing
// (e.g. the module could not be downloaded).
func LoadCase(spec CaseSpec) (*Case, error) {
	root := RepoRoot
	if spec.Module != "" {
		d, ok := moduleDirs()[spec.Module]
		if !ok {
			return nil, fmt.Errorf("corpus module %s is not available (%s did not print it: not in its list, or no network and not in the module cache?)", spec.Module, FetchScript)
		}
		root = d
	}
	data, err := os.ReadFile(filepath.Join(root, spec.File))
	if err != nil {
		return nil, err
	}
	crdDoc, err := selectCRD(data, spec.Doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", spec.File, err)
	}
	c := &Case{Name: spec.Name, CRD: crdDoc}
	info, err := crdInfo(crdDoc)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", spec.File, err)
	}
	for _, ex := range spec.Examples {
		b, err := os.ReadFile(filepath.Join(root, ex))
		if err != nil {
			return nil, err
		}
		docs, err := splitYAML(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", ex, err)
		}
		for i, doc := range docs {
			js, err := yaml.YAMLToJSON(doc)
			if err != nil {
				return nil, fmt.Errorf("%s document %d: %v", ex, i, err)
			}
			var tm struct{ APIVersion, Kind string }
			if json.Unmarshal(js, &tm) != nil || tm.Kind != info.kind || !strings.HasPrefix(tm.APIVersion, info.group+"/") {
				continue
			}
			name := strings.TrimSuffix(filepath.Base(ex), filepath.Ext(ex))
			if i > 0 {
				name = fmt.Sprintf("%s-%d", name, i)
			}
			c.Objects = append(c.Objects, Object{Name: name, JSON: js})
		}
	}
	return c, nil
}

type crdSummary struct {
	group, kind, storage string
	namespaced           bool
}

func crdInfo(doc []byte) (*crdSummary, error) {
	var c struct {
		Spec struct {
			Group string
			Scope string
			Names struct{ Kind string }
			// Versions carry the schema; only name and storage matter here.
			Versions []struct {
				Name    string
				Storage bool
			}
		}
	}
	if err := yaml.Unmarshal(doc, &c); err != nil {
		return nil, err
	}
	s := &crdSummary{group: c.Spec.Group, kind: c.Spec.Names.Kind, namespaced: c.Spec.Scope == "Namespaced"}
	for _, v := range c.Spec.Versions {
		if v.Storage {
			s.storage = v.Name
		}
	}
	if s.storage == "" {
		return nil, fmt.Errorf("no storage version")
	}
	return s, nil
}

// selectCRD returns the CRD document named name ("" = the only CRD).
func selectCRD(data []byte, name string) ([]byte, error) {
	var found [][]byte
	var names []string
	docs, err := splitYAML(data)
	if err != nil {
		return nil, err
	}
	for _, doc := range docs {
		var m struct {
			Kind     string
			Metadata struct{ Name string }
		}
		if yaml.Unmarshal(doc, &m) != nil || m.Kind != "CustomResourceDefinition" {
			continue
		}
		names = append(names, m.Metadata.Name)
		if name == "" || m.Metadata.Name == name {
			found = append(found, doc)
		}
	}
	if len(found) != 1 {
		sort.Strings(names)
		return nil, fmt.Errorf("want exactly one CustomResourceDefinition %q, found %d (CRDs in file: %v)", name, len(found), names)
	}
	return found[0], nil
}

// splitYAML splits a YAML stream as kubectl does (see internal/yamldoc) and
// drops the documents holding only white space.
func splitYAML(data []byte) ([][]byte, error) {
	docs, err := yamldoc.Split(data)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, d := range docs {
		if len(bytes.TrimSpace(d.Data)) > 0 {
			out = append(out, d.Data)
		}
	}
	return out, nil
}

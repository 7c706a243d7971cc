package wasm

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/testsupport/casefile"
	"github.com/crdlab/crdlab/internal/testsupport/corpus"
	"github.com/crdlab/crdlab/wire"
	"sigs.k8s.io/yaml"
)

// request is one parity input: a CRD and optionally an object sent to it.
type request struct {
	name                                  string
	crd, object, old                      []byte
	version, subresource, fieldValidation string
	crdFieldValidation                    string
	// oldCRD makes the CRD an update of it (storedVersions: its
	// status.storedVersions).
	oldCRD         []byte
	storedVersions []string
	// kubeVersion is the release of the compile ("" the default).
	kubeVersion string
}

// native runs a request through the engine package as the module does, and
// returns json.Marshal of the report, or "<Code>: <message>" for an error.
func native(req request) string {
	return nativeWith(&compileCache{}, req)
}

// compileCache compiles each distinct CRD once, natively and in the module.
type compileCache struct {
	native map[string]nativeCompiled
	module map[string]moduleCompiled
}

type nativeCompiled struct {
	c   *engine.CRD
	err error
}

type moduleCompiled struct {
	c   *CRD
	err error
}

func (cc *compileCache) compileNative(req request) (*engine.CRD, error) {
	if cc.native == nil {
		cc.native = map[string]nativeCompiled{}
	}
	key := req.compileKey()
	if n, ok := cc.native[key]; ok {
		return n.c, n.err
	}
	if req.oldCRD != nil {
		c, err := nativeUpdate(req)
		cc.native[key] = nativeCompiled{c, err}
		return c, err
	}
	c, err := engine.CompileWithOptions(req.crd, engine.CompileOptions{FieldValidation: engine.FieldValidation(req.crdFieldValidation), KubeVersion: req.kubeVersion})
	cc.native[key] = nativeCompiled{c, err}
	return c, err
}

func (cc *compileCache) compileModule(r *Runtime, req request) (*CRD, error) {
	if cc.module == nil {
		cc.module = map[string]moduleCompiled{}
	}
	key := req.compileKey()
	if m, ok := cc.module[key]; ok {
		return m.c, m.err
	}
	c, err := r.CompileWithOptions(context.Background(), req.crd, CompileOptions{FieldValidation: FieldValidation(req.crdFieldValidation), OldCRD: req.oldCRD, StoredVersions: req.storedVersions, KubeVersion: req.kubeVersion})
	cc.module[key] = moduleCompiled{c, err}
	return c, err
}

func nativeWith(cc *compileCache, req request) string {
	c, err := cc.compileNative(req)
	if err != nil {
		return "DecodeError: " + err.Error()
	}
	if req.object == nil {
		b, _ := json.Marshal(wire.LintResult{CRD: engine.NewReport(c, nil).CRD})
		return string(b) + " versions=" + strings.Join(c.ServedVersions(), ",")
	}
	if !c.Valid() {
		b, _ := json.Marshal(engine.NewReport(c, nil))
		return string(b)
	}
	opts := engine.ValidateOptions{Version: req.version, Subresource: req.subresource, FieldValidation: engine.FieldValidation(req.fieldValidation)}
	if len(req.old) > 0 {
		opts.Old = req.old
	}
	res, err := c.Validate(req.object, opts)
	if err != nil {
		return "Invalid: " + err.Error()
	}
	b, _ := json.Marshal(engine.NewReport(c, res))
	return string(b)
}

// viaModule runs a request through the module, in the same output shape as
// native. The CRD-only form re-marshals the compile report (a
// wire.CRDReport, as native); lintRaw checks the raw "lint" bytes.
func viaModule(t testing.TB, cc *compileCache, r *Runtime, req request) string {
	ctx := context.Background()
	c, err := cc.compileModule(r, req)
	if err != nil {
		return errString(t, err)
	}
	if req.object == nil {
		b, _ := json.Marshal(wire.LintResult{CRD: c.Report()})
		return string(b) + " versions=" + strings.Join(c.ServedVersions(), ",")
	}
	raw, err := c.ValidateRaw(ctx, req.object, ValidateOptions{Version: req.version, Old: req.old, Subresource: req.subresource, FieldValidation: FieldValidation(req.fieldValidation)})
	if err != nil {
		return errString(t, err)
	}
	return string(raw)
}

func errString(t testing.TB, err error) string {
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error that is not a module error: %v", err)
	}
	if e.Code == wire.CodeTrap || e.Code == wire.CodePanic {
		t.Fatalf("module failed: %v", err)
	}
	return string(e.Code) + ": " + e.Message
}

// checkParity requires byte-identical outputs.
func checkParity(t *testing.T, r *Runtime, reqs []request) {
	t.Helper()
	checkParityWith(t, r, &compileCache{}, reqs)
}

func checkParityWith(t *testing.T, r *Runtime, cc *compileCache, reqs []request) {
	t.Helper()
	for _, req := range reqs {
		start := time.Now()
		want := nativeWith(cc, req)
		mid := time.Now()
		got := viaModule(t, cc, r, req)
		if d := time.Since(start); d > 2*time.Second {
			t.Logf("%s: native %v, module %v", req.name, mid.Sub(start).Round(time.Millisecond), time.Since(mid).Round(time.Millisecond))
		}
		if got != want {
			t.Errorf("%s: module and native differ\nnative: %.2000s\nmodule: %.2000s", req.name, want, got)
		}
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParityExamples: every object of examples/ against the CronTab CRD, under
// each fieldValidation, as creates and as updates of valid.yaml.
func TestParityExamples(t *testing.T) {
	dir := filepath.Join(repoRoot, "examples")
	crdYAML := readFile(t, filepath.Join(dir, "crontab-crd.yaml"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	old := readFile(t, filepath.Join(dir, "valid.yaml"))
	reqs := []request{{name: "crontab-crd.yaml", crd: crdYAML}}
	for _, f := range files {
		if strings.HasSuffix(f, "crontab-crd.yaml") {
			continue
		}
		obj := readFile(t, f)
		for _, fv := range []string{"", "Strict", "Warn", "Ignore"} {
			reqs = append(reqs, request{name: filepath.Base(f) + "/" + fv, crd: crdYAML, object: obj, fieldValidation: fv})
		}
		reqs = append(reqs, request{name: filepath.Base(f) + "/update", crd: crdYAML, object: obj, old: old})
		reqs = append(reqs, request{name: filepath.Base(f) + "/status", crd: crdYAML, object: obj, old: old, subresource: "status"})
		reqs = append(reqs, request{name: filepath.Base(f) + "/unknown-version", crd: crdYAML, object: obj, version: "v9"})
	}
	if len(reqs) < 10 {
		t.Fatalf("only %d requests from %s", len(reqs), dir)
	}
	r := newRuntime(t, Options{})
	checkParity(t, r, reqs)
	lintRaw(t, r, crdYAML)
}

// lintRaw requires the raw result of "lint" to be json.Marshal of the
// native CRD report.
func lintRaw(t *testing.T, r *Runtime, crd []byte) {
	c, err := engine.Compile(crd)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(wire.LintResult{CRD: engine.NewReport(c, nil).CRD})
	body, _ := json.Marshal(textRequest(wire.OpLint, crd, CompileOptions{}))
	raw, err := r.Call(context.Background(), body)
	if err != nil {
		t.Fatal(err)
	}
	var env wire.Response
	if err := json.Unmarshal(raw, &env); err != nil || !env.OK {
		t.Fatalf("lint response %.500s (%v)", raw, err)
	}
	if string(env.Result) != string(want) {
		t.Errorf("lint: module and native differ\nnative: %s\nmodule: %s", want, env.Result)
	}
}

// loadConformanceCases resolves every case of conformance/testdata/cases
// with the conformance suite's loader (internal/testsupport/casefile). A case with an
// old CRD compiles as a CRD update (CompileOptions.OldCRD).
func loadConformanceCases(t *testing.T) []request {
	cases, err := casefile.Load(filepath.Join(repoRoot, "conformance", "testdata", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]request, len(cases))
	for i, c := range cases {
		r := c.Request
		out[i] = request{name: c.ID, crd: r.CRD, object: r.Object, old: r.Old,
			version: r.Version, subresource: r.Subresource, fieldValidation: r.FieldValidation, crdFieldValidation: r.CRDFieldValidation,
			oldCRD: r.OldCRD, storedVersions: r.StoredVersions}
	}
	return out
}

// TestParityConformanceCases: every case of conformance/testdata/cases.
func TestParityConformanceCases(t *testing.T) {
	reqs := loadConformanceCases(t)
	if len(reqs) == 0 {
		t.Fatal("no conformance cases found")
	}
	t.Logf("%d conformance cases", len(reqs))
	checkParity(t, newRuntime(t, Options{}), reqs)
}

// corpusDirs returns the corpus module directories, or skips. The
// repository's scripts/corpus.sh runs offline (GOPROXY=off): the modules
// must be in the module cache already. See internal/testsupport/corpus.
func corpusDirs(t testing.TB) []string {
	dirs, err := corpus.Dirs(corpus.Options{})
	if err != nil {
		testenv.Unavailable(t, "corpus not available: %v", err)
	}
	return dirs
}

var docSep = regexp.MustCompile(`(?m)^---[ \t]*$`)

// documents splits multi-document YAML.
func documents(b []byte) [][]byte {
	var out [][]byte
	for _, d := range docSep.Split(string(b), -1) {
		if strings.TrimSpace(d) != "" {
			out = append(out, []byte(d))
		}
	}
	return out
}

var crdKind = regexp.MustCompile(`(?m)^kind: CustomResourceDefinition\s*$`)

// corpusCRDs returns every CRD document of the corpus, by file.
func corpusCRDs(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	for _, dir := range corpusDirs(t) {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || !crdKind.Match(b) {
				return nil
			}
			for i, doc := range documents(b) {
				if crdKind.Match(doc) {
					rel, _ := filepath.Rel(filepath.Dir(dir), p)
					out[rel+"#"+string(rune('0'+i))] = doc
				}
			}
			return nil
		})
	}
	return out
}

// corpusSample picks, by default, a sample that keeps `go test ./...` short:
// the Gateway API HTTPRoute and the Prometheus CRDs plus the first CRD (by
// path) of every corpus module. CRDLAB_CORPUS=all checks every CRD.
func corpusSample(names []string) []string {
	if os.Getenv("CRDLAB_CORPUS") == "all" {
		return names
	}
	var out []string
	perModule := map[string]int{}
	for _, n := range names {
		mod := strings.SplitN(n, "/", 2)[0]
		if perModule[mod] < 1 || strings.HasSuffix(n, "standard/gateway.networking.k8s.io_httproutes.yaml#0") ||
			strings.HasSuffix(n, "example/prometheus-operator-crd/monitoring.coreos.com_prometheuses.yaml#0") {
			out = append(out, n)
			perModule[mod]++
		}
	}
	return out
}

// TestParityCorpus: corpus CRDs (their compile report, and a minimal object
// of their kind at each served version), and every Gateway API example
// object against its experimental-channel CRD. A sample by default (and
// only the HTTPRoute examples); everything with CRDLAB_CORPUS=all.
func TestParityCorpus(t *testing.T) {
	crds := corpusCRDs(t)
	if testing.Short() {
		t.Skip("corpus parity skipped in -short mode")
	}
	all := slices.Sorted(maps.Keys(crds))
	names := corpusSample(all)
	r := newRuntime(t, Options{MaxInstances: 1})
	start := time.Now()
	nreq := 0
	// One group per CRD, checked and released before the next, so that
	// memory stays flat over hundreds of CRDs.
	check := func(crd []byte, reqs []request) {
		var cc compileCache
		checkParityWith(t, r, &cc, reqs)
		for _, m := range cc.module {
			if m.c != nil {
				m.c.Close()
			}
		}
		nreq += len(reqs)
	}
	for _, n := range names {
		doc := crds[n]
		reqs := []request{{name: n, crd: doc}}
		c, err := engine.Compile(doc)
		if err == nil && len(c.Errors()) == 0 {
			def := c.Definition()
			for _, v := range c.ServedVersions() {
				obj := []byte(`{"apiVersion":"` + def.Spec.Group + "/" + v + `","kind":"` + def.Spec.Names.Kind + `","metadata":{"name":"parity","namespace":"default"}}`)
				reqs = append(reqs, request{name: n + "/minimal-" + v, crd: doc, object: obj})
			}
		}
		check(doc, reqs)
	}
	gateway := map[string][]byte{} // kind → experimental-channel CRD
	for _, n := range all {
		if strings.Contains(n, "gateway-api") && strings.Contains(n, "/experimental/") {
			var head struct {
				Spec struct {
					Names struct {
						Kind string `json:"kind"`
					} `json:"names"`
				} `json:"spec"`
			}
			if yaml.Unmarshal(crds[n], &head) == nil {
				gateway[head.Spec.Names.Kind] = crds[n]
			}
		}
	}
	byKind := map[string][]request{}
	examples := 0
	for _, dir := range corpusDirs(t) {
		if !strings.Contains(dir, "gateway-api@") {
			continue
		}
		_ = filepath.WalkDir(filepath.Join(dir, "examples"), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
				return nil
			}
			b, _ := os.ReadFile(p)
			for i, doc := range documents(b) {
				var head struct {
					APIVersion string `json:"apiVersion"`
					Kind       string `json:"kind"`
				}
				if yaml.Unmarshal(doc, &head) != nil || !strings.HasPrefix(head.APIVersion, "gateway.networking.k8s.io/") || gateway[head.Kind] == nil {
					continue
				}
				if head.Kind != "HTTPRoute" && os.Getenv("CRDLAB_CORPUS") != "all" {
					continue
				}
				rel, _ := filepath.Rel(dir, p)
				byKind[head.Kind] = append(byKind[head.Kind], request{name: rel + "#" + string(rune('0'+i)), crd: gateway[head.Kind], object: doc})
				examples++
			}
			return nil
		})
	}
	kinds := slices.Sorted(maps.Keys(byKind))
	for _, k := range kinds {
		check(gateway[k], byKind[k])
	}
	t.Logf("%d of %d corpus CRDs (CRDLAB_CORPUS=all for every one), %d Gateway API example objects: %d requests in %v",
		len(names), len(all), examples, nreq, time.Since(start).Round(time.Millisecond))
	if examples == 0 {
		t.Error("no Gateway API example objects found")
	}
}

// TestParityCost: the "cost" report through the module is json.Marshal of
// the native cost report, byte for byte.
func TestParityCost(t *testing.T) {
	crd := strings.Replace(string(crontabCRD(t)), "              properties:\n                cronSpec:",
		"              x-kubernetes-validations:\n              - rule: \"self.tags.all(a, a.size() < 5)\"\n              properties:\n                tags:\n                  type: array\n                  items:\n                    type: string\n                cronSpec:", 1)
	if !strings.Contains(crd, "self.tags.all") {
		t.Fatal("examples/crontab-crd.yaml changed shape")
	}
	obj := crontab(`{"image":"a","tags":["x","yy"]}`)
	rep, err := cost.AnalyzeBytes([]byte(crd), obj)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(rep)
	got, err := newRuntime(t, Options{}).Cost(context.Background(), []byte(crd), obj)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("cost: module and native differ\nnative: %s\nmodule: %s", want, got)
	}
}

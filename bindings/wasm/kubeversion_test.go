package wasm

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/conversion"
	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/upgrade"
	"github.com/crdlab/crdlab/wire"
)

// setOfObjects is a CRD whose create 1.37 warns about (a list-type set of
// objects) and 1.36 does not (kubeversion.ListTypeSetNonScalarWarning).
const setOfObjects = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pools.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: pools, singular: pool, kind: Pool}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          members:
            type: array
            x-kubernetes-list-type: set
            items: {type: object, x-kubernetes-map-type: atomic, properties: {name: {type: string}}}
`

// releaseRequests are the parity inputs whose verdicts differ between
// releases: the cases of conformance/testdata/cases/18_releases.yaml, the
// set-of-objects CRD and the widgets of examples/kube-versions (int32
// range checks from 1.36, owner references per index from 1.37).
func releaseRequests(t *testing.T) []request {
	var out []request
	for _, r := range loadConformanceCases(t) {
		if strings.HasPrefix(r.name, "18_releases/") {
			out = append(out, r)
		}
	}
	if len(out) < 5 {
		t.Fatalf("only %d cases in 18_releases", len(out))
	}
	widgets := readFile(t, filepath.Join(repoRoot, "examples", "kube-versions", "widgets-crd.yaml"))
	out = append(out, request{name: "set of objects", crd: []byte(setOfObjects)})
	for i, obj := range documents(readFile(t, filepath.Join(repoRoot, "examples", "kube-versions", "widgets.yaml"))) {
		out = append(out, request{name: "widget " + string(rune('a'+i)), crd: widgets, object: obj})
	}
	return out
}

// TestParityAtEveryRelease: at each supported release, the module gives
// the native engine's report for the inputs that differ between releases,
// and the releases do give different reports (the option reaches the
// module's compile).
func TestParityAtEveryRelease(t *testing.T) {
	r := newRuntime(t, Options{})
	base := releaseRequests(t)
	byRelease := map[string][]string{}
	for _, kube := range engine.SupportedKubeVersions() {
		t.Run(kube, func(t *testing.T) {
			reqs := make([]request, len(base))
			for i, req := range base {
				req.kubeVersion = kube
				reqs[i] = req
			}
			cc := &compileCache{}
			checkParityWith(t, r, cc, reqs)
			for _, req := range reqs {
				byRelease[kube] = append(byRelease[kube], nativeWith(cc, req))
			}
		})
	}
	for _, pair := range [][2]string{{"1.36", "1.37"}, {"1.35", "1.36"}} {
		a, b := byRelease[pair[0]], byRelease[pair[1]]
		if a != nil && b != nil && reflect.DeepEqual(a, b) {
			t.Errorf("%s and %s give the same reports: the inputs no longer tell them apart", pair[0], pair[1])
		}
	}
}

// TestKubeVersionOptions: each option naming a release reaches its op,
// whose answer is the native package's at that release; the supported
// releases come from the module; an unsupported release is a BadRequest
// with the CLI's message.
func TestKubeVersionOptions(t *testing.T) {
	ctx := context.Background()
	r := newRuntime(t, Options{})
	supported, def, err := r.KubeVersions(ctx)
	if err != nil || !reflect.DeepEqual(supported, engine.SupportedKubeVersions()) || def != engine.DefaultKubeVersion {
		t.Fatalf("KubeVersions: %v %q %v", supported, def, err)
	}
	const kube = "1.35"
	gadgets := readFile(t, filepath.Join(repoRoot, "examples", "kube-versions", "gadgets-crd.yaml"))
	widgets := readFile(t, filepath.Join(repoRoot, "examples", "kube-versions", "widgets-crd.yaml"))
	huge := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"huge"},"spec":{"replicas":4294967296}}`)

	c, err := r.CompileWithOptions(ctx, gadgets, CompileOptions{KubeVersion: "v" + kube})
	if err != nil || c.KubeVersion() != kube {
		t.Fatalf("compile at v%s: %v, KubeVersion %q", kube, err, c.KubeVersion())
	}
	if dflt, _ := r.Compile(ctx, gadgets); dflt.KubeVersion() != def || len(dflt.Errors()) != 0 || len(c.Errors()) == 0 {
		t.Errorf("gadgets: %d errors at %s (want 0), %d at %s (want the cost error)", len(dflt.Errors()), dflt.KubeVersion(), len(c.Errors()), kube)
	}

	def35, err := crd.DecodeOne(gadgets, "")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := cost.AnalyzeWithOptions(def35, cost.AnalyzeOptions{KubeVersion: kube})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.CostWithOptions(ctx, gadgets, CompileOptions{KubeVersion: kube})
	sameJSON(t, "cost", got, err, rep)

	objs := []upgrade.Object{{Source: "huge", Data: huge}}
	up, err := upgrade.Check(widgets, widgets, objs, upgrade.Options{KubeVersion: kube})
	if err != nil {
		t.Fatal(err)
	}
	got, err = r.UpgradeRaw(ctx, widgets, widgets, []UpgradeObject{{Source: "huge", Data: huge}}, UpgradeOptions{KubeVersion: kube})
	sameJSON(t, "upgrade", got, err, up)

	files := map[string][]byte{"widgets-crd.yaml": widgets, "huge.crdtest.yaml": []byte("name: huge\ncrd: widgets-crd.yaml\ntests:\n  onCreate:\n  - name: huge\n    initial: '" + string(huge) + "'\n")}
	for _, k := range []string{kube, "1.36"} {
		tr, err := r.Test(ctx, files, TestOptions{KubeVersion: k})
		if err != nil {
			t.Fatal(err)
		}
		native, err := crdtest.RunFiles(files, crdtest.Options{KubeVersion: k, Parallel: 1}, ".")
		if err != nil {
			t.Fatal(err)
		}
		if w := native.Wire(); tr.Passed != w.Passed || tr.Failed != w.Failed || (tr.Failed == 0) != (k == kube) {
			t.Errorf("test at %s: %d passed %d failed, native %d %d", k, tr.Passed, tr.Failed, w.Passed, w.Failed)
		}
	}

	convCRD := readFile(t, filepath.Join(repoRoot, "examples", "conversion", "crd.yaml"))
	review := readFile(t, filepath.Join(repoRoot, "examples", "conversion", "request.json"))
	response := readFile(t, filepath.Join(repoRoot, "examples", "conversion", "response-invalid-object.json"))
	cr, err := conversion.Check(convCRD, review, response, conversion.Options{KubeVersion: kube})
	if err != nil {
		t.Fatal(err)
	}
	got, err = r.ConversionReviewRaw(ctx, convCRD, review, response, ConversionReviewOptions{KubeVersion: kube})
	sameJSON(t, "conversionReview", got, err, cr)

	sr, err := r.Schema(ctx, []byte(setOfObjects), SchemaOptions{KubeVersion: "1.36"})
	if err != nil || len(sr.CRD.Warnings) != 0 || len(sr.Schemas) != 1 {
		t.Errorf("schema at 1.36: %+v %v (want no warnings, one schema)", sr, err)
	}

	for _, bad := range []string{"1.30", "1.x"} {
		_, perr := engine.CompileWithOptions(gadgets, engine.CompileOptions{KubeVersion: bad})
		_, err := r.CompileWithOptions(ctx, gadgets, CompileOptions{KubeVersion: bad})
		var e *Error
		if !errors.As(err, &e) || e.Code != wire.CodeBadRequest || perr == nil || !strings.Contains(perr.Error(), e.Message) || !strings.Contains(e.Message, "1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37") {
			t.Errorf("compile at %q: %v, want BadRequest with the native message %v", bad, err, perr)
		}
		if _, err := r.Test(ctx, files, TestOptions{KubeVersion: bad}); !errors.As(err, &e) || e.Code != wire.CodeBadRequest {
			t.Errorf("test at %q: %v", bad, err)
		}
	}
}

func sameJSON(t *testing.T, what string, got json.RawMessage, err error, native interface{}) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	want, _ := json.Marshal(native)
	if string(got) != string(want) {
		t.Errorf("%s: module and native differ\nnative: %s\nmodule: %s", what, want, got)
	}
}

// TestKubeVersionNeedsAModuleThatReadsIt: a module older than kubeVersion
// (it answers "version" without kubeVersions) would ignore the member and
// answer at the default release, so the binding asks first; this module
// lists its releases, and the answer is asked once.
func TestKubeVersionNeedsAModuleThatReadsIt(t *testing.T) {
	r := newRuntime(t, Options{})
	ctx := context.Background()
	r.mu.Lock()
	r.kubeReleases = false
	r.mu.Unlock()
	if err := r.requireKubeVersion(ctx, "1.36"); err != nil {
		t.Fatalf("this module lists its releases: %v", err)
	}
	if !r.kubeReleases {
		t.Fatal("the answer is not remembered")
	}
}

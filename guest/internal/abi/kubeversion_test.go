package abi

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/conversion"
	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/engine"
	crdtypes "github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/upgrade"
	"github.com/crdlab/crdlab/wire"
)

// setOfObjects is a CRD whose create 1.37 warns about (a list-type set of
// objects, kubeversion.ListTypeSetNonScalarWarning) and 1.36 does not.
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

// hugeWidget is valid at 1.35 and out of int32's range from 1.36
// (kubeversion.NumericFormats).
const hugeWidget = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"huge"},"spec":{"replicas":4294967296}}`

func TestVersionListsTheSupportedReleases(t *testing.T) {
	env := call(t, NewServer(), `{"op":"version"}`)
	var v wire.VersionResult
	mustDecode(t, env.Result, &v)
	if !reflect.DeepEqual(v.KubeVersions, engine.SupportedKubeVersions()) || v.DefaultKubeVersion != engine.DefaultKubeVersion {
		t.Fatalf("version: kubeVersions %v default %q, want %v and %q", v.KubeVersions, v.DefaultKubeVersion, engine.SupportedKubeVersions(), engine.DefaultKubeVersion)
	}
	// the default is a supported release, not necessarily the newest (a
	// release in beta is supported before it becomes the default)
	if len(v.KubeVersions) < 2 || !slices.Contains(v.KubeVersions, v.DefaultKubeVersion) {
		t.Fatalf("version: the default %q is not among %v", v.DefaultKubeVersion, v.KubeVersions)
	}
}

// TestCompileAtARelease: "compile" and "lint" with kubeVersion answer the
// native engine's report at that release, the handle keeps the release
// and validates as it does.
func TestCompileAtARelease(t *testing.T) {
	s := NewServer()
	for _, tt := range []struct {
		kube, want string
		warns      bool
	}{
		{"", "1.37", true},
		{"1.37", "1.37", true},
		{"1.36", "1.36", false},
		{"v1.35", "1.35", false},
	} {
		c, err := engine.CompileWithOptions([]byte(setOfObjects), engine.CompileOptions{KubeVersion: tt.kube})
		if err != nil {
			t.Fatal(err)
		}
		native := engine.NewReport(c, nil).CRD
		if (len(native.Warnings) > 0) != tt.warns {
			t.Fatalf("%q: the test CRD no longer tells 1.36 from 1.37: %v", tt.kube, native.Warnings)
		}
		env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": setOfObjects, "kubeVersion": tt.kube}))
		var res wire.CompileResult
		mustDecode(t, env.Result, &res)
		if res.KubeVersion != tt.want || !reflect.DeepEqual(res.CRD, native) {
			t.Errorf("compile %q: kubeVersion %q, report %+v; want %q, %+v", tt.kube, res.KubeVersion, res.CRD, tt.want, native)
		}
		env = call(t, s, request(t, map[string]interface{}{"op": "lint", "crd": setOfObjects, "kubeVersion": tt.kube}))
		want, _ := json.Marshal(wire.LintResult{CRD: native})
		if string(env.Result) != string(want) {
			t.Errorf("lint %q:\n got %s\nwant %s", tt.kube, env.Result, want)
		}
	}

	widgets := readTestFile(t, "examples/kube-versions/widgets-crd.yaml")
	for kube, valid := range map[string]bool{"1.35": true, "1.36": false, "": false} {
		env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": widgets, "kubeVersion": kube}))
		var res wire.CompileResult
		mustDecode(t, env.Result, &res)
		env = call(t, s, request(t, map[string]interface{}{"op": "validate", "handle": res.Handle, "object": hugeWidget}))
		var rep wire.Report
		mustDecode(t, env.Result, &rep)
		if got := rep.Object != nil && len(rep.Object.Errors) == 0; got != valid {
			t.Errorf("validate at %q: valid %v, want %v: %+v", kube, got, valid, rep.Object)
		}
	}

	// A CRD update at a release: lint --old --kube-version.
	c, err := engine.CompileUpdate([]byte(setOfObjects), []byte(crd), engine.UpdateOptions{KubeVersion: "1.36"})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(wire.LintResult{CRD: engine.NewReport(c, nil).CRD})
	env := call(t, s, request(t, map[string]interface{}{"op": "lint", "crd": setOfObjects, "oldCrd": crd, "kubeVersion": "1.36"}))
	if string(env.Result) != string(want) {
		t.Errorf("lint --old at 1.36:\n got %s\nwant %s", env.Result, want)
	}
}

// TestOpsAtARelease: "cost", "upgrade", "test", "conversionReview" and
// "schema" with kubeVersion answer the native package at that release.
func TestOpsAtARelease(t *testing.T) {
	gadgets := readTestFile(t, "examples/kube-versions/gadgets-crd.yaml")
	widgets := readTestFile(t, "examples/kube-versions/widgets-crd.yaml")
	s := NewServer()
	for _, kube := range []string{"1.35", "1.36"} {
		t.Run(kube, func(t *testing.T) {
			def, err := crdtypes.DecodeOne([]byte(gadgets), "")
			if err != nil {
				t.Fatal(err)
			}
			rep, err := cost.AnalyzeWithOptions(def, cost.AnalyzeOptions{KubeVersion: kube})
			if err != nil {
				t.Fatal(err)
			}
			same(t, "cost", call(t, s, request(t, map[string]interface{}{"op": "cost", "crd": gadgets, "kubeVersion": kube})), rep)
			same(t, "cost (Warn)", call(t, s, request(t, map[string]interface{}{"op": "cost", "crd": gadgets, "crdFieldValidation": "Warn", "kubeVersion": kube})), rep)
			if rep.Accepted {
				t.Errorf("cost at %s: the gadgets CRD is accepted (1.37 only accepts it)", kube)
			}

			up, err := upgrade.Check([]byte(crd), []byte(widgets), []upgrade.Object{{Source: "objects[0]", Data: []byte(hugeWidget)}}, upgrade.Options{KubeVersion: kube})
			if err != nil {
				t.Fatal(err)
			}
			same(t, "upgrade", call(t, s, request(t, map[string]interface{}{"op": "upgrade", "oldCrd": crd, "crd": widgets, "objects": []string{hugeWidget}, "kubeVersion": kube})), up)

			files := map[string]string{"widgets-crd.yaml": widgets, "huge.crdtest.yaml": "name: huge\ncrd: widgets-crd.yaml\ntests:\n  onCreate:\n  - name: huge is valid\n    initial: '" + hugeWidget + "'\n"}
			bytes := map[string][]byte{}
			for k, v := range files {
				bytes[k] = []byte(v)
			}
			tr, err := crdtest.RunFiles(bytes, crdtest.Options{Parallel: 1, KubeVersion: kube}, ".")
			if err != nil {
				t.Fatal(err)
			}
			env := call(t, s, request(t, map[string]interface{}{"op": "test", "files": files, "kubeVersion": kube}))
			got := seconds.ReplaceAllString(string(env.Result), `"seconds":0`)
			w, _ := json.Marshal(tr.Wire())
			if want := seconds.ReplaceAllString(string(w), `"seconds":0`); got != want {
				t.Errorf("test:\n got %s\nwant %s", got, want)
			}
			if passed := kube == "1.35"; (tr.Wire().Failed == 0) != passed {
				t.Errorf("test at %s: %d failed; the suite no longer tells 1.35 from 1.36", kube, tr.Wire().Failed)
			}
			// defaultKubeVersion (a .crdlab.yaml's release): the suite names
			// none, so it runs at that release too.
			env = call(t, s, request(t, map[string]interface{}{"op": "test", "files": files, "defaultKubeVersion": kube}))
			if got := seconds.ReplaceAllString(string(env.Result), `"seconds":0`); got != seconds.ReplaceAllString(string(w), `"seconds":0`) {
				t.Errorf("test with defaultKubeVersion %s:\n got %s %+v\nwant %s", kube, got, env.Error, w)
			}
			env = call(t, s, request(t, map[string]interface{}{"op": "test", "files": files, "defaultKubeVersion": "1.30"}))
			if env.Error == nil || env.Error.Code != wire.CodeBadRequest || !strings.HasPrefix(env.Error.Message, `"defaultKubeVersion": `) {
				t.Errorf("test with defaultKubeVersion 1.30: %+v, want a BadRequest", env.Error)
			}

			convCRD := readTestFile(t, "examples/conversion/crd.yaml")
			review := readTestFile(t, "examples/conversion/request.json")
			response := readTestFile(t, "examples/conversion/response.json")
			cr, err := conversion.Check([]byte(convCRD), []byte(review), []byte(response), conversion.Options{KubeVersion: kube})
			if err != nil {
				t.Fatal(err)
			}
			same(t, "conversionReview", call(t, s, request(t, map[string]interface{}{"op": "conversionReview", "crd": convCRD, "review": review, "reviewResponse": response, "kubeVersion": kube})), cr)

			c, err := engine.CompileWithOptions([]byte(setOfObjects), engine.CompileOptions{KubeVersion: kube})
			if err != nil {
				t.Fatal(err)
			}
			env = call(t, s, request(t, map[string]interface{}{"op": "schema", "crd": setOfObjects, "kubeVersion": kube}))
			var sr wire.SchemaResult
			mustDecode(t, env.Result, &sr)
			if native := engine.NewReport(c, nil).CRD; !reflect.DeepEqual(sr.CRD, native) || len(sr.Schemas) != 1 {
				t.Errorf("schema: %+v, want the CRD report %+v and one schema", sr, native)
			}
		})
	}
}

func same(t *testing.T, what string, env wire.Response, native interface{}) {
	t.Helper()
	want, _ := json.Marshal(native)
	if env.Error != nil || string(env.Result) != string(want) {
		t.Errorf("%s:\n got %s %+v\nwant %s", what, env.Result, env.Error, want)
	}
}

// TestBadKubeVersionIsABadRequest: every op taking kubeVersion answers a
// malformed or unsupported one with BadRequest and kubeversion.Parse's
// message (the CLI's), which names the supported releases.
func TestBadKubeVersionIsABadRequest(t *testing.T) {
	s := NewServer()
	env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": crd}))
	var compiled wire.CompileResult
	mustDecode(t, env.Result, &compiled)
	requests := map[string]map[string]interface{}{
		"compile":          {"op": "compile", "crd": crd},
		"lint":             {"op": "lint", "crd": crd},
		"lint --old":       {"op": "lint", "crd": crd, "oldCrd": crd},
		"cost":             {"op": "cost", "crd": crd},
		"upgrade":          {"op": "upgrade", "crd": crd, "oldCrd": crd},
		"test":             {"op": "test", "files": map[string]string{"a.crdtest.yaml": "name: a"}},
		"conversionReview": {"op": "conversionReview", "crd": crd, "review": "{}"},
		"schema":           {"op": "schema", "crd": crd},
		"schema (handle)":  {"op": "schema", "handle": compiled.Handle},
	}
	for _, kube := range []string{"1.30", "1.39", "1.x", "2.37", "v1.", "1.037x", "1.99999999999999999999", " 1.36", "1.36 ", "latest", strings.Repeat("9", 10000), "1.\u0663\u0667"} {
		_, perr := kubeversion.Parse(kube)
		if perr == nil {
			t.Fatalf("%q parses", kube)
		}
		if !strings.Contains(perr.Error(), kubeversion.SupportedList()) {
			t.Fatalf("%q: %v does not name the supported releases", kube, perr)
		}
		for name, req := range requests {
			req["kubeVersion"] = kube
			env := call(t, s, request(t, req))
			if env.Error == nil || env.Error.Code != wire.CodeBadRequest || env.Error.Message != perr.Error() {
				t.Errorf("%s with kubeVersion %.20q: %+v, want BadRequest %q", name, kube, env.Error, perr)
			}
		}
	}
	// Not a string: the request does not decode.
	env = call(t, s, `{"op":"compile","crd":"x","kubeVersion":1.36}`)
	if env.Error == nil || env.Error.Code != wire.CodeBadRequest || !strings.Contains(env.Error.Message, "kubeVersion") {
		t.Errorf("numeric kubeVersion: %+v", env.Error)
	}
	// A handle's release is fixed at its compile.
	env = call(t, s, request(t, map[string]interface{}{"op": "schema", "handle": compiled.Handle, "kubeVersion": "1.35"}))
	if env.Error == nil || env.Error.Code != wire.CodeBadRequest || !strings.Contains(env.Error.Message, "compiled for Kubernetes 1.37") {
		t.Errorf("schema of a 1.37 handle at 1.35: %+v", env.Error)
	}
	env = call(t, s, request(t, map[string]interface{}{"op": "schema", "handle": compiled.Handle, "kubeVersion": "v1.37"}))
	if env.Error != nil {
		t.Errorf("schema of a 1.37 handle at v1.37: %+v", env.Error)
	}
}

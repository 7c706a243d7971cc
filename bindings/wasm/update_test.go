package wasm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/conversion"
	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/upgrade"
)

// compileKey identifies what a request compiles.
func (req request) compileKey() string {
	return req.kubeVersion + "\x00" + req.crdFieldValidation + "\x00" + string(req.crd) + "\x00" + string(req.oldCRD) + "\x00" + strings.Join(req.storedVersions, ",") + "\x00" + boolKey(req.storedVersions != nil)
}

func boolKey(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// nativeUpdate is engine.CompileUpdate with the module's decoding error: it
// names the CRD that does not decode ("old CRD: " or "new CRD: ").
func nativeUpdate(req request) (*engine.CRD, error) {
	c, err := engine.CompileUpdate(req.crd, req.oldCRD, engine.UpdateOptions{StoredVersions: req.storedVersions, KubeVersion: req.kubeVersion})
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "old CRD: ") && !strings.HasPrefix(msg, "new CRD: ") {
			which := "new CRD: "
			if _, e := crd.Decode(req.oldCRD, ""); e != nil {
				which, msg = "old CRD: ", e.Error()
			}
			msg = which + msg
		}
		return nil, errorString(msg)
	}
	return c, nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// updateCases are the conformance cases that update a CRD.
func updateCases(t *testing.T) []request {
	var out []request
	for _, r := range loadConformanceCases(t) {
		if r.oldCRD != nil {
			out = append(out, r)
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d CRD-update conformance cases", len(out))
	}
	return out
}

// TestParityCRDUpdateCases: every CRD-update case of conformance/testdata/
// cases, through "compile" with the old CRD (the update's verdict, the
// served versions, and the object validated against the updated CRD), and
// through "lint" with the old CRD byte for byte.
func TestParityCRDUpdateCases(t *testing.T) {
	reqs := updateCases(t)
	r := newRuntime(t, Options{})
	var lints []request
	seen := map[string]bool{}
	for _, q := range reqs {
		l := q
		l.object, l.old = nil, nil
		if !seen[l.compileKey()] {
			seen[l.compileKey()] = true
			l.name += "/lint"
			lints = append(lints, l)
		}
	}
	t.Logf("%d CRD-update cases, %d distinct updates", len(reqs), len(lints))
	checkParity(t, r, append(lints, reqs...))
	rejected := 0
	for _, l := range lints {
		c, err := nativeUpdate(l)
		want := ""
		if err != nil {
			want = "DecodeError: " + err.Error()
		} else {
			b, _ := json.Marshal(engine.NewReport(c, nil).CRD)
			want = `{"crd":` + string(b) + `}`
			if len(c.Errors()) > 0 {
				rejected++
			}
		}
		got, err := r.LintWithOptions(context.Background(), l.crd, CompileOptions{OldCRD: l.oldCRD, StoredVersions: l.storedVersions})
		gotS := ""
		if err != nil {
			gotS = errString(t, err)
		} else {
			b, _ := json.Marshal(got)
			gotS = `{"crd":` + string(b) + `}`
		}
		if gotS != want {
			t.Errorf("%s: lint with the old CRD differs\nnative: %.2000s\nmodule: %.2000s", l.name, want, gotS)
		}
	}
	if rejected == 0 {
		t.Error("no conformance CRD update is rejected: the parity check proves little")
	}
}

// TestParityUpgrade: "upgrade" is json.Marshal of upgrade.Check, byte for
// byte, on the conformance CRD updates (with their object as the stored
// object, when they have one) and on examples/upgrade.
func TestParityUpgrade(t *testing.T) {
	r := newRuntime(t, Options{})
	type input struct {
		name        string
		old, new    []byte
		objects     []UpgradeObject
		opts        UpgradeOptions
		wantObjects bool
	}
	var inputs []input
	for _, q := range updateCases(t) {
		in := input{name: q.name, old: q.oldCRD, new: q.crd, opts: UpgradeOptions{StoredVersions: q.storedVersions}}
		for _, o := range [][]byte{q.old, q.object} {
			if o != nil {
				in.objects = append(in.objects, UpgradeObject{Data: o})
			}
		}
		inputs = append(inputs, in)
	}
	dir := filepath.Join(repoRoot, "examples", "upgrade")
	old := readFile(t, filepath.Join(dir, "old.yaml"))
	stored := []UpgradeObject{{Source: "small.yaml", Data: readFile(t, filepath.Join(dir, "small.yaml"))}, {Source: "big.yaml", Data: readFile(t, filepath.Join(dir, "big.yaml"))}}
	for _, n := range []string{"new.yaml", "new-drop-v1.yaml"} {
		for _, opts := range []UpgradeOptions{{}, {StoredVersions: []string{"v2"}}, {FailOnBreaking: true}} {
			inputs = append(inputs, input{name: "examples/upgrade/" + n, old: old, new: readFile(t, filepath.Join(dir, n)), objects: stored, opts: opts, wantObjects: true})
		}
	}
	for _, in := range inputs {
		objs := make([]upgrade.Object, len(in.objects))
		for i, o := range in.objects {
			objs[i] = upgrade.Object{Source: o.Source, Data: o.Data}
			if o.Source == "" {
				objs[i].Source = "objects[" + string(rune('0'+i)) + "]"
			}
		}
		want := ""
		rep, err := upgrade.Check(in.old, in.new, objs, upgrade.Options{StoredVersions: in.opts.StoredVersions, FailOnBreaking: in.opts.FailOnBreaking})
		if err != nil {
			want = "DecodeError: " + err.Error()
		} else {
			b, _ := json.Marshal(rep)
			want = string(b)
			if in.wantObjects && len(rep.Objects) == 0 {
				t.Fatalf("%s: no stored objects in the report", in.name)
			}
		}
		got := ""
		raw, err := r.UpgradeRaw(context.Background(), in.old, in.new, in.objects, in.opts)
		if err != nil {
			got = errString(t, err)
		} else {
			got = string(raw)
		}
		if got != want {
			t.Errorf("%s: upgrade differs\nnative: %.3000s\nmodule: %.3000s", in.name, want, got)
		}
	}
	t.Logf("%d upgrades", len(inputs))
}

// TestParityTestSuites: "test" on crdtest/testdata held in memory gives the
// report native `crdlab test -o json` gives on disk (durations aside).
func TestParityTestSuites(t *testing.T) {
	root := filepath.Join(repoRoot, "crdtest")
	files := map[string][]byte{}
	err := filepath.WalkDir(filepath.Join(root, "testdata"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)] = readFile(t, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	durations := regexp.MustCompile(`"seconds":[0-9.e+-]+`)
	r := newRuntime(t, Options{})
	for _, opts := range []TestOptions{
		{Paths: []string{"testdata"}},
		{Paths: []string{"testdata/widgets/widgets.testsuite.yaml"}, Run: "onUpdate"},
		{Paths: []string{"testdata/failing"}, CRDs: []string{"testdata/widgets/widgets-crd.yaml"}},
	} {
		nopts := crdtest.Options{CRDs: opts.CRDs}
		if opts.Run != "" {
			nopts.Run = regexp.MustCompile(opts.Run)
		}
		rep, err := crdtest.RunPaths(nopts, opts.Paths...)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(rep.Wire())
		got, err := r.Test(context.Background(), files, opts)
		if err != nil {
			t.Fatal(err)
		}
		gotB, _ := json.Marshal(got)
		w, g := durations.ReplaceAllString(string(want), ""), durations.ReplaceAllString(string(gotB), "")
		if w != g {
			t.Errorf("%+v: test reports differ\nnative: %s\nmodule: %s", opts, w, g)
		}
		if len(rep.Results) == 0 {
			t.Errorf("%+v: no cases ran", opts)
		}
	}
}

// TestParityConversionReview: "conversionReview" answers byte for byte
// what conversion.Check gives natively (examples/conversion: accepted,
// rejected, invalid at the target version; as a list; request and response
// in one document; inputs that cannot be checked).
func TestParityConversionReview(t *testing.T) {
	r := newRuntime(t, Options{})
	dir := filepath.Join(repoRoot, "examples", "conversion")
	crdText := readFile(t, filepath.Join(dir, "crd.yaml"))
	review := readFile(t, filepath.Join(dir, "request.json"))
	type input struct {
		name                  string
		crd, review, response []byte
		opts                  ConversionReviewOptions
	}
	var inputs []input
	files, _ := filepath.Glob(filepath.Join(dir, "response*.json"))
	if len(files) < 5 {
		t.Fatalf("only %d recorded responses in %s", len(files), dir)
	}
	for _, f := range files {
		resp := readFile(t, f)
		inputs = append(inputs,
			input{name: filepath.Base(f), crd: crdText, review: review, response: resp},
			input{name: filepath.Base(f) + " as a list", crd: crdText, review: review, response: resp, opts: ConversionReviewOptions{List: true, ListAPIVersion: "stable.example.com/v1beta1"}})
	}
	var both map[string]interface{}
	if err := json.Unmarshal(review, &both); err != nil {
		t.Fatal(err)
	}
	var resp map[string]interface{}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "response.json")), &resp); err != nil {
		t.Fatal(err)
	}
	both["response"] = resp["response"]
	one, _ := json.Marshal(both)
	inputs = append(inputs,
		input{name: "request and response in one document", crd: crdText, review: one},
		input{name: "empty review", crd: crdText, review: []byte(`{}`)},
		input{name: "CRD without a webhook", crd: crontabCRD(t), review: review, response: readFile(t, filepath.Join(dir, "response.json"))},
		input{name: "CRD does not decode", crd: []byte("a: [b"), review: review, response: review})
	for _, in := range inputs {
		resp := in.response
		if resp == nil {
			resp = in.review
		}
		want := ""
		rep, err := conversion.Check(in.crd, in.review, resp, conversion.Options{List: in.opts.List, ListAPIVersion: in.opts.ListAPIVersion})
		if err != nil {
			want = "DecodeError: " + err.Error()
		} else {
			b, _ := json.Marshal(rep)
			want = string(b)
		}
		got := ""
		raw, err := r.ConversionReviewRaw(context.Background(), in.crd, in.review, in.response, in.opts)
		if err != nil {
			got = errString(t, err)
		} else {
			got = string(raw)
		}
		if got != want {
			t.Errorf("%s: conversionReview differs\nnative: %.3000s\nmodule: %.3000s", in.name, want, got)
		}
	}
	rep, err := r.ConversionReview(context.Background(), crdText, review, readFile(t, filepath.Join(dir, "response.json")), ConversionReviewOptions{})
	if err != nil || !rep.Accepted || !rep.Valid || len(rep.Objects) != 1 || rep.Objects[0].Name != "nightly" {
		t.Fatalf("ConversionReview: %+v, %v", rep, err)
	}
	t.Logf("%d conversion reviews", len(inputs))
}

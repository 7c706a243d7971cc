package main

import (
	"bytes"
	"encoding/json"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/testsupport/corpus"
	"sigs.k8s.io/yaml"
)

func runCLI(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestSchemaCommand(t *testing.T) {
	const crdFile = "../../examples/crontab-crd.yaml"
	t.Run("stdout-2020-12", func(t *testing.T) {
		code, out, errOut := runCLI("schema", crdFile)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var doc map[string]interface{}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("stdout is not JSON: %v\n%s", err, out)
		}
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("$schema = %v", doc["$schema"])
		}
		if _, ok := doc["additionalProperties"]; ok {
			t.Errorf("non-strict schema has additionalProperties at the root")
		}
	})
	t.Run("draft-07-strict-flags-after-files", func(t *testing.T) {
		code, out, errOut := runCLI("schema", crdFile, "--draft", "07", "--strict")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var doc map[string]interface{}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if doc["$schema"] != "http://json-schema.org/draft-07/schema#" || doc["additionalProperties"] != false {
			t.Errorf("$schema = %v, additionalProperties = %v", doc["$schema"], doc["additionalProperties"])
		}
	})
	t.Run("dir-layouts", func(t *testing.T) {
		dir := t.TempDir()
		if code, _, errOut := runCLI("schema", "-o", dir, crdFile); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if _, err := os.Stat(filepath.Join(dir, "crontab_v1.json")); err != nil {
			t.Error(err)
		}
		if code, out, errOut := runCLI("schema", "-o", dir, "--layout", "catalog", crdFile); code != 0 || !strings.Contains(out, "stable.example.com") {
			t.Fatalf("exit %d: %s%s", code, out, errOut)
		}
		if _, err := os.Stat(filepath.Join(dir, "stable.example.com", "crontab_v1.json")); err != nil {
			t.Error(err)
		}
	})
	errorCases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"bad-draft", []string{"schema", "--draft", "04", crdFile}, 2, "unknown JSON Schema draft"},
		{"bad-layout", []string{"schema", "-o", "x", "--layout", "flat", crdFile}, 2, "--layout must be"},
		{"no-crd", []string{"schema"}, 2, "no CRDs given"},
		{"objects-only", []string{"schema", "../../examples/valid.yaml"}, 2, "no CustomResourceDefinitions"},
		{"invalid-crd", []string{"schema", "testdata/invalid-crd.yaml"}, 1, "is invalid"},
		{"two-versions-need-dir", []string{"schema", "testdata/widget-crd.yaml", crdFile}, 2, "use -o DIR"},
		{"bad-yaml", []string{"schema", "testdata/bad-crd.yaml"}, 2, "bad-crd.yaml"},
	}
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d (want %d), stderr %q (want %q); stdout %q", code, tc.code, errOut, tc.want, out)
			}
		})
	}
}

// kubeconformVersion is the newest kubeconform the Go module proxy served
// when this test was written.
const kubeconformVersion = "v0.8.0"

// buildKubeconform builds kubeconform from the Go module proxy in a
// throw-away module, or skips.
func buildKubeconform(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("kubeconform round trip skipped (-short)")
	}
	if p := os.Getenv("CRDLAB_KUBECONFORM"); p != "" {
		return p
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "kubeconform")
	steps := [][]string{
		{"go", "mod", "init", "crdlab.test/tools"},
		{"go", "get", "github.com/yannh/kubeconform/cmd/kubeconform@" + kubeconformVersion},
		{"go", "build", "-o", bin, "github.com/yannh/kubeconform/cmd/kubeconform"},
	}
	for _, s := range steps {
		cmd := exec.Command(s[0], s[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			testenv.Unavailable(t, "kubeconform %s unavailable (%s): %v\n%s", kubeconformVersion, strings.Join(s, " "), err, out)
		}
	}
	return bin
}

// gatewayAPIDir finds Gateway API in the corpus (the repository's
// scripts/corpus.sh, see internal/testsupport/corpus), or skips.
func gatewayAPIDir(t *testing.T) string {
	t.Helper()
	dir, err := corpus.Module(corpus.Options{}, "sigs.k8s.io/gateway-api@")
	if err != nil {
		testenv.Unavailable(t, "corpus unavailable: %v", err)
	}
	return dir
}

type kubeconformResult struct {
	Resources []struct {
		Filename string `json:"filename"`
		Kind     string `json:"kind"`
		Name     string `json:"name"`
		Status   string `json:"status"`
		Msg      string `json:"msg"`
	} `json:"resources"`
}

// TestKubeconformRoundTrip exports the Gateway API CRDs with crdlab schema
// (both layouts) and runs kubeconform on Gateway API's examples and on
// broken copies of them: kubeconform's verdict must be crdlab's, restricted
// to what JSON Schema expresses (CRD without CEL rules; ObjectMeta and
// list-map key errors left out).
func TestKubeconformRoundTrip(t *testing.T) {
	gw := gatewayAPIDir(t)
	kc := buildKubeconform(t)
	crdDir := filepath.Join(gw, "config", "crd", "standard")
	examples := filepath.Join(gw, "examples", "standard")
	schemas := t.TempDir()
	if code, _, errOut := runCLI("schema", "-o", filepath.Join(schemas, "flat"), crdDir); code != 0 {
		t.Fatalf("crdlab schema: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI("schema", "-o", filepath.Join(schemas, "catalog"), "--layout", "catalog", crdDir); code != 0 {
		t.Fatalf("crdlab schema: exit %d: %s", code, errOut)
	}

	// the CRDs compiled without their CEL rules, by kind
	docs, err := (&inputs.Reader{}).Read([]string{crdDir}, "CRDs")
	if err != nil {
		t.Fatal(err)
	}
	compiled := map[string]*engine.CRD{}
	for _, d := range docs {
		if !d.IsCRD() {
			continue
		}
		def, err := crd.DecodeOne(stripCELRules(t, d.Raw), d.File)
		if err != nil {
			t.Fatal(err)
		}
		compiled[def.Spec.Names.Kind] = engine.CompileCRD(def)
	}

	// the objects: the examples, and each example with a broken spec
	objDir := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(examples, "*.yaml"))
	if len(files) == 0 {
		t.Skip("no Gateway API examples")
	}
	want := map[string]bool{} // file -> valid
	n := 0
	for _, f := range files {
		ds, err := (&inputs.Reader{}).Read([]string{f}, "objects")
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			c := compiled[d.Kind]
			if c == nil {
				continue
			}
			js, err := toJSON(d.Raw)
			if err != nil {
				t.Fatal(err)
			}
			var obj map[string]interface{}
			if err := json.Unmarshal(js, &obj); err != nil {
				t.Fatal(err)
			}
			variants := []map[string]interface{}{obj}
			if spec, ok := obj["spec"].(map[string]interface{}); ok {
				broken := map[string]interface{}{}
				for k, v := range obj {
					broken[k] = v
				}
				bs := map[string]interface{}{}
				for k, v := range spec {
					bs[k] = v
				}
				for k := range bs {
					bs[k] = 12345 // every spec field of the wrong type (or out of range)
					break
				}
				broken["spec"] = bs
				variants = append(variants, broken, map[string]interface{}{"apiVersion": obj["apiVersion"], "kind": obj["kind"], "metadata": obj["metadata"], "spec": "not an object"})
			}
			for _, v := range variants {
				n++
				b, _ := json.Marshal(v)
				name := filepath.Join(objDir, strings.ToLower(d.Kind)+"-"+itoa(n)+".json")
				if err := os.WriteFile(name, b, 0o644); err != nil {
					t.Fatal(err)
				}
				res, err := c.Validate(b, engine.ValidateOptions{FieldValidation: engine.Ignore})
				if err != nil {
					t.Fatal(err)
				}
				want[name] = res.DecodeError == "" && !hasExpressibleError(res)
			}
		}
	}
	if n == 0 {
		t.Skip("no Gateway API example objects of a standard kind")
	}

	for _, layout := range []struct{ name, location string }{
		{"kubeconform", filepath.Join(schemas, "flat") + "/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"},
		{"catalog", filepath.Join(schemas, "catalog") + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"},
	} {
		t.Run(layout.name, func(t *testing.T) {
			cmd := exec.Command(kc, "-schema-location", layout.location, "-output", "json", "-verbose", objDir)
			out, _ := cmd.Output() // exit 1 when some resource is invalid
			var res kubeconformResult
			if err := json.Unmarshal(out, &res); err != nil {
				t.Fatalf("kubeconform output: %v\n%s", err, out)
			}
			if len(res.Resources) != n {
				t.Fatalf("kubeconform checked %d resources, want %d\n%s", len(res.Resources), n, out)
			}
			valid, invalid := 0, 0
			for _, r := range res.Resources {
				got := r.Status == "statusValid"
				if r.Status != "statusValid" && r.Status != "statusInvalid" {
					t.Errorf("%s: kubeconform status %s: %s", r.Filename, r.Status, r.Msg)
					continue
				}
				if got {
					valid++
				} else {
					invalid++
				}
				if got != want[r.Filename] {
					t.Errorf("%s: kubeconform valid=%v, crdlab valid=%v: %s", r.Filename, got, want[r.Filename], r.Msg)
				}
			}
			t.Logf("kubeconform %s, layout %s: %d resources, %d valid, %d invalid, all agreeing with crdlab", kubeconformVersion, layout.name, n, valid, invalid)
			if valid == 0 || invalid == 0 {
				t.Errorf("want both valid and invalid resources, got %d and %d", valid, invalid)
			}
		})
	}
}

var metadataPath = regexp.MustCompile(`(^|\.)metadata(\.|$|\[)`)

// hasExpressibleError: an error JSON Schema can express (not ObjectMeta
// rules, not list-map duplicates).
func hasExpressibleError(res *engine.Result) bool {
	for _, e := range res.Errors {
		if metadataPath.MatchString(e.Field) && !strings.Contains(e.Detail, "in body") {
			continue
		}
		if e.Type == "FieldValueDuplicate" {
			continue
		}
		return true
	}
	return false
}

func stripCELRules(t *testing.T, data []byte) []byte {
	js, err := toJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	var v interface{}
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(interface{})
	walk = func(v interface{}) {
		switch x := v.(type) {
		case map[string]interface{}:
			delete(x, "x-kubernetes-validations")
			for _, e := range x {
				walk(e)
			}
		case []interface{}:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	b, _ := json.Marshal(v)
	return b
}

func toJSON(data []byte) ([]byte, error) { return yaml.YAMLToJSON(data) }

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

package inputs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/wire"
)

const crontabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              replicas: {type: integer, maximum: 10}
`

// TestBuiltinObjectsGetTheirOwnOutcome: in a run of mixed manifests, a
// modelled built-in kind is valid or invalid, another served kind is
// partial, a removed version is invalid with kubectl's error, a kind
// outside --kinds is skipped, and a CRD's group and kind win over the
// built-in check.
func TestBuiltinObjectsGetTheirOwnOutcome(t *testing.T) {
	dir := t.TempDir()
	docs := []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\ndata: {a: b}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bad}\ndata: {\"a b\": c}",
		"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: web}",
		"apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web}",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: kubernetes.io/tls",
		"apiVersion: v1\nkind: ComponentStatus\nmetadata: {name: cs}",
		crontabCRD,
		"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\nspec: {replicas: 11}",
		"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}",
	}
	f := filepath.Join(dir, "all.yaml")
	if err := os.WriteFile(f, []byte(strings.Join(docs, "\n---\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	type want struct {
		status wire.RunStatus
		detail string // in the reason, decode error or first error
	}
	tests := []struct {
		name  string
		opts  Options
		wants []want
	}{{
		name: "builtins validated",
		opts: Options{Builtins: &Builtins{}},
		wants: []want{
			{wire.StatusValid, ""},
			{wire.StatusInvalid, "data[a b]: Invalid value"},
			{wire.StatusPartial, "native validation and defaulting of batch/v1 CronJob are not modelled (the kinds validated natively: docs/builtin-kinds.md)"},
			{wire.StatusInvalid, `resource mapping not found for name: "web" namespace: "" from "` + f + `": no matches for kind "Ingress" in version "extensions/v1beta1"`},
			{wire.StatusInvalid, "data[tls.crt]: Required value"},
			{wire.StatusPartial, "cannot be created"},
			{wire.StatusValid, ""},
			{wire.StatusInvalid, "spec.replicas"},
			{wire.StatusSkipped, "no CustomResourceDefinition for example.com/v1 Widget"},
		},
	}, {
		name: "builtins at 1.31 with --kinds",
		opts: Options{Builtins: &Builtins{Release: kubeversion.Of(31)}, Kinds: []string{"ConfigMap", "CronJob.batch"}},
		wants: []want{
			{wire.StatusValid, ""},
			{wire.StatusInvalid, "data[a b]"},
			{wire.StatusPartial, "batch/v1 CronJob are not modelled"},
			{wire.StatusSkipped, "not among the kinds selected (--kinds ConfigMap,CronJob.batch)"},
			{wire.StatusSkipped, "not among the kinds selected"},
			{wire.StatusSkipped, "not among the kinds selected"},
			{wire.StatusValid, ""},
			{wire.StatusSkipped, "not among the kinds selected"},
			{wire.StatusSkipped, "not among the kinds selected"},
		},
	}, {
		name: "builtins off: skipped as before",
		opts: Options{SkipKinds: []string{"Secret"}},
		wants: []want{
			{wire.StatusSkipped, "v1 ConfigMap is a built-in kind"},
			{wire.StatusSkipped, "built-in kind"},
			{wire.StatusSkipped, "built-in kind"},
			{wire.StatusSkipped, "built-in kind"},
			{wire.StatusSkipped, "among the kinds skipped (--skip-kinds Secret)"},
			{wire.StatusSkipped, "built-in kind"},
			{wire.StatusValid, ""},
			{wire.StatusInvalid, "spec.replicas"},
			{wire.StatusSkipped, "no CustomResourceDefinition"},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, sum, err := scanRun(t, &Reader{}, []string{f}, tt.opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.wants) {
				t.Fatalf("%d entries", len(got))
			}
			partial := 0
			for i, e := range got {
				w := tt.wants[i]
				detail := e.Reason + e.DecodeError
				if len(e.Errors) > 0 {
					detail += e.Errors[0].Message
				}
				if e.Status != w.status || !strings.Contains(detail, w.detail) {
					t.Errorf("%d (%s %s): %s %q, want %s %q", i, e.APIVersion, e.Kind, e.Status, detail, w.status, w.detail)
				}
				if e.Status == wire.StatusPartial {
					partial++
				}
			}
			if sum.Partial != partial {
				t.Errorf("summary counts %d partial entries, want %d", sum.Partial, partial)
			}
		})
	}
}

// TestNoMatchFromStdinIsKubectls: kubectl names stdin "STDIN" in its
// resource-mapping error.
func TestNoMatchFromStdinIsKubectls(t *testing.T) {
	r := &Reader{Stdin: strings.NewReader("apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web, namespace: shop}\n")}
	got, _, err := scanRun(t, r, []string{"-"}, Options{Builtins: &Builtins{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `resource mapping not found for name: "web" namespace: "shop" from "STDIN": no matches for kind "Ingress" in version "extensions/v1beta1"` + "\nensure CRDs are installed first"
	if len(got) != 1 || got[0].DecodeError != want {
		t.Fatalf("got %+v", got)
	}
}

// BenchmarkValidateDirectory: a run over a directory of 500 ConfigMaps
// (validated natively) against one of 500 custom resources.
func BenchmarkValidateDirectory(b *testing.B) {
	for _, kind := range []string{"ConfigMap", "CronTab"} {
		b.Run(kind, func(b *testing.B) {
			dir := b.TempDir()
			if kind == "CronTab" {
				if err := os.WriteFile(filepath.Join(dir, "crd.yaml"), []byte(crontabCRD), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			for i := 0; i < 500; i++ {
				doc := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-%d\n  labels: {app: shop, tier: web}\ndata:\n  LOG_LEVEL: info\n  app.properties: |\n    a=b\n    c=d\n", i)
				if kind == "CronTab" {
					doc = fmt.Sprintf("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: cron-%d\n  labels: {app: shop, tier: web}\nspec:\n  cronSpec: '*/5 * * * *'\n  replicas: 3\n", i)
				}
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d.yaml", i)), []byte(doc), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				r := &Reader{}
				in, err := r.Scan([]string{dir}, "objects")
				if err != nil {
					b.Fatal(err)
				}
				cat := New()
				if err := cat.AddAll(in.CRDs(), 1); err != nil {
					b.Fatal(err)
				}
				valid := 0
				_, err = cat.StreamInputs(nil, in, Options{Jobs: 1, Builtins: &Builtins{}}, func(_ int, _ *Document, res *Result) error {
					if res.Status == wire.StatusValid && res.Kind == kind {
						valid++
					}
					return nil
				})
				if err != nil || valid != 500 {
					b.Fatalf("%d valid, %v", valid, err)
				}
			}
		})
	}
}

// TestPartialKindsAreDecodedByTheirSchema: a kind without native
// validation that the typed decoder refuses is invalid with the API
// server's 400; one it accepts is partial and says what was checked.
func TestPartialKindsAreDecodedByTheirSchema(t *testing.T) {
	dir := t.TempDir()
	docs := []string{
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: \"3\"}",
		"apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{port: 80, nodeport: 30000}]}",
		"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: ok}\nspec: {schedule: \"@daily\"}",
	}
	f := filepath.Join(dir, "all.yaml")
	if err := os.WriteFile(f, []byte(strings.Join(docs, "\n---\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, err := scanRun(t, &Reader{}, []string{f}, Options{Builtins: &Builtins{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wants := []struct {
		status wire.RunStatus
		detail string
	}{
		{wire.StatusInvalid, `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`},
		{wire.StatusInvalid, `Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.ports[0].nodeport"`},
		{wire.StatusPartial, "decoded by Kubernetes 1.37's OpenAPI schema (fields and types); native validation and defaulting of batch/v1 CronJob are not modelled"},
	}
	if len(got) != len(wants) {
		t.Fatalf("%d entries", len(got))
	}
	for i, e := range got {
		if e.Status != wants[i].status || !strings.Contains(e.Reason+e.DecodeError, wants[i].detail) {
			t.Errorf("%d: %s %q, want %s %q", i, e.Status, e.Reason+e.DecodeError, wants[i].status, wants[i].detail)
		}
	}
}

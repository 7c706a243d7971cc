package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/testsupport/corpus"
)

// shareCRD has what differs between the supported releases: an int32
// field (NumericFormats, 1.36), a rule over metadata.name whose cost
// depends on its size cap (MetadataNameSizeCap, 1.37), a list rule, a
// pattern and a default.
const shareCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: "self.metadata.name.size() < 100 && self.metadata.name.split('-').all(p, p.size() > 0)"
        properties:
          spec:
            type: object
            properties:
              count: {type: integer, format: int32, default: 1}
              name: {type: string, pattern: '^[a-z]+$'}
              items:
                type: array
                maxItems: 10
                items: {type: string, maxLength: 20}
                x-kubernetes-validations:
                - rule: "self.all(x, x != 'bad')"
                  message: no bad items
`

// numericCRD is shareCRD without its metadata.name rule: valid at every
// release.
var numericCRD = strings.Replace(shareCRD, `        x-kubernetes-validations:
        - rule: "self.metadata.name.size() < 100 && self.metadata.name.split('-').all(p, p.size() > 0)"
`, "", 1)

var shareObjects = []string{
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a-b"},"spec":{"count":4294967296,"name":"x","items":["a"]}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a--b"},"spec":{"name":"X1","items":["bad"]}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"ok"},"spec":{}}`,
}

// TestCompileShareReportsAsSeparateCompiles pins that a CompileShare
// changes no result: at every supported release, the CRD and each
// object's report through a share used by the other releases first is the
// report of a compile of its own.
func TestCompileShareReportsAsSeparateCompiles(t *testing.T) {
	crds := map[string][]byte{"widget": []byte(shareCRD), "numeric": []byte(numericCRD)}
	if data, err := os.ReadFile("../examples/crontab-crd.yaml"); err == nil {
		crds["crontab"] = data
	} else {
		t.Fatal(err)
	}
	if data, ok := httpRouteCRD(t); ok {
		crds["httproute"] = data
	}
	for name, src := range crds {
		share := NewCompileShare()
		// Oldest first, then the newest again: each release meets a
		// share filled by the others.
		versions := append(SupportedKubeVersions()[1:], SupportedKubeVersions()...)
		for i, kv := range versions {
			alone, err := CompileWithOptions(src, CompileOptions{KubeVersion: kv})
			if err != nil {
				t.Fatal(err)
			}
			shared, err := CompileWithOptions(src, CompileOptions{KubeVersion: kv, Share: share})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := reportJSON(t, shared, nil), reportJSON(t, alone, nil); got != want {
				t.Errorf("%s at %s (#%d): CRD report through the share\n%s\nwant\n%s", name, kv, i, got, want)
			}
			if name != "numeric" {
				continue
			}
			for _, obj := range shareObjects {
				ra, err := alone.Validate([]byte(obj), ValidateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				rs, err := shared.Validate([]byte(obj), ValidateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if got, want := reportJSON(t, shared, rs), reportJSON(t, alone, ra); got != want {
					t.Errorf("%s at %s: %s through the share\n%s\nwant\n%s", name, kv, obj, got, want)
				}
			}
		}
	}
}

// TestCompileShareSeesTheReleases pins that the releases still differ
// through a share: the metadata.name rule is within budget from 1.37 only,
// the int32 overflow is an error from 1.36 only.
func TestCompileShareSeesTheReleases(t *testing.T) {
	share := NewCompileShare()
	got := map[string]int{}
	for _, kv := range []string{"1.37", "1.35", "1.36"} {
		w, err := CompileWithOptions([]byte(shareCRD), CompileOptions{KubeVersion: kv, Share: share})
		if err != nil {
			t.Fatal(err)
		}
		if w.Valid() != (kv == "1.37") {
			t.Errorf("at %s: CRD valid = %v (errors %v), want valid at 1.37 only", kv, w.Valid(), w.Errors())
		}
		c, err := CompileWithOptions([]byte(numericCRD), CompileOptions{KubeVersion: kv, Share: share})
		if err != nil {
			t.Fatal(err)
		}
		r, err := c.Validate([]byte(shareObjects[0]), ValidateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got[kv] = len(r.Errors)
		if c.KubeVersion() != kv {
			t.Errorf("KubeVersion() = %s, want %s", c.KubeVersion(), kv)
		}
	}
	if got["1.35"] != 0 || got["1.36"] == 0 || got["1.37"] == 0 {
		t.Errorf("errors per release = %v, want none at 1.35 only (int32 range checks from 1.36)", got)
	}
}

func reportJSON(t *testing.T, c *CRD, r *Result) string {
	t.Helper()
	b, err := json.Marshal(NewReport(c, r))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// httpRouteCRD is Gateway API's standard HTTPRoute CRD from the corpus
// (scripts/corpus.sh), if it was fetched.
func httpRouteCRD(t testing.TB) ([]byte, bool) {
	dirs, err := corpus.Dirs(corpus.Options{Offline: true})
	if err != nil {
		return nil, false
	}
	for _, d := range dirs {
		if strings.Contains(d, "sigs.k8s.io/gateway-api@") {
			data, err := os.ReadFile(filepath.Join(d, "config/crd/standard/gateway.networking.k8s.io_httproutes.yaml"))
			return data, err == nil
		}
	}
	return nil, false
}

// BenchmarkCompileHTTPRouteMatrix compares compiling Gateway API's
// HTTPRoute CRD for one release with compiling it for the three supported
// releases through one CompileShare (what --kube-version 1.35-1.37 does).
func BenchmarkCompileHTTPRouteMatrix(b *testing.B) {
	data, ok := httpRouteCRD(b)
	if !ok {
		b.Skip("the corpus (scripts/corpus.sh) has no sigs.k8s.io/gateway-api")
	}
	for _, bc := range []struct {
		name     string
		versions []string
		share    bool
	}{
		{"1.37", []string{"1.37"}, false},
		{"supported-separate", SupportedKubeVersions(), false},
		{"supported-shared", SupportedKubeVersions(), true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var share *CompileShare
				if bc.share {
					share = NewCompileShare()
				}
				for _, kv := range bc.versions {
					c, err := CompileWithOptions(data, CompileOptions{KubeVersion: kv, Share: share})
					if err != nil || !c.Valid() {
						b.Fatal(err, c.Errors())
					}
				}
			}
		})
	}
}

// TestCompileShareConcurrentReleases compiles and validates at every
// supported release at once through one share (the CLI's catalogue
// compiles in parallel): under -race, no data race; the results are each
// release's.
func TestCompileShareConcurrentReleases(t *testing.T) {
	share := NewCompileShare()
	versions := SupportedKubeVersions()
	errs := make(chan string, 4*len(versions))
	done := make(chan struct{})
	for i := 0; i < 4; i++ {
		for _, kv := range versions {
			go func(kv string) {
				defer func() { done <- struct{}{} }()
				c, err := CompileWithOptions([]byte(numericCRD), CompileOptions{KubeVersion: kv, Share: share})
				if err != nil {
					errs <- err.Error()
					return
				}
				r, err := c.Validate([]byte(shareObjects[0]), ValidateOptions{})
				if err != nil {
					errs <- err.Error()
					return
				}
				if enforced := kv >= "1.36"; (len(r.Errors) > 0) != enforced { // numeric formats from 1.36
					errs <- fmt.Sprintf("%s: int32 overflow errors %v", kv, r.Errors)
				}
			}(kv)
		}
	}
	for i := 0; i < 4*len(versions); i++ {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

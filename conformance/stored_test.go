package conformance

import (
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/engine"
)

// storedCRD has versions with different schemas and defaults, an
// unserved version and a removed one (v0 is not in spec.versions).
const storedCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1alpha1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              old: {type: string, default: legacy}
              both: {type: integer}
              list: {type: array, items: {type: object, properties: {a: {type: string, default: A}}}}
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
              new: {type: integer, default: 1}
              both: {type: integer}
              list: {type: array, items: {type: object, properties: {b: {type: string, default: B}}}}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v2
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object}
`

// TestReadStoredMatchesUpstream compares engine.CRD.ReadStored with the
// storage codec built from upstream's converter (conversion.NewCRConverterFactory,
// strategy None) over stored objects at every version, read at every
// served version: the object (apiVersion rewritten, pruned by both
// schemas, defaulted by the stored version's), the pruned paths and the
// errors.
func TestReadStoredMatchesUpstream(t *testing.T) {
	ours, err := engine.Compile([]byte(storedCRD))
	if err != nil {
		t.Fatal(err)
	}
	v1, err := upstream.DecodeCRD([]byte(storedCRD))
	if err != nil {
		t.Fatal(err)
	}
	compiled, err := upstream.CreateCRD(v1)
	if err != nil || len(compiled.Errors) > 0 {
		t.Fatalf("upstream CRD: %v %v", err, compiled.Errors)
	}
	served, err := upstream.Serve(compiled)
	if err != nil {
		t.Fatal(err)
	}
	objects := map[string]string{
		"v1alpha1 with v1 fields": `{"apiVersion":"example.com/v1alpha1","kind":"Widget","metadata":{"name":"a","namespace":"ns"},"spec":{"both":2,"new":5,"list":[{"a":"x","b":"y"},{}]}}`,
		"v1alpha1 empty spec":     `{"apiVersion":"example.com/v1alpha1","kind":"Widget","metadata":{"name":"a"},"spec":{}}`,
		"v1 with v1alpha1 fields": `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"},"spec":{"old":"o","both":3},"status":{"x":1},"extra":true}`,
		"v1 no generation":        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a, resourceVersion: \"7\"}\nspec: {list: [{}]}\n",
		"v2 unserved stored":      `{"apiVersion":"example.com/v2","kind":"Widget","metadata":{"name":"a"},"spec":{"both":1}}`,
		"v0 removed version":      `{"apiVersion":"example.com/v0","kind":"Widget","metadata":{"name":"a"},"spec":{"both":1}}`,
		"other kind":              `{"apiVersion":"example.com/v1alpha1","kind":"Gadget","metadata":{"name":"a"},"spec":{"x":1}}`,
		"no kind":                 `{"apiVersion":"example.com/v1","metadata":{"name":"a"}}`,
		"other group":             `{"apiVersion":"other.example.com/v1","kind":"Widget","metadata":{"name":"a"}}`,
		"invalid metadata":        `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a","labels":"nope","generation":"x"},"spec":{"both":1}}`,
	}
	for name, obj := range objects {
		for _, version := range []string{"v1alpha1", "v1"} {
			t.Run(name+" at "+version, func(t *testing.T) {
				got, err := ours.ReadStored([]byte(obj), version)
				if err != nil {
					t.Fatal(err)
				}
				want, err := served.ReadStored([]byte(obj), version)
				if err != nil {
					t.Fatal(err)
				}
				if (got.Error == "") != (want.Error == "") || (want.Error != "" && got.Error != want.Error) {
					t.Fatalf("error: crdlab %q, upstream %q", got.Error, want.Error)
				}
				if want.Error != "" {
					return
				}
				g, _ := upstream.Normalize(got.Object)
				w, _ := upstream.Normalize(want.Object)
				if !reflect.DeepEqual(g, w) {
					t.Errorf("object:\ncrdlab   %v\nupstream %v", g, w)
				}
				// upstream's coercer also reports unknown metadata fields;
				// ReadStored reports what pruning drops.
				var wantPruned []string
				for _, p := range want.Pruned {
					if !strings.HasPrefix(p, "metadata.") {
						wantPruned = append(wantPruned, p)
					}
				}
				if strings.Join(got.Pruned, ",") != strings.Join(wantPruned, ",") {
					t.Errorf("pruned: crdlab %q, upstream %q", got.Pruned, wantPruned)
				}
			})
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func readExample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRunCronTab runs the anchor's code paths natively on the examples.
func TestRunCronTab(t *testing.T) {
	crd := readExample(t, "crontab-crd.yaml")
	tests := []struct {
		object     string
		wantErrs   []string // substrings, in sorted order
		wantPruned []string
		wantSpec   map[string]any
	}{
		{object: "valid.yaml"},
		{object: "invalid.yaml", wantErrs: []string{"spec.cronSpec: Invalid value", "spec.replicas: Invalid value: 15"}},
		{object: "defaults.yaml", wantSpec: map[string]any{"cronSpec": "5 0 * * *", "image": "my-awesome-cron-image", "replicas": int64(1)}},
		{object: "unknown-field.yaml", wantPruned: []string{"spec.color"}},
	}
	for _, tt := range tests {
		t.Run(tt.object, func(t *testing.T) {
			rep, err := run(crd, readExample(t, tt.object))
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.CRDErrors) != 0 || !reflect.DeepEqual(rep.Versions, []string{"v1"}) {
				t.Fatalf("CRD: errors %q, versions %q", rep.CRDErrors, rep.Versions)
			}
			if len(rep.ObjectErrors) != len(tt.wantErrs) {
				t.Fatalf("object errors %q, want %d", rep.ObjectErrors, len(tt.wantErrs))
			}
			// Upstream's OpenAPI validator reports sibling properties in Go
			// map order (the harness in conformance/ reruns for it): compare
			// the errors sorted.
			errs := slices.Sorted(slices.Values(rep.ObjectErrors))
			for i, want := range tt.wantErrs {
				if !strings.Contains(errs[i], want) {
					t.Errorf("error %d = %q, want it to contain %q", i, errs[i], want)
				}
			}
			if !reflect.DeepEqual(rep.Pruned, tt.wantPruned) {
				t.Errorf("pruned %q, want %q", rep.Pruned, tt.wantPruned)
			}
			if tt.wantSpec != nil && !reflect.DeepEqual(rep.Object["spec"], tt.wantSpec) {
				t.Errorf("spec %v, want %v", rep.Object["spec"], tt.wantSpec)
			}
		})
	}
}

// celCRD has a CEL rule, so that CRD validation compiles it and the object
// side evaluates it.
const celCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
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
            x-kubernetes-validations:
            - rule: self.min <= self.max
              message: min must not exceed max
            properties:
              min: {type: integer}
              max: {type: integer}
              tags:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
`

func TestRunCEL(t *testing.T) {
	obj := func(spec string) []byte {
		return []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: " + spec + "\n")
	}
	tests := []struct {
		spec string
		want []string
	}{
		{spec: "{min: 1, max: 2}"},
		{spec: "{min: 3, max: 2}", want: []string{"spec: Invalid value: min must not exceed max"}},
		{spec: "{min: 1, max: 2, tags: [a, a]}", want: []string{"spec.tags[1]: Duplicate value: \"a\""}},
	}
	for _, tt := range tests {
		rep, err := run([]byte(celCRD), obj(tt.spec))
		if err != nil {
			t.Fatalf("%s: %v", tt.spec, err)
		}
		if !reflect.DeepEqual(rep.ObjectErrors, tt.want) && !(len(tt.want) == 0 && len(rep.ObjectErrors) == 0) {
			t.Errorf("%s: errors %q, want %q", tt.spec, rep.ObjectErrors, tt.want)
		}
	}
}

func TestRunInvalidCRD(t *testing.T) {
	bad := strings.Replace(celCRD, "self.min <= self.max", "self.min <= self.nope", 1)
	rep, err := run([]byte(bad), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.CRDErrors) != 1 || !strings.Contains(rep.CRDErrors[0], "x-kubernetes-validations[0].rule: Invalid value") {
		t.Errorf("CRD errors %q", rep.CRDErrors)
	}
	if _, err := run([]byte("kind: [unclosed"), nil); err == nil {
		t.Error("bad YAML: no error")
	}
	if _, err := run([]byte(celCRD), []byte("apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: w}\n")); err == nil {
		t.Error("unserved version: no error")
	}
}

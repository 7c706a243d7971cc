package benchmarks

import (
	"encoding/json"
	"reflect"
	"testing"
)

const genCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gens.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gens, kind: Gen}
  versions:
  - name: v1alpha1
    served: true
    storage: false
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [name, mode, port, size]
            properties:
              name: {type: string, pattern: '^[a-z]+\.example\.com$'}
              mode: {type: string, enum: [Slow, Fast]}
              port: {type: integer, minimum: 1024, maximum: 65535}
              size: {type: number, minimum: 2.5, multipleOf: 0.5}
              short: {type: string, minLength: 5, maxLength: 5}
              impossible: {type: string, pattern: '^\d{40}$'}
              defaulted: {type: string, default: x}
              flag: {type: boolean}
              target: {x-kubernetes-int-or-string: true}
              ports:
                type: array
                minItems: 2
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
              labels: {type: object, additionalProperties: {type: string}}
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              ready: {type: boolean}
`

func TestGenerateFillsTheSchema(t *testing.T) {
	obj, err := Generate([]byte(genCRD), DefaultGenerateOptions)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(obj)
	want := `{"apiVersion":"example.com/v1","kind":"Gen","metadata":{"name":"bench-object","namespace":"default"},"spec":{"flag":true,"labels":{"key0":"example"},"mode":"Slow","name":"a.example.com","port":1024,"ports":[{"name":"example"},{"name":"example1"}],"short":"aaaaa","size":2.5,"target":1,"template":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"embedded"}}}}`
	if string(got) != want {
		t.Errorf("Generate:\n got %s\nwant %s", got, want)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, _ := Generate([]byte(genCRD), DefaultGenerateOptions)
	b, _ := Generate([]byte(genCRD), DefaultGenerateOptions)
	if !reflect.DeepEqual(a, b) {
		t.Error("two generations differ")
	}
}

func TestGenerateRejectsCRDWithoutStorageVersion(t *testing.T) {
	if _, err := Generate([]byte(`{"spec":{"versions":[{"name":"v1"}]}}`), DefaultGenerateOptions); err == nil {
		t.Error("want an error without a storage version")
	}
}

func TestParseFieldPath(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"spec", []string{"spec"}},
		{"spec.a[0].b", []string{"spec", "a", "0", "b"}},
		{"metadata.labels[a.b/c]", []string{"metadata", "labels", "a.b/c"}},
		{"spec.x[", []string{"spec", "x"}},
		{"", nil},
	} {
		if got := parseFieldPath(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseFieldPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRemoveAt(t *testing.T) {
	for _, tc := range []struct {
		name, obj, path, want string
		changed               bool
	}{
		{"leaf is removed", `{"spec":{"a":1,"b":2}}`, "spec.a", `{"spec":{"b":2}}`, true},
		{"object loses its last child", `{"spec":{"o":{"x":1,"y":2}}}`, "spec.o", `{"spec":{"o":{"x":1}}}`, true},
		{"top-level object loses its last child", `{"spec":{"a":1,"b":2}}`, "spec", `{"spec":{"a":1}}`, true},
		{"array item is removed", `{"spec":{"l":[{"k":1},{}]}}`, "spec.l[1].missing", `{"spec":{"l":[{"k":1}]}}`, true},
		{"missing leaf removes its parent", `{"spec":{"o":{},"p":1}}`, "spec.o.missing", `{"spec":{"p":1}}`, true},
		{"metadata is left alone", `{"metadata":{"name":"x"}}`, "metadata.name", `{"metadata":{"name":"x"}}`, false},
		{"nothing to remove", `{"spec":{}}`, "spec.a", `{"spec":{}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var obj map[string]interface{}
			if err := json.Unmarshal([]byte(tc.obj), &obj); err != nil {
				t.Fatal(err)
			}
			changed := removeAt(obj, parseFieldPath(tc.path))
			got, _ := json.Marshal(obj)
			if changed != tc.changed || string(got) != tc.want {
				t.Errorf("removeAt(%s, %q) = %v, %s; want %v, %s", tc.obj, tc.path, changed, got, tc.changed, tc.want)
			}
		})
	}
}

func TestRepairRemovesWhatTheValidatorRejects(t *testing.T) {
	obj := map[string]interface{}{"spec": map[string]interface{}{"good": int64(1), "bad": int64(2)}}
	validate := func(b []byte) ([]string, error) {
		var m map[string]map[string]interface{}
		_ = json.Unmarshal(b, &m)
		if _, ok := m["spec"]["bad"]; ok {
			return []string{"spec.bad"}, nil
		}
		return nil, nil
	}
	got, left, err := Repair(obj, validate, 5)
	if err != nil || len(left) != 0 {
		t.Fatalf("Repair: %v, left %v", err, left)
	}
	if want := map[string]interface{}{"spec": map[string]interface{}{"good": int64(1)}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Repair = %v, want %v", got, want)
	}
}

func TestSplitYAMLAndSelectCRD(t *testing.T) {
	stream := "a: 1\n---\n---\nkind: CustomResourceDefinition\nmetadata: {name: x}\n--- \nkind: CustomResourceDefinition\nmetadata: {name: yy}\n"
	if docs, err := splitYAML([]byte(stream)); err != nil || len(docs) != 3 {
		t.Fatalf("splitYAML: %d documents (%v), want 3", len(docs), err)
	}
	doc, err := selectCRD([]byte(stream), "yy")
	if err != nil || string(doc) != "kind: CustomResourceDefinition\nmetadata: {name: yy}\n" {
		t.Errorf("selectCRD(yy) = %q, %v", doc, err)
	}
	if _, err := selectCRD([]byte(stream), ""); err == nil {
		t.Error("selectCRD without a name must fail on two CRDs")
	}
}

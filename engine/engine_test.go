package engine

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// twoSchemas has a different schema per version: the object's version
// decides what is pruned and defaulted.
const twoSchemas = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {plural: things, kind: Thing}
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
              a: {type: string, default: from-v1}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              b: {type: string, default: from-v2}
`

func TestMultiVersionUsesTheVersionsOwnSchema(t *testing.T) {
	c := compileT(t, twoSchemas)
	tests := []struct {
		object, wantSpec string
		wantPruned       []string
	}{
		{`{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"b":"x"}}`, `{"a":"from-v1"}`, []string{"spec.b"}},
		{`{"apiVersion":"example.com/v2","kind":"Thing","metadata":{"name":"t"},"spec":{"a":"x"}}`, `{"b":"from-v2"}`, []string{"spec.a"}},
	}
	for _, tt := range tests {
		res, err := c.Validate([]byte(tt.object), ValidateOptions{FieldValidation: Ignore})
		if err != nil {
			t.Fatal(err)
		}
		spec := jsonOf(t, res.Object.(map[string]interface{})["spec"])
		if spec != tt.wantSpec || fmt.Sprint(res.Pruned) != fmt.Sprint(tt.wantPruned) {
			t.Errorf("%s: spec %s pruned %v, want %s %v", tt.object, spec, res.Pruned, tt.wantSpec, tt.wantPruned)
		}
	}
}

func TestClusterScopedObjectsLoseTheirNamespace(t *testing.T) {
	c := compileT(t, twoSchemas)
	res, err := c.Validate([]byte(`{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t","namespace":"ns"}}`), ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonOf(t, res.Object.(map[string]interface{})["metadata"]); got != `{"generation":1,"name":"t"}` {
		t.Fatalf("metadata = %s", got)
	}
}

func TestValidatorIsSafeForConcurrentUse(t *testing.T) {
	c := compileT(t, widgetCRD)
	v, err := c.Validator("v1")
	if err != nil {
		t.Fatal(err)
	}
	objs := []string{
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"},"spec":{"size":"S"}}`,
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"b"},"spec":{"size":"XL","tags":["a","a"]}}`,
	}
	want := make([]string, len(objs))
	for i, o := range objs {
		r, err := v.Validate([]byte(o), ValidateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = fmt.Sprint(messages(r), jsonOf(t, r.Object))
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				k := (g + i) % len(objs)
				r, err := v.Validate([]byte(objs[k]), ValidateOptions{})
				if err != nil {
					t.Error(err)
					return
				}
				if got := fmt.Sprint(messages(r), jsonOf(t, r.Object)); got != want[k] {
					t.Errorf("concurrent result differs:\n got %s\nwant %s", got, want[k])
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestInvalidCRD(t *testing.T) {
	c, err := Compile([]byte(strings.Replace(twoSchemas, "storage: false", "storage: true", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Errors()) == 0 {
		t.Fatal("two storage versions must be a CRD error")
	}
	if _, err := c.Validate([]byte(`{}`), ValidateOptions{}); err == nil || !strings.Contains(err.Error(), `CustomResourceDefinition "things.example.com" is invalid`) {
		t.Fatalf("Validate on an invalid CRD: err = %v", err)
	}
	if _, err := c.Validator("v1"); err == nil {
		t.Fatal("Validator on an invalid CRD must fail")
	}
}

func TestCompileErrors(t *testing.T) {
	for _, in := range []string{"", "{", "apiVersion: v1\nkind: ConfigMap\n", twoSchemas + "\n---\n" + twoSchemas} {
		if _, err := Compile([]byte(in)); err == nil {
			t.Errorf("Compile(%.30q) succeeded", in)
		}
	}
}

func TestMalformedMetadataIsADecodeError(t *testing.T) {
	c := compileT(t, widgetCRD)
	res, err := c.Validate([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":5}}`), ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.DecodeError, `Widget in version "v1" cannot be handled as a Widget: `) || res.Object != nil {
		t.Fatalf("DecodeError = %q, Object = %v", res.DecodeError, res.Object)
	}
}

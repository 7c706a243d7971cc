package openapi

import (
	"os"
	"testing"

	"github.com/crdlab/crdlab/internal/unstructured"
)

func benchInputs(b *testing.B) (*Validator, interface{}) {
	s, err := os.ReadFile("testdata/bench_schema.json")
	if err != nil {
		b.Fatal(err)
	}
	o, err := os.ReadFile("testdata/bench_object.json")
	if err != nil {
		b.Fatal(err)
	}
	return mustValidator(b, string(s)), decodeObj(b, string(o))
}

func BenchmarkValidate(b *testing.B) {
	v, obj := benchInputs(b)
	if errs := v.Validate(nil, obj); len(errs) != 0 {
		b.Fatalf("unexpected errors: %v", render(errs))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		v.Validate(nil, obj)
	}
}

func BenchmarkValidateUpdate(b *testing.B) {
	v, obj := benchInputs(b)
	old := unstructured.DeepCopy(obj)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		v.ValidateUpdate(nil, obj, old)
	}
}

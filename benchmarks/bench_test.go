package benchmarks

import (
	"testing"

	"github.com/crdlab/crdlab/engine"
)

// BenchmarkCompile measures compiling each CRD: decoding, CRD validation
// (CEL compilation and cost estimation included on the upstream side) and
// building the per-version validators.
func BenchmarkCompile(b *testing.B) {
	for _, in := range Inputs() {
		b.Run("impl=crdlab/"+in.Label(), func(b *testing.B) {
			skipIf(b, in)
			b.ReportAllocs()
			b.SetBytes(int64(len(in.CRD)))
			measureCPU(b, func() {
				c, err := engine.Compile(in.CRD)
				if err != nil {
					b.Fatal(err)
				}
				if len(c.Errors()) > 0 {
					b.Fatalf("crdlab rejects the CRD: %v", c.Errors().ToAggregate())
				}
			})
		})
		b.Run("impl=upstream/"+in.Label(), func(b *testing.B) {
			skipIf(b, in)
			b.ReportAllocs()
			b.SetBytes(int64(len(in.CRD)))
			measureCPU(b, func() {
				c, err := UpstreamCompile(in.CRD)
				if err != nil {
					b.Fatal(err)
				}
				if len(c.Errors) > 0 {
					b.Fatalf("upstream rejects the CRD: %v", c.Errors.ToAggregate())
				}
			})
		})
	}
}

// BenchmarkValidate measures one create request per object against an
// already compiled CRD: decoding, pruning, ObjectMeta coercion, defaulting
// and validation (ObjectMeta, OpenAPI, list types, CEL).
func BenchmarkValidate(b *testing.B) {
	for _, in := range Inputs() {
		for _, obj := range in.Objects {
			label := "/" + in.Label() + "/obj=" + obj.Name
			b.Run("impl=crdlab"+label, func(b *testing.B) {
				skipIf(b, in)
				c, err := engine.Compile(in.CRD)
				if err != nil {
					b.Fatal(err)
				}
				v, err := c.Validator("")
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.SetBytes(int64(len(obj.JSON)))
				measureCPU(b, func() {
					if _, err := v.Validate(obj.JSON, engine.ValidateOptions{FieldValidation: engine.Strict}); err != nil {
						b.Fatal(err)
					}
				})
			})
			b.Run("impl=upstream"+label, func(b *testing.B) {
				skipIf(b, in)
				c, err := UpstreamCompile(in.CRD)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.SetBytes(int64(len(obj.JSON)))
				measureCPU(b, func() {
					if _, err := c.Validate(obj.JSON, ""); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

func skipIf(b *testing.B, in *Input) {
	b.Helper()
	if in.Skip != "" {
		b.Skipf("%s: %s", in.Name, in.Skip)
	}
}

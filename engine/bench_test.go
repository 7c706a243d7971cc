package engine

import (
	"os"
	"testing"
)

func BenchmarkCompileCronTab(b *testing.B) {
	data, err := os.ReadFile("../examples/crontab-crd.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Compile(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateCronTab(b *testing.B) {
	data, err := os.ReadFile("../examples/crontab-crd.yaml")
	if err != nil {
		b.Fatal(err)
	}
	c, err := Compile(data)
	if err != nil {
		b.Fatal(err)
	}
	v, err := c.Validator("")
	if err != nil {
		b.Fatal(err)
	}
	obj := []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"cronSpec":"* * * * */5","image":"nginx","replicas":3,"extra":true}}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := v.Validate(obj, ValidateOptions{FieldValidation: Warn}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPositionsInvalidCronTab is what an invalid result's positions
// cost (Validate does not compute them; NewReport does).
func BenchmarkPositionsInvalidCronTab(b *testing.B) {
	data, err := os.ReadFile("../examples/crontab-crd.yaml")
	if err != nil {
		b.Fatal(err)
	}
	c, err := Compile(data)
	if err != nil {
		b.Fatal(err)
	}
	obj, err := os.ReadFile("../examples/invalid.yaml")
	if err != nil {
		b.Fatal(err)
	}
	res, err := c.Validate(obj, ValidateOptions{})
	if err != nil || len(res.Errors) != 2 {
		b.Fatalf("%v, %v", err, res.Errors)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p := res.Positions(); !p.Errors[1].Known() {
			b.Fatal("no position")
		}
	}
}

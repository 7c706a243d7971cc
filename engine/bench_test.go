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

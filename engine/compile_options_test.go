package engine_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
)

// TestCompileFieldValidation: a CRD with an unknown field under each CRD
// fieldValidation, and the misuse of an invalid one.
func TestCompileFieldValidation(t *testing.T) {
	crdYAML := []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - {name: v1, served: true, storage: true, bogus: 1, schema: {openAPIV3Schema: {type: object}}}
`)
	obj := []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\n")
	const msg = `CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.versions[0].bogus"`
	for _, tt := range []struct {
		fv           engine.FieldValidation
		decodeError  string
		warnings     []string
		fieldErrors  int
		validateFail bool
	}{
		{"", msg, []string{}, 1, true},
		{engine.Strict, msg, []string{}, 1, true},
		{engine.Warn, "", []string{`unknown field "spec.versions[0].bogus"`}, 1, false},
		{engine.Ignore, "", []string{}, 0, false},
	} {
		t.Run(string(tt.fv), func(t *testing.T) {
			c, err := engine.CompileWithOptions(crdYAML, engine.CompileOptions{FieldValidation: tt.fv})
			if err != nil {
				t.Fatal(err)
			}
			if c.DecodeError() != tt.decodeError || c.Valid() != (tt.decodeError == "") {
				t.Errorf("DecodeError() = %q, Valid() = %v", c.DecodeError(), c.Valid())
			}
			if !reflect.DeepEqual(c.Warnings(), tt.warnings) {
				t.Errorf("Warnings() = %q, want %q", c.Warnings(), tt.warnings)
			}
			if len(c.FieldErrors()) != tt.fieldErrors {
				t.Errorf("FieldErrors() = %v", c.FieldErrors())
			}
			_, err = c.Validate(obj, engine.ValidateOptions{})
			if (err != nil) != tt.validateFail {
				t.Errorf("Validate error = %v, want failure %v", err, tt.validateFail)
			}
			if err != nil && !strings.Contains(err.Error(), "is rejected: "+msg) {
				t.Errorf("Validate error = %v", err)
			}
		})
	}
	if _, err := engine.CompileWithOptions(crdYAML, engine.CompileOptions{FieldValidation: "strict"}); err == nil {
		t.Error("an invalid fieldValidation must be an error")
	}
}

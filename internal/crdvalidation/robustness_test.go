package crdvalidation

import (
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
)

// TestNoPanicOnOddInput feeds shapes that are legal JSON but unusual for a
// CRD; validation must report errors, never panic.
func TestNoPanicOnOddInput(t *testing.T) {
	schemas := []string{
		"type: object\nproperties:\n  l: {type: array, items: []}",
		"type: object\nproperties:\n  l: {type: array, x-kubernetes-list-type: map}",
		"type: object\nproperties:\n  l: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [a], items: [{type: object}]}",
		"type: object\nadditionalProperties: false\nproperties:\n  a: {type: string}",
		"type: object\nproperties:\n  a:\n    type: string\n    x-kubernetes-validations: [{rule: 'true', fieldPath: '.x.y'}, {rule: 'true', fieldPath: \"['\"}]",
		"type: object\nproperties:\n  m:\n    type: object\n    additionalProperties: true\n    x-kubernetes-validations: [{rule: 'true', fieldPath: '.k.j'}]",
		"type: object\ndependencies:\n  a: {type: string}\n  b: [c]\nnot: {}\nallOf: [{}]\ndefinitions: {d: {}}",
		"{}",
	}
	extras := []string{
		"",
		"    selectableFields: [{jsonPath: .m.k}, {jsonPath: '.'}, {jsonPath: '.a['}]\n",
		"    subresources: {status: {}, scale: {specReplicasPath: '.', statusReplicasPath: '.'}}\n",
	}
	for _, s := range schemas {
		for _, e := range extras {
			y := crdWithSchema(s, e)
			c, err := crd.DecodeOne([]byte(y), "t.yaml")
			if err != nil {
				continue
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("panic for schema %q extra %q: %v", s, e, r)
					}
				}()
				ValidateCustomResourceDefinition(c, Options{})
				validateCustomResourceDefinition(c, &options{compileRules: (&fakeCEL{results: map[string]CELRuleResult{}}).CompileRules})
			}()
		}
	}
	// a CRD with nothing in it
	ValidateCustomResourceDefinition(&crd.CustomResourceDefinition{}, Options{})
	ValidateCustomResourceDefinition(nil, Options{})
}

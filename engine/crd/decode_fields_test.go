package crd

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeDocumentsFieldErrors pins the unknown and duplicate fields
// DecodeDocuments reports: upstream's path spelling and order (checked
// against the API server by conformance/testdata/cases/16_*), positions,
// and the places upstream does not look.
func TestDecodeDocumentsFieldErrors(t *testing.T) {
	schema := func(s string) string {
		return strings.Replace(validCRD, "        type: object\n", "        type: object\n"+s, 1)
	}
	const jsonHead = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.example.com"},`
	tests := []struct {
		name string
		in   string
		want []string // "<upstream error> @ <position>"
	}{
		{"none", validCRD, nil},
		{
			"unknown keyword under a property",
			schema("        properties:\n          spec:\n            properties:\n              a: {type: string, bogusKeyword: 1}\n"),
			[]string{`unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.a.bogusKeyword" @ crd.yaml:21:33: unknown field "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].bogusKeyword"`},
		},
		{
			"unknown fields in document order at several depths",
			strings.Replace(strings.Replace(validCRD, "  name: widgets.example.com\n", "  name: widgets.example.com\n  bogusMeta: 1\n", 1), "  scope: Namespaced\n", "  scope: Namespaced\n  bogusSpec: 1\n", 1),
			[]string{
				`unknown field "metadata.bogusMeta" @ crd.yaml:5:3: unknown field "metadata.bogusMeta"`,
				`unknown field "spec.bogusSpec" @ crd.yaml:12:3: unknown field "spec.bogusSpec"`,
			},
		},
		{
			"duplicate struct field at its second occurrence, after the fields between",
			jsonHead + `"spec":{"group":"g","x":1,"group":"g","names":{"plural":"p","kind":"K"},"scope":"Namespaced","versions":[]}}`,
			[]string{
				`unknown field "spec.x" @ crd.yaml:1:137: unknown field "spec.x"`,
				`duplicate field "spec.group" @ crd.yaml:1:143: duplicate field "spec.group"`,
			},
		},
		{
			"duplicate map key; a key three times is one duplicate; an unknown key twice is one unknown",
			jsonHead + `"spec":{"group":"g","scope":"Namespaced","scope":"Namespaced","scope":"Namespaced","b":1,"b":2,"names":{"plural":"p","kind":"K"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"properties":{"x":{},"x":{}}}}}]}}`,
			[]string{
				`duplicate field "spec.scope" @ crd.yaml:1:158: duplicate field "spec.scope"`,
				`unknown field "spec.b" @ crd.yaml:1:206: unknown field "spec.b"`,
				`duplicate field "spec.versions[0].schema.openAPIV3Schema.properties.x" @ crd.yaml:1:350: duplicate field "spec.versions[0].schema.openAPIV3Schema.properties[x]"`,
			},
		},
		{
			"nothing inside items, additionalProperties, default, example or enum",
			schema("        properties:\n          l: {type: array, items: {type: string, bogus: 1, properties: {y: {bogus: 2}}}}\n          m: {type: object, additionalProperties: {bogus: 3}}\n        default: {a: 1, a: 2}\n        example: {b: {c: 1, c: 2}}\n        enum: [{d: 1, d: 2}]\n"),
			nil,
		},
		{
			"not, allOf and x-kubernetes-validations are strict",
			schema("        not: {bogus: 1}\n        allOf: [{bogus: 2}]\n        x-kubernetes-validations: [{rule: 'true', bogus: 3}]\n"),
			[]string{
				`unknown field "spec.versions[0].schema.openAPIV3Schema.not.bogus" @ crd.yaml:18:15: unknown field "spec.versions[0].schema.openAPIV3Schema.not.bogus"`,
				`unknown field "spec.versions[0].schema.openAPIV3Schema.allOf[0].bogus" @ crd.yaml:19:18: unknown field "spec.versions[0].schema.openAPIV3Schema.allOf[0].bogus"`,
				`unknown field "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].bogus" @ crd.yaml:20:51: unknown field "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].bogus"`,
			},
		},
		{
			"a List item's paths are relative to the item, its positions to the file",
			"apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.Replace(strings.TrimSuffix(validCRD, "\n"), "scope:", "bogus: 1\n  scope:", 1), "\n", "\n  "),
			[]string{`unknown field "spec.bogus" @ crd.yaml:13:5: unknown field "items[0].spec.bogus"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := DecodeDocuments([]byte(tt.in), "crd.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != 1 || docs[0].CRD == nil {
				t.Fatalf("want one CRD, got %d", len(docs))
			}
			var got []string
			for _, e := range docs[0].FieldErrors {
				got = append(got, fmt.Sprintf("%s @ %s", e, e.Pos))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			// Decode fails on the first of them, with its position.
			_, err = Decode([]byte(tt.in), "crd.yaml")
			if len(tt.want) == 0 {
				if err != nil {
					t.Errorf("Decode: %v", err)
				}
			} else if err == nil || !strings.HasSuffix(tt.want[0], " @ "+err.Error()) {
				t.Errorf("Decode: got %v, want the first field error", err)
			}
		})
	}
}

// TestDecodeDocumentsKeepsLastDuplicateAndDropsUnknown: the decoded CRD is
// what upstream's non-strict decoding gives for these inputs.
func TestDecodeDocumentsKeepsLastDuplicateAndDropsUnknown(t *testing.T) {
	in := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"w.example.com"},"spec":{"group":"a","group":"b","bogus":1,"names":{"plural":"w","kind":"W"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer","type":"string"}}}}}}]}}`
	docs, err := DecodeDocuments([]byte(in), "")
	if err != nil {
		t.Fatal(err)
	}
	c := docs[0].CRD
	if c.Spec.Group != "b" {
		t.Errorf("group = %q, want the last value", c.Spec.Group)
	}
	if typ := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["l"].Items.Schema.Type; typ != "string" {
		t.Errorf("items type = %q, want the last value", typ)
	}
	if len(docs[0].FieldErrors) != 2 {
		t.Errorf("want 2 field errors, got %v", docs[0].FieldErrors)
	}
}

package crd

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/yamldoc"
)

// everyShapeCRD uses every wire shape the typed decoding knows: schemas or
// arrays, schemas or booleans, schemas or string arrays, free-form JSON
// (with null, HTML characters and nested objects), raw messages, base64
// bytes, int32/int64/float64 pointers, named string types, maps, empty
// objects and arrays, and nulls.
const everyShapeCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
  labels: {a: b}
  annotations: {}
  finalizers: []
  creationTimestamp: null
  managedFields: [{manager: x}, null]
  generation: 3
spec:
  group: example.com
  names: {plural: widgets, kind: Widget, shortNames: [w], categories: []}
  scope: Namespaced
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        caBundle: aGVsbG8=
        service: {namespace: ns, name: svc, port: 443, path: /convert}
  versions:
  - name: v1
    served: true
    storage: true
    deprecationWarning: null
    subresources: {status: {}, scale: {specReplicasPath: .spec.r, statusReplicasPath: .status.r}}
    additionalPrinterColumns: [{name: A, type: string, jsonPath: .spec.a, priority: 1}]
    schema:
      openAPIV3Schema:
        type: object
        maximum: 1.5
        minimum: -2
        multipleOf: 0.25
        maxLength: 9007199254740993
        default: {x: "<a&b>", y: [1, 2.5, null, true], z: {}}
        example: null
        enum: [1, "two", null, {three: 3}, []]
        items: {type: string}
        additionalItems: false
        additionalProperties: {type: integer}
        dependencies: {a: [b, c], d: {type: string}, e: []}
        allOf: [{required: [a]}, {not: {required: [b]}}]
        properties:
          list:
            type: array
            items: [{type: string}, {type: integer}]
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [name]
          any: {x-kubernetes-preserve-unknown-fields: true, additionalProperties: true}
          empty: {}
        patternProperties: {"^x": {type: string}}
        definitions: {d: {type: object}}
        x-kubernetes-validations:
        - {rule: "self.a > 0", reason: FieldValueForbidden, optionalOldSelf: false, fieldPath: .a}
status:
  storedVersions: [v1]
  conditions: [{type: Established}]
`

// TestFillMatchesJSONRoundTrip pins fill to what encoding/json gives for
// the encoded document (the decoding it replaces).
func TestFillMatchesJSONRoundTrip(t *testing.T) {
	for name, doc := range map[string]string{"every shape": everyShapeCRD, "valid": validCRD} {
		t.Run(name, func(t *testing.T) {
			docs, err := yamldoc.Split([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeDocument(document{data: docs[0].Data, firstLine: docs[0].Line}, "x.yaml")
			if err != nil {
				t.Fatal(err)
			}
			value, err := slowJSONValue(docs[0].Data)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(value)
			if err != nil {
				t.Fatal(err)
			}
			want := &CustomResourceDefinition{}
			if err := json.Unmarshal(raw, want); err != nil {
				t.Fatal(err)
			}
			SetDefaults(want)
			if !reflect.DeepEqual(got[0].CRD, want) {
				g, _ := json.Marshal(got[0].CRD)
				w, _ := json.Marshal(want)
				t.Fatalf("fill differs from the JSON round trip:\n got %s\nwant %s", g, w)
			}
		})
	}
}

func TestDecodeRejectsValuesTheTypesCannotHold(t *testing.T) {
	for _, tc := range []struct{ name, from, to, want string }{
		{"float too large for float64 is a string in YAML 1.1", "maximum: 1.5", "maximum: 1e400",
			`x.yaml:32:18: spec.versions[0].schema.openAPIV3Schema.maximum: expected number, got string "1e400"`},
		{"bad base64", "caBundle: aGVsbG8=", "caBundle: '*'",
			`x.yaml:20:19: spec.conversion.webhook.clientConfig.caBundle: expected base64 string, got string "*": illegal base64 data at input byte 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := strings.Replace(everyShapeCRD, tc.from, tc.to, 1)
			_, err := Decode([]byte(doc), "x.yaml")
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

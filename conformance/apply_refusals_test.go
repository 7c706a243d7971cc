package conformance

import (
	"fmt"
	"testing"
	"time"

	"github.com/crdlab/crdlab/conformance/upstream"
)

// refusalsCRD is a Widget without the status subresource: typed,
// nullable, object and map fields, a list-map whose items have a default,
// and a list whose items several errors can break at once (in index
// order: errors on several properties of one object come in the API
// server's map iteration order, which varies from run to run).
const refusalsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
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
              image: {type: string, maxLength: 5}
              replicas: {type: integer, maximum: 10}
              note: {type: string, nullable: true}
              size: {type: integer, default: 1}
              template:
                type: object
                properties:
                  a: {type: string}
                  b: {type: string}
              labels:
                type: object
                additionalProperties: {type: string}
              args: {type: array, items: {type: string, maxLength: 3}}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    protocol: {type: string, default: TCP}
          status:
            type: object
            properties:
              phase: {type: string}
`

// TestApplyDifferentialRefusals: what the API server refuses on apply and
// what it shows afterwards, step by step against upstream's field manager
// and handlers: explicit nulls and emptied objects (kept by the merge, so
// validated: 422 unless the field is nullable) at create and after; the
// 422 status message with one error and several ([a, b]) from apply and
// update; /status on a version without the subresource (NotFound of the
// resource and name, as a DELETE of a missing object is); and the stored
// object after a refused step, as a read returns it (defaulted).
func TestApplyDifferentialRefusals(t *testing.T) {
	served, c := applyServed(t, refusalsCRD)
	w := func(spec string) string {
		return fmt.Sprintf(`{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1, namespace: default}, spec: %s}`, spec)
	}
	withStatus := `{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1, namespace: default}, status: {phase: Running}}`
	stored := `{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1, namespace: default, uid: 33333333-3333-3333-3333-333333333333, creationTimestamp: "2025-06-01T00:00:00Z", generation: 1}, spec: {image: a, ports: [{port: 80}]}}`
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []applyCase{
		{name: "nulls/create-null-string", steps: []upstream.ApplyStep{ap("alice", false, w(`{image: null}`))}},
		{name: "nulls/create-null-object", steps: []upstream.ApplyStep{ap("alice", false, w(`{template: null}`))}},
		{name: "nulls/create-null-map", steps: []upstream.ApplyStep{ap("alice", false, w(`{labels: null, image: a}`))}},
		{name: "nulls/create-null-list", steps: []upstream.ApplyStep{ap("alice", false, w(`{args: null}`))}},
		{name: "nulls/create-null-defaulted", steps: []upstream.ApplyStep{ap("alice", false, w(`{size: null}`))}},
		{name: "nulls/create-null-nullable", steps: []upstream.ApplyStep{ap("alice", false, w(`{note: null}`))}},
		{name: "nulls/null-string-after", steps: []upstream.ApplyStep{ap("alice", false, w(`{image: a}`)), ap("alice", false, w(`{image: null}`))}},
		{name: "nulls/null-string-other-manager", steps: []upstream.ApplyStep{ap("alice", false, w(`{image: a}`)), ap("bob", true, w(`{image: null}`)), ap("bob", false, w(`{image: b}`))}},
		{name: "nulls/null-nullable-after", steps: []upstream.ApplyStep{ap("alice", false, w(`{note: x}`)), ap("alice", false, w(`{note: null}`))}},
		{name: "nulls/emptied-object", steps: []upstream.ApplyStep{ap("alice", false, w(`{template: {a: x}}`)), ap("alice", false, w(`{template: {}}`))}},
		{name: "nulls/emptied-map", steps: []upstream.ApplyStep{ap("alice", false, w(`{labels: {k: v}}`)), ap("alice", false, w(`{labels: {}}`))}},
		{name: "nulls/emptied-list", steps: []upstream.ApplyStep{ap("alice", false, w(`{args: [x]}`)), ap("alice", false, w(`{args: []}`))}},
		{name: "nulls/emptied-list-map", steps: []upstream.ApplyStep{ap("alice", false, w(`{ports: [{port: 80}]}`)), ap("alice", false, w(`{ports: []}`))}},
		{name: "nulls/null-object-after", steps: []upstream.ApplyStep{ap("alice", false, w(`{template: {a: x}}`)), ap("alice", false, w(`{template: null}`))}},
		{name: "nulls/update-null-string", steps: []upstream.ApplyStep{ap("alice", false, w(`{image: a}`)), up("editor", w(`{image: null}`))}},
		{name: "invalid/apply-one-error", steps: []upstream.ApplyStep{ap("alice", false, w(`{replicas: 11}`))}},
		{name: "invalid/apply-two-errors", steps: []upstream.ApplyStep{ap("alice", false, w(`{image: a}`)), ap("alice", false, w(`{args: [long1, long2]}`))}},
		{name: "invalid/update-two-errors", steps: []upstream.ApplyStep{up("editor", w(`{args: [long1, long2]}`))}},
		{name: "status/apply-without-subresource", steps: []upstream.ApplyStep{ap("alice", false, w(`{image: a}`)), status("Apply", "ctrl", false, withStatus)}},
		{name: "status/update-without-subresource", steps: []upstream.ApplyStep{ap("alice", false, w(`{image: a}`)), status("Update", "ctrl", false, withStatus)}},
		{name: "status/without-subresource-nor-object", steps: []upstream.ApplyStep{status("Apply", "ctrl", false, withStatus)}},
		{name: "delete/missing", steps: []upstream.ApplyStep{{Operation: "Delete"}}},
		{name: "delete/twice", steps: []upstream.ApplyStep{ap("alice", false, w(`{image: a}`)), {Operation: "Delete"}, {Operation: "Delete"}}},
		{name: "delete/stored-twice", stored: stored, steps: []upstream.ApplyStep{{Operation: "Delete"}, {Operation: "Delete"}, ap("alice", false, w(`{image: b}`))}},
		{name: "stored/refused-step-reads-defaulted", stored: stored, steps: []upstream.ApplyStep{ap("alice", false, w(`{replicas: 11}`)), ap("alice", false, w(`{image: b}`))}},
		{name: "stored/refused-null-reads-defaulted", stored: stored, steps: []upstream.ApplyStep{ap("alice", false, w(`{image: null}`))}},
		{name: "stored/conflict-reads-defaulted", stored: stored, steps: []upstream.ApplyStep{up("editor", w(`{image: c, ports: [{port: 80}]}`)), ap("alice", false, w(`{image: d}`))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var st []byte
			if tc.stored != "" {
				st = []byte(tc.stored)
			}
			compareApply(t, served, c, st, tc.steps, t0)
		})
	}
}

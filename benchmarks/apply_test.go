package benchmarks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/engine"
)

// applyBenchCRD has a set list and a map list, the two list types whose
// merge costs grow with the list.
const applyBenchCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.stable.example.com}
spec:
  group: stable.example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
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
              tags:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer}
`

// applyBenchSteps is two managers' applies of n set items and n map items
// each, half of them shared, then the first manager's re-apply without its
// own half: the merges, the ownership of every item and the release of
// half of them.
func applyBenchSteps(n int) []upstream.ApplyStep {
	obj := func(from, to int) []byte {
		var tags, ports strings.Builder
		for i := from; i < to; i++ {
			if i > from {
				tags.WriteByte(',')
				ports.WriteByte(',')
			}
			fmt.Fprintf(&tags, `"t%d"`, i)
			fmt.Fprintf(&ports, `{"name":"p%d","port":%d}`, i, i)
		}
		return []byte(`{"apiVersion":"stable.example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"spec":{"tags":[` + tags.String() + `],"ports":[` + ports.String() + `]}}`)
	}
	return []upstream.ApplyStep{
		{Manager: "alice", Operation: "Apply", Object: obj(0, n)},
		{Manager: "bob", Operation: "Apply", Object: obj(n/2, n+n/2)},
		{Manager: "alice", Operation: "Apply", Object: obj(n/2, n)},
	}
}

// BenchmarkApply measures three server-side applies by two managers on
// lists of n items (set and map), through crdlab's apply.Run and through
// upstream's field manager (managedfields.NewDefaultCRDFieldManager with
// the CRD's type converter, the differential suite's oracle), each with
// the result's validation.
func BenchmarkApply(b *testing.B) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, n := range []int{10, 1000, 10000} {
		steps := applyBenchSteps(n)
		b.Run(fmt.Sprintf("impl=crdlab/items=%d", n), func(b *testing.B) {
			c, err := engine.Compile([]byte(applyBenchCRD))
			if err != nil || !c.Valid() {
				b.Fatalf("compile: %v %v", err, c.Errors())
			}
			ours := make([]apply.Step, len(steps))
			for i, s := range steps {
				ours[i] = apply.Step{Manager: s.Manager, Operation: apply.Operation(s.Operation), Object: s.Object}
			}
			b.ReportAllocs()
			measureCPU(b, func() {
				rep, err := apply.Run(c, nil, ours, apply.Options{Time: t0})
				if err != nil || rep.Failed() {
					b.Fatalf("apply: %v %+v", err, rep)
				}
			})
		})
		b.Run(fmt.Sprintf("impl=upstream/items=%d", n), func(b *testing.B) {
			v1crd, err := upstream.DecodeCRD([]byte(applyBenchCRD))
			if err != nil {
				b.Fatal(err)
			}
			created, err := upstream.CreateCRD(v1crd)
			if err != nil || len(created.Errors) > 0 {
				b.Fatalf("create: %v %v", err, created.Errors)
			}
			served, err := upstream.Serve(created)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			measureCPU(b, func() {
				out, err := served.RunApply(nil, steps, t0, apply.DefaultUID)
				if err != nil {
					b.Fatal(err)
				}
				for i, r := range out {
					if r.Code != 0 {
						b.Fatalf("step %d: %d %s %s", i+1, r.Code, r.Conflict, r.Error)
					}
				}
			})
		})
	}
}

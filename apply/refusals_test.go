package apply

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
)

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
              template: {type: object, properties: {a: {type: string}}}
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
`

// What the API server refuses on apply, with its status message, and what
// it shows after a refused step (conformance's TestApplyDifferentialRefusals
// checks the same against upstream).
func TestApplyRefusalsCarryTheAPIServersStatusAndLeaveTheObjectAsRead(t *testing.T) {
	c, err := engine.Compile([]byte(refusalsCRD))
	if err != nil || !c.Valid() {
		t.Fatalf("compile: %v %v", err, c.Errors())
	}
	w := func(spec string) Step {
		return Step{Manager: "alice", Operation: Apply, Object: []byte(`{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1, namespace: default}, spec: ` + spec + `}`)}
	}
	stored := []byte(`{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1, namespace: default, uid: u1, generation: 1}, spec: {image: a, ports: [{port: 80}]}}`)
	for _, tc := range []struct {
		name   string
		stored []byte
		steps  []Step
		code   int
		err    string
		object string // a substring of the shown object after the last step
	}{
		{"a null string at create is refused", nil, []Step{w(`{image: null}`)}, 422,
			`Widget.example.com "w1" is invalid: spec.image: Invalid value: "null": spec.image in body must be of type string: "null"`, ""},
		{"a null object at create is refused", nil, []Step{w(`{template: null}`)}, 422,
			`Widget.example.com "w1" is invalid: spec.template: Invalid value: "null": spec.template in body must be of type object: "null"`, ""},
		{"a null string after is refused, the object unchanged", nil, []Step{w(`{image: a}`), w(`{image: null}`)}, 422,
			`spec.image in body must be of type string: "null"`, `"spec":{"image":"a"}`},
		{"a nullable null is stored", nil, []Step{w(`{note: null}`)}, 0, "", `"spec":{"note":null}`},
		{"several errors are one status message", nil, []Step{w(`{args: [long1, long2]}`)}, 422,
			`Widget.example.com "w1" is invalid: [spec.args[0]: Too long: may not be more than 3 bytes, spec.args[1]: Too long: may not be more than 3 bytes]`, ""},
		{"status without the subresource is not found", nil, []Step{w(`{image: a}`), {Manager: "ctrl", Operation: Apply, Subresource: "status", Object: []byte(`{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1, namespace: default}, status: {x: 1}}`)}}, 404,
			`widgets.example.com "w1" not found`, ""},
		{"a delete of the deleted object is not found by name", nil, []Step{w(`{image: a}`), {Operation: Delete}, {Operation: Delete}}, 404,
			`widgets.example.com "w1" not found`, ""},
		{"a refused step shows the stored object as read", stored, []Step{w(`{replicas: 11}`)}, 422,
			`spec.replicas in body should be less than or equal to 10`, `"ports":[{"port":80,"protocol":"TCP"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Run(c, tc.stored, tc.steps, Options{})
			if err != nil {
				t.Fatal(err)
			}
			last := rep.Steps[len(rep.Steps)-1]
			if last.Code != tc.code || !strings.Contains(last.Error, tc.err) || (tc.err == "" && last.Error != "") {
				t.Errorf("code %d, error %q; want %d, %q", last.Code, last.Error, tc.code, tc.err)
			}
			if got := string(last.ObjectJSON()); !strings.Contains(got, tc.object) {
				t.Errorf("object %s, want it to contain %s", got, tc.object)
			}
		})
	}
}

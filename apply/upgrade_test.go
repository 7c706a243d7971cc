package apply_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/engine"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/")

// widgetCRD is a Widget CRD whose merge types are parameters: ports (a list
// of {name, protocol, port}), args (a list of strings), labels (a map of
// strings), template (a struct {image, tag}).
func widgetCRD(t *testing.T, ports, args, labels, template string) *engine.CRD {
	t.Helper()
	src := `apiVersion: apiextensions.k8s.io/v1
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
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                ` + ports + `
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    protocol: {type: string, default: TCP}
                    port: {type: integer}
              args:
                type: array
                ` + args + `
                items: {type: string}
              labels:
                type: object
                ` + labels + `
                additionalProperties: {type: string}
              template:
                type: object
                ` + template + `
                properties:
                  image: {type: string}
                  tag: {type: string}
          status:
            type: object
            properties:
              phase: {type: string}
`
	c, err := engine.Compile([]byte(src))
	if err != nil || !c.Valid() {
		t.Fatalf("%v %v\n%s", err, c.Errors(), src)
	}
	return c
}

func widget(spec string) []byte {
	return []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"spec":` + spec + `}`)
}

const (
	atomicList = "x-kubernetes-list-type: atomic"
	mapByName  = "x-kubernetes-list-type: map\n                x-kubernetes-list-map-keys: [name]"
	mapByTwo   = "x-kubernetes-list-type: map\n                x-kubernetes-list-map-keys: [name, protocol]"
	setList    = "x-kubernetes-list-type: set"
	granular   = "x-kubernetes-map-type: granular"
	atomicMap  = "x-kubernetes-map-type: atomic"
)

// TestUpgradeBehaviour computes, for merge-type changes of each kind, what
// the upgrade does to a stored object's managedFields and to each
// manager's next apply; testdata/upgrade/<name>.golden holds the report,
// and each case pins its key finding besides.
func TestUpgradeBehaviour(t *testing.T) {
	type types struct{ ports, args, labels, template string }
	base := types{mapByName, setList, granular, granular}
	tests := []struct {
		name     string
		old, new types
		steps    []apply.Step
		check    func(t *testing.T, rep *apply.UpgradeReport)
	}{{
		name: "atomic-list-to-map-orphans-the-items",
		old:  types{atomicList, setList, granular, granular},
		new:  base,
		steps: []apply.Step{
			{Manager: "alice", Operation: apply.Apply, Object: widget(`{"ports":[{"name":"http","port":80}]}`)},
		},
		check: func(t *testing.T, rep *apply.UpgradeReport) {
			wantList(t, "orphaned", rep.Objects[0].Orphaned, `.spec.ports[name="http"].name`, `.spec.ports[name="http"].port`, `.spec.ports[name="http"].protocol`)
		},
	}, {
		name: "map-list-to-atomic-makes-the-item-owners-share-the-list-and-conflict",
		old:  base,
		new:  types{atomicList, setList, granular, granular},
		steps: []apply.Step{
			{Manager: "alice", Operation: apply.Apply, Object: widget(`{"ports":[{"name":"http","port":80}]}`)},
			{Manager: "bob", Operation: apply.Apply, Object: widget(`{"ports":[{"name":"metrics","port":9090}]}`)},
		},
		check: func(t *testing.T, rep *apply.UpgradeReport) {
			// SMD's reconciliation gives both item owners the whole list
			wantList(t, "orphaned", rep.Objects[0].Orphaned)
			a := rep.Objects[0].Managers[0]
			if a.Manager != "alice" || a.NextApply == nil {
				t.Fatalf("first manager: %+v", a)
			}
			if got := string(a.ReconciledFieldsV1); got != `{"f:spec":{"f:ports":{}}}` {
				t.Errorf("alice's reconciled fields: %s", got)
			}
			wantList(t, "alice's newly owned", a.NewlyOwned, ".spec.ports")
			// re-applying her item now replaces the list bob shares
			wantList(t, "alice's new conflicts", a.NextApply.NewConflicts, `.spec.ports: conflict with "bob"`)
		},
	}, {
		name: "map-keys-change-orphans-every-item",
		old:  base,
		new:  types{mapByTwo, setList, granular, granular},
		steps: []apply.Step{
			{Manager: "alice", Operation: apply.Apply, Object: widget(`{"ports":[{"name":"http","port":80}]}`)},
		},
		check: func(t *testing.T, rep *apply.UpgradeReport) {
			// protocol was defaulted: nobody owned it
			wantList(t, "orphaned", rep.Objects[0].Orphaned, `.spec.ports[name="http",protocol="TCP"].name`, `.spec.ports[name="http",protocol="TCP"].port`)
		},
	}, {
		name: "set-to-atomic-makes-the-value-owners-conflict",
		old:  base,
		new:  types{mapByName, atomicList, granular, granular},
		steps: []apply.Step{
			{Manager: "alice", Operation: apply.Apply, Object: widget(`{"args":["-v"]}`)},
			{Manager: "bob", Operation: apply.Apply, Object: widget(`{"args":["--debug"]}`)},
		},
		check: func(t *testing.T, rep *apply.UpgradeReport) {
			wantList(t, "alice's new conflicts", rep.Objects[0].Managers[0].NextApply.NewConflicts, `.spec.args: conflict with "bob"`)
		},
	}, {
		name: "granular-map-to-atomic-makes-the-key-owners-conflict",
		old:  base,
		new:  types{mapByName, setList, atomicMap, granular},
		steps: []apply.Step{
			{Manager: "alice", Operation: apply.Apply, Object: widget(`{"labels":{"team":"a"}}`)},
			{Manager: "bob", Operation: apply.Apply, Object: widget(`{"labels":{"tier":"web"}}`)},
		},
		check: func(t *testing.T, rep *apply.UpgradeReport) {
			wantList(t, "bob's new conflicts", rep.Objects[0].Managers[1].NextApply.NewConflicts, `.spec.labels: conflict with "alice"`)
		},
	}, {
		name: "atomic-struct-to-granular-lets-another-manager-in",
		old:  types{mapByName, setList, granular, atomicMap},
		new:  base,
		steps: []apply.Step{
			{Manager: "alice", Operation: apply.Apply, Object: widget(`{"template":{"image":"nginx","tag":"1"}}`)},
			{Manager: "ci", Operation: apply.Update, Object: widget(`{"template":{"image":"nginx","tag":"2"}}`)},
		},
		check: func(t *testing.T, rep *apply.UpgradeReport) {
			if len(rep.MergeTypeChanges) != 1 || rep.MergeTypeChanges[0].Old != "atomic struct" || rep.MergeTypeChanges[0].New != "granular struct" {
				t.Errorf("changes: %+v", rep.MergeTypeChanges)
			}
			// the update took the whole struct over; under the new CRD its
			// entry covers none of the fields.
			wantList(t, "orphaned", rep.Objects[0].Orphaned, ".spec.template.image", ".spec.template.tag")
		},
	}, {
		name: "no-merge-type-change-changes-nothing",
		old:  base,
		new:  base,
		steps: []apply.Step{
			{Manager: "alice", Operation: apply.Apply, Object: widget(`{"ports":[{"name":"http","port":80}],"labels":{"a":"b"}}`)},
			{Manager: "status-writer", Operation: apply.Apply, Subresource: "status", Object: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"status":{"phase":"Ready"}}`)},
		},
		check: func(t *testing.T, rep *apply.UpgradeReport) {
			if len(rep.MergeTypeChanges) != 0 || len(rep.Objects[0].Orphaned) != 0 {
				t.Errorf("changes: %+v", rep)
			}
			if s := rep.Objects[0].Managers[1]; s.Subresource != "status" || s.NextApply.New.Code != 0 || len(s.NextApply.New.Owned) != 1 {
				t.Errorf("the status manager's next apply: %+v", s.NextApply)
			}
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldCRD := widgetCRD(t, tt.old.ports, tt.old.args, tt.old.labels, tt.old.template)
			newCRD := widgetCRD(t, tt.new.ports, tt.new.args, tt.new.labels, tt.new.template)
			before := runSteps(t, oldCRD, nil, tt.steps...)
			for i := range tt.steps {
				before.wantOK(i + 1)
			}
			stored := before.rep.Steps[len(tt.steps)-1].ObjectJSON()
			rep, err := apply.UpgradeBehaviour(oldCRD, newCRD, []apply.UpgradeObject{{Source: "stored.json", Data: stored}})
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, rep)
			got, err := json.MarshalIndent(struct {
				Stored json.RawMessage      `json:"stored"`
				Report *apply.UpgradeReport `json:"report"`
			}{stored, rep}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", "upgrade", tt.name+".golden"), append(got, '\n'))
		})
	}
}

// TestUpgradeBehaviourSkipsAndReports: objects of another kind and objects
// without managedFields are skipped, unreadable managedFields reported.
func TestUpgradeBehaviourSkipsAndReports(t *testing.T) {
	c := widgetCRD(t, mapByName, setList, granular, granular)
	rep, err := apply.UpgradeBehaviour(c, c, []apply.UpgradeObject{
		{Source: "ns", Data: []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"x"}}`)},
		{Source: "plain", Data: widget(`{}`)},
		{Source: "bad", Data: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","managedFields":[{"manager":"a","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":{"f:spec":3}}]}}`)},
		{Source: "junk", Data: []byte(`[`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ skipped, err string }{
		{"v1 is not a Widget of example.com", ""},
		{"no managedFields", ""},
		{"", `managedFields of "a"`},
		{"", "error converting YAML to JSON"},
	}
	for i, w := range want {
		o := rep.Objects[i]
		if o.Skipped != w.skipped || !strings.Contains(o.Error, w.err) || (w.err == "") != (o.Error == "") {
			t.Errorf("object %d: skipped %q error %q; want %q, %q", i, o.Skipped, o.Error, w.skipped, w.err)
		}
	}
	if _, err := apply.UpgradeBehaviour(nil, c, nil); err == nil {
		t.Error("no error for a missing CRD")
	}
}

func wantList(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}

func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test ./apply -run %s -update writes it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./apply -run %s -update rewrites it); got:\n%s", file, t.Name(), got)
	}
}

// TestUpgradeBehaviourOddManagedFields: managedFields that do not fit
// either schema (keys on an atomic list, indices, values, undeclared
// fields, an entry of a version the CRD lacks) are compared like any
// other: never a panic, an error of the report or of the object.
func TestUpgradeBehaviourOddManagedFields(t *testing.T) {
	oldCRD := widgetCRD(t, atomicList, setList, granular, granular)
	newCRD := widgetCRD(t, mapByName, atomicList, atomicMap, atomicMap)
	entry := func(av, fields string) string {
		return `{"manager":"m","operation":"Apply","apiVersion":"` + av + `","fieldsType":"FieldsV1","fieldsV1":` + fields + `}`
	}
	for _, fields := range []string{
		`{"f:spec":{"f:ports":{"k:{\"name\":\"http\"}":{".":{},"f:port":{}}}}}`,
		`{"f:spec":{"f:ports":{"i:0":{"f:port":{}}},"f:args":{"v:\"-v\"":{}}}}`,
		`{"f:spec":{"f:nope":{},"f:labels":{"f:a":{"f:deeper":{}}}}}`,
		`{"f:status":{"f:phase":{}},"f:metadata":{"f:labels":{"f:x":{}}}}`,
	} {
		for _, av := range []string{"example.com/v1", "example.com/v9"} {
			obj := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default","labels":{"x":"y"},"managedFields":[` + entry(av, fields) + `]},"spec":{"ports":[{"name":"http","port":80}],"args":["-v"],"labels":{"a":"b"}},"status":{"phase":"Ready"}}`
			rep, err := apply.UpgradeBehaviour(oldCRD, newCRD, []apply.UpgradeObject{{Source: "o", Data: []byte(obj)}})
			if err != nil {
				t.Fatalf("%s at %s: %v", fields, av, err)
			}
			if o := rep.Objects[0]; o.Error != "" || len(o.Managers) != 1 || o.Managers[0].NextApply == nil {
				t.Errorf("%s at %s: %+v", fields, av, o)
			}
		}
	}
}

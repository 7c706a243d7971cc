package conformance

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	yaml2 "go.yaml.in/yaml/v2"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/ssa"
)

var updateApply = flag.Bool("update-apply", false, "rewrite internal/ssa/objectmeta.yaml from upstream")

// applyCRD has one spec field per merge shape the differential covers, a
// status subresource and a second version.
var applyCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
` + applySchema + `  - name: v2
    served: true
    storage: false
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
` + applySchema + ``

const applySchema = `        type: object
        properties:
          spec:
            type: object
            properties:
              other: {type: string}
              replicas: {type: integer, default: 1}
              atomicList: {type: array, items: {type: string}}
              explicitAtomic: {type: array, x-kubernetes-list-type: atomic, items: {type: integer}}
              setList: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              mapList:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    value: {type: string}
                    weight: {type: integer}
              multiKey:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    protocol: {type: string, default: TCP}
                    name: {type: string}
              nested:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
                    args: {type: array, items: {type: string}}
                    env:
                      type: array
                      x-kubernetes-list-type: map
                      x-kubernetes-list-map-keys: [key]
                      items:
                        type: object
                        required: [key]
                        properties:
                          key: {type: string}
                          val: {type: string}
              atomicStruct:
                type: object
                x-kubernetes-map-type: atomic
                properties:
                  host: {type: string}
                  port: {type: integer}
              granularStruct:
                type: object
                x-kubernetes-map-type: granular
                properties:
                  host: {type: string}
                  port: {type: integer}
              labels:
                type: object
                additionalProperties: {type: string}
              atomicMap:
                type: object
                x-kubernetes-map-type: atomic
                additionalProperties: {type: string}
              free:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              embedded:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              intOrString:
                x-kubernetes-int-or-string: true
              mapOfLists:
                type: object
                additionalProperties:
                  type: array
                  x-kubernetes-list-type: set
                  items: {type: string}
          status:
            type: object
            properties:
              phase: {type: string}
              conditions:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
                items:
                  type: object
                  required: [type]
                  properties:
                    type: {type: string}
                    status: {type: string}
`

// upgradedCRD is applyCRD after an upgrade that flips the merge type of
// most fields: atomic lists become sets or maps, sets and maps atomic,
// atomic structs and maps granular and granular ones atomic.
var upgradedCRD = strings.NewReplacer(
	`atomicList: {type: array, items: {type: string}}`, `atomicList: {type: array, x-kubernetes-list-type: set, items: {type: string}}`,
	`explicitAtomic: {type: array, x-kubernetes-list-type: atomic, items: {type: integer}}`, `explicitAtomic: {type: array, x-kubernetes-list-type: set, items: {type: integer}}`,
	`setList: {type: array, x-kubernetes-list-type: set, items: {type: string}}`, `setList: {type: array, x-kubernetes-list-type: atomic, items: {type: string}}`,
	"              mapList:\n                type: array\n                x-kubernetes-list-type: map\n                x-kubernetes-list-map-keys: [name]\n", "              mapList:\n                type: array\n                x-kubernetes-list-type: atomic\n",
	"              atomicStruct:\n                type: object\n                x-kubernetes-map-type: atomic\n", "              atomicStruct:\n                type: object\n                x-kubernetes-map-type: granular\n",
	"              granularStruct:\n                type: object\n                x-kubernetes-map-type: granular\n", "              granularStruct:\n                type: object\n                x-kubernetes-map-type: atomic\n",
	"              labels:\n                type: object\n", "              labels:\n                type: object\n                x-kubernetes-map-type: atomic\n",
	"              atomicMap:\n                type: object\n                x-kubernetes-map-type: atomic\n", "              atomicMap:\n                type: object\n                x-kubernetes-map-type: granular\n",
	"                    tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}", "                    tags: {type: array, items: {type: string}}",
	"                    args: {type: array, items: {type: string}}", "                    args: {type: array, x-kubernetes-list-type: set, items: {type: string}}",
).Replace(applyCRD)

// shape is one spec field and three values: a (manager A's), b
// (conflicting with a) and c (mergeable with a when the field is granular).
type shape struct {
	name    string
	a, b, c string // YAML flow values
}

var applyShapes = []shape{
	{"atomicList", `[s1, s2]`, `[s1, s3]`, `[s4]`},
	{"explicitAtomic", `[1, 2]`, `[2, 1]`, `[3]`},
	{"setList", `[s1, s2]`, `[s2, s3]`, `[s4]`},
	{"mapList", `[{name: a, value: "1"}]`, `[{name: a, value: "2"}]`, `[{name: b, value: "3", weight: 2}]`},
	{"multiKey", `[{port: 80, name: http}]`, `[{port: 80, protocol: TCP, name: web}]`, `[{port: 80, protocol: UDP, name: dns}]`},
	{"nested", `[{name: a, tags: [t1], args: [s1], env: [{key: k1, val: v1}]}]`, `[{name: a, args: [s2], env: [{key: k1, val: v2}]}]`, `[{name: a, tags: [t2], env: [{key: k2, val: v3}]}]`},
	{"atomicStruct", `{host: h, port: 1}`, `{host: h, port: 2}`, `{host: h}`},
	{"granularStruct", `{host: h, port: 1}`, `{port: 2}`, `{host: h}`},
	{"labels", `{a: "1"}`, `{a: "2"}`, `{b: "3"}`},
	{"atomicMap", `{a: "1"}`, `{a: "2"}`, `{b: "3"}`},
	{"free", `{x: {p: 1}, l: [1]}`, `{x: {p: 2}}`, `{x: {z: 3}, m: true}`},
	{"embedded", `{apiVersion: v1, kind: ConfigMap, metadata: {name: cm, labels: {a: b}}, data: {k: v}}`, `{apiVersion: v1, kind: ConfigMap, metadata: {name: cm}, data: {k: w}}`, `{apiVersion: v1, kind: ConfigMap, data: {j: u}}`},
	{"intOrString", `5`, `"5%"`, `6`},
	{"mapOfLists", `{a: [s1]}`, `{a: [s1, s2], b: [z]}`, `{c: [s4]}`},
}

func widget(version, spec string) string {
	return fmt.Sprintf(`{apiVersion: stable.example.com/%s, kind: Widget, metadata: {name: w, namespace: default}, spec: %s}`, version, spec)
}

func fieldSpec(sh shape, v string) string { return fmt.Sprintf(`{%s: %s}`, sh.name, v) }

type applyCase struct {
	name   string
	stored string
	steps  []upstream.ApplyStep
	// before, when set, runs first under applyCRD (upstream's result is
	// the stored object); steps then run under upgradedCRD.
	before []upstream.ApplyStep
}

// toJSON converts a flow-YAML object to the JSON body kubectl sends.
func toJSON(obj string) []byte {
	b, err := yaml.YAMLToJSON([]byte(obj))
	if err != nil {
		panic(fmt.Sprintf("%s: %v", obj, err))
	}
	return b
}

func ap(mgr string, force bool, obj string) upstream.ApplyStep {
	return upstream.ApplyStep{Manager: mgr, Operation: "Apply", Force: force, Object: toJSON(obj)}
}

func up(mgr string, obj string) upstream.ApplyStep {
	return upstream.ApplyStep{Manager: mgr, Operation: "Update", Object: toJSON(obj)}
}

func status(op, mgr string, force bool, obj string) upstream.ApplyStep {
	return upstream.ApplyStep{Manager: mgr, Operation: op, Force: force, Subresource: "status", Object: toJSON(obj)}
}

// applyCases generates the scenarios over every shape, then the special
// cases (status reset fields, the update-manager cap, kubectl's
// last-applied annotation, stored objects without managers, versions).
func applyCases() []applyCase {
	var cs []applyCase
	for _, sh := range applyShapes {
		a, b, c := widget("v1", fieldSpec(sh, sh.a)), widget("v1", fieldSpec(sh, sh.b)), widget("v1", fieldSpec(sh, sh.c))
		none := widget("v1", `{other: keep}`)
		add := func(scn string, steps ...upstream.ApplyStep) {
			cs = append(cs, applyCase{name: sh.name + "/" + scn, steps: steps})
		}
		add("conflict", ap("alice", false, a), ap("bob", false, b))
		add("force", ap("alice", false, a), ap("bob", true, b), ap("alice", false, a))
		add("merge-or-conflict", ap("alice", false, a), ap("bob", false, c))
		add("drop-own-field", ap("alice", false, a), ap("bob", true, c), ap("alice", false, none))
		add("change-own-value", ap("alice", false, a), ap("alice", false, c), ap("alice", false, b))
		add("update-then-apply-conflict", up("kubectl-edit", a), ap("controller", false, b))
		add("update-then-apply-transfer", up("kubectl-edit", a), ap("controller", true, b), up("kubectl-edit", c))
		add("apply-then-update", ap("alice", false, a), up("kubectl-edit", b), ap("alice", false, a))
		add("shared-then-release", ap("alice", false, a), ap("bob", false, a), ap("alice", false, none))
		cs = append(cs,
			applyCase{name: sh.name + "/upgrade-two-owners", before: []upstream.ApplyStep{ap("alice", false, a), ap("bob", true, c)},
				steps: []upstream.ApplyStep{ap("bob", false, b), ap("alice", false, a), ap("alice", false, none)}},
			applyCase{name: sh.name + "/upgrade-update-owner", before: []upstream.ApplyStep{up("editor", a), ap("alice", false, c)},
				steps: []upstream.ApplyStep{ap("alice", false, b), up("editor", c), ap("alice", true, b)}},
		)
		add("v2-manager", ap("alice", false, a), ap("bob", false, widget("v2", fieldSpec(sh, sh.b))), ap("bob", true, widget("v2", fieldSpec(sh, sh.c))))
	}

	st := func(s string) string {
		return fmt.Sprintf(`{apiVersion: stable.example.com/v1, kind: Widget, metadata: {name: w, namespace: default}, status: %s}`, s)
	}
	specAndStatus := `{apiVersion: stable.example.com/v1, kind: Widget, metadata: {name: w, namespace: default}, spec: {other: a}, status: {phase: Running}}`
	cs = append(cs,
		applyCase{name: "status/main-resource-ignores-status", steps: []upstream.ApplyStep{ap("alice", false, specAndStatus)}},
		applyCase{name: "status/apply-status", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), status("Apply", "ctrl", false, st(`{phase: Running, conditions: [{type: Ready, status: "True"}]}`))}},
		applyCase{name: "status/status-ignores-spec", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), status("Apply", "ctrl", false, specAndStatus)}},
		applyCase{name: "status/two-status-managers", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), status("Apply", "ctrl", false, st(`{phase: Running}`)), status("Apply", "other", false, st(`{phase: Failed}`)), status("Apply", "other", true, st(`{phase: Failed}`))}},
		applyCase{name: "status/update-status", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), status("Update", "kubelet", false, specAndStatus), status("Apply", "ctrl", false, st(`{phase: Done}`))}},
		applyCase{name: "status/update-main-then-status", steps: []upstream.ApplyStep{up("editor", specAndStatus), status("Update", "ctrl", false, st(`{phase: Done, conditions: [{type: A}]}`)), up("editor", widget("v1", `{other: b}`))}},
		applyCase{name: "lifecycle/delete-recreate", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), {Operation: "Delete"}, ap("bob", false, widget("v1", `{other: b}`))}},
		applyCase{name: "lifecycle/noop-apply", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), ap("alice", false, widget("v1", `{other: a}`))}},
		applyCase{name: "lifecycle/labels-annotations", steps: []upstream.ApplyStep{ap("alice", false, `{apiVersion: stable.example.com/v1, kind: Widget, metadata: {name: w, namespace: default, labels: {a: "1"}, annotations: {n: x}, finalizers: [f1]}}`), ap("bob", false, `{apiVersion: stable.example.com/v1, kind: Widget, metadata: {name: w, namespace: default, labels: {a: "2", b: "1"}, finalizers: [f2]}}`)}},
		applyCase{name: "lifecycle/invalid-result", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), ap("bob", false, widget("v1", `{replicas: "x"}`)), ap("bob", false, widget("v1", `{unknownField: 1}`))}},
		applyCase{name: "lifecycle/defaults-owned-by-nobody", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), ap("bob", false, widget("v1", `{replicas: 3}`)), ap("bob", false, widget("v1", `{}`))}},
		applyCase{name: "lifecycle/managed-fields-in-apply", steps: []upstream.ApplyStep{ap("alice", false, `{apiVersion: stable.example.com/v1, kind: Widget, metadata: {name: w, namespace: default, managedFields: []}}`)}},
		applyCase{name: "options/apply-without-manager", steps: []upstream.ApplyStep{ap("", false, widget("v1", `{other: a}`))}},
		applyCase{name: "options/manager-too-long", steps: []upstream.ApplyStep{ap(strings.Repeat("m", 129), false, widget("v1", `{other: a}`)), up(strings.Repeat("é", 65), widget("v1", `{other: a}`))}},
		applyCase{name: "options/manager-not-printable", steps: []upstream.ApplyStep{ap("a\tb\x00", false, widget("v1", `{other: a}`)), ap("ok", false, widget("v1", `{other: a}`)), up("x\ny", widget("v1", `{other: b}`))}},
		applyCase{name: "options/update-unknown-manager", steps: []upstream.ApplyStep{up("", widget("v1", `{other: a}`)), ap("bob", false, widget("v1", `{other: b}`))}},
		applyCase{name: "lifecycle/wrong-kind", steps: []upstream.ApplyStep{ap("alice", false, `{apiVersion: stable.example.com/v1, kind: Gadget, metadata: {name: w, namespace: default}}`)}},
		applyCase{name: "lifecycle/update-resets-managed-fields", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), up("editor", `{apiVersion: stable.example.com/v1, kind: Widget, metadata: {name: w, namespace: default, managedFields: [{}]}, spec: {other: b}}`)}},
		applyCase{name: "lifecycle/update-empty-managed-fields-list", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), up("editor", `{apiVersion: stable.example.com/v1, kind: Widget, metadata: {name: w, namespace: default, managedFields: []}, spec: {other: b}}`)}},
		applyCase{name: "lifecycle/update-carries-managed-fields", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a}`)), up("editor", `{apiVersion: stable.example.com/v1, kind: Widget, metadata: {name: w, namespace: default, managedFields: [{manager: someone, operation: Apply, apiVersion: stable.example.com/v1, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}]}, spec: {other: b, replicas: 4}}`)}},
		applyCase{name: "multi-conflict/two-managers", steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: a, labels: {x: "1"}}`)), ap("bob", false, widget("v1", `{atomicList: [q], setList: [s]}`)), up("carol", widget("v1", `{other: a, labels: {x: "1"}, atomicList: [q], setList: [s], intOrString: 3}`)), ap("dave", false, widget("v1", `{other: z, labels: {x: "2"}, atomicList: [r], setList: [s], intOrString: 4}`))}},
	)

	// stored objects: without managers (before-first-apply), with
	// kubectl's last-applied annotation.
	storedNoManagers := `{apiVersion: stable.example.com/v1, kind: Widget, metadata: {name: w, namespace: default, uid: 11111111-1111-1111-1111-111111111111, resourceVersion: "5", creationTimestamp: "2025-06-01T00:00:00Z", generation: 1}, spec: {other: legacy, labels: {a: "1"}}}`
	cs = append(cs,
		applyCase{name: "stored/apply-takes-over-unmanaged", stored: storedNoManagers, steps: []upstream.ApplyStep{ap("alice", false, widget("v1", `{other: new}`))}},
		applyCase{name: "stored/update-keeps-no-managers", stored: storedNoManagers, steps: []upstream.ApplyStep{up("editor", widget("v1", `{other: new}`)), ap("alice", false, widget("v1", `{other: newer}`))}},
	)
	lastApplied := `{"apiVersion":"stable.example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"spec":{"other":"a"}}`
	storedLastApplied := fmt.Sprintf(`{"apiVersion":"stable.example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default","uid":"22222222-2222-2222-2222-222222222222","annotations":{"kubectl.kubernetes.io/last-applied-configuration":%q},"managedFields":[{"manager":"other","operation":"Update","apiVersion":"stable.example.com/v1","time":"2025-06-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:other":{},"f:labels":{".":{},"f:x":{}}}}}]},"spec":{"other":"a","labels":{"x":"y"}}}`, lastApplied)
	cs = append(cs,
		applyCase{name: "stored/kubectl-last-applied-allows", stored: storedLastApplied, steps: []upstream.ApplyStep{ap("kubectl", false, widget("v1", `{other: a}`))}},
		applyCase{name: "stored/kubectl-last-applied-conflicts", stored: storedLastApplied, steps: []upstream.ApplyStep{ap("kubectl", false, widget("v1", `{other: a, labels: {x: z}}`))}},
		applyCase{name: "stored/not-kubectl-conflicts", stored: storedLastApplied, steps: []upstream.ApplyStep{ap("helm", false, widget("v1", `{other: b}`))}},
	)

	// the cap: eleven Update managers, each writing a label, then a twelfth.
	var capSteps []upstream.ApplyStep
	labels := []string{}
	for i := 0; i < 12; i++ {
		labels = append(labels, fmt.Sprintf(`l%02d: "v"`, i))
		capSteps = append(capSteps, up(fmt.Sprintf("updater-%02d", i), widget("v1", "{labels: {"+strings.Join(labels, ", ")+"}}")))
	}
	cs = append(cs, applyCase{name: "cap/twelve-updaters", steps: capSteps})
	var capMixed []upstream.ApplyStep
	for i := 0; i < 11; i++ {
		v := "v1"
		if i%3 == 0 {
			v = "v2"
		}
		capMixed = append(capMixed, up(fmt.Sprintf("m%d", 11-i), widget(v, fmt.Sprintf(`{labels: {k%d: "x"}, other: o%d}`, i, i))))
	}
	capMixed = append(capMixed, ap("applier", true, widget("v1", `{other: final}`)))
	cs = append(cs, applyCase{name: "cap/versions-and-apply", steps: capMixed})
	return cs
}

// applyServed compiles crdYAML on both sides: upstream's created and served
// CRD (the field manager's type converter comes from it) and crdlab's.
func applyServed(t *testing.T, crdYAML string) (*upstream.Served, *engine.CRD) {
	t.Helper()
	compiled, err := upstream.CreateCRD(mustDecodeCRD(t, crdYAML))
	if err != nil {
		t.Fatal(err)
	}
	served, err := upstream.Serve(compiled)
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.Compile([]byte(crdYAML))
	if err != nil || !c.Valid() {
		t.Fatalf("compile: %v %v", err, c.Errors())
	}
	return served, c
}

// TestApplyDifferential runs every case through upstream's field manager
// (k8s.io/apimachinery's managedfields with the CRD's type converter, as
// kube-apiserver 1.37 builds it) and through apply.Run, and compares each
// step's stored object (with managedFields, FieldsV1 byte for byte),
// conflict text and error.
func TestApplyDifferential(t *testing.T) {
	served, c := applyServed(t, applyCRD)
	upServed, upC := applyServed(t, upgradedCRD)
	if upgradedCRD == applyCRD {
		t.Fatal("the upgrade changes nothing")
	}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := applyCases()
	if len(cases) < 120 {
		t.Fatalf("%d cases, want at least 120", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			served, c := served, c
			var stored []byte
			if tc.stored != "" {
				stored = []byte(tc.stored)
			}
			if tc.before != nil {
				first, err := served.RunApply(stored, tc.before, t0.Add(-time.Hour), apply.DefaultUID)
				if err != nil {
					t.Fatalf("upstream, before the upgrade: %v", err)
				}
				stored = first[len(first)-1].Object
				served, c = upServed, upC
			}
			compareApply(t, served, c, stored, tc.steps, t0)
		})
	}
}

// compareApply runs steps from stored through upstream's field manager and
// apply.Run and compares every step.
func compareApply(t *testing.T, served *upstream.Served, c *engine.CRD, stored []byte, steps []upstream.ApplyStep, t0 time.Time) {
	t.Helper()
	want, err := served.RunApply(stored, steps, t0, apply.DefaultUID)
	if err != nil {
		t.Fatalf("upstream: %v", err)
	}
	ours := make([]apply.Step, len(steps))
	for i, s := range steps {
		ours[i] = apply.Step{Manager: s.Manager, Operation: apply.Operation(s.Operation), Force: s.Force, Subresource: s.Subresource, Object: s.Object}
	}
	got, err := apply.Run(c, stored, ours, apply.Options{Time: t0})
	if err != nil {
		t.Fatalf("crdlab: %v", err)
	}
	for i := range want {
		w, g := want[i], got.Steps[i]
		if w.Conflict != g.Conflict || w.Error != g.Error || w.Code != g.Code {
			t.Errorf("step %d:\nupstream: %d conflict=%q error=%q\ncrdlab:   %d conflict=%q error=%q", i+1, w.Code, w.Conflict, w.Error, g.Code, g.Conflict, g.Error)
		}
		if gb := g.ObjectJSON(); !bytes.Equal(w.Object, gb) {
			t.Errorf("step %d object:\nupstream: %s\ncrdlab:   %s", i+1, w.Object, gb)
		}
	}
}

const multiVersionCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {plural: gadgets, singular: gadget, kind: Gadget}
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
              a: {type: string}
              list: {type: array, items: {type: string}}
              m: {type: object, additionalProperties: {type: string}}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: string}
              b: {type: string}
              list: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              m: {type: object, x-kubernetes-map-type: atomic, additionalProperties: {type: string}}
`

// TestApplyDifferentialVersions: managers at two versions whose schemas
// differ (a field only in v2, a list atomic in v1 and a set in v2, a map
// granular in v1 and atomic in v2): SMD converts the object to each
// manager's version (strategy None) to find conflicts.
func TestApplyDifferentialVersions(t *testing.T) {
	served, c := applyServed(t, multiVersionCRD)
	g := func(v, spec string) string {
		return fmt.Sprintf(`{apiVersion: example.com/%s, kind: Gadget, metadata: {name: g}, spec: %s}`, v, spec)
	}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []applyCase{
		{name: "v1-then-v2-same-fields", steps: []upstream.ApplyStep{ap("alice", false, g("v1", `{a: x, list: [p, q], m: {k: v}}`)), ap("bob", false, g("v2", `{a: yy, list: [r], m: {j: w}}`)), ap("bob", true, g("v2", `{a: yy, list: [r], m: {j: w}}`))}},
		{name: "v2-field-unknown-to-v1-manager", steps: []upstream.ApplyStep{ap("alice", false, g("v1", `{a: x}`)), ap("bob", false, g("v2", `{b: only-v2}`))}},
		{name: "v2-then-v1", steps: []upstream.ApplyStep{ap("bob", false, g("v2", `{list: [r, s], m: {j: w}}`)), ap("alice", false, g("v1", `{list: [r], m: {k: v}}`)), ap("alice", true, g("v1", `{list: [r], m: {k: v}}`))}},
		{name: "update-v1-apply-v2", steps: []upstream.ApplyStep{up("editor", g("v1", `{a: x, list: [p]}`)), ap("bob", false, g("v2", `{list: [p, q]}`)), up("editor", g("v1", `{a: z, list: [p, q]}`))}},
		{name: "v2-update-of-v1-applied", steps: []upstream.ApplyStep{ap("alice", false, g("v1", `{a: x, m: {k: v}}`)), up("editor", g("v2", `{a: x, b: new, m: {k: v, j: w}}`)), ap("alice", false, g("v1", `{a: x}`))}},
	} {
		t.Run(tc.name, func(t *testing.T) { compareApply(t, served, c, nil, tc.steps, t0) })
	}
}

func mustDecodeCRD(t *testing.T, s string) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	c, err := upstream.DecodeCRD([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestApplyObjectMetaSchema pins internal/ssa/objectmeta.yaml to the types
// schemaconv builds from the static OpenAPI definitions (-update-apply
// rewrites it).
func TestApplyObjectMetaSchema(t *testing.T) {
	s, _, err := upstream.SMDSchema(mustDecodeCRD(t, applyCRD))
	if err != nil {
		t.Fatal(err)
	}
	got := reachable(s, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
	b, err := yaml2.Marshal(&smdschema.Schema{Types: got})
	if err != nil {
		t.Fatal(err)
	}
	const path = "../internal/ssa/objectmeta.yaml"
	cur, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	header := cur[:bytes.Index(cur, []byte("types:"))]
	want := append(append([]byte{}, header...), b...)
	if *updateApply {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(cur, want) {
		t.Errorf("%s differs from upstream's ObjectMeta types (go test -run TestApplyObjectMetaSchema -update-apply):\n%s", path, cmp.Diff(string(want), string(cur)))
	}
}

// TestApplyTypeSchema compares the typed schema of every version of the
// differential's CRD (and the set of shapes in it) with upstream's:
// the types reachable from the CRD's kind, with names normalized.
func TestApplyTypeSchema(t *testing.T) {
	crds := []string{applyCRD, rootPreserveCRD}
	for _, src := range crds {
		v1 := mustDecodeCRD(t, src)
		s, _, err := upstream.SMDSchema(v1)
		if err != nil {
			t.Fatal(err)
		}
		c, err := engine.Compile([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		tc, err := ssa.NewTypeConverter(c.Definition())
		if err != nil {
			t.Fatal(err)
		}
		ours, names := tc.Schema()
		for g, ourName := range names {
			upName := fmt.Sprintf("%s.%s.%s", reverseGroup(g.Group), g.Version, g.Kind)
			want := canonicalTypes(reachable(s, upName), upName)
			got := canonicalTypes(reachable(ours, ourName), ourName)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s: typed schema differs (-upstream +crdlab):\n%s", g, d)
			}
		}
	}
}

const rootPreserveCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {plural: things, singular: thing, kind: Thing}
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
        properties:
          metadata: {type: object, properties: {name: {type: string, maxLength: 10}}}
          spec:
            type: object
            additionalProperties: false
            properties:
              n: {type: number, nullable: true}
              d: {type: string, format: date-time}
              b: {type: string, format: byte}
              open: {type: object, additionalProperties: true}
              emptyObj: {type: object}
              list: {type: array, x-kubernetes-list-type: atomic, nullable: true, items: {type: object, x-kubernetes-map-type: atomic, properties: {a: {type: string, default: z}}}}
              er:
                type: array
                items:
                  type: object
                  x-kubernetes-embedded-resource: true
                  properties:
                    apiVersion: {type: string}
                    kind: {type: string}
                    metadata: {type: object}
                    spec: {type: object, properties: {x: {type: string}}}
`

func reverseGroup(g string) string {
	parts := strings.Split(g, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

// reachable is the schema of the types reachable from root, fields sorted.
func reachable(s *smdschema.Schema, root string) []smdschema.TypeDef {
	byName := map[string]smdschema.TypeDef{}
	for _, td := range s.Types {
		byName[td.Name] = td
	}
	want := map[string]bool{}
	var visitAtom func(a smdschema.Atom)
	visitRef := func(r smdschema.TypeRef) {
		if r.NamedType != nil {
			if !want[*r.NamedType] {
				want[*r.NamedType] = true
				visitAtom(byName[*r.NamedType].Atom)
			}
			return
		}
		visitAtom(r.Inlined)
	}
	visitAtom = func(a smdschema.Atom) {
		if a.List != nil {
			visitRef(a.List.ElementType)
		}
		if a.Map != nil {
			for _, f := range a.Map.Fields {
				visitRef(f.Type)
			}
			visitRef(a.Map.ElementType)
		}
	}
	n := root
	visitRef(smdschema.TypeRef{NamedType: &n})
	names := make([]string, 0, len(want))
	for k := range want {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []smdschema.TypeDef
	for _, k := range names {
		td := byName[k]
		sortFields(&td.Atom)
		out = append(out, td)
	}
	return out
}

func sortFields(a *smdschema.Atom) {
	if a.Map != nil {
		sort.Slice(a.Map.Fields, func(i, j int) bool { return a.Map.Fields[i].Name < a.Map.Fields[j].Name })
		for i := range a.Map.Fields {
			sortFields(&a.Map.Fields[i].Type.Inlined)
		}
		sortFields(&a.Map.ElementType.Inlined)
	}
	if a.List != nil {
		sortFields(&a.List.ElementType.Inlined)
	}
}

// canonicalTypes renders the types as YAML with the root renamed.
func canonicalTypes(types []smdschema.TypeDef, root string) string {
	for i := range types {
		if types[i].Name == root {
			types[i].Name = "ROOT"
		}
	}
	sort.Slice(types, func(i, j int) bool { return types[i].Name < types[j].Name })
	b, _ := yaml2.Marshal(&smdschema.Schema{Types: types})
	return string(b)
}

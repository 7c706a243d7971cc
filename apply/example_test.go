package apply_test

import (
	"fmt"
	"os"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/engine"
)

// Run sends two managers' applies to a CronTab: the second conflicts, then
// forces; the stored object's managedFields record who owns what.
func ExampleRun() {
	crdYAML, _ := os.ReadFile("../examples/apply/crd.yaml")
	crd, err := engine.Compile(crdYAML)
	if err != nil {
		fmt.Println(err)
		return
	}
	obj := func(image string) []byte {
		return []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","namespace":"default"},"spec":{"image":"` + image + `"}}`)
	}
	rep, err := apply.Run(crd, nil, []apply.Step{
		{Manager: "alice", Operation: apply.Apply, Object: obj("x:1")},
		{Manager: "bob", Operation: apply.Apply, Object: obj("x:2")},
		{Manager: "bob", Operation: apply.Apply, Force: true, Object: obj("x:2")},
	}, apply.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Steps[1].Conflict)
	for _, e := range rep.Steps[2].ManagedFields {
		fmt.Println(e.Manager, e.Operation, e.Time.Format("15:04:05"), string(e.FieldsV1))
	}
	// Output:
	// Apply failed with 1 conflict: conflict with "alice": .spec.image
	// bob Apply 00:00:02 {"f:spec":{"f:image":{}}}
}

// ParseSteps reads a steps file (docs/apply-steps.schema.json).
func ExampleParseSteps() {
	steps, err := apply.ParseSteps([]byte(`
- manager: kubectl
  operation: Apply
  object: {apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: a}}
- operation: Delete
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range steps {
		fmt.Printf("%s %q %d bytes\n", s.Operation, s.Manager, len(s.Object))
	}
	_, err = apply.ParseSteps([]byte("- manager: kubectl\n  operation: Patch\n"))
	fmt.Println(err)
	// Output:
	// Apply "kubectl" 79 bytes
	// Delete "" 0 bytes
	// line 2: step 1: operation "Patch": want Apply, Update or Delete
}

// Ownership is the readable view of managedFields: each leaf field with its
// value and owners.
func ExampleReport_Ownership() {
	crdYAML, _ := os.ReadFile("../examples/apply/crd.yaml")
	crd, _ := engine.Compile(crdYAML)
	rep, err := apply.Run(crd, nil, []apply.Step{
		{Manager: "alice", Operation: apply.Apply, Object: []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","namespace":"default"},"spec":{"ports":[{"name":"http","port":80}]}}`)},
		{Manager: "bob", Operation: apply.Update, Object: []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","namespace":"default"},"spec":{"ports":[{"name":"http","port":8080}]}}`)},
	}, apply.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	owners, _ := rep.Ownership(1)
	for _, o := range owners {
		fmt.Println(o.Path, o.Value, o.Owners)
	}
	// Output:
	// .spec.ports[name="http"].name http [alice (Apply)]
	// .spec.ports[name="http"].port 8080 [bob (Update)]
	// .spec.replicas 1 []
}

// UpgradeBehaviour tells what a CRD upgrade that turns spec.ports from an
// atomic list into a map list does to a stored object's managedFields and
// to its manager's next apply.
func ExampleUpgradeBehaviour() {
	const dir = "../examples/apply/upgrade/"
	compile := func(file string) *engine.CRD {
		b, _ := os.ReadFile(dir + file)
		c, _ := engine.Compile(b)
		return c
	}
	stored, _ := os.ReadFile(dir + "stored.json")
	rep, err := apply.UpgradeBehaviour(compile("crd-v1-atomic.yaml"), compile("crd-v2-map.yaml"),
		[]apply.UpgradeObject{{Source: "stored.json", Data: stored}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range rep.MergeTypeChanges {
		fmt.Printf("%s: %s -> %s\n", c.Path, c.Old, c.New)
	}
	o := rep.Objects[0]
	fmt.Println("orphaned:", o.Orphaned)
	m := o.Managers[0]
	fmt.Println(m.Manager, "owns after its next apply:", m.NextApply.New.Owned)
	// Output:
	// .spec.ports: atomic list -> map list keyed by name
	// orphaned: [.spec.ports[name="http"].name .spec.ports[name="http"].port]
	// alice owns after its next apply: [.spec.image .spec.ports[name="http"].name .spec.ports[name="http"].port]
}

package apply_test

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/apply"
)

func readSteps(t *testing.T, file string) []apply.Step {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := apply.ParseSteps(b)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return steps
}

// TestUpgradeAtomicListToMap pins docs/apply.md's worked example: a CRD
// upgrade turns spec.ports from an atomic list into a map keyed by name
// (examples/apply/upgrade), and two managers' next applies change meaning.
func TestUpgradeAtomicListToMap(t *testing.T) {
	const dir = "../examples/apply/upgrade/"
	oldCRD := compile(t, dir+"crd-v1-atomic.yaml")
	newCRD := compile(t, dir+"crd-v2-map.yaml")

	before := runSteps(t, oldCRD, nil, readSteps(t, dir+"before.yaml")...)
	before.wantOK(1)
	before.wantOwners(1, ".spec.ports", "alice (Apply)")
	before.wantConflict(2, `Apply failed with 1 conflict: conflict with "alice": .spec.ports`)
	stored := before.rep.Steps[1].ObjectJSON()
	// examples/apply/upgrade/stored.json, which docs/apply.md passes to
	// --stored, is this object.
	file, err := os.ReadFile(dir + "stored.json")
	if err != nil {
		t.Fatal(err)
	}
	var a, b interface{}
	if err := json.Unmarshal(file, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(stored, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%sstored.json is not the object before.yaml stores:\n%s", dir, stored)
	}
	if got := string(before.rep.Steps[1].ManagedFields[0].FieldsV1); got != `{"f:spec":{"f:image":{},"f:ports":{}}}` {
		t.Errorf("alice's fields before the upgrade: %s", got)
	}

	after := runSteps(t, newCRD, stored, readSteps(t, dir+"after.yaml")...)
	// 1. The controller's item merges in: no conflict any more.
	after.wantOK(1)
	after.wantValue(1, ".spec.ports", nil) // a map list is not a leaf now
	after.wantOwners(1, `.spec.ports[name="metrics"].port`, "metrics-controller (Apply)")
	// alice's ownership stays on the list as a whole: none of its items.
	after.wantOwners(1, `.spec.ports[name="http"].port`)
	if got := string(after.rep.Steps[0].ManagedFields[0].FieldsV1); got != `{"f:spec":{"f:image":{},"f:ports":{}}}` {
		t.Errorf("alice's fields after the upgrade: %s", got)
	}
	// 2. The controller changes the port alice set: no conflict.
	after.wantOK(2)
	after.wantValue(2, `.spec.ports[name="http"].port`, int64(8080))
	after.wantOwners(2, `.spec.ports[name="http"].port`, "metrics-controller (Apply)")
	// 3. alice's next apply of her manifest conflicts on that port.
	after.wantConflict(3, `Apply failed with 1 conflict: conflict with "metrics-controller": .spec.ports[name="http"].port`)
	// 4. alice stops applying ports: the items the controller owns stay.
	after.wantOK(4)
	after.wantValue(4, `.spec.ports[name="http"].port`, int64(8080))
	after.wantValue(4, `.spec.ports[name="metrics"].port`, int64(9090))

	// Without the controller's items, alice's first apply after the
	// upgrade that leaves ports out wipes the whole list: she owned it.
	wipe := runSteps(t, newCRD, stored, applyCronTab("alice", `{"image":"backup:2"}`))
	wipe.wantOK(1)
	if spec, _ := wipe.rep.Steps[0].Object["spec"].(map[string]interface{}); spec["ports"] != nil {
		t.Errorf("ports kept: %v", spec["ports"])
	}
	// And the same apply before the upgrade does the same (alice owns the
	// atomic list): what changed is who else may write items.
	same := runSteps(t, oldCRD, stored, applyCronTab("alice", `{"image":"backup:2"}`))
	if spec, _ := same.rep.Steps[0].Object["spec"].(map[string]interface{}); !reflect.DeepEqual(spec["ports"], nil) {
		t.Errorf("ports kept before the upgrade: %v", spec["ports"])
	}
}

func applyCronTab(mgr, spec string) apply.Step {
	return apply.Step{Manager: mgr, Operation: apply.Apply, Object: []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"nightly","namespace":"default"},"spec":` + spec + `}`)}
}

package apply_test

// The worked examples of the Kubernetes documentation of server-side apply
// (content/en/docs/reference/using-api/server-side-apply.md), replayed on
// a custom resource with their documented outcome. docs/apply.md walks
// through them.

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/engine"
)

func compile(t *testing.T, file string) *engine.CRD {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.Compile(b)
	if err != nil || !c.Valid() {
		t.Fatalf("%s: %v %v", file, err, c.Errors())
	}
	return c
}

// sample is a Sample named test; body continues its metadata (and may
// close it and add fields), its braces closed here.
func sample(body string) []byte {
	s := `{"apiVersion":"example.com/v1","kind":"Sample","metadata":{"name":"test","namespace":"default"` + body
	return []byte(s + strings.Repeat("}", strings.Count(s, "{")-strings.Count(s, "}")))
}

func applyStep(mgr string, force bool, body string) apply.Step {
	return apply.Step{Manager: mgr, Operation: apply.Apply, Force: force, Object: sample(body)}
}

func updateStep(mgr string, body string) apply.Step {
	return apply.Step{Manager: mgr, Operation: apply.Update, Object: sample(body)}
}

type run struct {
	t   *testing.T
	rep *apply.Report
}

func runSteps(t *testing.T, c *engine.CRD, stored []byte, steps ...apply.Step) run {
	t.Helper()
	rep, err := apply.Run(c, stored, steps, apply.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return run{t, rep}
}

// owners returns who owns path after step (1-based).
func (r run) owners(step int, path string) []string {
	r.t.Helper()
	fo, err := r.rep.Ownership(step - 1)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, f := range fo {
		if f.Path == path {
			return f.Owners
		}
	}
	return nil
}

func (r run) value(step int, path string) interface{} {
	r.t.Helper()
	fo, err := r.rep.Ownership(step - 1)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, f := range fo {
		if f.Path == path {
			return f.Value
		}
	}
	return nil
}

func (r run) wantOwners(step int, path string, want ...string) {
	r.t.Helper()
	got := r.owners(step, path)
	if want == nil {
		want = []string{}
	}
	if got == nil {
		got = []string{}
	}
	if !reflect.DeepEqual(got, want) {
		r.t.Errorf("after step %d, %s is owned by %q, want %q", step, path, got, want)
	}
}

func (r run) wantValue(step int, path string, want interface{}) {
	r.t.Helper()
	if got := r.value(step, path); !reflect.DeepEqual(got, want) {
		r.t.Errorf("after step %d, %s = %#v, want %#v", step, path, got, want)
	}
}

func (r run) wantConflict(step int, want string) {
	r.t.Helper()
	if got := r.rep.Steps[step-1].Conflict; got != want {
		r.t.Errorf("step %d: conflict %q, want %q", step, got, want)
	}
}

func (r run) wantOK(step int) {
	r.t.Helper()
	if s := r.rep.Steps[step-1]; s.Failed() {
		r.t.Errorf("step %d failed: %s%s", step, s.Conflict, s.Error)
	}
}

func (r run) managers(step int) []string {
	var out []string
	for _, e := range r.rep.Steps[step-1].ManagedFields {
		out = append(out, e.Manager+"/"+e.Operation)
	}
	return out
}

// "A simple example of an object created using Server-Side Apply": one
// Apply entry owning the label and the data key.
func TestDocsFieldManagementExample(t *testing.T) {
	c := compile(t, "testdata/docs-crd.yaml")
	r := runSteps(t, c, nil, applyStep("kubectl", false, `,"labels":{"test-label":"test"}},"data":{"key":"some value"`))
	r.wantOK(1)
	mf := r.rep.Steps[0].ManagedFields
	if len(mf) != 1 || mf[0].Manager != "kubectl" || mf[0].Operation != "Apply" || mf[0].APIVersion != "example.com/v1" || mf[0].FieldsType != "FieldsV1" {
		t.Fatalf("managedFields %+v", mf)
	}
	if got, want := string(mf[0].FieldsV1), `{"f:data":{"f:key":{}},"f:metadata":{"f:labels":{"f:test-label":{}}}}`; got != want {
		t.Errorf("fieldsV1 %s, want %s", got, want)
	}
}

// "Conflicts": a field owned by another applier conflicts; the three ways
// out are forcing (sole manager), omitting the field (giving up the claim)
// and matching the value (shared manager).
func TestDocsConflictsAndTheirThreeResolutions(t *testing.T) {
	c := compile(t, "testdata/docs-crd.yaml")
	first := applyStep("alice", false, `},"data":{"key":"a"`)
	r := runSteps(t, c, nil,
		first,
		applyStep("bob", false, `},"data":{"key":"b","other":"x"`),
	)
	r.wantConflict(2, `Apply failed with 1 conflict: conflict with "alice": .data.key`)
	r.wantValue(2, ".data.key", "a")

	// overwrite value, become sole manager
	r = runSteps(t, c, nil, first, applyStep("bob", true, `},"data":{"key":"b","other":"x"`))
	r.wantOK(2)
	r.wantValue(2, ".data.key", "b")
	r.wantOwners(2, ".data.key", "bob (Apply)")

	// don't overwrite value, give up management claim
	r = runSteps(t, c, nil, first, applyStep("bob", false, `},"data":{"other":"x"`))
	r.wantOK(2)
	r.wantValue(2, ".data.key", "a")
	r.wantOwners(2, ".data.key", "alice (Apply)")
	r.wantOwners(2, ".data.other", "bob (Apply)")

	// don't overwrite value, become shared manager
	r = runSteps(t, c, nil, first, applyStep("bob", false, `},"data":{"key":"a","other":"x"`))
	r.wantOK(2)
	r.wantOwners(2, ".data.key", "alice (Apply)", "bob (Apply)")
}

// "When two or more appliers set a field to the same value, they share
// ownership ... Any subsequent attempt to change the value ... by any of
// the appliers, results in a conflict. Shared field owners may give up
// ownership ... by [applying] that doesn't include that field."
func TestDocsSharedOwnership(t *testing.T) {
	c := compile(t, "testdata/docs-crd.yaml")
	r := runSteps(t, c, nil,
		applyStep("alice", false, `},"spec":{"image":"nginx:1"`),
		applyStep("bob", false, `},"spec":{"image":"nginx:1"`),
		applyStep("alice", false, `},"spec":{"image":"nginx:2"`),
		applyStep("alice", false, `},"spec":{}`),
		applyStep("bob", false, `},"spec":{"image":"nginx:2"`),
	)
	r.wantOwners(2, ".spec.image", "alice (Apply)", "bob (Apply)")
	r.wantConflict(3, `Apply failed with 1 conflict: conflict with "bob": .spec.image`)
	r.wantOK(4)
	r.wantValue(4, ".spec.image", "nginx:1")
	r.wantOwners(4, ".spec.image", "bob (Apply)")
	r.wantOK(5)
	r.wantValue(5, ".spec.image", "nginx:2")
}

// "If you remove a field from a manifest and apply that manifest ... If the
// field is not owned by any other field managers, it is either deleted
// from the live object or reset to its default value, if it has one. The
// same rule applies to associative list or map items."
func TestDocsRemovedFieldsAreDeletedOrDefaulted(t *testing.T) {
	c := compile(t, "testdata/docs-crd.yaml")
	r := runSteps(t, c, nil,
		applyStep("alice", false, `},"spec":{"replicas":3,"image":"i","ports":[{"port":80},{"port":53,"protocol":"UDP"}]}`),
		applyStep("bob", false, `},"spec":{"ports":[{"port":53,"protocol":"UDP","name":"dns"}]}`),
		applyStep("alice", false, `},"spec":{"ports":[{"port":80}]}`),
	)
	r.wantOK(3)
	r.wantValue(3, ".spec.replicas", int64(1)) // back to its default
	r.wantOwners(3, ".spec.replicas")          // which nobody owns
	r.wantValue(3, ".spec.image", nil)         // deleted
	r.wantValue(3, `.spec.ports[port=53,protocol="UDP"].name`, "dns")
	r.wantOwners(3, `.spec.ports[port=53,protocol="UDP"].port`, "bob (Apply)")
	r.wantOwners(3, `.spec.ports[port=80,protocol="TCP"].port`, "alice (Apply)")
}

// "Operations in scope": an update that changes a managed field never
// conflicts and takes the field over ("kube-controller-manager"); the same
// change as an apply conflicts.
func TestDocsUpdateTakesOverWhereApplyConflicts(t *testing.T) {
	c := compile(t, "testdata/docs-crd.yaml")
	r := runSteps(t, c, nil,
		applyStep("kubectl", false, `,"labels":{"test-label":"test"}},"data":{"key":"some value"`),
		updateStep("kube-controller-manager", `,"labels":{"test-label":"test"}},"data":{"key":"new value"`),
	)
	r.wantOK(2)
	r.wantOwners(2, ".data.key", "kube-controller-manager (Update)")
	r.wantOwners(2, ".metadata.labels.test-label", "kubectl (Apply)")
	if got, want := r.managers(2), []string{"kubectl/Apply", "kube-controller-manager/Update"}; !reflect.DeepEqual(got, want) {
		t.Errorf("managers %v, want %v", got, want)
	}
	r = runSteps(t, c, nil,
		applyStep("kubectl", false, `,"labels":{"test-label":"test"}},"data":{"key":"some value"`),
		applyStep("kube-controller-manager", false, `},"data":{"key":"new value"`),
	)
	r.wantConflict(2, `Apply failed with 1 conflict: conflict with "kubectl": .data.key`)
}

// "Merge strategy": an atomic list and an atomic map have one owner and are
// replaced whole (a second applier conflicts); set items, map-list items
// and granular struct fields are owned one by one.
func TestDocsMergeStrategies(t *testing.T) {
	c := compile(t, "testdata/docs-crd.yaml")
	r := runSteps(t, c, nil,
		applyStep("alice", false, `},"spec":{"args":["a","b"],"settings":{"x":"1"},"hosts":["h1"],"ports":[{"port":80}],"selector":{"app":"web"}}`),
		applyStep("bob", false, `},"spec":{"args":["c"]}`),
		applyStep("bob", false, `},"spec":{"settings":{"y":"2"}}`),
		applyStep("bob", false, `},"spec":{"hosts":["h2"],"ports":[{"port":443}],"selector":{"tier":"front"}}`),
	)
	r.wantConflict(2, `Apply failed with 1 conflict: conflict with "alice": .spec.args`)
	r.wantConflict(3, `Apply failed with 1 conflict: conflict with "alice": .spec.settings`)
	r.wantOK(4)
	r.wantOwners(4, ".spec.args", "alice (Apply)")
	r.wantValue(4, ".spec.args", []interface{}{"a", "b"})
	r.wantOwners(4, `.spec.hosts[="h1"]`, "alice (Apply)")
	r.wantOwners(4, `.spec.hosts[="h2"]`, "bob (Apply)")
	r.wantOwners(4, `.spec.ports[port=443,protocol="TCP"].port`, "bob (Apply)")
	r.wantOwners(4, ".spec.selector.app", "alice (Apply)")
	r.wantOwners(4, ".spec.selector.tier", "bob (Apply)")

	// forced, the atomic list changes hands whole
	r = runSteps(t, c, nil,
		applyStep("alice", false, `},"spec":{"args":["a","b"]}`),
		applyStep("bob", true, `},"spec":{"args":["c"]}`),
	)
	r.wantValue(2, ".spec.args", []interface{}{"c"})
	r.wantOwners(2, ".spec.args", "bob (Apply)")
}

// "Transferring ownership": a user hands spec.replicas over to an
// autoscaler (which writes with updates) through a private manager,
// "handover-to-hpa"; once the autoscaler sets the field, the temporary
// manager owns nothing and disappears.
func TestDocsTransferringOwnershipToAController(t *testing.T) {
	c := compile(t, "testdata/docs-crd.yaml")
	full := `},"spec":{"replicas":3,"image":"nginx:1.14.2"}`
	r := runSteps(t, c, nil,
		applyStep("kubectl", false, full),
		applyStep("handover-to-hpa", false, `},"spec":{"replicas":3}`),
		applyStep("kubectl", false, `},"spec":{"image":"nginx:1.14.2"}`),
		updateStep("hpa-controller", `},"spec":{"replicas":5,"image":"nginx:1.14.2"}`),
	)
	r.wantOK(2)
	r.wantOwners(2, ".spec.replicas", "handover-to-hpa (Apply)", "kubectl (Apply)")
	r.wantOK(3)
	r.wantValue(3, ".spec.replicas", int64(3)) // not reset to 1: still owned
	r.wantOwners(3, ".spec.replicas", "handover-to-hpa (Apply)")
	r.wantOK(4)
	r.wantOwners(4, ".spec.replicas", "hpa-controller (Update)")
	if got, want := r.managers(4), []string{"kubectl/Apply", "hpa-controller/Update"}; !reflect.DeepEqual(got, want) {
		t.Errorf("managers %v, want %v (the temporary manager is gone)", got, want)
	}

	// The basic solution: leaving replicas in the configuration, the
	// user gets a conflict once the controller has written it.
	r = runSteps(t, c, nil,
		applyStep("kubectl", false, full),
		updateStep("hpa-controller", `},"spec":{"replicas":5,"image":"nginx:1.14.2"}`),
		applyStep("kubectl", false, full),
	)
	r.wantConflict(3, `Apply failed with 1 conflict: conflict with "hpa-controller" using example.com/v1: .spec.replicas`)
}

// "Transferring ownership between managers": share the field by applying
// the same value, then the old owner drops it.
func TestDocsTransferringOwnershipBetweenManagers(t *testing.T) {
	c := compile(t, "testdata/docs-crd.yaml")
	r := runSteps(t, c, nil,
		applyStep("old", false, `},"spec":{"image":"i:1"}`),
		applyStep("new", false, `},"spec":{"image":"i:1"}`),
		applyStep("old", false, `},"spec":{}`),
		applyStep("new", false, `},"spec":{"image":"i:2"}`),
	)
	r.wantOwners(3, ".spec.image", "new (Apply)")
	r.wantOK(4)
	r.wantValue(4, ".spec.image", "i:2")
}

// "Compatibility across topology changes": spec.data goes from atomic to
// granular; manager-one keeps the map but no longer owns key1 and key2, so
// another manager changes them without conflict.
func TestDocsTopologyChangeAtomicToGranular(t *testing.T) {
	atomic := compile(t, "testdata/docs-crd-atomic-data.yaml")
	granular := compile(t, "testdata/docs-crd.yaml")
	before := runSteps(t, atomic, nil,
		applyStep("manager-one", false, `},"data":{"key1":"val1","key2":"val2"`),
		applyStep("manager-two", false, `},"data":{"key1":"changed"`),
	)
	before.wantConflict(2, `Apply failed with 1 conflict: conflict with "manager-one": .data`)
	if got := string(before.rep.Steps[0].ManagedFields[0].FieldsV1); got != `{"f:data":{}}` {
		t.Errorf("fieldsV1 with atomic data %s", got)
	}
	stored := before.rep.Steps[1].ObjectJSON()
	after := runSteps(t, granular, stored,
		applyStep("manager-two", false, `},"data":{"key1":"changed"`),
	)
	after.wantOK(1)
	after.wantValue(1, ".data.key1", "changed")
	after.wantOwners(1, ".data.key1", "manager-two (Apply)")
	after.wantOwners(1, ".data.key2")
	if !strings.Contains(string(after.rep.Steps[0].ManagedFields[0].FieldsV1), `"f:data":{}`) {
		t.Errorf("manager-one keeps .data: %s", after.rep.Steps[0].ManagedFields[0].FieldsV1)
	}
}

// "Clearing managedFields": an update carrying managedFields: [{}] strips
// them (the object keeps no managers: an existing object without managers
// gets none from an update).
func TestDocsClearingManagedFields(t *testing.T) {
	c := compile(t, "testdata/docs-crd.yaml")
	r := runSteps(t, c, nil,
		applyStep("kubectl", false, `},"data":{"key":"v"`),
		updateStep("editor", `,"managedFields":[{}]},"data":{"key":"v2"`),
		updateStep("editor", `},"data":{"key":"v3"`),
		applyStep("kubectl", false, `},"data":{"key":"v4"`),
	)
	r.wantOK(2)
	if mf := r.rep.Steps[1].ManagedFields; mf != nil {
		t.Errorf("managedFields after the reset: %+v", mf)
	}
	if mf := r.rep.Steps[2].ManagedFields; mf != nil {
		t.Errorf("an update of an object without managers records none: %+v", mf)
	}
	// the first apply afterwards finds every field owned by
	// "before-first-apply" (an Update manager), and conflicts with it.
	r.wantConflict(4, `Apply failed with 1 conflict: conflict with "before-first-apply" using example.com/v1: .data.key`)
}

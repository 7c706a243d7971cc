package conformance

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/conformance/upstream"
)

// TestApplyUpgradeBehaviourDifferential checks crdlab upgrade's "Apply
// behaviour" (apply.UpgradeBehaviour) against upstream for every shape's
// two-manager histories under applyCRD, upgraded to upgradedCRD:
//   - each Apply manager's next-apply configuration is what upstream's
//     managedfields.ExtractInto builds (the old CRD's type converter,
//     ExtractItems of the entry's leaves; apiVersion, kind, name and
//     namespace set as the generated Extract functions set them);
//   - its outcome under each CRD (code, conflict text, error) is upstream's
//     field manager's for that configuration on the stored object;
//   - the rewritten managedFields it reports are what upstream's field
//     manager stores at the object's next write under the new CRD (a probe
//     manager's apply of an unrelated field).
func TestApplyUpgradeBehaviourDifferential(t *testing.T) {
	served, c := applyServed(t, applyCRD)
	upServed, upC := applyServed(t, upgradedCRD)
	tc, err := upstream.TypeConverter(mustDecodeCRD(t, applyCRD))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	n := 0
	for _, sh := range applyShapes {
		a, b, cc := widget("v1", fieldSpec(sh, sh.a)), widget("v1", fieldSpec(sh, sh.b)), widget("v1", fieldSpec(sh, sh.c))
		histories := map[string][]upstream.ApplyStep{
			"two-appliers":      {ap("alice", false, a), ap("bob", false, cc)},
			"forced":            {ap("alice", false, a), ap("bob", true, b)},
			"update-and-apply":  {up("editor", a), ap("alice", false, cc)},
			"apply-then-update": {ap("alice", false, a), up("editor", b)},
		}
		for hname, before := range histories {
			t.Run(sh.name+"/"+hname, func(t *testing.T) {
				first, err := served.RunApply(nil, before, t0.Add(-time.Hour), apply.DefaultUID)
				if err != nil {
					t.Fatalf("upstream: %v", err)
				}
				stored := first[len(first)-1].Object
				if stored == nil {
					t.Skipf("the history stores nothing upstream (%s)", first[len(first)-1].Error)
				}
				rep, err := apply.UpgradeBehaviour(c, upC, []apply.UpgradeObject{{Source: "stored", Data: stored}})
				if err != nil {
					t.Fatal(err)
				}
				ob := rep.Objects[0]
				if ob.Error != "" {
					t.Fatalf("crdlab: %s", ob.Error)
				}
				var u unstructured.Unstructured
				if err := u.UnmarshalJSON(stored); err != nil {
					t.Fatal(err)
				}
				// the next write under the new CRD: a probe's apply of a
				// field no shape uses.
				probe, err := upServed.RunApply(stored, []upstream.ApplyStep{ap("probe", false, widget("v1", `{other: probe}`))}, t0, apply.DefaultUID)
				if err != nil || probe[0].Object == nil {
					t.Fatalf("upstream probe: %v %s", err, probe[0].Error)
				}
				var after unstructured.Unstructured
				if err := after.UnmarshalJSON(probe[0].Object); err != nil {
					t.Fatal(err)
				}
				rewritten := map[string]string{}
				for _, e := range after.GetManagedFields() {
					rewritten[e.Manager+"/"+string(e.Operation)] = string(e.FieldsV1.Raw)
				}
				for i, e := range u.GetManagedFields() {
					m := ob.Managers[i]
					if m.Manager != e.Manager || m.Operation != string(e.Operation) {
						t.Fatalf("entry %d: crdlab %s/%s, upstream %s/%s", i, m.Manager, m.Operation, e.Manager, e.Operation)
					}
					want := rewritten[e.Manager+"/"+string(e.Operation)]
					got := string(e.FieldsV1.Raw)
					if m.ReconciledFieldsV1 != nil {
						got = string(m.ReconciledFieldsV1)
					}
					if want == "" {
						want = "(dropped)"
					}
					if got != want && !(want == "(dropped)" && got == "{}") {
						t.Errorf("%s's managedFields at the next write:\nupstream: %s\ncrdlab:   %s", e.Manager, want, got)
					}
					if e.Operation != "Apply" {
						continue
					}
					n++
					// ExtractInto
					typedObj, err := tc.ObjectToTyped(&u)
					if err != nil {
						t.Fatal(err)
					}
					set := &fieldpath.Set{}
					if err := set.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
						t.Fatal(err)
					}
					cfg := typedObj.ExtractItems(set.Leaves()).AsValue().Unstructured().(map[string]interface{})
					cfg["apiVersion"], cfg["kind"] = e.APIVersion, "Widget"
					md, _ := cfg["metadata"].(map[string]interface{})
					if md == nil {
						md = map[string]interface{}{}
						cfg["metadata"] = md
					}
					md["name"], md["namespace"] = u.GetName(), u.GetNamespace()
					wantCfg, _ := json.Marshal(cfg)
					if !jsonEqual(wantCfg, m.NextApply.Configuration) {
						t.Errorf("%s's configuration:\nupstream: %s\ncrdlab:   %s", e.Manager, wantCfg, m.NextApply.Configuration)
					}
					step := []upstream.ApplyStep{{Manager: e.Manager, Operation: "Apply", Subresource: e.Subresource, Object: wantCfg}}
					for _, side := range []struct {
						name string
						srv  *upstream.Served
						got  apply.ApplyOutcome
					}{{"old", served, m.NextApply.Old}, {"new", upServed, m.NextApply.New}} {
						res, err := side.srv.RunApply(stored, step, t0, apply.DefaultUID)
						if err != nil {
							t.Fatal(err)
						}
						w := res[0]
						if w.Code != side.got.Code || w.Conflict != side.got.Conflict || w.Error != side.got.Error {
							t.Errorf("%s's next apply under the %s CRD:\nupstream: %d %q %q\ncrdlab:   %d %q %q", e.Manager, side.name, w.Code, w.Conflict, w.Error, side.got.Code, side.got.Conflict, side.got.Error)
						}
					}
				}
			})
		}
	}
	if n < 40 {
		t.Errorf("%d next applies compared, want at least 40", n)
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y interface{}
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

package ssa

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
)

func TestManagerIdentifierIsUpstreamsJSON(t *testing.T) {
	ts := &Time{Time: time.Unix(5, 0)}
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{Entry{Manager: "m", Operation: "Apply", APIVersion: "g/v1", Time: ts, FieldsType: "FieldsV1", FieldsV1: []byte(`{}`)}, `{"manager":"m","operation":"Apply"}`},
		{Entry{Manager: "m", Operation: "Update", APIVersion: "g/v1", Subresource: "status"}, `{"manager":"m","operation":"Update","apiVersion":"g/v1","subresource":"status"}`},
		{Entry{Manager: "<a&b>", Operation: "Update", APIVersion: "g/v1"}, `{"manager":"\u003ca\u0026b\u003e","operation":"Update","apiVersion":"g/v1"}`},
	} {
		got, err := BuildManagerIdentifier(&tc.e)
		if err != nil || got != tc.want {
			t.Errorf("BuildManagerIdentifier(%+v) = %s, %v; want %s", tc.e, got, err, tc.want)
		}
	}
}

func TestConflictMessagesSingularPluralAndGrouped(t *testing.T) {
	alice, _ := BuildManagerIdentifier(&Entry{Manager: "alice", Operation: "Apply"})
	bob, _ := BuildManagerIdentifier(&Entry{Manager: "bob", Operation: "Update", APIVersion: "g/v1", Subresource: "status"})
	p := func(s ...interface{}) fieldpath.Path { return fieldpath.MakePathOrDie(s...) }
	one := conflictError(merge.Conflicts{{Manager: bob, Path: p("spec", "x")}})
	if want := `Apply failed with 1 conflict: conflict with "bob" with subresource "status" using g/v1: .spec.x`; one.Message != want {
		t.Errorf("got %q, want %q", one.Message, want)
	}
	three := conflictError(merge.Conflicts{{Manager: bob, Path: p("spec", "x")}, {Manager: alice, Path: p("spec", "y")}, {Manager: alice, Path: p("spec", "z")}})
	want := "Apply failed with 3 conflicts: conflicts with \"alice\":\n- .spec.y\n- .spec.z\nconflicts with \"bob\" with subresource \"status\" using g/v1:\n- .spec.x"
	if three.Message != want {
		t.Errorf("got %q, want %q", three.Message, want)
	}
	if len(three.Conflicts) != 3 || three.Conflicts[0].Message != `conflict with "bob" with subresource "status" using g/v1` || three.Conflicts[0].Field != ".spec.x" {
		t.Errorf("causes %+v", three.Conflicts)
	}
}

func TestEncodeOrdersByOperationTimeManager(t *testing.T) {
	m := NewEmptyManaged()
	add := func(e Entry, ts int64) {
		id, _ := BuildManagerIdentifier(&e)
		m.Fields[id] = fieldpath.NewVersionedSet(fieldpath.NewSet(fieldpath.MakePathOrDie("spec", e.Manager)), fieldpath.APIVersion(e.APIVersion), e.Operation == "Apply")
		m.Times[id] = &Time{Time: time.Unix(ts, 0)}
	}
	add(Entry{Manager: "z", Operation: "Update", APIVersion: "g/v1"}, 10)
	add(Entry{Manager: "a", Operation: "Update", APIVersion: "g/v1"}, 20)
	add(Entry{Manager: "b", Operation: "Apply", APIVersion: "g/v1"}, 30)
	add(Entry{Manager: "a", Operation: "Apply", APIVersion: "g/v1"}, 30)
	out, err := EncodeManagedFields(m)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range out {
		got = append(got, e.Operation+":"+e.Manager+":"+string(e.FieldsV1))
	}
	want := `Apply:a:{"f:spec":{"f:a":{}}} Apply:b:{"f:spec":{"f:b":{}}} Update:z:{"f:spec":{"f:z":{}}} Update:a:{"f:spec":{"f:a":{}}}`
	if strings.Join(got, " ") != want {
		t.Errorf("got %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestDecodeManagedFieldsErrors(t *testing.T) {
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{Entry{Manager: "m", Operation: "Patch", APIVersion: "v1", FieldsType: "FieldsV1"}, "operation must be `Apply` or `Update`"},
		{Entry{Manager: "m", Operation: "Apply", FieldsType: "FieldsV1"}, "apiVersion must not be empty"},
		{Entry{Manager: "m", Operation: "Apply", APIVersion: "v1"}, "missing fieldsType in managed fields entry 0"},
		{Entry{Manager: "m", Operation: "Apply", APIVersion: "v1", FieldsType: "FieldsV2"}, `invalid fieldsType "FieldsV2" in managed fields entry 0`},
		{Entry{Manager: "m", Operation: "Apply", APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: []byte(`[1]`)}, "error decoding set"},
	} {
		_, err := DecodeManagedFields([]Entry{tc.e})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DecodeManagedFields(%+v) = %v, want %q", tc.e, err, tc.want)
		}
	}
}

func TestTimeRendersAsMetav1Time(t *testing.T) {
	b, err := json.Marshal(&Entry{Manager: "m", Time: &Time{Time: time.Date(2026, 1, 2, 3, 4, 5, 999, time.FixedZone("x", 3600))}})
	if err != nil || string(b) != `{"manager":"m","time":"2026-01-02T02:04:05Z"}` {
		t.Errorf("%s %v", b, err)
	}
}

package wasm

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestAdmitThroughTheModule: the module's "admit" gives docs/validating-policies.md's
// outcomes for its example (the native op pins the same outcomes in
// guest/internal/abi), and an invalid object no admission.
func TestAdmitThroughTheModule(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile("../../examples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	r := newRuntime(t, Options{})
	ctx := context.Background()
	crd, err := r.Compile(ctx, read("crontab-crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	policies := read("admission/policy.yaml")
	docs := strings.Split(string(read("admission/crontabs.yaml")), "\n---\n")
	res, err := crd.Admit(ctx, []byte(docs[1]), policies, AdmitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Admission
	if a == nil || a.Allowed || a.Policy != "crontab-rules" || a.Binding != "crontab-rules" ||
		a.Message != `crontabs.stable.example.com "big" is forbidden: ValidatingAdmissionPolicy 'crontab-rules' with binding 'crontab-rules' denied request: replicas must be at most 5, not 8` ||
		!reflect.DeepEqual(a.AuditAnnotations, map[string]string{"crontab-rules/replicas": "8"}) {
		t.Errorf("big: %+v", a)
	}
	res, err = crd.Admit(ctx, []byte(docs[2]), policies, AdmitOptions{User: "jane"})
	if err != nil {
		t.Fatal(err)
	}
	if a := res.Admission; a == nil || !a.Allowed || len(a.Warnings) != 1 || !strings.Contains(a.Warnings[0], "image docker.io/cron:1.0 is not from registry.example.com") {
		t.Errorf("elsewhere: %+v", a)
	}
	res, err = crd.Admit(ctx, read("invalid.yaml"), policies, AdmitOptions{})
	if err != nil || res.Admission != nil || len(res.Report.Object.Errors) != 2 {
		t.Errorf("invalid: %+v, %v", res, err)
	}
	if _, err := crd.Admit(ctx, []byte(docs[0]), policies, AdmitOptions{Operation: "UPDATE"}); err == nil || !strings.Contains(err.Error(), "an UPDATE needs the stored object") {
		t.Errorf("UPDATE without Old: %v", err)
	}
}

// TestAdmitRunsMutatingPoliciesThroughTheModule: with
// examples/admission/mutating.yaml's policies, big's replicas are capped
// to 5 before validation, so crontab-rules no longer denies it (the
// native op pins the same outcome in guest/internal/abi).
func TestAdmitRunsMutatingPoliciesThroughTheModule(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile("../../examples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	r := newRuntime(t, Options{})
	ctx := context.Background()
	crd, err := r.Compile(ctx, read("crontab-crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	policies := append(append(read("admission/mutating.yaml"), "\n---\n"...), read("admission/policy.yaml")...)
	big := strings.Split(string(read("admission/crontabs.yaml")), "\n---\n")[1]
	res, err := crd.Admit(ctx, []byte(big), policies, AdmitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Mutation
	if m == nil || !m.Allowed || len(m.Mutations) == 0 || m.Mutations[0].Policy != "cap-replicas" ||
		!reflect.DeepEqual(m.Mutations[0].Changed, []string{"/spec/replicas"}) {
		t.Fatalf("mutation %+v", m)
	}
	spec, _ := m.Object["spec"].(map[string]interface{})
	if fmt.Sprint(spec["replicas"]) != "5" {
		t.Errorf("mutated object %v: want spec.replicas 5", m.Object)
	}
	if a := res.Admission; a == nil || !a.Allowed {
		t.Errorf("validating admission %+v: want allowed (the mutated object has 5 replicas)", a)
	}
}

package conformance

import (
	"encoding/json"
	"reflect"
	"sync"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/internal/builtin"
)

// TestCrdtestAdmissionDifferential: every admission step the admission
// cases of crdtest's suites take (crdtest/testdata/admission, the
// Kubernetes documentation's examples of crdtest/testdata/k8s-docs and the
// failing ones, and kaptest's simple example written again) gets the same outcome from k8s.io/apiserver v0.37.2's
// dispatchers: the mutating policies' object or status (upstream.Mutate),
// the validating policies' verdict, status, warnings and audit
// annotations (upstream.Admit); the schema requests between them go
// through the CRD oracle as the other suites' do.
func TestCrdtestAdmissionDifferential(t *testing.T) {
	var mu sync.Mutex
	var steps []crdtest.AdmissionObserved
	var reqs []crdtest.Request
	dirs := []string{"../crdtest/testdata/admission", "../crdtest/testdata/k8s-docs", "../crdtest/testdata/kaptest", "../crdtest/testdata/failing"}
	rep, err := crdtest.RunPaths(crdtest.Options{Parallel: 1,
		// Built-in objects through their kinds' request path, as `crdlab
		// test` runs them.
		Builtins: builtinKindsAdapter{builtin.Kinds{}},
		Observe: func(r crdtest.Request) {
			mu.Lock()
			reqs = append(reqs, r)
			mu.Unlock()
		},
		ObserveAdmission: func(o crdtest.AdmissionObserved) {
			mu.Lock()
			steps = append(steps, o)
			mu.Unlock()
		}}, dirs...)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.LoadErrors) > 0 {
		t.Fatalf("load errors: %v", rep.LoadErrors)
	}
	mutating, validating := 0, 0
	for i, o := range steps {
		in := upstreamAdmissionInput(t, o)
		switch o.Step {
		case "mutating":
			mutating++
			var def *apiextensionsv1.CustomResourceDefinition
			if o.CRD != nil {
				def = mustDecodeCRD(t, string(o.CRD))
			}
			up, err := upstream.Mutate(in, def)
			if err != nil {
				t.Fatalf("step %d: upstream: %v", i, err)
			}
			r := o.Mutation
			got := mutatingOutcome{Object: r.Object, Reinvoked: r.Reinvoked}
			if r.Denied != nil {
				got.Object = nil
				got.Denied, got.Message, got.Cause, got.Reason, got.Code = true, r.Denied.Message, r.Denied.Cause, r.Denied.Reason, r.Denied.Code
			}
			want := mutatingOutcome{Object: up.Object, Denied: up.Denied, Message: up.Message, Cause: up.Cause, Reason: up.Reason, Code: up.Code, Reinvoked: up.Reinvoked}
			if want.Denied {
				want.Object = nil
			}
			if g, w := mustMarshal(got), mustMarshal(want); g != w {
				t.Errorf("mutating step %d (%s %s/%s) disagrees:\ncrdlab:   %s\nupstream: %s", i, o.Request.Operation, o.Request.Namespace, o.Request.Name, g, w)
			}
		case "validating":
			validating++
			for _, p := range o.Inputs.Policies {
				b, _ := json.Marshal(p)
				in.Policies = append(in.Policies, b)
			}
			for _, b := range o.Inputs.Bindings {
				bb, _ := json.Marshal(b)
				in.Bindings = append(in.Bindings, bb)
			}
			up, err := upstream.Admit(in)
			if err != nil {
				t.Fatalf("step %d: upstream: %v", i, err)
			}
			d := o.Decision
			got := admissionOutcome{Warnings: d.Warnings, AuditAnnotations: d.AuditAnnotations}
			if d.Denied != nil {
				got.Denied, got.Message, got.Cause, got.Reason, got.Code = true, d.Denied.Message, d.Denied.Cause, d.Denied.Reason, d.Denied.Code
			}
			want := admissionOutcome{Denied: up.Denied, Message: up.Message, Cause: up.Cause, Reason: up.Reason, Code: up.Code, Warnings: up.Warnings, AuditAnnotations: up.AuditAnnotations}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("validating step %d (%s %s %s/%s) disagrees:\ncrdlab:   %s\nupstream: %s", i, o.Request.Operation, o.Request.Resource.Resource, o.Request.Namespace, o.Request.Name, mustMarshal(got), mustMarshal(want))
			}
		}
	}
	if mutating < 10 || validating < 25 {
		t.Errorf("only %d mutating and %d validating steps observed", mutating, validating)
	}
	checkCrdtestRequests(t, reqs)
	t.Logf("%d mutating, %d validating steps and %d schema requests agree", mutating, validating, len(reqs))
}

// upstreamAdmissionInput is the oracle's input for an observed step: the
// mutating policies (for a mutating step), the params and Namespaces (a
// request's namespace missing from them is the default one crdlab
// assumes), the CRD's equivalent resources, the request.
func upstreamAdmissionInput(t *testing.T, o crdtest.AdmissionObserved) *upstream.AdmissionInput {
	t.Helper()
	r := o.Request
	objects := append([]map[string]interface{}(nil), o.Inputs.Objects...)
	if r.Namespace != "" {
		found := false
		for _, obj := range objects {
			if md, ok := obj["metadata"].(map[string]interface{}); ok && obj["kind"] == "Namespace" && md["name"] == r.Namespace {
				found = true
			}
		}
		if !found {
			objects = append(objects, admission.DefaultNamespace(r.Namespace))
		}
	}
	paramNamespaced := true
	for _, p := range o.Inputs.Policies {
		if k := p.Spec.ParamKind; k != nil {
			paramNamespaced = o.Resources.ParamScope(k.APIVersion, k.Kind)
		}
	}
	for _, p := range o.Inputs.MutatingPolicies {
		if k := p.Spec.ParamKind; k != nil {
			paramNamespaced = o.Resources.ParamScope(k.APIVersion, k.Kind)
		}
	}
	equivalents := map[schema.GroupVersionResource]schema.GroupVersionKind{}
	for _, e := range o.Resources.Equivalents(r.Resource, r.SubResource) {
		equivalents[schema.GroupVersionResource{Group: e.Resource.Group, Version: e.Resource.Version, Resource: e.Resource.Resource}] =
			schema.GroupVersionKind{Group: e.Kind.Group, Version: e.Kind.Version, Kind: e.Kind.Kind}
	}
	in := &upstream.AdmissionInput{
		Objects: objects, ParamNamespaced: paramNamespaced, Equivalents: equivalents,
		Operation: r.Operation, Kind: schema.GroupVersionKind{Group: r.Kind.Group, Version: r.Kind.Version, Kind: r.Kind.Kind},
		Resource:    schema.GroupVersionResource{Group: r.Resource.Group, Version: r.Resource.Version, Resource: r.Resource.Resource},
		SubResource: r.SubResource, Name: r.Name, Namespace: r.Namespace,
		Object: r.Object, OldObject: r.OldObject, DryRun: r.DryRun,
		User:    &user.DefaultInfo{Name: r.UserInfo.Username, UID: r.UserInfo.UID, Groups: r.UserInfo.Groups, Extra: r.UserInfo.Extra},
		Options: upstreamOptionsOf(t, r),
	}
	if o.Step == "mutating" {
		for _, p := range o.Inputs.MutatingPolicies {
			b, _ := json.Marshal(p)
			in.Policies = append(in.Policies, b)
		}
		for _, b := range o.Inputs.MutatingBindings {
			bb, _ := json.Marshal(b)
			in.Bindings = append(in.Bindings, bb)
		}
	}
	return in
}

// upstreamOptionsOf is the request's options as the API server's typed
// options object.
func upstreamOptionsOf(t *testing.T, r admission.Request) runtime.Object {
	t.Helper()
	opts := upstreamOptions(r.Operation)
	if r.Options != nil && opts != nil {
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(r.Options, opts); err != nil {
			t.Fatalf("options: %v", err)
		}
	}
	return opts
}

func mustMarshal(v interface{}) string {
	b, _ := json.Marshal(v)
	return string(b)
}

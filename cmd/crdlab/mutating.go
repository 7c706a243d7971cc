package main

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/wire"
)

// Mutating admission policies on validate: the MutatingAdmissionPolicies
// among --policy and the inputs mutate each object before its validation,
// as the API server runs mutating admission before decoding, pruning,
// defaulting and validating the object (then validating admission).

type mutatingRun struct {
	m   *admission.Mutator
	cat *inputs.Catalog
	// targets: each CRD's mutation target, built once.
	mu      sync.Mutex
	targets map[string]*mutationTarget
}

type mutationTarget struct {
	t   admission.MutationTarget
	err error
}

// loadMutating compiles the mutating policies of in; p.mut stays nil when
// there is none with a binding.
func (p *policyRun) loadMutating(in *admission.Inputs) error {
	if len(in.MutatingPolicies) == 0 {
		return nil
	}
	m, err := admission.NewMutator(admission.MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings,
		Objects: in.Objects, Resources: p.resources()})
	if err != nil {
		return err
	}
	if m.Policies() > 0 {
		p.mut = &mutatingRun{m: m, cat: p.cat, targets: map[string]*mutationTarget{}}
	}
	return nil
}

// target is the mutation target of the CRD named name.
func (mr *mutatingRun) target(e *inputs.Entry) (admission.MutationTarget, error) {
	mr.mu.Lock()
	defer mr.mu.Unlock()
	name := e.Def.Metadata.Name
	if t, ok := mr.targets[name]; ok {
		return t.t, t.err
	}
	t, err := admission.TargetFor(e.Def)
	mr.targets[name] = &mutationTarget{t, err}
	return t, err
}

// mutate runs the mutating policies on an object of a known CRD or of a
// built-in kind (skipped ones and CRDs are left alone).
func (p *policyRun) mutate(d *inputs.Document) (*inputs.Document, *wire.MutationOutcome) {
	e, _ := p.cat.Lookup(d.APIVersion, d.Kind)
	if e == nil || e.Def == nil {
		req, ok := p.builtinRequest(d)
		if !ok {
			return d, nil
		}
		target, err := p.builtinTarget(d.APIVersion, d.Kind)
		return p.runMutation(d, req, target, err)
	}
	if rep := e.CRD.Report(); !rep.Valid() {
		return d, nil
	}
	js, err := d.ObjectJSON()
	if err != nil {
		return d, nil
	}
	obj, err := admission.DecodeObject(js)
	if err != nil {
		return d, nil // the validation reports it
	}
	target, err := p.mut.target(e)
	req := p.request(e, obj, d.Name, d.Namespace)
	if err == nil && req.Operation == "UPDATE" && p.oldObject != nil {
		// The stored object as the API server reads it: with its
		// schema's defaults.
		old, _ := admission.DecodeObject(mustJSON(p.oldObject))
		if old != nil && target.Default != nil {
			target.Default(old)
		}
		req.OldObject = old
	}
	if req.Operation == "DELETE" {
		req.Object, req.OldObject = nil, obj
	}
	return p.runMutation(d, req, target, err)
}

// runMutation runs the mutating policies on req, the request of d's object
// (target: its kind's schema side, or the error building it).
func (p *policyRun) runMutation(d *inputs.Document, req admission.Request, target admission.MutationTarget, err error) (*inputs.Document, *wire.MutationOutcome) {
	if err != nil {
		return d, &wire.MutationOutcome{Allowed: true, Notes: []string{err.Error()}}
	}
	res := p.mut.m.Mutate(&req, target)
	if len(res.Mutations) == 0 && res.Denied == nil && len(res.Notes) == 0 {
		return d, nil
	}
	out := res.Outcome()
	if res.Denied != nil {
		return d, out
	}
	if !res.Changed() || req.Operation == "DELETE" {
		return d, out
	}
	out.Object = res.Object
	nd, err := d.WithObject(res.Object)
	if err != nil {
		return d, out
	}
	return nd, out
}

// request is the admission request of obj, an object of e's CRD, as apply
// builds it for validating admission.
func (p *policyRun) request(e *inputs.Entry, obj map[string]interface{}, name, namespace string) admission.Request {
	req := p.tmpl
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	req.Kind = admission.GVK{Group: group, Version: version, Kind: kind}
	req.Resource = admission.GVR{Group: group, Version: version, Resource: e.Def.Spec.Names.Plural}
	if !p.nameNS {
		req.Name, req.Namespace = name, namespace
		if req.Namespace == "" && e.Def.Spec.Scope != "Cluster" {
			req.Namespace = "default"
		}
	}
	req.Object = obj
	return req
}

// mustJSON encodes a decoded object (it always encodes).
func mustJSON(v interface{}) []byte {
	b, _ := json.Marshal(v)
	return b
}

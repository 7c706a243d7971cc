package main

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/internal/builtin"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/wire"
)

// The admission chain on objects of built-in kinds (apps/v1 Deployment,
// v1 ConfigMap, ...), in the API server's order: the handler decodes and
// defaults the body (Admitted), mutating admission patches that object
// (admission.BuiltinTarget types it, Redefault follows each patch), the
// strategy prepares and validates the patched object (builtin.Serve, in
// the entry's validation), then validating admission sees the object the
// strategy prepared. For a kind whose native validation is not modelled,
// every stage sees the object as written, with the request's namespace,
// and the outcome says so. validate and crdtest (Options.Builtins) share
// builtinKinds.

// builtinKinds is admission.BuiltinKinds over internal/builtin at a
// release.
type builtinKinds struct{ builtin.Kinds }

func newBuiltinKinds(rel kubeversion.Release) builtinKinds {
	return builtinKinds{builtin.Kinds{Release: rel}}
}

// Serve is builtin.Kinds.Serve as an admission.BuiltinAnswer.
func (k builtinKinds) Serve(apiVersion, kind string, obj, old map[string]interface{}, fieldValidation string) (admission.BuiltinAnswer, error) {
	a, err := k.Kinds.Serve(apiVersion, kind, obj, old, fieldValidation)
	return admission.BuiltinAnswer{Modelled: a.Modelled, Object: a.Object, Message: a.Message, Reason: a.Reason, Code: a.Code, Warnings: a.Warnings}, err
}

var _ admission.BuiltinKinds = builtinKinds{}

// builtinAdmission is what validate's admission step knows of the run's
// built-in objects: the release answering, the field validation asked for.
type builtinAdmission struct {
	kinds           builtinKinds
	fieldValidation string
}

// builtinRequest is the admission request of d when it is an object of a
// built-in kind the release serves and can create, with the object
// mutating admission sees; ok is false otherwise (a CRD's object, a kind
// not served, a body that does not decode: the validation reports it).
func (p *policyRun) builtinRequest(d *inputs.Document) (admission.Request, bool) {
	if p.builtin == nil || d.IsCRD() || admission.IsAdmissionKind(d.APIVersion, d.Kind) {
		return admission.Request{}, false
	}
	k := p.builtin.kinds
	plural, namespaced, ok := k.Resource(d.APIVersion, d.Kind)
	if !ok {
		return admission.Request{}, false
	}
	js, err := d.ObjectJSON()
	if err != nil {
		return admission.Request{}, false
	}
	obj, err := admission.DecodeObject(js)
	if err != nil || obj == nil {
		return admission.Request{}, false
	}
	if obj, ok = k.Admitted(d.APIVersion, d.Kind, obj, p.builtin.fieldValidation); !ok {
		return admission.Request{}, false
	}
	if obj, err = admission.ObjectOf(obj); err != nil {
		return admission.Request{}, false
	}
	return p.builtinObjectRequest(d.APIVersion, d.Kind, plural, namespaced, obj), true
}

// builtinObjectRequest is the request of obj, an object of a built-in
// resource as an admission stage sees it; the stored object of an UPDATE
// or DELETE is --old as the API server reads it from storage (decoded and
// defaulted).
func (p *policyRun) builtinObjectRequest(apiVersion, kind, plural string, namespaced bool, obj map[string]interface{}) admission.Request {
	var old map[string]interface{}
	if p.tmpl.Operation != "CREATE" && p.oldObject != nil {
		if o, ok := p.builtin.kinds.Admitted(apiVersion, kind, p.oldObject, builtin.Ignore); ok {
			old, _ = admission.ObjectOf(o)
		}
	}
	req := admission.ObjectRequest(p.tmpl, apiVersion, kind, plural, namespaced, obj, old, p.nameNS)
	if req.Operation == "DELETE" {
		req.Object, req.OldObject = nil, obj
		if old != nil {
			req.OldObject = old
		}
	}
	return req
}

// builtinValidated is the request validating admission sees for the entry
// r of d, a built-in object: the object the strategy prepared and
// validated (r.Result) for a kind validated natively, the object as
// written (mutated) for one that is not, with a note saying so.
func (p *policyRun) builtinValidated(d *inputs.Document, r *inputs.Result) (req admission.Request, note string, ok bool) {
	if p.builtin == nil {
		return req, "", false
	}
	plural, namespaced, ok := p.builtin.kinds.Resource(d.APIVersion, d.Kind)
	if !ok {
		return req, "", false
	}
	switch {
	case (r.Status == wire.StatusValid || r.Status == wire.StatusPartial && strings.HasPrefix(r.Reason, wire.NativePartialReason)) && r.Result != nil:
		// validated natively (in part, for a workload whose template sets
		// fields crdlab does not model): the object the strategy prepared
		obj, err := admission.ObjectOf(r.Result)
		if err != nil || obj == nil {
			return req, "", false
		}
		return p.builtinObjectRequest(d.APIVersion, d.Kind, plural, namespaced, obj), "", true
	case r.Status == wire.StatusPartial && r.AsWritten:
		req, ok := p.builtinRequest(d)
		if !ok {
			return req, "", false
		}
		return req, fmt.Sprintf("native validation and defaulting of %s %s are not modelled: the admission policies saw the object as written, with its namespace, and the API server's own validation was not run", d.APIVersion, d.Kind), true
	}
	return req, "", false
}

// builtinTarget is the mutation target of a built-in kind, built once.
func (p *policyRun) builtinTarget(apiVersion, kind string) (admission.MutationTarget, error) {
	mr := p.mut
	mr.mu.Lock()
	defer mr.mu.Unlock()
	key := "builtin:" + apiVersion + "/" + kind
	if t, ok := mr.targets[key]; ok {
		return t.t, t.err
	}
	k := p.builtin.kinds
	plural, namespaced, _ := k.Resource(apiVersion, kind)
	t, err := admission.BuiltinTarget(apiVersion, kind, plural, namespaced, func(o map[string]interface{}) map[string]interface{} {
		d := k.Redefault(apiVersion, kind, o)
		if d == nil {
			return nil
		}
		out, _ := admission.ObjectOf(d)
		return out
	})
	mr.targets[key] = &mutationTarget{t, err}
	return t, err
}

// runResources answers the admission package's resource questions from
// the run's CRDs, and from the release's built-in resources for the other
// kinds (a param kind's scope).
type runResources struct {
	admission.CRDResources
	builtin *builtinAdmission
}

func (r runResources) ParamScope(apiVersion, kind string) bool {
	if r.builtin != nil {
		if _, namespaced, ok := r.builtin.kinds.Resource(apiVersion, kind); ok {
			return namespaced
		}
	}
	return r.CRDResources.ParamScope(apiVersion, kind)
}

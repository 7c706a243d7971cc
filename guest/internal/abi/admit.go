package abi

import (
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/engine"
	crdtypes "github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

// defaultUser is `crdlab validate --policy`'s requesting user: a cluster
// administrator (cmd/crdlab's defaultUser).
var defaultUser = admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters", "system:authenticated"}}

// admit answers "admit": the mutating admission policies of r.Policies on
// the object, its validation against the compiled CRD (the mutated object
// when a mutation changed it), then, for a valid object, the validating
// admission policies of r.Policies on its request, as `crdlab validate
// --policy` runs them.
func (s *Server) admit(r *wire.Request) (interface{}, *wire.Error) {
	c, e := s.lookup(r.Handle)
	if e != nil {
		return nil, e
	}
	in, err := admission.DecodeFile([]byte(r.Policies), "policies")
	if err == nil {
		// a policy or binding the API server would not create
		err = in.CheckCreate()
	}
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeDecodeError, Message: err.Error()}
	}
	req := admission.Request{Operation: "CREATE", UserInfo: defaultUser}
	if r.Old != "" || len(r.OldBytes) > 0 {
		req.Operation = "UPDATE"
	}
	if r.Operation != "" {
		op := strings.ToUpper(r.Operation)
		if op != "CREATE" && op != "UPDATE" && op != "DELETE" {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(`"operation" must be CREATE, UPDATE or DELETE, not %q`, r.Operation)}
		}
		req.Operation = op
	}
	if req.Operation == "UPDATE" && r.Old == "" && len(r.OldBytes) == 0 {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `an UPDATE needs the stored object: "old"`}
	}
	if r.User != "" {
		req.UserInfo = admission.UserInfo{Username: r.User, Groups: []string{"system:authenticated"}}
	}
	if r.Groups != nil {
		req.UserInfo.Groups = r.Groups
	}
	out := wire.AdmitResult{}
	if !c.Valid() {
		out.Report = engine.NewReport(c, nil)
		return out, nil
	}
	def := c.Definition()
	resources := admission.CRDResources{def}
	object, opts := pick(r.Object, r.ObjectBytes), validateOptions(r)
	if len(in.MutatingPolicies) > 0 {
		mutated, mo, e := mutate(def, resources, in, req, object, opts.Old)
		if e != nil {
			return nil, e
		}
		out.Mutation = mo
		if mo != nil && !mo.Allowed {
			out.Report = engine.NewReport(c, nil)
			return out, nil
		}
		if mutated != nil {
			object = mutated
		}
	}
	res, err := c.ValidateContext(withTimeout(r.TimeoutMs), object, opts)
	if err != nil {
		return nil, engineError(wire.CodeInvalid, err)
	}
	out.Report = engine.NewReport(c, res)
	if out.Report.Object == nil || out.Report.Object.Result == nil || len(res.Errors) > 0 || res.DecodeError != "" {
		return out, nil
	}
	adm, err := admission.New(admission.Config{Policies: in.Policies, Bindings: in.Bindings, Objects: in.Objects,
		Resources: resources})
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
	}
	obj, err := admission.ObjectOf(res.Object)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
	}
	old, err := admission.ObjectOf(res.OldObject)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
	}
	areq := objectRequest(def, req, obj, old)
	dec := adm.Validate(&areq)
	o := &wire.AdmissionOutcome{Allowed: dec.Denied == nil, Warnings: dec.Warnings, AuditAnnotations: dec.AuditAnnotations,
		Evaluated: dec.Evaluated, Notes: dec.Notes}
	if dec.Denied != nil {
		o.Policy, o.Binding, o.Message, o.Reason, o.Code = dec.Denied.Policy, dec.Denied.Binding, dec.Denied.Message, dec.Denied.Reason, dec.Denied.Code
	}
	out.Admission = o
	return out, nil
}

// objectRequest is the admission request of obj (and old) for the CRD def.
func objectRequest(def *crdtypes.CustomResourceDefinition, req admission.Request, obj, old map[string]interface{}) admission.Request {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	return admission.ObjectRequest(req, apiVersion, kind, def.Spec.Names.Plural, def.Spec.Scope != "Cluster", obj, old, false)
}

// mutate runs the MutatingAdmissionPolicies of in on the object as
// kube-apiserver runs mutating admission before decoding, pruning,
// defaulting and validating it (crdtest's admission cases and `crdlab
// validate` do the same): the stored object (old) is read with its
// schema's defaults. It returns the mutated object's JSON when a mutation
// changed it, and the outcome (nil when no policy's binding matched and
// there is nothing to say). An object that does not decode is left to the
// validation, which reports it.
func mutate(def *crdtypes.CustomResourceDefinition, resources admission.Resources, in *admission.Inputs, req admission.Request, object, oldText []byte) ([]byte, *wire.MutationOutcome, *wire.Error) {
	m, err := admission.NewMutator(admission.MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings,
		Objects: in.Objects, Resources: resources})
	if err != nil {
		return nil, nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
	}
	if m.Policies() == 0 {
		return nil, nil, nil
	}
	obj, err := decodeObject(object)
	if err != nil {
		return nil, nil, nil
	}
	target, err := admission.TargetFor(def)
	if err != nil {
		return nil, &wire.MutationOutcome{Allowed: true, Notes: []string{err.Error()}}, nil
	}
	var old map[string]interface{}
	if len(oldText) > 0 {
		if old, err = decodeObject(oldText); err != nil {
			return nil, nil, nil
		}
		if target.Default != nil {
			target.Default(old)
		}
	}
	areq := objectRequest(def, req, obj, old)
	res := m.Mutate(&areq, target)
	if len(res.Mutations) == 0 && res.Denied == nil && len(res.Notes) == 0 {
		return nil, nil, nil
	}
	out := res.Outcome()
	if res.Denied != nil {
		return nil, out, nil
	}
	if !res.Changed() || req.Operation == "DELETE" {
		return nil, out, nil
	}
	js, err := json.Marshal(res.Object)
	if err != nil {
		return nil, nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
	}
	out.Object = res.Object
	return js, out, nil
}

// decodeObject decodes an object's YAML or JSON text as admission holds
// objects (the YAML converted as kubectl converts it).
func decodeObject(text []byte) (map[string]interface{}, error) {
	js, err := yaml.YAMLToJSON(text)
	if err != nil {
		return nil, err
	}
	return admission.DecodeObject(js)
}

package abi

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
)

// defaultUser is `crdlab validate --policy`'s requesting user: a cluster
// administrator (cmd/crdlab's defaultUser).
var defaultUser = admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters", "system:authenticated"}}

// admit answers "admit": the object's validation against the compiled CRD,
// then, for a valid object, the validating admission policies of
// r.Policies on its request, as `crdlab validate --policy` runs them.
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
	res, err := c.ValidateContext(withTimeout(r.TimeoutMs), pick(r.Object, r.ObjectBytes), validateOptions(r))
	if err != nil {
		return nil, engineError(wire.CodeInvalid, err)
	}
	out.Report = engine.NewReport(c, res)
	if out.Report.Object == nil || out.Report.Object.Result == nil || len(res.Errors) > 0 || res.DecodeError != "" {
		return out, nil
	}
	def := c.Definition()
	adm, err := admission.New(admission.Config{Policies: in.Policies, Bindings: in.Bindings, Objects: in.Objects,
		Resources: admission.CRDResources{def}})
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
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	areq := admission.ObjectRequest(req, apiVersion, kind, def.Spec.Names.Plural, def.Spec.Scope != "Cluster", obj, old, false)
	dec := adm.Validate(&areq)
	o := &wire.AdmissionOutcome{Allowed: dec.Denied == nil, Warnings: dec.Warnings, AuditAnnotations: dec.AuditAnnotations,
		Evaluated: dec.Evaluated, Notes: dec.Notes}
	if dec.Denied != nil {
		o.Policy, o.Binding, o.Message, o.Reason, o.Code = dec.Denied.Policy, dec.Denied.Binding, dec.Denied.Message, dec.Denied.Reason, dec.Denied.Code
	}
	out.Admission = o
	return out, nil
}

package wasm

import (
	"context"
	"encoding/json"

	"github.com/crdlab/crdlab/wire"
)

// AdmitOptions are the options of CRD.Admit: the validation's, and the
// admission request's operation and user.
type AdmitOptions struct {
	ValidateOptions
	// Operation is CREATE (the default; UPDATE with Old) or DELETE.
	Operation string
	// User and Groups are the requesting user (default kubernetes-admin in
	// system:masters; with User alone, Groups is system:authenticated).
	User   string
	Groups []string
}

// Admit runs the mutating admission policies of policies on one object,
// validates it (the mutated object when a mutation changed it), then runs
// the validating admission policies of policies on its request, as
// `crdlab validate --policy` does: the "admit" op. policies is a YAML
// stream of ValidatingAdmissionPolicies, MutatingAdmissionPolicies, their
// bindings, params and Namespaces. The result's Mutation is nil when no
// mutating policy's binding matched; its Admission is nil when the object
// is invalid or a mutating policy failed the request. The error is for misuse (a policy that does not decode, an
// UPDATE without Old), a closed CRD, a trap or the context's end.
func (c *CRD) Admit(ctx context.Context, object, policies []byte, opts AdmitOptions) (*wire.AdmitResult, error) {
	var out struct {
		Report    json.RawMessage        `json:"report"`
		Mutation  *wire.MutationOutcome  `json:"mutation"`
		Admission *wire.AdmissionOutcome `json:"admission"`
	}
	err := c.withHandle(ctx, func(handle uint32, timeoutMs int64) interface{} {
		req := wire.AdmitRequest{Op: wire.OpAdmit, Handle: handle, TimeoutMs: timeoutMs, Policies: string(policies),
			Operation: opts.Operation, User: opts.User, Groups: opts.Groups,
			Version: opts.Version, Subresource: opts.Subresource, FieldValidation: string(opts.FieldValidation)}
		req.Object, req.ObjectBytes = text(object)
		req.Old, req.OldBytes = text(opts.Old)
		return req
	}, &out)
	if err != nil {
		return nil, err
	}
	rep, err := decodeReport(out.Report)
	if err != nil {
		return nil, err
	}
	return &wire.AdmitResult{Report: rep, Mutation: out.Mutation, Admission: out.Admission}, nil
}

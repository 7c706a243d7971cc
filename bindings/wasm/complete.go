package wasm

import (
	"context"
	"encoding/json"

	"github.com/crdlab/crdlab/wire"
)

// CompleteOptions are the options of Runtime.Complete.
type CompleteOptions struct {
	// Root says the schema node is the resource's root (openAPIV3Schema):
	// self has apiVersion, kind and metadata whatever the schema says.
	Root bool
	// Cursor is the cursor's offset in the expression in UTF-16 code
	// units (JavaScript's and the LSP's unit); nil: the end.
	Cursor *int
}

// Complete proposes what may follow "<receiver>." at the cursor of a CEL
// expression (an x-kubernetes-validations rule or messageExpression) on
// schemaNode, the JSON schema object that carries the rule: the "complete"
// op, the completion of the playground and of `crdlab lsp`. The result's
// From and To (UTF-16 offsets) are the range an option's label replaces;
// its Options are empty where nothing completes. The error is about the
// request (BadRequest: schemaNode not a JSON object, a cursor outside the
// expression) or reaching the module.
func (r *Runtime) Complete(ctx context.Context, schemaNode []byte, expression string, opts CompleteOptions) (*wire.CompleteResult, error) {
	req := wire.CompleteRequest{Op: wire.OpComplete, SchemaNode: json.RawMessage(schemaNode), Root: opts.Root, Expression: expression, Cursor: opts.Cursor}
	if !json.Valid(schemaNode) {
		return nil, &Error{Code: wire.CodeBadRequest, Message: "schemaNode is not JSON"}
	}
	var out wire.CompleteResult
	if err := r.send(ctx, func(int64) interface{} { return req }, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CompletePolicy is the completion in an expression of an admission
// policy (a ValidatingAdmissionPolicy's or MutatingAdmissionPolicy's):
// policy is that policy's document (YAML or JSON), whose matchConstraints
// pick the version of this CRD that types object and oldObject (as type
// checking picks it; the storage version under a wildcard version), whose
// paramKind declares params and whose variables are variables' fields.
// Where an identifier starts, the expression's variables are offered
// (object, oldObject, request, namespaceObject, params, variables,
// authorizer); after "<receiver>.", as Complete. opts.Root is not read.
// The error is about the request (DecodeError: a policy that does not
// decode; BadRequest: a cursor outside the expression), a closed CRD or
// reaching the module.
func (c *CRD) CompletePolicy(ctx context.Context, policy []byte, expression string, opts CompleteOptions) (*wire.CompleteResult, error) {
	var out wire.CompleteResult
	err := c.withHandle(ctx, func(handle uint32, _ int64) interface{} {
		return wire.CompleteRequest{Op: wire.OpComplete, Policy: string(policy), Handle: handle, Expression: expression, Cursor: opts.Cursor}
	}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

package wire

import "encoding/json"

// CompleteRequest is the request of "complete": the schema node that
// carries the rule (the object holding x-kubernetes-validations), the
// expression (a rule or a messageExpression) and the cursor in it; or,
// with Policy, an expression of an admission policy.
type CompleteRequest struct {
	Op Op `json:"op"`
	// SchemaNode is the schema node as a JSON object (the node whose
	// x-kubernetes-validations holds the rule: self is this node); not
	// read with Policy.
	SchemaNode json.RawMessage `json:"schemaNode,omitempty"`
	// Policy, when set, makes Expression one of an admission policy's
	// (a ValidatingAdmissionPolicy's or MutatingAdmissionPolicy's
	// validations, messageExpressions, matchConditions, variables,
	// auditAnnotations, mutations): Policy is that policy's document
	// (YAML or JSON; its spec.matchConstraints, paramKind and variables
	// are read). The expression's variables are offered where an
	// identifier starts (object, oldObject, request, namespaceObject,
	// params, variables, authorizer), and after "object." the fields of
	// the compiled CRD of Handle at the served version the policy's rules
	// match (as type checking picks it; under a wildcard version, the
	// storage version); object is dyn without Handle or a match.
	Policy string `json:"policy,omitempty"`
	// Handle is the compiled CRD ("compile") that types a policy's object
	// and params (0: none).
	Handle uint32 `json:"handle,omitempty"`
	// Root says the node is the resource's root (openAPIV3Schema): self
	// has apiVersion, kind and metadata whatever the schema says, as a
	// node with x-kubernetes-embedded-resource has.
	Root bool `json:"root,omitempty"`
	// Expression is the CEL text; only the text before the cursor is read.
	Expression string `json:"expression"`
	// Cursor is the cursor's offset in Expression in UTF-16 code units (a
	// JavaScript string's and the LSP's unit); absent: the end.
	Cursor *int `json:"cursor,omitempty"`
}

// CompleteResult is the result of "complete". Options is empty (From and
// To equal to the cursor, Type "") when nothing completes there: not after
// "<receiver>." with a known receiver type, inside a string literal.
type CompleteResult struct {
	// From and To are the range of Expression (UTF-16 code units) an
	// option's label replaces: the name typed so far after the dot, To
	// the cursor.
	From int `json:"from"`
	To   int `json:"to"`
	// Type is the receiver's CEL type, e.g. "list(string)".
	Type    string             `json:"type"`
	Options []CompletionOption `json:"options"`
}

// CompletionOption is one proposal of "complete": the receiver's fields
// (sorted), then its functions and macros (sorted).
type CompletionOption struct {
	// Label is the text to insert: a field as CEL spells it
	// ("x__dash__y"), a function or macro name.
	Label string `json:"label"`
	// Kind is "property", "method", "macro" or "variable" (a policy's
	// variable or a macro's, offered where an identifier starts).
	Kind string `json:"kind"`
	// Detail is the field's CEL type or the function's signature.
	Detail string `json:"detail"`
	// Info is the field's description, or its schema name when CEL spells
	// it differently.
	Info string `json:"info,omitempty"`
}

package wire

import "encoding/json"

// CompleteRequest is the request of "complete": the schema node that
// carries the rule (the object holding x-kubernetes-validations), the
// expression (a rule or a messageExpression) and the cursor in it.
type CompleteRequest struct {
	Op Op `json:"op"`
	// SchemaNode is the schema node as a JSON object (the node whose
	// x-kubernetes-validations holds the rule: self is this node).
	SchemaNode json.RawMessage `json:"schemaNode"`
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
	// Kind is "property", "method" or "macro".
	Kind string `json:"kind"`
	// Detail is the field's CEL type or the function's signature.
	Detail string `json:"detail"`
	// Info is the field's description, or its schema name when CEL spells
	// it differently.
	Info string `json:"info,omitempty"`
}

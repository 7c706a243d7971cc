package wire

import "encoding/json"

// ApplyRequest is the request of "apply": requests by field managers sent,
// in order, to one object of the compiled CRD Handle, as `crdlab apply
// --crd CRD [--stored OBJECT] STEPS` sends them.
type ApplyRequest struct {
	Op     Op     `json:"op"`
	Handle uint32 `json:"handle"`
	// Steps is a steps file, YAML or JSON: a list of {manager, operation:
	// Apply|Update|Delete, force, subresource, object}
	// (docs/apply-steps.schema.json).
	Steps string `json:"steps"`
	// Stored is the object as stored before the first step (YAML or JSON,
	// with its metadata.managedFields); "" when there is none yet.
	Stored string `json:"stored,omitempty"`
	// Time is the time of the first step (RFC 3339; one second more per
	// step); "" is 2026-01-01T00:00:00Z, as the CLI's --time.
	Time string `json:"time,omitempty"`
	// FieldValidation is the updates' fieldValidation: "Strict" (default),
	// "Warn" or "Ignore".
	FieldValidation string `json:"fieldValidation,omitempty"`
}

// ApplyResult is the result of "apply": one entry per step.
type ApplyResult struct {
	Steps []ApplyStepResult `json:"steps"`
}

// ApplyStepResult is one step's outcome: the stored object after it
// (unchanged when the step failed; null when there is none) and who owns
// its fields.
type ApplyStepResult struct {
	// Object is the stored object as the API server serializes it, with
	// its metadata.managedFields.
	Object json.RawMessage `json:"object"`
	// ManagedFields are its metadata.managedFields entries.
	ManagedFields []ManagedFieldsEntry `json:"managedFields"`
	// Conflict is the 409 message of a conflicting apply, Conflicts its
	// causes.
	Conflict  string          `json:"conflict,omitempty"`
	Conflicts []ApplyConflict `json:"conflicts,omitempty"`
	// Error is any other refusal's message, Code the HTTP status of a
	// failed step (0 on success).
	Error    string   `json:"error,omitempty"`
	Code     int      `json:"code,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Owners are the stored object's leaf fields with their owners (the
	// view `crdlab apply` prints).
	Owners []FieldOwner `json:"owners"`
}

// ManagedFieldsEntry is one metadata.managedFields entry.
type ManagedFieldsEntry struct {
	Manager     string          `json:"manager,omitempty"`
	Operation   string          `json:"operation,omitempty"`
	APIVersion  string          `json:"apiVersion,omitempty"`
	Time        string          `json:"time,omitempty"`
	FieldsType  string          `json:"fieldsType,omitempty"`
	FieldsV1    json.RawMessage `json:"fieldsV1,omitempty"`
	Subresource string          `json:"subresource,omitempty"`
}

// ApplyConflict is one conflicting field of a 409.
type ApplyConflict struct {
	// Message is "conflict with \"mgr\" using group/version".
	Message string `json:"message"`
	// Field is the field path (".spec.x").
	Field string `json:"field"`
}

// FieldOwner is one leaf field of a stored object and its owners.
type FieldOwner struct {
	// Path is the field path as structured-merge-diff prints it
	// (".spec.ports[name=\"http\"].port").
	Path string `json:"path"`
	// Value is the field's value (a whole list or map when it is atomic).
	Value interface{} `json:"value"`
	// Owners are "manager (Operation)" or "manager (Operation,
	// subresource)", sorted; empty when no manager owns the field.
	Owners []string `json:"owners"`
}

package wire

// AdmitRequest is the request of "admit": one object through the
// mutating admission policies of Policies (kube-apiserver's
// MutatingAdmissionPolicy plugin), the CRD's validation (as "validate", of
// the mutated object), then, when it is valid, through the validating
// admission policies of Policies as kube-apiserver's
// ValidatingAdmissionPolicy plugin evaluates them (`crdlab validate
// --policy`).
type AdmitRequest struct {
	Op Op `json:"op"`
	// Handle is the compiled CRD ("compile").
	Handle uint32 `json:"handle"`
	// Object is the object (YAML or JSON text, one document); Old, when
	// set, the stored object of an UPDATE.
	Object string `json:"object"`
	Old    string `json:"old,omitempty"`
	// ObjectBytes and OldBytes (base64 in JSON) replace Object and Old for
	// input that is not valid UTF-8.
	ObjectBytes []byte `json:"objectBytes,omitempty"`
	OldBytes    []byte `json:"oldBytes,omitempty"`
	// Policies is a YAML stream (or JSON) of ValidatingAdmissionPolicies,
	// MutatingAdmissionPolicies, their bindings, param objects and
	// Namespaces.
	Policies string `json:"policies"`
	// Operation is CREATE (the default; UPDATE when Old is set) or DELETE.
	Operation string `json:"operation,omitempty"`
	// User and Groups are the requesting user (default: kubernetes-admin
	// in system:masters, as `crdlab validate`; with User alone, Groups is
	// system:authenticated).
	User   string   `json:"user,omitempty"`
	Groups []string `json:"groups,omitempty"`
	// Version, Subresource, FieldValidation and TimeoutMs are as in
	// ValidateRequest.
	Version         string `json:"version,omitempty"`
	Subresource     string `json:"subresource,omitempty"`
	FieldValidation string `json:"fieldValidation,omitempty"`
	TimeoutMs       int64  `json:"timeoutMs,omitempty"`
}

// AdmitResult is the result of "admit": the object's report, the
// mutating admission outcome when a MutatingAdmissionPolicy's binding
// matched the request, and the validating admission outcome when the
// object passed validation (nil otherwise).
type AdmitResult struct {
	// Report is the validation of the object (the mutated object when a
	// mutation changed it); its Object is absent when a mutating policy
	// failed the request (nothing is validated then).
	Report *Report `json:"report"`
	// Mutation is the mutating policies' outcome: the mutated object (when
	// a mutation changed it), each mutation that ran, or the failure.
	Mutation  *MutationOutcome  `json:"mutation,omitempty"`
	Admission *AdmissionOutcome `json:"admission,omitempty"`
}

package wire

// AdmitRequest is the request of "admit": one object through the CRD's
// validation (as "validate"), then, when it is valid, through the
// validating admission policies of Policies as kube-apiserver's
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
	// their bindings, param objects and Namespaces.
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

// AdmitResult is the result of "admit": the object's report, and the
// admission outcome when the object passed validation and a policy's
// binding was considered (nil otherwise).
type AdmitResult struct {
	Report    *Report           `json:"report"`
	Admission *AdmissionOutcome `json:"admission,omitempty"`
}

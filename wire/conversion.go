package wire

// ConversionReviewRequest is the request of "conversionReview": the CRD, the
// ConversionReview the API server sent and the one the webhook answered
// (`crdlab conversion-review --crd CRD REQUEST RESPONSE`).
type ConversionReviewRequest struct {
	Op Op `json:"op"`
	// CRD is the CustomResourceDefinition (YAML or JSON, exactly one;
	// CRDBytes when not valid UTF-8).
	CRD      string `json:"crd"`
	CRDBytes []byte `json:"crdBytes,omitempty"`
	// Review is the ConversionReview holding the request; ReviewResponse
	// the one holding the webhook's response (absent: Review holds both).
	// YAML or JSON.
	Review         string `json:"review"`
	ReviewResponse string `json:"reviewResponse,omitempty"`
	// List and ListAPIVersion are the options of package conversion
	// (`--list`, `--list-api-version`).
	List           bool   `json:"list,omitempty"`
	ListAPIVersion string `json:"listAPIVersion,omitempty"`
	// KubeVersion is the release whose API server checks the answer, as
	// in CompileRequest (`crdlab conversion-review --kube-version`).
	KubeVersion string `json:"kubeVersion,omitempty"`
}

// ConversionReport is the API server's verdict on a webhook's answer
// (package conversion's Result).
type ConversionReport struct {
	// ReviewVersion is the ConversionReview version of the exchange (v1
	// or v1beta1).
	ReviewVersion string `json:"reviewVersion"`
	// UID is the request's uid.
	UID string `json:"uid"`
	// DesiredAPIVersion is the request's desiredAPIVersion.
	DesiredAPIVersion string `json:"desiredAPIVersion"`
	// List reports whether the objects were converted as one list.
	List bool `json:"list"`
	// Accepted reports whether the API server accepts the answer.
	Accepted bool `json:"accepted"`
	// Valid reports whether the answer is accepted and every converted
	// object validates at the target version.
	Valid bool `json:"valid"`
	// Error is the API server's error, as it returns it to the client
	// (on a read: HTTP 500 with this message, kubectl's "Error from
	// server: ..."); "" when it accepts the answer.
	Error string `json:"error,omitempty"`
	// Objects are the converted objects as the API server uses them (in
	// the request's order); empty when Error is set.
	Objects []ConvertedObject `json:"objects"`
}

// ConvertedObject is one converted object of a ConversionReport.
type ConvertedObject struct {
	// Index is the object's index in request.objects.
	Index     int    `json:"index"`
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	// Object is the converted object as the API server goes on to use it:
	// the webhook's object with the original metadata restored (labels
	// and annotations kept from the webhook's), pruned by the target
	// version's schema.
	Object map[string]interface{} `json:"object"`
	// Pruned lists the paths of the webhook's fields the target version's
	// schema drops (single objects: the schemaCoercingConverter does not
	// coerce the items of a list).
	Pruned []string `json:"pruned"`
	// Errors are the errors of a create of the converted object at the
	// target version (not an API server check on conversion: see package
	// conversion). Server-set metadata (uid, resourceVersion,
	// creationTimestamp, generation, managedFields) is left out first.
	Errors []string `json:"errors"`
	// Invalid is the API server's message for Errors, as kubectl prints
	// it ("" when valid).
	Invalid string `json:"invalid,omitempty"`
	// Warnings are the create's warnings.
	Warnings []string `json:"warnings"`
}

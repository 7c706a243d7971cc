package wire

// RunReport is the document `crdlab validate -o json` prints for a run over
// files and directories of mixed manifests: one entry per document (or
// kind: List item) in input order, and the counts.
type RunReport struct {
	// KubeVersion is the Kubernetes release whose API server gave the
	// verdicts ("1.37": --kube-version, a project's .crdlab.yaml or the
	// default release).
	KubeVersion string     `json:"kubeVersion,omitempty"`
	Results     []RunEntry `json:"results"`
	Summary     RunSummary `json:"summary"`
}

// RunStatus is the outcome of one entry of a run.
type RunStatus string

// The statuses of a RunEntry.
const (
	// StatusValid: the object (or CRD) would be accepted.
	StatusValid RunStatus = "valid"
	// StatusInvalid: the API server would reject it (Errors, DecodeError).
	StatusInvalid RunStatus = "invalid"
	// StatusSkipped: no CustomResourceDefinition for its kind (a built-in
	// kind, an unknown CRD); Reason says why.
	StatusSkipped RunStatus = "skipped"
	// StatusPartial: a built-in kind the release serves whose native
	// validation and defaulting crdlab does not model: only the API
	// surface was checked (Reason says what); it is neither valid nor
	// invalid. `crdlab validate --unmodelled fail` fails the run on it.
	StatusPartial RunStatus = "partial"
	// StatusError: it could not be validated (its CRD is invalid, the
	// version is not served with --missing-crds=error, ...); Reason says why.
	StatusError RunStatus = "error"
)

// RunEntry is one document of a run: where it is, what it is, its outcome.
type RunEntry struct {
	// File is the input file ("-" for stdin).
	File string `json:"file"`
	// Document is the 0-based index of the document in the file (empty
	// documents not counted).
	Document int `json:"document"`
	// Item is the index in the document's kind: List items, when it is one.
	Item *int `json:"item,omitempty"`
	// Line is the 1-based line where the document starts in File.
	Line       int       `json:"line"`
	APIVersion string    `json:"apiVersion"`
	Kind       string    `json:"kind"`
	Namespace  string    `json:"namespace,omitempty"`
	Name       string    `json:"name"`
	Status     RunStatus `json:"status"`
	// Reason explains a skipped or error entry.
	Reason string `json:"reason,omitempty"`
	// CRD is the name of the CustomResourceDefinition the object was
	// validated against (empty for a CRD's own entry and skipped entries).
	CRD string `json:"crd,omitempty"`
	// DecodeError is the API server's message when the request failed while
	// decoding (strict unknown or duplicate fields, apiVersion/kind).
	DecodeError string `json:"decodeError,omitempty"`
	// FieldErrorPositions locate a CRD's unknown and duplicate fields
	// (file:line:col: message), for a CRD entry.
	FieldErrorPositions []string `json:"fieldErrorPositions,omitempty"`
	// DecodeErrorPosition is where in File the first field DecodeError
	// names is, when known.
	DecodeErrorPosition *Position      `json:"decodeErrorPosition,omitempty"`
	Errors              []LocatedError `json:"errors"`
	Warnings            []string       `json:"warnings"`
	// WarningPositions holds, index for index with Warnings, where in File
	// the field each warning names is (null when unknown); absent when
	// none is known.
	WarningPositions []*Position `json:"warningPositions,omitempty"`
	// Pruned lists the unknown fields dropped while decoding.
	Pruned []string `json:"pruned,omitempty"`
	// Result is the object as the API server would store it (pruned,
	// defaulted), for a validated object that decoded; absent otherwise.
	Result interface{} `json:"result,omitempty"`
	// OldResult is, for an update, the stored object as the API server
	// reads it back (kept with Result).
	OldResult interface{} `json:"oldResult,omitempty"`
	// Unchanged is set for a valid update whose stored object is the old
	// one (kubectl: "unchanged").
	Unchanged bool `json:"unchanged,omitempty"`
	// Admission is the outcome of validating admission policies
	// (--policy), for an object that passed validation.
	Admission *AdmissionOutcome `json:"admission,omitempty"`
	// Mutation is the outcome of mutating admission policies, which run
	// before the validation (the entry's result is the mutated object's).
	Mutation *MutationOutcome `json:"mutation,omitempty"`
	// Webhooks says, for each webhook of the ValidatingWebhookConfigurations
	// and MutatingWebhookConfigurations given (mutating ones first), whether
	// the request would be sent to it; the webhooks are not called.
	Webhooks []WebhookCall `json:"webhooks,omitempty"`
	// TypeChecking is, for a ValidatingAdmissionPolicy entry (crdlab lint
	// --policy), what the API server writes to the policy's
	// status.typeChecking.expressionWarnings against the CRDs of the run.
	TypeChecking []ExpressionWarning `json:"typeChecking,omitempty"`
}

// ExpressionWarning is admissionregistration/v1 ExpressionWarning: the
// type-checking warning of one expression of a ValidatingAdmissionPolicy.
type ExpressionWarning struct {
	// FieldRef is the expression's path (spec.validations[0].expression).
	FieldRef string `json:"fieldRef"`
	// Warning is the API server's text: per kind, "<group>/<version>,
	// Kind=<kind>: " and the CEL compiler's issues.
	Warning string `json:"warning"`
}

// WebhookCall is whether one admission webhook is called for a request.
type WebhookCall struct {
	// Configuration names the webhook configuration, Type is "mutating"
	// or "validating".
	Configuration string `json:"configuration"`
	Type          string `json:"type"`
	Webhook       string `json:"webhook"`
	Called        bool   `json:"called"`
	// CalledWith is the resource and kind the webhook is called with
	// (another version of the CRD under matchPolicy Equivalent).
	CalledWith *WebhookTarget `json:"calledWith,omitempty"`
	// Skipped is why it is not called.
	Skipped string `json:"skipped,omitempty"`
	// Error is the API server's error that fails the request before this
	// webhook is called (matchConditions failing under failurePolicy
	// Fail, a bad selector); Code its HTTP code.
	Error string `json:"error,omitempty"`
	Code  int    `json:"code,omitempty"`
	// Answer is what the API server makes of the webhook's recorded
	// AdmissionReview answer (--webhook-response); nil when it is not
	// called or has no recorded answer.
	Answer *WebhookAnswer `json:"answer,omitempty"`
}

// WebhookAnswer is what the API server makes of a called webhook's
// recorded AdmissionReview answer.
type WebhookAnswer struct {
	// Outcome is "allowed", "patched" (allowed with a patch that changed
	// the object), "denied", "failed" (the answer is unusable and fails
	// the request) or "ignored" (unusable, let through by failurePolicy
	// Ignore).
	Outcome string `json:"outcome"`
	// Message is the API server's error (denied, failed) or the error let
	// through (ignored); Reason and Code its status reason and HTTP code.
	Message string `json:"message,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Code    int    `json:"code,omitempty"`
	// Warnings are the answer's warnings as the API server returns them.
	Warnings []string `json:"warnings,omitempty"`
	// AuditAnnotations are the annotations the call adds to the request's
	// audit event ("<webhook>/<key>", mutation.webhook.admission.k8s.io/...).
	AuditAnnotations map[string]string `json:"auditAnnotations,omitempty"`
}

// WebhookTarget is a resource and kind a webhook is called with.
type WebhookTarget struct {
	Group       string `json:"group"`
	Version     string `json:"version"`
	Resource    string `json:"resource"`
	SubResource string `json:"subResource,omitempty"`
	APIVersion  string `json:"apiVersion"`
	Kind        string `json:"kind"`
}

// AdmissionOutcome is what kube-apiserver's ValidatingAdmissionPolicy
// plugin decided on an entry's request.
type AdmissionOutcome struct {
	// Allowed is false when a policy denied the request.
	Allowed bool `json:"allowed"`
	// Policy and Binding name the denying policy and binding (Binding is
	// empty when the policy itself could not be configured).
	Policy  string `json:"policy,omitempty"`
	Binding string `json:"binding,omitempty"`
	// Message is the API server's status message; Reason and Code its
	// status reason and HTTP code.
	Message string `json:"message,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Code    int    `json:"code,omitempty"`
	// Warnings are the Warn actions' warnings (also in the entry's Warnings).
	Warnings []string `json:"warnings,omitempty"`
	// AuditAnnotations are the audit annotations of the request.
	AuditAnnotations map[string]string `json:"auditAnnotations,omitempty"`
	// Evaluated lists the "policy/binding" pairs that applied.
	Evaluated []string `json:"evaluated,omitempty"`
	// Notes are crdlab's remarks on what it does not model.
	Notes []string `json:"notes,omitempty"`
	// Webhooks are the webhooks of the configurations given, each called
	// or skipped, for a CRD update (lint --old, upgrade; validate reports
	// an object's on its entry, RunEntry.Webhooks).
	Webhooks []WebhookCall `json:"webhooks,omitempty"`
}

// LocatedError is a field error with its position in the input.
type LocatedError struct {
	ErrorReport
	// Line is the 1-based line of the error's field in File, and Column
	// its column; when the field's position is unknown (a kind: List item,
	// a field not in the document) Line is the document's first line and
	// Column is 0. The embedded Position is not set.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
}

// RunSummary counts the entries of a run by status.
type RunSummary struct {
	Files   int `json:"files"`
	Total   int `json:"total"`
	Valid   int `json:"valid"`
	Invalid int `json:"invalid"`
	Skipped int `json:"skipped"`
	Errors  int `json:"errors"`
	// Partial counts the StatusPartial entries (absent when none).
	Partial int `json:"partial,omitempty"`
}

// ValidateAllResult is the result of "validateAll": one entry per
// non-empty document of the stream, in order.
type ValidateAllResult struct {
	Documents []DocumentReport `json:"documents"`
}

// DocumentReport is one document of a "validateAll" stream: its 0-based
// index (empty documents not counted), its first line, and either its
// report (as "validate" returns it) or the error "validate" would have
// answered for it alone.
type DocumentReport struct {
	Index  int     `json:"index"`
	Line   int     `json:"line"`
	Report *Report `json:"report,omitempty"`
	Error  *Error  `json:"error,omitempty"`
}

// UpgradeRequest is the request of "upgrade": what applying CRD over
// OldCRD (as stored in the cluster) does to the API and to the stored
// Objects (`crdlab upgrade OLD NEW OBJECT...`).
type UpgradeRequest struct {
	Op Op `json:"op"`
	// OldCRD and CRD are the old and the new CRD (YAML or JSON text, one
	// each; the *Bytes twins when not valid UTF-8).
	OldCRD      string `json:"oldCrd"`
	OldCRDBytes []byte `json:"oldCrdBytes,omitempty"`
	CRD         string `json:"crd"`
	CRDBytes    []byte `json:"crdBytes,omitempty"`
	// Objects are the stored objects, one document each (ObjectsBytes
	// after them); Sources names them in the report, index for index
	// (default "objects[i]").
	Objects      []string `json:"objects,omitempty"`
	ObjectsBytes [][]byte `json:"objectsBytes,omitempty"`
	Sources      []string `json:"sources,omitempty"`
	// StoredVersions is the old CRD's status.storedVersions
	// (`--stored-versions`); absent: its file's status, else its storage
	// version.
	StoredVersions []string `json:"storedVersions,omitempty"`
	// FailOnBreaking makes a breaking schema change unsafe
	// (`--fail-on-breaking`).
	FailOnBreaking bool `json:"failOnBreaking,omitempty"`
	// KubeVersion is the release of both CRDs' compiles and of the
	// update, as in CompileRequest (`crdlab upgrade --kube-version`).
	KubeVersion string `json:"kubeVersion,omitempty"`
}

// TestRequest is the request of "test": test suites and the CRDs they use,
// held in memory as a small file tree (`crdlab test [--crd C]... [--run R]
// PATH...`, package crdtest).
type TestRequest struct {
	Op Op `json:"op"`
	// Files maps slash-separated relative paths ("widgets.testsuite.yaml",
	// "crds/widgets.yaml") to their text: suites and CRDs, laid out as on
	// disk (a suite's crd: is relative to it; OpenShift's crdName: layout
	// works too).
	Files map[string]string `json:"files"`
	// Paths are the suite files or directories of Files to run (default
	// ".", every suite file of the tree).
	Paths []string `json:"paths,omitempty"`
	// CRDs are files or directories of Files given as --crd.
	CRDs []string `json:"crds,omitempty"`
	// Run selects the cases whose full name matches this regular
	// expression (-run).
	Run string `json:"run,omitempty"`
	// KubeVersion, when set, is the release every suite runs at,
	// overriding the suites' own kubeVersion (`crdlab test
	// --kube-version`); a malformed or unsupported one is a BadRequest.
	KubeVersion string `json:"kubeVersion,omitempty"`
	// DefaultKubeVersion, when set, is the release of the suites that
	// name none (a project's .crdlab.yaml); KubeVersion overrides it. A
	// malformed or unsupported one is a BadRequest.
	DefaultKubeVersion string `json:"defaultKubeVersion,omitempty"`
}

// TestReport is what `crdlab test -o json` prints, and the result of
// "test": every case in a deterministic order (suite files sorted by path,
// cases in file order), the suite files that could not be loaded, and the
// counts.
type TestReport struct {
	Results    []TestCaseResult `json:"results"`
	LoadErrors []TestLoadError  `json:"loadErrors"`
	Passed     int              `json:"passed"`
	Failed     int              `json:"failed"`
	// Seconds is the run's wall time.
	Seconds float64 `json:"seconds"`
}

// TestCaseResult is one case of a TestReport.
type TestCaseResult struct {
	// Name is "<suite name>/<onCreate|onUpdate|sequence>/<case name>".
	Name string `json:"name"`
	// File and Line locate the case in its suite file.
	File string `json:"file"`
	Line int    `json:"line"`
	// Passed is false when the case failed; Message then says why (a
	// unified diff of the expected and the stored object, or the error).
	Passed  bool    `json:"passed"`
	Message string  `json:"message,omitempty"`
	Seconds float64 `json:"seconds"`
	// Admission is an admission case's outcome (tests.admission).
	Admission *AdmissionOutcome `json:"admission,omitempty"`
}

// TestLoadError is a suite file that could not be run.
type TestLoadError struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

// MutationOutcome is what kube-apiserver's MutatingAdmissionPolicy plugin
// did to an entry's object before its validation.
type MutationOutcome struct {
	// Allowed is false when a policy's error failed the request (the entry
	// is then not validated).
	Allowed bool `json:"allowed"`
	// Policy and Binding name the failing policy and binding.
	Policy  string `json:"policy,omitempty"`
	Binding string `json:"binding,omitempty"`
	// Message is the API server's status message; Reason and Code its
	// status reason and HTTP code.
	Message string `json:"message,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Code    int    `json:"code,omitempty"`
	// Object is the mutated object as validation received it (absent when
	// nothing changed it).
	Object map[string]interface{} `json:"object,omitempty"`
	// Mutations lists the mutations that ran, in order.
	Mutations []AppliedMutation `json:"mutations,omitempty"`
	// Reinvoked: the plugin ran a second time (reinvocation).
	Reinvoked bool `json:"reinvoked,omitempty"`
	// Notes are crdlab's remarks on what it does not model.
	Notes []string `json:"notes,omitempty"`
}

// AppliedMutation is one mutation of a MutatingAdmissionPolicy that ran.
type AppliedMutation struct {
	Policy  string `json:"policy"`
	Binding string `json:"binding"`
	// Param names the param object ("namespace/name"), empty without.
	Param string `json:"param,omitempty"`
	// Mutation is its index in the policy's spec.mutations.
	Mutation  int    `json:"mutation"`
	PatchType string `json:"patchType"`
	// Reinvocation: it ran in the reinvocation pass.
	Reinvocation bool `json:"reinvocation,omitempty"`
	// Changed are the JSON pointers of the fields it added, changed or
	// removed.
	Changed []string `json:"changed,omitempty"`
	// Error is its error (it changed nothing).
	Error string `json:"error,omitempty"`
}

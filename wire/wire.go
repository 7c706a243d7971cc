// Package wire holds crdlab's wire types: the JSON documents crdlab prints
// and the WebAssembly module's ABI (guest/ABI.md). It imports only the
// standard library, so any host can use it without the engine.
//
// The report types (Report, CRDReport, ObjectReport, ErrorReport) are the
// document `crdlab validate -o json` prints and the result of the module's
// "validate" call; engine.NewReport builds them. The ABI types are the
// request envelope (Request, or one of the per-op request types), the
// response envelope (Response, with an Error on failure), each op's result,
// the op names (Op) and their table (Ops: each op's request and result
// types), the error codes (ErrorCode) and the ABI version.
//
// The JavaScript bindings (bindings/js/src/index.js, WIRE) declare the same
// op names and error codes, and index.d.ts the result types; tests derive
// the lists from Ops and keep the two in step.
package wire

import "encoding/json"

// ABIVersion is the version of the module's ABI (the crdlab_abi_version
// export, the "version" call's ABI). It changes only when a request or
// response shape changes incompatibly.
const ABIVersion = 1

// Op names a call into the module: the "op" member of a request.
type Op string

// The ops of ABI version 1.
const (
	OpVersion  Op = "version"
	OpCompile  Op = "compile"
	OpLint     Op = "lint"
	OpValidate Op = "validate"
	OpCost     Op = "cost"
	OpFree     Op = "free"
	// OpValidateAll validates every document of a YAML stream (a
	// ValidateRequest whose object is the stream); its result is a
	// ValidateAllResult. Added in ABI version 1 without a version change:
	// hosts that do not use it are unaffected.
	OpValidateAll Op = "validateAll"
)

// The ops of CRD updates and test suites, added in ABI version 1 without a
// version change (hosts that do not use them are unaffected); "compile"
// and "lint" also take an optional old CRD (CompileRequest.OldCRD).
const (
	// OpUpgrade reports applying a new CRD over an old one with stored
	// objects (an UpgradeRequest); its result is an UpgradeReport, the
	// document `crdlab upgrade -o json` prints.
	OpUpgrade Op = "upgrade"
	// OpTest runs test suites held in memory (a TestRequest); its result
	// is a TestReport, the document `crdlab test -o json` prints.
	OpTest Op = "test"
)

// The op of conversion webhooks' recorded answers, added in ABI version 1
// without a version change (hosts that do not use it are unaffected).
const (
	// OpConversionReview checks a conversion webhook's answer as the API
	// server does (a ConversionReviewRequest); its result is a
	// ConversionReport, the document `crdlab conversion-review -o json`
	// prints (package conversion).
	OpConversionReview Op = "conversionReview"
)

// The op of CEL completion (wire/complete.go).
const (
	// OpComplete proposes what may follow "<receiver>." at the cursor of a
	// CEL expression (a CompleteRequest); its result is a CompleteResult. It
	// is the completion of the playground's CEL rules and of `crdlab lsp`
	// (one implementation: internal/celcomplete). Added in ABI version 1
	// without a version change: hosts that do not use it are unaffected.
	OpComplete Op = "complete"
	// OpAdmit runs mutating admission policies on an object, validates it,
	// then runs validating admission policies on it (an AdmitRequest); its
	// result is an AdmitResult. (Mutating policies were added in ABI
	// version 1 without a version change: a request without them is
	// answered as before.)
	OpAdmit Op = "admit"
)

// The op of server-side apply, added in ABI version 1 without a version
// change (hosts that do not use it are unaffected).
const (
	// OpApply sends server-side apply requests (an ApplyRequest: a steps
	// file) to one object of the compiled CRD Handle; its result is an
	// ApplyResult, the document `crdlab apply -o json` prints with each
	// step's field owners (package apply).
	OpApply Op = "apply"
)

// ErrorCode is the "code" of an error response.
type ErrorCode string

// The error codes. The module answers with the first seven; Trap and Load
// are set by hosts (bindings/wasm, bindings/js), never by the module.
const (
	// CodeBadRequest: a malformed request, an unknown op, a request over
	// the size limit.
	CodeBadRequest ErrorCode = "BadRequest"
	// CodeDecodeError: the CRD bytes do not decode (engine.Compile's error).
	CodeDecodeError ErrorCode = "DecodeError"
	// CodeNotFound: an unknown handle.
	CodeNotFound ErrorCode = "NotFound"
	// CodeInvalid: a misuse, e.g. an unserved version or an undecodable old
	// object (engine.CRD.Validate's error).
	CodeInvalid ErrorCode = "Invalid"
	// CodePanic: an internal error, recovered; the instance stays usable.
	CodePanic ErrorCode = "Panic"
	// CodeTimeout: the request's timeoutMs elapsed before the work outside
	// the CEL rules ended (a rule interrupted by it is a validation error
	// naming the rule instead); the instance stays usable.
	CodeTimeout ErrorCode = "Timeout"
	// CodeResponseTooLarge: the result would render to more than the
	// module's response limit (guest/internal/abi.MaxResponseBytes, 64 MiB).
	CodeResponseTooLarge ErrorCode = "ResponseTooLarge"
	// CodeTrap (hosts only): the instance died or a call was interrupted;
	// the host replaced the instance.
	CodeTrap ErrorCode = "Trap"
	// CodeLoad (hosts only): the module could not be loaded or speaks
	// another ABI version.
	CodeLoad ErrorCode = "Load"
)

// The ops of the JSON Schema export and the CEL benchmark (wire/schema.go).
// Added in ABI version 1 without a version change: hosts that do not use
// them are unaffected.
const (
	// OpSchema exports the JSON Schema of served versions of a CRD (a
	// SchemaRequest); its result is a SchemaResult.
	OpSchema Op = "schema"
	// OpBench times the CEL rules of a CRD on objects (a BenchRequest); its
	// result is the benchmark report of package cost (cost.BenchReport).
	OpBench Op = "bench"
)

// Report is the document `crdlab validate -o json` prints per object, and
// the result of "validate".
type Report struct {
	CRD CRDReport `json:"crd"`
	// Object is nil (null) when the CRD is invalid or no object was
	// validated.
	Object *ObjectReport `json:"object"`
}

// CRDReport holds a CRD's validation outcome.
type CRDReport struct {
	// DecodeError is the API server's message when it rejects the CRD while
	// decoding (unknown or duplicate fields with fieldValidation Strict):
	// the CRD is invalid, Errors and Warnings are empty.
	DecodeError string `json:"decodeError,omitempty"`
	// FieldErrorPositions locate the unknown and duplicate fields in the
	// input ("crd.yaml:24:33: unknown field \"spec...properties[a].x\"",
	// crdlab's path spelling), with fieldValidation Strict or Warn. Not
	// part of the API server's answer.
	FieldErrorPositions []string `json:"fieldErrorPositions,omitempty"`
	// Errors are the CRD's validation errors, upstream's order.
	Errors   []ErrorReport `json:"errors"`
	Warnings []string      `json:"warnings"`
	// WarningPositions holds, index for index with Warnings, the source
	// position of the field each warning names (null for one that names
	// none); omitted when no warning has a position.
	WarningPositions []*Position `json:"warningPositions,omitempty"`
}

// Valid reports whether the API server would accept the CRD.
func (c *CRDReport) Valid() bool { return c.DecodeError == "" && len(c.Errors) == 0 }

// ObjectReport holds one object's validation outcome.
type ObjectReport struct {
	// Result is the final object (pruned, coerced, defaulted), or nil (null)
	// when the request failed while decoding. The engine stores the decoded
	// object; a host decoding the module's bytes may keep them as a
	// json.RawMessage (bindings/wasm does).
	Result interface{} `json:"result"`
	// OldResult is, for an update, the stored object as the API server
	// reads it back from storage (pruned, coerced and defaulted by the
	// current schema): the old side of ratcheting. Absent for a create.
	OldResult interface{} `json:"oldResult,omitempty"`
	// Pruned lists the unknown fields dropped while decoding.
	Pruned []string `json:"pruned"`
	// DecodeError is the API server's message when the request failed while
	// decoding.
	DecodeError string `json:"decodeError,omitempty"`
	// DecodeErrorPosition is the source position of the first field the
	// decoding error names (an unknown or duplicate field), if any.
	DecodeErrorPosition *Position     `json:"decodeErrorPosition,omitempty"`
	Errors              []ErrorReport `json:"errors"`
	Warnings            []string      `json:"warnings"`
	// WarningPositions is CRDReport.WarningPositions for the object.
	WarningPositions []*Position `json:"warningPositions,omitempty"`
}

// Valid reports whether the request would have succeeded: no decoding
// error and no validation error.
func (o *ObjectReport) Valid() bool { return o.DecodeError == "" && len(o.Errors) == 0 }

// ErrorReport is one field error as kube-apiserver reports it.
type ErrorReport struct {
	// Type is upstream's field.ErrorType, e.g. "FieldValueInvalid".
	Type string `json:"type"`
	// Field is the field path, e.g. "spec.replicas".
	Field  string `json:"field"`
	Detail string `json:"detail"`
	// Message is the rendered error (field.Error's Error()).
	Message string `json:"message"`
	// Position is where in the CRD or object document the field is (its
	// map key or list item; the nearest existing ancestor for a missing
	// field). It is absent only when there is no source: a CRD compiled
	// from a decoded value, or a document goyaml.v3 cannot parse.
	Position *Position `json:"position,omitempty"`
}

// Position is a place in a document: 1-based line and column (in
// characters), relative to the first line of the document given to the
// engine (the CLI adds the document's line in its file).
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Request is one call into the module, as the module decodes it: the union
// of the members of every op's request type (Ops names the request type of
// each op: VersionRequest, CompileRequest, ValidateRequest, CostRequest,
// FreeRequest, UpgradeRequest, TestRequest, SchemaRequest, BenchRequest,
// ConversionReviewRequest, CompleteRequest, AdmitRequest, ApplyRequest; a
// test keeps each one's members within this union).
type Request struct {
	Op     Op     `json:"op"`
	CRD    string `json:"crd,omitempty"`
	Handle uint32 `json:"handle,omitempty"`
	Object string `json:"object,omitempty"`
	Old    string `json:"old,omitempty"`
	// CRDBytes, ObjectBytes and OldBytes (base64 in JSON) replace CRD,
	// Object and Old when set: they carry input that is not valid UTF-8
	// byte for byte, which a JSON string cannot.
	CRDBytes    []byte `json:"crdBytes,omitempty"`
	ObjectBytes []byte `json:"objectBytes,omitempty"`
	OldBytes    []byte `json:"oldBytes,omitempty"`
	// Objects are the objects of a "cost" request (YAML or JSON text);
	// ObjectsBytes the same as bytes (base64 in JSON), after Objects.
	Objects         []string `json:"objects,omitempty"`
	ObjectsBytes    [][]byte `json:"objectsBytes,omitempty"`
	Version         string   `json:"version,omitempty"`
	Subresource     string   `json:"subresource,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
	// CRDFieldValidation is the fieldValidation of the CRD's create
	// ("compile", "lint", "cost"): "Strict" (default), "Warn" or "Ignore".
	CRDFieldValidation string `json:"crdFieldValidation,omitempty"`
	// Filename names the CRD in positions ("compile", "lint").
	Filename string `json:"filename,omitempty"`
	// TimeoutMs, when positive, bounds the call's time inside the module
	// (for "validateAll", the whole stream: documents not reached in time
	// answer CodeTimeout).
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
	// KubeVersion is the Kubernetes release whose API server gives the
	// verdict ("1.<minor>", "" the default) of the ops that compile a CRD
	// from text: "compile", "lint", "cost", "upgrade", "test",
	// "conversionReview" and "schema" (see CompileRequest.KubeVersion).
	KubeVersion string `json:"kubeVersion,omitempty"`

	// Versions, Draft, Strict and Layout are the options of "schema"
	// (SchemaRequest); DurationMs and Samples those of "bench"
	// (BenchRequest).
	Versions   []string `json:"versions,omitempty"`
	Draft      string   `json:"draft,omitempty"`
	Strict     bool     `json:"strict,omitempty"`
	Layout     string   `json:"layout,omitempty"`
	DurationMs int64    `json:"durationMs,omitempty"`
	Samples    int      `json:"samples,omitempty"`
	// OldCRD (OldCRDBytes when not valid UTF-8) makes "compile" and "lint"
	// a CRD update, and is the old CRD of "upgrade"; StoredVersions is its
	// status.storedVersions (see CompileRequest).
	OldCRD         string   `json:"oldCrd,omitempty"`
	OldCRDBytes    []byte   `json:"oldCrdBytes,omitempty"`
	StoredVersions []string `json:"storedVersions,omitempty"`
	// Sources name the Objects of "upgrade", index for index.
	Sources []string `json:"sources,omitempty"`
	// FailOnBreaking is UpgradeRequest.FailOnBreaking.
	FailOnBreaking bool `json:"failOnBreaking,omitempty"`
	// Files, Paths, CRDs and Run are the members of a TestRequest.
	Files map[string]string `json:"files,omitempty"`
	Paths []string          `json:"paths,omitempty"`
	CRDs  []string          `json:"crds,omitempty"`
	Run   string            `json:"run,omitempty"`
	// DefaultKubeVersion is TestRequest.DefaultKubeVersion.
	DefaultKubeVersion string `json:"defaultKubeVersion,omitempty"`
	// Review, ReviewResponse, List and ListAPIVersion are the members of a
	// ConversionReviewRequest.
	Review         string `json:"review,omitempty"`
	ReviewResponse string `json:"reviewResponse,omitempty"`
	List           bool   `json:"list,omitempty"`
	ListAPIVersion string `json:"listAPIVersion,omitempty"`
	// SchemaNode, Root, Expression, Cursor and Policy are the members of
	// a CompleteRequest (with Handle).
	SchemaNode json.RawMessage `json:"schemaNode,omitempty"`
	Policy     string          `json:"policy,omitempty"`
	Root       bool            `json:"root,omitempty"`
	Expression string          `json:"expression,omitempty"`
	Cursor     *int            `json:"cursor,omitempty"`
	// Policies, Operation, User and Groups are the members of an
	// AdmitRequest.
	Policies  string   `json:"policies,omitempty"`
	Operation string   `json:"operation,omitempty"`
	User      string   `json:"user,omitempty"`
	Groups    []string `json:"groups,omitempty"`
	// Steps, Stored and Time are the members of an ApplyRequest (with
	// Handle and FieldValidation).
	Steps  string `json:"steps,omitempty"`
	Stored string `json:"stored,omitempty"`
	Time   string `json:"time,omitempty"`
}

// VersionRequest is the request of "version".
type VersionRequest struct {
	Op Op `json:"op"`
}

// CompileRequest is the request of "compile" and "lint": a CRD, YAML or
// JSON text (CRDBytes instead when it is not valid UTF-8).
type CompileRequest struct {
	Op       Op     `json:"op"`
	CRD      string `json:"crd"`
	CRDBytes []byte `json:"crdBytes,omitempty"`
	// CRDFieldValidation is "Strict" (default), "Warn" or "Ignore": how
	// unknown and duplicate fields of the CRD are handled.
	CRDFieldValidation string `json:"crdFieldValidation,omitempty"`
	// Filename names the CRD in positions (CRDReport.FieldErrorPositions).
	Filename string `json:"filename,omitempty"`
	// TimeoutMs, when positive, bounds the call's time inside the module
	// in milliseconds (engine.CompileContext, ValidateContext with a
	// deadline); 0 is no limit. It does not bound a CRD update (OldCRD).
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
	// OldCRD, when set, is the CRD in the cluster (YAML or JSON text;
	// OldCRDBytes when it is not valid UTF-8) and the request compiles CRD
	// as an update of it (engine.CompileUpdate): the report is the API
	// server's verdict on the update (`crdlab lint --old`), and a compiled
	// handle validates objects as the API server serves them after the
	// update (`crdlab validate --old-crd`). Both CRDs are decoded strictly
	// (CRDFieldValidation must be "" or "Strict"); a decoding error is a
	// DecodeError response.
	OldCRD      string `json:"oldCrd,omitempty"`
	OldCRDBytes []byte `json:"oldCrdBytes,omitempty"`
	// StoredVersions, with OldCRD, is the old CRD's status.storedVersions
	// (`--stored-versions`); absent: the old file's status, else its
	// storage version (engine.UpdateOptions).
	StoredVersions []string `json:"storedVersions,omitempty"`
	// KubeVersion is the Kubernetes release whose API server is
	// reproduced: "1.<minor>" or "v1.<minor>", one of VersionResult's
	// KubeVersions; "" is its DefaultKubeVersion (`--kube-version`,
	// engine.CompileOptions.KubeVersion). The handle keeps it: "validate",
	// "validateAll", "apply", "schema" and the object's validation of
	// "admit" on the handle follow it (CompileResult.KubeVersion). An
	// unsupported or malformed release is a BadRequest naming the
	// supported ones.
	KubeVersion string `json:"kubeVersion,omitempty"`
}

// ValidateRequest is the request of "validate": one object (YAML or JSON
// text, one document) against the compiled CRD Handle; Old makes it an
// update.
type ValidateRequest struct {
	Op          Op     `json:"op"`
	Handle      uint32 `json:"handle"`
	Object      string `json:"object"`
	ObjectBytes []byte `json:"objectBytes,omitempty"`
	Old         string `json:"old,omitempty"`
	OldBytes    []byte `json:"oldBytes,omitempty"`
	// Version is the served version; "" picks it from the object's apiVersion.
	Version string `json:"version,omitempty"`
	// Subresource is "" or "status".
	Subresource string `json:"subresource,omitempty"`
	// FieldValidation is "Strict" (default), "Warn" or "Ignore".
	FieldValidation string `json:"fieldValidation,omitempty"`
	// TimeoutMs, when positive, bounds the call's time inside the module
	// in milliseconds (engine.CompileContext, ValidateContext with a
	// deadline); 0 is no limit.
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
}

// CostRequest is the request of "cost": a CRD and, optionally, objects whose
// runtime costs are reported.
type CostRequest struct {
	Op           Op       `json:"op"`
	CRD          string   `json:"crd"`
	CRDBytes     []byte   `json:"crdBytes,omitempty"`
	Objects      []string `json:"objects,omitempty"`
	ObjectsBytes [][]byte `json:"objectsBytes,omitempty"`
	// CRDFieldValidation is as in CompileRequest.
	CRDFieldValidation string `json:"crdFieldValidation,omitempty"`
	// KubeVersion is the release whose CEL environments, types and CRD
	// checks give the costs and the verdict, as in CompileRequest
	// (`crdlab cost --kube-version`).
	KubeVersion string `json:"kubeVersion,omitempty"`
}

// FreeRequest is the request of "free": it releases a compiled CRD.
type FreeRequest struct {
	Op     Op     `json:"op"`
	Handle uint32 `json:"handle"`
}

// Response is the envelope of every answer: {"ok":true,"result":...} or
// {"ok":false,"error":{...}}. Result holds the op's result as JSON:
// VersionResult, CompileResult, LintResult, Report ("validate"),
// FreeResult, SchemaResult ("schema"), or the cost report ("cost") and
// benchmark report ("bench", cost.BenchReport) of package cost.
type Response struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Error is the error member of a failed response.
type Error struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
}

// VersionResult is the result of "version".
type VersionResult struct {
	ABI    int    `json:"abi"`
	Engine string `json:"engine"`
	// KubeVersions are the Kubernetes releases the module reproduces (the
	// values of a request's kubeVersion), newest first: "1.37", "1.36", ...
	KubeVersions []string `json:"kubeVersions"`
	// DefaultKubeVersion is the release of a request without kubeVersion.
	DefaultKubeVersion string `json:"defaultKubeVersion"`
}

// CompileResult is the result of "compile".
type CompileResult struct {
	Handle uint32    `json:"handle"`
	CRD    CRDReport `json:"crd"`
	// Versions are the served versions, in the order of spec.versions.
	Versions []string `json:"versions"`
	// KubeVersion is the Kubernetes release the handle reproduces
	// ("1.<minor>"): the request's kubeVersion, or the default.
	KubeVersion string `json:"kubeVersion"`
}

// LintResult is the result of "lint", the document `crdlab lint -o json`
// prints.
type LintResult struct {
	CRD CRDReport `json:"crd"`
}

// FreeResult is the result of "free": {}.
type FreeResult struct{}

// UpgradeReport is what `crdlab upgrade -o json` prints: what applying a
// new CRD over an old one does to the API and to the objects already
// stored (package upgrade).
type UpgradeReport struct {
	// Safe is false when the API server rejects the CRD update, or when a
	// stored object no longer reads, loses data on read, or fails a no-op
	// update (and, with the strict policy, when a change is breaking).
	Safe bool `json:"safe"`
	// CRDUpdate is the API server's verdict on the update of the CRD
	// (ValidateCustomResourceDefinitionUpdate and the strategy).
	CRDUpdate CRDReport `json:"crdUpdate"`
	// OldStorageVersion and NewStorageVersion are the CRDs' storage versions.
	OldStorageVersion string `json:"oldStorageVersion"`
	NewStorageVersion string `json:"newStorageVersion"`
	// StoredVersions is the old CRD's status.storedVersions as assumed.
	StoredVersions []string `json:"storedVersions"`
	// Objects are the stored objects, as the updated API server reads them.
	Objects []StoredObjectReport `json:"objects"`
	// Changes is the compatibility classification of the schema change for
	// clients: a diff of the two CRDs, not the API server's judgement.
	Changes []SchemaChange `json:"changes"`
}

// StoredObjectReport is one stored object under the updated CRD.
type StoredObjectReport struct {
	// Source names the input (file, with the document index when the file
	// has several).
	Source string `json:"source"`
	// Name is namespace/name or name.
	Name string `json:"name"`
	// StoredVersion is the version of the object's apiVersion.
	StoredVersion string `json:"storedVersion"`
	// Safe is false when a read below has a decode error, drops data or
	// fails the no-op update.
	Safe bool `json:"safe"`
	// Skipped says why the object was not checked (it is not of the CRD's
	// group and kind); Reads is then empty.
	Skipped string `json:"skipped,omitempty"`
	// Reads are the reads at the stored version (when the new CRD still
	// serves it) and at the new storage version.
	Reads []StoredReadReport `json:"reads"`
}

// StoredReadReport is a stored object read, and written back, at one
// version of the updated CRD.
type StoredReadReport struct {
	Version string `json:"version"`
	// DecodeError is the API server's error reading the object (it then
	// cannot be read, updated or deleted through this version).
	DecodeError string `json:"decodeError,omitempty"`
	// Pruned lists the stored fields the new CRD drops on read that the old
	// CRD kept (the data disappears at the next write).
	Pruned []string `json:"pruned"`
	// Defaulted lists the fields defaulting sets on read under the new CRD
	// that the old CRD did not set.
	Defaulted []string `json:"defaulted"`
	// NoOpUpdate is the outcome of writing the object back unchanged (an
	// update: validation ratcheting applies); nil when the version is not
	// served or the read failed.
	NoOpUpdate *RequestReport `json:"noOpUpdate,omitempty"`
	// Create is the outcome of creating the object afresh (no ratcheting):
	// when it fails, an update that changes the offending fields fails.
	Create *RequestReport `json:"create,omitempty"`
}

// RequestReport is the API server's answer to one request, without the
// resulting object.
type RequestReport struct {
	Allowed     bool          `json:"allowed"`
	DecodeError string        `json:"decodeError,omitempty"`
	Errors      []ErrorReport `json:"errors"`
	Warnings    []string      `json:"warnings"`
}

// SchemaChange is one finding of the compatibility diff.
type SchemaChange struct {
	// Version is the CRD version the finding is about ("" for CRD-wide).
	Version string `json:"version,omitempty"`
	// FromVersion, when set, is the old CRD's version whose schema Version's
	// is compared with (the old and the new storage versions: objects
	// stored at the first are read at the second).
	FromVersion string `json:"fromVersion,omitempty"`
	// Path is the field path in the version's schema ("" for the version).
	Path string `json:"path,omitempty"`
	// Kind names the change, e.g. "FieldRemoved", "TypeChanged".
	Kind string `json:"kind"`
	// Severity is "breaking" (clients or existing objects may fail),
	// "warning" (behaviour changes) or "info".
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

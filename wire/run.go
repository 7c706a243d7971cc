package wire

// RunReport is the document `crdlab validate -o json` prints for a run over
// files and directories of mixed manifests: one entry per document (or
// kind: List item) in input order, and the counts.
type RunReport struct {
	Results []RunEntry `json:"results"`
	Summary RunSummary `json:"summary"`
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

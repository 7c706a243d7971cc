// Package limits declares, once, every CEL and request limit crdlab
// enforces, each with the upstream file and constant it mirrors (as upstream
// gathers its CEL limits in k8s.io/apiserver/pkg/apis/cel/config.go). It
// holds constants only and imports nothing, so that any package may use it.
package limits

// Runtime CEL limits: k8s.io/apiserver/pkg/apis/cel/config.go.
const (
	// PerCallLimit is the runtime cost limit of one CEL expression
	// evaluation (config.go PerCallLimit).
	PerCallLimit = 1000000
	// RuntimeCELCostBudget is the runtime cost budget of all the CEL
	// evaluations of one custom resource, and of all the default values of
	// one CRD schema (config.go RuntimeCELCostBudget).
	RuntimeCELCostBudget = 10000000
	// CheckFrequency is how many comprehension iterations run between two
	// checks for interruption (config.go CheckFrequency).
	CheckFrequency = 100
	// MaxRequestSizeBytes is the request size CEL cost and cardinality
	// estimates assume (config.go MaxRequestSizeBytes, 3 MiB; also
	// k8s.io/apiserver/pkg/cel/limits.go DefaultMaxRequestSizeBytes).
	MaxRequestSizeBytes = int64(3 * 1024 * 1024)
	// MaxEvaluatedMessageExpressionSizeBytes is the largest string a
	// messageExpression may produce (config.go
	// MaxEvaluatedMessageExpressionSizeBytes).
	MaxEvaluatedMessageExpressionSizeBytes = 5 * 1024
)

// Static CEL cost limits checked when a CRD is created or updated:
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go.
const (
	// StaticEstimatedCostLimit is the largest estimated cost of one
	// expression, multiplied by the cardinality of its schema node
	// (validation.go StaticEstimatedCostLimit).
	StaticEstimatedCostLimit = 10000000
	// StaticEstimatedCRDCostLimit is the largest total estimated cost of
	// the expressions of one openAPIV3Schema (validation.go
	// StaticEstimatedCRDCostLimit).
	StaticEstimatedCRDCostLimit = 100000000
)

// Format limits of the CEL format library: k8s.io/apiserver/pkg/cel/limits.go.
const (
	// MaxFormatSize is the longest format name (limits.go MaxFormatSize).
	MaxFormatSize = 64
	// MaxNameFormatRegexSize is the regex size of a named format
	// (limits.go MaxNameFormatRegexSize).
	MaxNameFormatRegexSize = 128
)

// Request limits.
const (
	// MaxRequestBodyBytes is the largest request body the API server
	// accepts (k8s.io/apiserver/pkg/server/config.go NewConfig's default
	// MaxRequestBodyBytes, 3 MiB).
	MaxRequestBodyBytes = int64(3 * 1024 * 1024)

	// JSONPatchMaxCopyBytes bounds the bytes the copy operations of one
	// JSON patch may add (k8s.io/apiserver pkg/server/config.go
	// JSONPatchMaxCopyBytes, 3 MiB, set as json-patch's
	// AccumulatedCopySizeLimit): a mutating webhook's patch over it fails.
	JSONPatchMaxCopyBytes = int64(3 * 1024 * 1024)
)

// CEL parser limits: github.com/google/cel-go/parser/parser.go (the
// defaults of NewParser, which the API server's environments keep).
const (
	// CELExpressionSizeCodePoints is the largest expression the parser
	// reads, in code points (expressionSizeCodePointLimit).
	CELExpressionSizeCodePoints = 100000
	// CELMaxRecursionDepth is the parser's nesting limit
	// (maxRecursionDepth).
	CELMaxRecursionDepth = 250
)

// Request limits: k8s.io/apiserver/pkg/server/config.go.
const (
	// RequestTimeoutSeconds is the API server's default request timeout
	// (config.go NewConfig RequestTimeout, 60 s; kube-apiserver's
	// --request-timeout): the default of crdlab's per-object --timeout.
	RequestTimeoutSeconds = 60
)

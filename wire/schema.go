package wire

// SchemaRequest is the request of "schema": the JSON Schema of served
// versions of a CRD, as `crdlab schema` writes them (package jsonschema).
// The CRD is a compiled Handle or, when Handle is 0, CRD text (CRDBytes
// when it is not valid UTF-8), decoded with CRDFieldValidation as
// "compile" does.
type SchemaRequest struct {
	Op       Op     `json:"op"`
	Handle   uint32 `json:"handle,omitempty"`
	CRD      string `json:"crd,omitempty"`
	CRDBytes []byte `json:"crdBytes,omitempty"`
	// CRDFieldValidation is as in CompileRequest (CRD text only).
	CRDFieldValidation string `json:"crdFieldValidation,omitempty"`
	// Versions are the served versions to export, in this order; empty:
	// every served version, in the order of spec.versions. Version, when
	// set, is one more (first).
	Version  string   `json:"version,omitempty"`
	Versions []string `json:"versions,omitempty"`
	// Draft is "2020-12" (default) or "07" (`crdlab schema --draft`).
	Draft string `json:"draft,omitempty"`
	// Strict adds additionalProperties: false where the API server prunes
	// unknown fields (`crdlab schema --strict`).
	Strict bool `json:"strict,omitempty"`
	// Layout names the files (SchemaDocument.FileName): "kubeconform"
	// (default) or "catalog" (`crdlab schema --layout`).
	Layout string `json:"layout,omitempty"`
	// TimeoutMs bounds the CRD's compilation, as in CompileRequest.
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
	// KubeVersion is the release of the CRD text's compile (the verdict
	// in SchemaResult.CRD), as in CompileRequest; with a Handle it must be
	// "" or the handle's release. The documents themselves are the same
	// at every release.
	KubeVersion string `json:"kubeVersion,omitempty"`
}

// SchemaResult is the result of "schema". When the API server rejects the
// CRD (CRD has errors or a decodeError), Schemas is empty: `crdlab schema`
// writes nothing for such a CRD either.
type SchemaResult struct {
	CRD     CRDReport        `json:"crd"`
	Schemas []SchemaDocument `json:"schemas"`
}

// SchemaDocument is the JSON Schema of one served version.
type SchemaDocument struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	// FileName is the document's path in the request's layout
	// ("cronjob_v1.json", or "stable.example.com/cronjob_v1.json").
	FileName string `json:"fileName"`
	// Unexpressed lists what the API server checks that the document
	// cannot (CEL rules, list-map keys, some formats, ...), one line each.
	Unexpressed []string `json:"unexpressed"`
	// Document is the JSON Schema as text, byte for byte what `crdlab
	// schema` writes (indented by two spaces, a trailing newline).
	Document string `json:"document"`
}

// BenchRequest is the request of "bench": every CEL rule and
// messageExpression of a CRD timed on each object (YAML or JSON text), and
// each object's validation phase by phase, as `crdlab bench` does (package
// cost, Benchmark). The CRD is a compiled Handle or, when Handle is 0, CRD
// text decoded as in CostRequest. Every object is timed as a create.
type BenchRequest struct {
	Op                 Op       `json:"op"`
	Handle             uint32   `json:"handle,omitempty"`
	CRD                string   `json:"crd,omitempty"`
	CRDBytes           []byte   `json:"crdBytes,omitempty"`
	CRDFieldValidation string   `json:"crdFieldValidation,omitempty"`
	Objects            []string `json:"objects,omitempty"`
	ObjectsBytes       [][]byte `json:"objectsBytes,omitempty"`
	// DurationMs is the time spent timing one figure (one rule on one
	// object, or one phase), default 20 (`crdlab bench --duration`);
	// Samples the number of timed batches, default 11, at most 1000.
	DurationMs int64 `json:"durationMs,omitempty"`
	Samples    int   `json:"samples,omitempty"`
	// TimeoutMs, when positive, bounds the whole benchmark: checked before
	// every figure, it ends the call with the error Timeout.
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
}

package engine

import (
	"context"
	"fmt"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/crdvalidation"
	"github.com/crdlab/crdlab/internal/openapi"
	"github.com/crdlab/crdlab/internal/schema"
)

// Version is the crdlab engine version reported by the WebAssembly module's
// "version" call (guest/ABI.md). Release builds set it at link time with
// -ldflags "-X github.com/crdlab/crdlab/engine.Version=v1.2.3".
var Version = "dev"

// FieldValidation is the fieldValidation request parameter.
type FieldValidation string

const (
	// Strict rejects objects with unknown or duplicate fields (kubectl's default).
	Strict FieldValidation = "Strict"
	// Warn accepts them and returns one warning per violation (the API server's default).
	Warn FieldValidation = "Warn"
	// Ignore accepts them silently.
	Ignore FieldValidation = "Ignore"
)

// CRD is a compiled CustomResourceDefinition. It is immutable and safe for
// concurrent use.
type CRD struct {
	def        *crd.CustomResourceDefinition
	errs       field.ErrorList
	warnings   []string
	validators map[string]*Validator // by version name, served or stored versions
	storage    string
	buildErr   error  // set when the CRD could not be served
	src        []byte // the document Compile decoded (positions), or nil
	pos        crdPositions

	decodeError string            // the API server's message when it rejects the CRD while decoding
	fieldErrors []*crd.FieldError // unknown and duplicate fields (Strict and Warn)
	release     kubeversion.Release
}

// Compile decodes one CustomResourceDefinition (YAML or JSON) and compiles
// it, as a create with fieldValidation=Strict (kubectl's default): it is
// CompileWithOptions with the zero CompileOptions. A body over
// MaxRequestBodyBytes is rejected before decoding (a
// *RequestEntityTooLargeError).
func Compile(crdYAMLorJSON []byte) (*CRD, error) {
	return CompileWithOptions(crdYAMLorJSON, CompileOptions{})
}

// CompileOptions selects how the CRD create request is decoded.
type CompileOptions struct {
	// FieldValidation is the create request's fieldValidation: Strict (the
	// default, as kubectl) rejects a CRD with unknown or duplicate fields
	// (CRD.DecodeError), Warn accepts it with one warning per field, Ignore
	// accepts it silently.
	FieldValidation FieldValidation
	// Filename names the input in positions (crd.DecodeError, FieldErrors).
	Filename string
	// KubeVersion is the Kubernetes release whose API server is reproduced,
	// "1.<minor>" ("" is DefaultKubeVersion); see SupportedKubeVersions.
	// The compiled CRD validates objects as that release does.
	KubeVersion string
	// Share, when set, shares the compile work that does not depend on
	// the release with the other compilations given the same CompileShare
	// (see CompileShare); nil shares nothing.
	Share *CompileShare
}

// CompileWithOptions decodes one CustomResourceDefinition (YAML or JSON) and
// compiles it. The error is only about decoding (syntax, wrong types,
// apiVersion/kind, not exactly one CRD) or an invalid option: a CRD the API
// server rejects while decoding (unknown or duplicate fields with Strict)
// is returned with DecodeError set, and a decoded but invalid CRD reports
// its problems through Errors.
func CompileWithOptions(crdYAMLorJSON []byte, opts CompileOptions) (*CRD, error) {
	return compileWithOptions(context.Background(), crdYAMLorJSON, opts)
}

// compileWithOptions is CompileWithOptions observing ctx between versions
// and rule compilations (CompileContext checks it afterwards).
func compileWithOptions(ctx context.Context, crdYAMLorJSON []byte, opts CompileOptions) (*CRD, error) {
	if err := bodyTooLarge(crdYAMLorJSON, 0); err != nil {
		return nil, err
	}
	fv, err := checkFieldValidation(opts.FieldValidation)
	if err != nil {
		return nil, err
	}
	rel, err := kubeversion.Parse(opts.KubeVersion)
	if err != nil {
		return nil, err
	}
	doc, err := opts.Share.decode(crdYAMLorJSON, opts.Filename)
	if err != nil {
		return nil, err
	}
	c := compileDocument(ctx, doc, fv, rel, opts.Share)
	c.src = crdYAMLorJSON
	return c, nil
}

func checkFieldValidation(fv FieldValidation) (FieldValidation, error) {
	switch fv {
	case "":
		return Strict, nil
	case Strict, Warn, Ignore:
		return fv, nil
	}
	return "", fmt.Errorf("invalid fieldValidation %q (want Strict, Warn or Ignore)", fv)
}

// compileDocument mirrors the create handler's decoding of a CRD
// (handlers/create.go): with Strict, strict decoding errors fail the
// request (transformDecodeError); with Warn they become the response's
// first warnings (addStrictDecodingWarnings); with Ignore they are dropped.
func compileDocument(ctx context.Context, doc crd.Document, fv FieldValidation, rel kubeversion.Release, share *CompileShare) *CRD {
	if len(doc.FieldErrors) == 0 || fv == Ignore {
		return compileCRD(ctx, doc.CRD, nil, rel, share)
	}
	msgs := make([]string, len(doc.FieldErrors))
	for i, e := range doc.FieldErrors {
		msgs[i] = e.Error()
	}
	if fv == Warn {
		out := compileCRD(ctx, doc.CRD, msgs, rel, share)
		out.fieldErrors = doc.FieldErrors
		return out
	}
	return &CRD{
		release:     rel,
		def:         doc.CRD,
		warnings:    []string{},
		fieldErrors: doc.FieldErrors,
		decodeError: fmt.Sprintf("%s in version %q cannot be handled as a %s: strict decoding error: %s",
			crd.Kind, "v1", crd.Kind, strings.Join(msgs, ", ")),
	}
}

// CompileCRD compiles an already decoded CustomResourceDefinition (with the
// v1 defaults applied, as crd.Decode does).
func CompileCRD(c *crd.CustomResourceDefinition) *CRD {
	return compileCRD(context.Background(), c, nil, kubeversion.Release{}, nil)
}

// compileCRD compiles c; decodeWarnings are the request's warnings from
// decoding, recorded before the CRD's own. Once ctx ends, the rules are no
// longer compiled and the CRD is left incomplete: the caller returns ctx's
// error instead.
func compileCRD(ctx context.Context, c *crd.CustomResourceDefinition, decodeWarnings []string, rel kubeversion.Release, share *CompileShare) *CRD {
	out := &CRD{def: c, release: rel}
	// Share rule and pattern compilations between the CRD checks, the
	// default-value checks and the serving validators (results are
	// identical); the caches are dropped with this compile, unless they
	// are share's (other releases of the same CRDs).
	cache, patterns := share.caches(ctx, rel)
	func() {
		defer func() {
			if r := recover(); r != nil {
				out.errs = append(out.errs, field.InternalError(nil, fmt.Errorf("crdlab: CRD validation panicked: %v", r)))
			}
		}()
		out.errs, out.warnings = crdvalidation.ValidateCustomResourceDefinition(c, crdvalidation.Options{CompileCache: cache, Patterns: patterns, Release: rel})
	}()
	out.errs = errorsAt(rel, out.errs)
	out.warnings = recordWarnings(append(decodeWarnings, out.warnings...))
	if len(out.errs) > 0 || cache.Err() != nil {
		return out
	}
	out.buildErr = out.build(cache, patterns, share)
	return out
}

// DecodeError is the API server's message when it rejects the CRD while
// decoding (unknown or duplicate fields with fieldValidation Strict), e.g.
//
//	CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.x"
//
// "" when the CRD was accepted. A rejected CRD is not validated: Errors and
// Warnings are empty.
func (c *CRD) DecodeError() string { return c.decodeError }

// FieldErrors returns the unknown and duplicate fields of the CRD, with
// their positions in the input, when they were reported (fieldValidation
// Strict or Warn); nil otherwise.
func (c *CRD) FieldErrors() []*crd.FieldError { return c.fieldErrors }

// Valid reports whether the API server would accept the CRD: no decoding
// error and no validation error.
func (c *CRD) Valid() bool { return c.decodeError == "" && len(c.errs) == 0 }

// CompileCRDWithSource is CompileCRD for a CRD decoded from source (one
// YAML or JSON document, as crd.DecodeOne takes it): Positions then points
// into source.
func CompileCRDWithSource(c *crd.CustomResourceDefinition, source []byte) *CRD {
	out := CompileCRD(c)
	out.src = source
	return out
}

// Errors returns the CRD validation errors, in upstream's order.
func (c *CRD) Errors() field.ErrorList { return c.errs }

// Warnings returns the CRD warnings (e.g. unrecognized formats).
func (c *CRD) Warnings() []string { return c.warnings }

// Definition returns the decoded CRD. Callers must not modify it.
func (c *CRD) Definition() *crd.CustomResourceDefinition { return c.def }

// Validator returns the validator of a served version; "" is the storage
// version.
func (c *CRD) Validator(version string) (*Validator, error) {
	if c.decodeError != "" {
		return nil, fmt.Errorf("CustomResourceDefinition %q is rejected: %s", c.def.Metadata.Name, c.decodeError)
	}
	if len(c.errs) > 0 {
		return nil, fmt.Errorf("CustomResourceDefinition %q is invalid: %v", c.def.Metadata.Name, c.errs.ToAggregate())
	}
	if c.buildErr != nil {
		return nil, c.buildErr
	}
	if version == "" {
		version = c.storage
	}
	v, ok := c.validators[version]
	if !ok || !v.served {
		return nil, fmt.Errorf("version %q is not served by CustomResourceDefinition %q (served: %v)", version, c.def.Metadata.Name, c.ServedVersions())
	}
	return v, nil
}

// ServedVersions returns the names of the CRD's served versions, in the
// order of spec.versions (nil for none).
func (c *CRD) ServedVersions() []string {
	var out []string
	for _, v := range c.def.Spec.Versions {
		if v.Served {
			out = append(out, v.Name)
		}
	}
	return out
}

// Validate validates one object (a JSON or YAML document). The version is
// opts.Version, else the object's apiVersion when it names a served
// version of this CRD, else the storage version. The error is only for
// misuse: an invalid CRD, an unknown version, an undecodable old object.
//
// object must hold one document: a YAML stream of several documents is an
// error naming their count (ValidateAll validates a stream).
func (c *CRD) Validate(object []byte, opts ValidateOptions) (*Result, error) {
	return c.ValidateContext(context.Background(), object, opts)
}

// pickVersion returns the object's version when its apiVersion names this
// CRD's group and a served version.
func (c *CRD) pickVersion(body *jsonBody) string {
	if body.err != nil {
		return ""
	}
	g, err := body.interpret()
	if err != nil || g.Group != c.def.Spec.Group {
		return ""
	}
	if v, ok := c.validators[g.Version]; ok && v.served {
		return g.Version
	}
	return ""
}

// ValidateOptions selects the request to simulate.
type ValidateOptions struct {
	// Version is the served version the request is sent to; "" picks it from
	// the object's apiVersion (CRD.Validate) or is the validator's version.
	Version string
	// Old is the stored object; when set, the request is an update.
	Old []byte
	// Subresource is "" or "status" (a status update; requires Old).
	Subresource string
	// FieldValidation is Strict (the default, as kubectl), Warn or Ignore.
	FieldValidation FieldValidation
	// MaxBodyBytes is the largest object accepted, in bytes of the document
	// as given: 0 is the API server's MaxRequestBodyBytes (3 MiB), a
	// negative value disables the limit. A larger object fails before
	// decoding with Result.DecodeError "Request entity too large: limit is N".
	MaxBodyBytes int64
	// Applied marks object as the field manager's result of a server-side
	// apply (package apply): the patch handler gives it to the store as it
	// is, defaulted by the field manager but not decoded as a request body,
	// so it is neither pruned nor coerced, and a null the schema does not
	// allow stays (a validation error, where a decoded body loses it).
	Applied bool
}

// Result is the outcome of one request.
type Result struct {
	// Object is the final object (pruned, coerced, defaulted, prepared) or
	// nil if the request failed while decoding.
	Object interface{}
	// OldObject is, for an update, the stored object as the API server reads
	// it back from storage before the update (decoded non-strictly, pruned,
	// metadata coerced, defaulted by the current schema, in the request's
	// namespace, with a resourceVersion): the old side of ratcheting and
	// transition rules. nil for a create.
	OldObject interface{}
	// Pruned lists the unknown fields dropped while decoding, upstream's order
	// (the paths of the "unknown field" errors; reported with Ignore too).
	Pruned []string
	// DecodeError is the API server's message when the request fails while
	// decoding (strict unknown/duplicate fields, bad JSON, apiVersion/kind).
	DecodeError string
	// Errors are the validation errors, upstream's order.
	Errors field.ErrorList
	// Warnings are the response's warnings, upstream's order.
	Warnings []string
	// Costs is the runtime cost of every CEL rule (and messageExpression)
	// evaluation, in evaluation order.
	Costs []RuleCost

	src []byte // the object document, for Positions
	// ctx is the request's context while it is served (ValidateContext);
	// interrupted is set when a CEL rule reported its end.
	ctx         context.Context
	interrupted bool
}

// RuleCost is the runtime cost of one evaluation of an
// x-kubernetes-validations rule or of its messageExpression.
type RuleCost struct {
	// Path is the field path of the schema node the rule is declared on.
	Path string
	// Rule is the index of the rule in the node's x-kubernetes-validations.
	Rule int
	// MessageExpression is true for the cost of the rule's messageExpression.
	MessageExpression bool
	// Cost is the runtime cost, in upstream's cost units.
	Cost uint64
}

// Valid reports whether the request would have succeeded.
func (r *Result) Valid() bool { return r.DecodeError == "" && len(r.Errors) == 0 }

// Validator validates objects of one version of a CRD. It is immutable and
// safe for concurrent use.
type Validator struct {
	crd             *CRD
	shared          *servingShared
	version         string
	served          bool
	structural      *schema.Structural
	schemaValidator *openapi.Validator
	statusValidator *openapi.Validator
	hasStatus       bool
	scale           *scaleSpec
	cel             *cel.Validator // nil when the schema has no x-kubernetes-validations
	warnings        []string       // deprecation warnings
}

// Version returns the validator's version.
func (v *Validator) Version() string { return v.version }

// GeneratedNameSuffix replaces the 5 random characters kube-apiserver
// appends to metadata.generateName (names.SimpleNameGenerator), so that
// results are reproducible.
const GeneratedNameSuffix = "xxxxx"

// StoredResourceVersion is the resourceVersion given to an old object that
// has none (every stored object has one; an update must carry it).
const StoredResourceVersion = "1"

// Validate runs one create (opts.Old == nil), update or status update
// against this version. opts.Version, when set, must be this validator's
// version.
//
// Not reproduced offline: the uid and creationTimestamp the server sets on
// create, managedFields, the random generateName suffix (GeneratedNameSuffix
// is used), resourceVersion preconditions (an update without
// metadata.resourceVersion takes the old one, as kubectl apply does).
//
// object must hold one document, as for CRD.Validate.
func (v *Validator) Validate(object []byte, opts ValidateOptions) (res *Result, err error) {
	return v.ValidateContext(context.Background(), object, opts)
}

// checkOptions checks opts against this validator and returns the field
// validation to use.
func (v *Validator) checkOptions(opts ValidateOptions) (FieldValidation, error) {
	if opts.Version != "" && opts.Version != v.version {
		return "", fmt.Errorf("validator is for version %q, not %q", v.version, opts.Version)
	}
	switch opts.Subresource {
	case "":
	case "status":
		if opts.Old == nil {
			return "", fmt.Errorf("a status update needs the old object")
		}
		if !v.hasStatus {
			return "", fmt.Errorf("version %q has no status subresource", v.version)
		}
	default:
		return "", fmt.Errorf("unsupported subresource %q (want \"\" or \"status\")", opts.Subresource)
	}
	fv := opts.FieldValidation
	switch fv {
	case "":
		fv = Strict
	case Strict, Warn, Ignore:
	default:
		return "", fmt.Errorf("invalid fieldValidation %q (want Strict, Warn or Ignore)", opts.FieldValidation)
	}
	return fv, nil
}

// validate is Validate with the object already converted to JSON when
// body is not nil (CRD.Validate converts it once to pick the version).
func (v *Validator) validate(ctx context.Context, object []byte, body *jsonBody, opts ValidateOptions) (res *Result, err error) {
	fv, err := v.checkOptions(opts)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("crdlab: internal error validating the object: %v", r)
		}
	}()
	res, err = v.serve(ctx, object, body, opts.Old, opts.Subresource == "status", fv, opts.Applied)
	if res != nil {
		res.src = object
	}
	return res, err
}

package builtin

// The request path of a built-in object: the create and update handlers
// (k8s.io/apiserver/pkg/endpoints/handlers: decoding with the resource's
// codec, the request namespace, the owner-reference deduplication), the
// generic store's name generation and optimistic concurrency, and
// rest.BeforeCreate / rest.BeforeUpdate around the resource's Strategy.

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	kjson "sigs.k8s.io/json"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// Field validation directives (the fieldValidation query parameter).
const (
	Strict = "Strict"
	Warn   = "Warn"
	Ignore = "Ignore"
)

// GeneratedNameSuffix replaces the 5 random characters the API server
// appends to a generateName (engine.GeneratedNameSuffix).
const GeneratedNameSuffix = "xxxxx"

// StoredResourceVersion is the resourceVersion of an old object that has
// none (engine.StoredResourceVersion).
const StoredResourceVersion = "1"

// maxGeneratedNameLength mirrors names.maxGeneratedNameLength (63 - 5).
const maxGeneratedNameLength = 58

// Request is one create (Old nil) or update of a built-in object, as
// `kubectl create` / `kubectl replace` send it.
type Request struct {
	// Body is the request body, JSON.
	Body []byte
	// Old is the stored object (JSON) of an update; nil for a create.
	Old []byte
	// FieldValidation is Strict ("" too, as kubectl), Warn or Ignore.
	FieldValidation string
	// Release is the Kubernetes release answering.
	Release kubeversion.Release
	// APIVersion and Kind address the endpoint (kubectl routes by the
	// document's): a body whose apiVersion and kind cannot be read is
	// then the endpoint's decode error; without them, an error of Serve.
	APIVersion, Kind string
}

// Outcome is the API server's answer to a Request.
type Outcome struct {
	// Resource is the resource addressed.
	Resource *Resource
	// Name is the object's name (generated from generateName on create),
	// as the Invalid error names it: `ConfigMap "x" is invalid: ...`.
	Name string
	// Modelled is set when the resource's native validation and defaulting
	// ran (StrategyFor); otherwise the object is not validated natively
	// (nor defaulted, nor returned), and the caller must say so.
	Modelled bool
	// Checked names what was validated of a kind not modelled
	// (SelectorsChecked for resource.k8s.io's DeviceClass, ResourceClaim
	// and ResourceClaimTemplate), whose Errors are then those of that part
	// only: the API server may find more.
	Checked string
	// SchemaChecked is set for a kind that is not Modelled when its body
	// went through the typed decoder's checks by the release's OpenAPI
	// schema (SchemaFor): unknown and duplicate fields, type errors,
	// quantities, int-or-strings, times and base64 bytes, with the API
	// server's texts (DecodeError, or Warnings for Warn).
	SchemaChecked bool
	// Unmodelled lists the fields set in the object whose native validation
	// crdlab does not model (a Deployment's pod template: affinity, init
	// containers, ...), as field paths: an answer that passed is then
	// partial — the API server may still reject what was not checked.
	// Empty when everything set was validated.
	Unmodelled []string
	// DecodeError is the 400 (or 409) message of a request that failed
	// before validation.
	DecodeError string
	// Errors are the field errors of a 422 Invalid answer.
	Errors field.ErrorList
	// Warnings are the answer's warnings, in order.
	Warnings []string
	// Object is the object the API server would store and print (without
	// the uid and creationTimestamp it generates), for a modelled request
	// that passed.
	Object map[string]interface{}
}

// Valid reports whether the request would succeed.
func (o *Outcome) Valid() bool { return o.DecodeError == "" && len(o.Errors) == 0 }

// typeMeta is what the serializer's meta factory reads first
// (json.SimpleMetaFactory.Interpret).
type typeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

// Serve answers a create or update of a built-in object at req.Release.
// The error is for what is not a request's answer: a body without
// apiVersion and kind, a kind the release does not serve (NoMatchError is
// kubectl's text for it), an old object that does not decode.
func Serve(req Request) (*Outcome, error) {
	var tm typeMeta
	if err := json.Unmarshal(req.Body, &tm); err != nil {
		msg := fmt.Sprintf("couldn't get version/kind; json parse error: %v", err)
		r := Lookup(req.Release, req.APIVersion, req.Kind)
		if r == nil {
			return nil, errors.New(msg)
		}
		// transformDecodeError without a kind: the serializer's meta
		// factory failed.
		return &Outcome{Resource: r, Modelled: StrategyFor(r) != nil, Errors: field.ErrorList{}, Warnings: []string{},
			DecodeError: fmt.Sprintf("the object provided is unrecognized (must be of type %s): %s (%s)", r.Kind, msg, summarizeData(req.Body, 30))}, nil
	}
	r := Lookup(req.Release, tm.APIVersion, tm.Kind)
	if r == nil {
		return nil, fmt.Errorf("%s %s is not served by Kubernetes %s", tm.APIVersion, tm.Kind, req.Release)
	}
	out := &Outcome{Resource: r, Errors: field.ErrorList{}, Warnings: []string{}}
	if w := r.DeprecationWarning(req.Release); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	if int64(len(req.Body)) > limits.MaxRequestBodyBytes {
		// The handlers' limitedReadBody: a 413 before decoding, for every
		// resource.
		out.DecodeError = fmt.Sprintf("Request entity too large: limit is %d", limits.MaxRequestBodyBytes)
		return out, nil
	}
	fv := req.FieldValidation
	if fv == "" {
		fv = Strict
	}
	s := StrategyFor(r)
	if s == nil {
		// no Go types: the typed decoder's checks, by the release's schema
		t, err := tableFor(req.Release)
		if err != nil {
			return nil, err
		}
		msg, err := schemaCheck(r, t, req.Body, fv, out)
		if err == nil {
			out.SchemaChecked = true
			out.DecodeError = msg
		}
		if out.DecodeError == "" {
			// resource.k8s.io's selectors (docs/dra.md)
			checkSelectorsOnly(r, req, out)
		}
		return out, nil
	}
	out.Modelled = true
	obj, msg := decode(s, r, req.Body, fv, out)
	if msg != "" {
		out.DecodeError = msg
		return out, nil
	}
	meta := obj.Meta()
	if req.Old == nil {
		meta.CreationTimestamp = objectmeta.Time{}
		meta.UID = ""
		meta.DeletionTimestamp = nil
		meta.DeletionGracePeriodSeconds = nil
		meta.SelfLink = ""
	}
	ensureNamespace(s, meta)
	out.Warnings = append(out.Warnings, dedupOwnerReferences(meta)...)
	var oldObj Object
	if req.Old == nil {
		create(req.Release, s, obj, out)
	} else {
		var ignored Outcome
		old, msg := decode(s, r, req.Old, Ignore, &ignored)
		if msg != "" {
			return nil, fmt.Errorf("old object: %s", msg)
		}
		ensureNamespace(s, old.Meta())
		if old.Meta().ResourceVersion == "" {
			old.Meta().ResourceVersion = StoredResourceVersion
		}
		if rv := meta.ResourceVersion; rv != "" && rv != old.Meta().ResourceVersion {
			out.DecodeError = fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", r.ResourceGroup(), meta.Name)
			return out, nil
		}
		update(req.Release, s, obj, old, out)
		oldObj = old
	}
	out.Name = meta.Name
	out.Warnings = recordWarnings(out.Warnings)
	if ps, ok := s.(partialStrategy); ok {
		out.Unmodelled = ps.Unmodelled(obj)
	}
	if pu, ok := s.(partialUpdateStrategy); ok && oldObj != nil {
		out.Unmodelled = append(out.Unmodelled, pu.UnmodelledUpdate(obj, oldObj)...)
	}
	if len(out.Errors) > 0 {
		out.Errors = kubeversion.ErrorsAt(req.Release, out.Errors)
		return out, nil
	}
	out.Object = toUnstructured(obj)
	return out, nil
}

// recordWarnings does what the API server's warning recorder does to a
// response's warnings: empty ones dropped, a repeated text sent once.
func recordWarnings(ws []string) []string {
	out := make([]string, 0, len(ws))
	seen := make(map[string]bool, len(ws))
	for _, w := range ws {
		if w == "" || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// summarizeData mirrors the handlers' summarizeData for a JSON body.
func summarizeData(data []byte, maxLength int) string {
	if len(data) == 0 {
		return "<empty>"
	}
	if data[0] == '{' {
		if len(data) > maxLength {
			return string(data[:maxLength]) + " ..."
		}
		return string(data)
	}
	if len(data) > maxLength {
		return hex.EncodeToString(data[:maxLength]) + " ..."
	}
	return hex.EncodeToString(data)
}

// decode mirrors the resource codec's Decode into the typed object: the
// JSON serializer (sigs.k8s.io/json, case-sensitive, strict unknown and
// duplicate fields for Strict and Warn), then the scheme's defaults and
// the conversion (Strategy.Decoded). It returns transformDecodeError's
// message on failure; Warn's strict errors become warnings of out.
func decode(s Strategy, r *Resource, body []byte, fv string, out *Outcome) (Object, string) {
	obj := s.New()
	var strictErrs []error
	var err error
	if fv == Ignore {
		err = kjson.UnmarshalCaseSensitivePreserveInts(body, obj)
	} else {
		strictErrs, err = kjson.UnmarshalStrict(body, obj)
	}
	if err != nil {
		return nil, fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", r.Kind, r.Version, r.Kind, upstreamTypeNames.Replace(err.Error()))
	}
	if len(strictErrs) > 0 {
		if fv == Strict {
			msgs := make([]string, len(strictErrs))
			for i, e := range strictErrs {
				msgs[i] = e.Error()
			}
			return nil, fmt.Sprintf("%s in version %q cannot be handled as a %s: strict decoding error: %s", r.Kind, r.Version, r.Kind, strings.Join(msgs, ", "))
		}
		for _, e := range strictErrs {
			out.Warnings = append(out.Warnings, e.Error())
		}
	}
	s.Decoded(obj)
	return obj, ""
}

// ensureNamespace mirrors rest.EnsureObjectNamespaceMatchesRequestNamespace
// for the request kubectl sends: to the object's namespace (or "default")
// for namespaced resources, to no namespace for cluster-scoped ones.
func ensureNamespace(s Strategy, m *objectmeta.ObjectMeta) {
	if !s.NamespaceScoped() {
		m.Namespace = ""
	} else if m.Namespace == "" {
		m.Namespace = "default"
	}
}

// dedupOwnerReferences mirrors the handlers' dedupOwnerReferencesAndAddWarning:
// an owner reference equal to an earlier one is dropped, its UID named in
// the warning.
func dedupOwnerReferences(m *objectmeta.ObjectMeta) []string {
	var kept []objectmeta.OwnerReference
	var dups []string
	for _, ref := range m.OwnerReferences {
		dup := false
		for _, k := range kept {
			if reflect.DeepEqual(k, ref) {
				dup = true
				break
			}
		}
		if dup {
			dups = append(dups, string(ref.UID))
			continue
		}
		kept = append(kept, ref)
	}
	if len(dups) == 0 {
		return nil
	}
	m.OwnerReferences = kept
	return []string{fmt.Sprintf(objectmeta.DuplicateOwnerReferencesWarningFormat, strings.Join(dups, ", "))}
}

// create mirrors the store's name generation and rest.BeforeCreate.
func create(rel kubeversion.Release, s Strategy, obj Object, out *Outcome) {
	meta := obj.Meta()
	if meta.GenerateName != "" && meta.Name == "" {
		gen := meta.GenerateName
		if len(gen) > maxGeneratedNameLength {
			gen = gen[:maxGeneratedNameLength]
		}
		meta.Name = gen + GeneratedNameSuffix
	}
	s.PrepareForCreate(obj)
	// rest.ValidateCreate: the strategy, then (if it passed) the metadata
	// with path-segment names.
	errs := s.Validate(rel, obj)
	if len(errs) == 0 {
		errs = objectmeta.ValidateRegistryCreateAt(rel, meta, s.NamespaceScoped())
	}
	errs = withDeclarative(rel, s, obj, nil, errs)
	if len(errs) > 0 {
		out.Errors = errs
		return
	}
	out.Warnings = append(out.Warnings, s.WarningsOnCreate(rel, obj)...)
	s.Canonicalize(obj)
}

// update mirrors rest.BeforeUpdate.
func update(rel kubeversion.Release, s Strategy, obj, old Object, out *Outcome) {
	meta, oldMeta := obj.Meta(), old.Meta()
	if meta.ResourceVersion == "" {
		meta.ResourceVersion = oldMeta.ResourceVersion
	}
	meta.Generation = oldMeta.Generation
	s.PrepareForUpdate(obj, old)
	if meta.UID == "" {
		meta.UID = oldMeta.UID
	}
	if !oldMeta.CreationTimestamp.IsZero() {
		meta.CreationTimestamp = oldMeta.CreationTimestamp
	}
	if !oldMeta.DeletionTimestamp.IsZero() {
		meta.DeletionTimestamp = oldMeta.DeletionTimestamp
	}
	if oldMeta.DeletionGracePeriodSeconds != nil && meta.DeletionGracePeriodSeconds == nil {
		meta.DeletionGracePeriodSeconds = oldMeta.DeletionGracePeriodSeconds
	}
	errs := objectmeta.ValidateRegistryUpdateAt(rel, meta, oldMeta, s.NamespaceScoped())
	errs = append(errs, s.ValidateUpdate(rel, obj, old)...)
	errs = withDeclarative(rel, s, obj, old, errs)
	if len(errs) > 0 {
		out.Errors = errs
		return
	}
	out.Warnings = append(out.Warnings, s.WarningsOnUpdate(rel, obj, old)...)
	s.Canonicalize(obj)
}

// toUnstructured encodes the object as the API server does (encoding/json
// of the v1 type) and reads it back as an unstructured object (integers as
// int64), without the uid and creationTimestamp a create generates.
func toUnstructured(obj Object) map[string]interface{} {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil
	}
	var m map[string]interface{}
	d := json.NewDecoder(strings.NewReader(string(data)))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return nil
	}
	m, _ = unstructured.ConvertNumbers(m).(map[string]interface{})
	return m
}

// upstreamTypeNames renames, in a json type error, the metadata types
// crdlab declares in internal/objectmeta to the names of upstream's
// (apimachinery's types.UID, meta/v1's ManagedFieldsOperationType): the
// decoder prints a field's Go type as package.Name.
var upstreamTypeNames = strings.NewReplacer(
	" of type objectmeta.UID", " of type types.UID",
	" of type objectmeta.ManagedFieldsOperationType", " of type v1.ManagedFieldsOperationType",
)

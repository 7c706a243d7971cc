package engine

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/cel"
	"math"
	"reflect"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/openapi"
	"github.com/crdlab/crdlab/internal/schema"
)

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
}

// Result is the outcome of one request.
type Result struct {
	// Object is the final object (pruned, coerced, defaulted, prepared) or
	// nil if the request failed while decoding.
	Object interface{}
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
	Costs []cel.RuleCost
}

// Valid reports whether the request would have succeeded.
func (r *Result) Valid() bool { return r.DecodeError == "" && len(r.Errors) == 0 }

// scaleSpec is the scale subresource of a version.
type scaleSpec struct {
	specReplicasPath, statusReplicasPath string
	labelSelectorPath                    *string
}

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

// maxGeneratedNameLength mirrors names.maxGeneratedNameLength (63 - 5).
const maxGeneratedNameLength = 58

// Validate runs one create (opts.Old == nil), update or status update
// against this version. opts.Version, when set, must be this validator's
// version.
//
// Not reproduced offline: the uid and creationTimestamp the server sets on
// create, managedFields, the random generateName suffix (GeneratedNameSuffix
// is used), resourceVersion preconditions (an update without
// metadata.resourceVersion takes the old one, as kubectl apply does).
func (v *Validator) Validate(object []byte, opts ValidateOptions) (res *Result, err error) {
	return v.validate(object, nil, opts)
}

// validate is Validate with the object already converted to JSON when
// body is not nil (CRD.Validate converts it once to pick the version).
func (v *Validator) validate(object []byte, body *jsonBody, opts ValidateOptions) (res *Result, err error) {
	if opts.Version != "" && opts.Version != v.version {
		return nil, fmt.Errorf("validator is for version %q, not %q", v.version, opts.Version)
	}
	switch opts.Subresource {
	case "":
	case "status":
		if opts.Old == nil {
			return nil, fmt.Errorf("a status update needs the old object")
		}
		if !v.hasStatus {
			return nil, fmt.Errorf("version %q has no status subresource", v.version)
		}
	default:
		return nil, fmt.Errorf("unsupported subresource %q (want \"\" or \"status\")", opts.Subresource)
	}
	fv := opts.FieldValidation
	switch fv {
	case "":
		fv = Strict
	case Strict, Warn, Ignore:
	default:
		return nil, fmt.Errorf("invalid fieldValidation %q (want Strict, Warn or Ignore)", opts.FieldValidation)
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("crdlab: internal error validating the object: %v", r)
		}
	}()

	var old map[string]interface{}
	if opts.Old != nil {
		if old, err = v.decodeStored(opts.Old); err != nil {
			return nil, fmt.Errorf("old object: %v", err)
		}
	}

	res = &Result{Pruned: []string{}, Warnings: []string{}}
	defer func() {
		if res != nil {
			res.Warnings = recordWarnings(res.Warnings)
		}
	}()
	res.Warnings = append(res.Warnings, v.warnings...)
	if body == nil {
		body = toJSONBody(object)
	}
	obj, ok := v.decodeRequest(body, fv, res)
	if !ok {
		return res, nil
	}
	v.ensureNamespace(obj)
	res.Warnings = append(res.Warnings, dedupOwnerReferences(obj)...)
	if old == nil {
		v.create(obj, res)
	} else if msg := v.conflict(obj, old); msg != "" {
		res.DecodeError = msg
		return res, nil
	} else {
		if opts.Subresource == "status" {
			obj = v.statusUpdate(obj, old, res)
		} else {
			v.update(obj, old, res)
		}
	}
	res.Object = obj
	if res.Errors == nil {
		res.Errors = field.ErrorList{}
	}
	return res, nil
}

// decodeError renders a decoding failure as the handlers' transformDecodeError.
func (v *Validator) decodeError(g *gvk, err error, body *jsonBody) string {
	if g != nil && len(g.Kind) > 0 {
		return fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", g.Kind, g.Version, v.shared.kind, err)
	}
	return fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", v.shared.kind, err, summarizeData(body.text(), 30))
}

// decodeRequest mirrors the create/update handlers' decoding through the
// CRD's unstructuredNegotiatedSerializer: strict or non-strict JSON decoding,
// the schemaCoercingDecoder, defaulting, and the group/version check.
func (v *Validator) decodeRequest(in *jsonBody, fv FieldValidation, res *Result) (map[string]interface{}, bool) {
	fail := func(msg string) (map[string]interface{}, bool) {
		res.DecodeError = msg
		res.Errors = field.ErrorList{}
		return nil, false
	}
	if in.err != nil {
		return fail(fmt.Sprintf("error converting YAML to JSON: %v", in.err))
	}
	strict := fv != Ignore
	scope := gvk{Group: v.shared.group, Version: v.version, Kind: v.shared.kind}
	actual, err := in.interpret()
	if err != nil {
		return fail(v.decodeError(nil, err, in))
	}
	*actual = gvkWithDefaults(*actual, scope)
	val, strictErrs, err := in.decode(strict)
	if err != nil {
		return fail(v.decodeError(actual, err, in))
	}
	obj, _ := val.(map[string]interface{})
	content := contentGVK(obj)
	if content.Kind == "" {
		// Strict decoding reports the content's (empty) kind; the non-strict
		// path fails inside Unstructured.UnmarshalJSON and reports the
		// kind interpreted with the endpoint's defaults.
		g := &content
		if !strict {
			g = actual
		}
		return fail(v.decodeError(g, fmt.Errorf("Object 'Kind' is missing in '%s'", in.text()), in))
	}
	unknown, err := v.coerce(obj, strict, false)
	if err != nil {
		return fail(v.decodeError(&content, err, in))
	}
	res.Pruned = append(res.Pruned, unknown...)
	if strict && (len(strictErrs) > 0 || len(unknown) > 0) {
		for _, u := range unknown {
			strictErrs = append(strictErrs, strictError{kind: "unknown field", path: u})
		}
		if fv == Strict {
			msgs := make([]string, len(strictErrs))
			for i, e := range strictErrs {
				msgs[i] = e.Error()
			}
			return fail(v.decodeError(&content, fmt.Errorf("strict decoding error: %s", strings.Join(msgs, ", ")), in))
		}
		for _, e := range strictErrs {
			res.Warnings = append(res.Warnings, e.Error())
		}
	}
	if content.Group == v.shared.group && content.Kind == v.shared.kind {
		applyDefaults(obj, v.shared.structural[content.Version])
	}
	if content.groupVersion() != scope.groupVersion() || content.Group != scope.Group {
		return fail(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", content.groupVersion(), scope.groupVersion()))
	}
	return obj, true
}

// contentGVK mirrors Unstructured.GroupVersionKind.
func contentGVK(obj map[string]interface{}) gvk {
	if obj == nil {
		return gvk{}
	}
	kind, _ := obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	g, ver, err := parseGroupVersion(apiVersion)
	if err != nil {
		return gvk{}
	}
	return gvk{Group: g, Version: ver, Kind: kind}
}

// coerce mirrors unstructuredSchemaCoercer.apply. Unknown field paths are
// always tracked (they are reported in Result.Pruned even with Ignore).
func (v *Validator) coerce(obj map[string]interface{}, _ bool, stored bool) ([]string, error) {
	kind, foundKind, err := nestedString(obj, "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := nestedString(obj, "apiVersion")
	if err != nil {
		return nil, err
	}
	meta, foundMeta, unknown, err := getObjectMeta(obj, stored, !stored)
	if err != nil {
		return nil, err
	}
	group, version, err := parseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	repairGeneration := false
	if group == v.shared.group && kind == v.shared.kind {
		s := v.shared.structural[version]
		if !v.shared.preserveUnknownFields {
			paths := pruneObject(obj, s)
			if !stored {
				unknown = append(unknown, paths...)
			}
			pruneNulls(obj, s)
		}
		ferr, paths := coerceObjectMeta(obj, s, stored, !stored)
		if ferr != nil {
			return nil, ferr
		}
		unknown = append(unknown, paths...)
		repairGeneration = stored
	}
	if foundKind {
		obj["kind"] = kind
	}
	if foundAPIVersion {
		obj["apiVersion"] = apiVersion
	}
	if foundMeta {
		if err := setObjectMeta(obj, meta); err != nil {
			return nil, err
		}
		if repairGeneration {
			if g, _, _ := nestedInt64(obj, "metadata", "generation"); g == 0 {
				setNested(obj, int64(1), "metadata", "generation")
			}
		}
	}
	return unknown, nil
}

// decodeStored decodes the old object as the storage codec does when it
// reads a stored CR: non-strict, dropping invalid metadata, repairing the
// generation, defaulting.
func (v *Validator) decodeStored(data []byte) (map[string]interface{}, error) {
	body := toJSONBody(data)
	if body.err != nil {
		return nil, fmt.Errorf("error converting YAML to JSON: %v", body.err)
	}
	if _, err := body.interpret(); err != nil {
		return nil, err
	}
	val, _, err := body.decode(false)
	if err != nil {
		return nil, err
	}
	obj, _ := val.(map[string]interface{})
	content := contentGVK(obj)
	if content.Kind == "" {
		return nil, fmt.Errorf("Object 'Kind' is missing in '%s'", body.text())
	}
	if _, err := v.coerce(obj, false, true); err != nil {
		return nil, err
	}
	if content.Group == v.shared.group && content.Kind == v.shared.kind {
		applyDefaults(obj, v.shared.structural[content.Version])
	}
	if content.Group != v.shared.group || content.Version != v.version || content.Kind != v.shared.kind {
		return nil, fmt.Errorf("apiVersion/kind %s, %s does not match %s/%s, %s", content.groupVersion(), content.Kind, v.shared.group, v.version, v.shared.kind)
	}
	// A stored object lives in the request's namespace and always has a
	// resourceVersion.
	v.ensureNamespace(obj)
	if rv, _ := nestedStringNoErr(obj, "metadata", "resourceVersion"); rv == "" {
		setNested(obj, StoredResourceVersion, "metadata", "resourceVersion")
	}
	return obj, nil
}

// conflict mirrors the optimistic-concurrency check of the registry's
// GuaranteedUpdate: an update carrying a resourceVersion other than the
// stored one fails with 409 Conflict before any validation. (Without one,
// the update is unconditional: custom resources allow it.)
func (v *Validator) conflict(obj, old map[string]interface{}) string {
	rv, _ := nestedStringNoErr(obj, "metadata", "resourceVersion")
	orv, _ := nestedStringNoErr(old, "metadata", "resourceVersion")
	if rv == "" || rv == orv {
		return ""
	}
	name, _ := nestedStringNoErr(obj, "metadata", "name")
	resource := v.crd.def.Spec.Names.Plural + "." + v.shared.group
	return fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", resource, name)
}

// ensureNamespace mirrors rest.EnsureObjectNamespaceMatchesRequestNamespace
// for the request kubectl sends: to the object's namespace (or "default")
// for namespaced resources, to no namespace for cluster-scoped ones.
func (v *Validator) ensureNamespace(obj map[string]interface{}) {
	ns, _ := nestedStringNoErr(obj, "metadata", "namespace")
	if v.shared.namespaced {
		if ns == "" {
			setNested(obj, "default", "metadata", "namespace")
		}
		return
	}
	if ns != "" {
		removeNested(obj, "metadata", "namespace")
	}
}

// create mirrors the create handler (WipeObjectMetaSystemFields), the
// store's name generation, rest.BeforeCreate and rest.ValidateCreate.
func (v *Validator) create(obj map[string]interface{}, res *Result) {
	for _, f := range []string{"creationTimestamp", "uid", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"} {
		removeNested(obj, "metadata", f)
	}
	name, _ := nestedStringNoErr(obj, "metadata", "name")
	if gen, _ := nestedStringNoErr(obj, "metadata", "generateName"); gen != "" && name == "" {
		if len(gen) > maxGeneratedNameLength {
			gen = gen[:maxGeneratedNameLength]
		}
		setNested(obj, gen+GeneratedNameSuffix, "metadata", "name")
	}
	// PrepareForCreate
	if v.hasStatus {
		delete(obj, "status")
	}
	setNested(obj, int64(1), "metadata", "generation")

	// rest.ValidateCreate: strategy.Validate, then ObjectMeta if it passed.
	errs := v.strategyValidate(obj, res)
	if len(errs) == 0 {
		errs = append(errs, validateObjectMetaCreate(obj, v.shared.namespaced, true)...)
	}
	if len(errs) > 0 {
		res.Errors = errs
		return
	}
	res.Warnings = append(res.Warnings, finalizerWarnings(obj, nil)...)
}

// strategyValidate mirrors customResourceStrategy.Validate.
func (v *Validator) strategyValidate(obj map[string]interface{}, res *Result) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, v.validatorValidate(obj, nil)...)
	errs = append(errs, validateEmbeddedObjectMeta(obj, v.structural)...)
	errs = append(errs, validateListSetsAndMaps(obj, v.structural)...)
	errs = append(errs, v.validateCEL(errs, obj, nil, res)...)
	return errs
}

// validatorValidate mirrors customResourceValidator.Validate (old == nil) and
// ValidateUpdate.
func (v *Validator) validatorValidate(obj, old map[string]interface{}) field.ErrorList {
	if errs := v.validateTypeMeta(obj); len(errs) > 0 {
		return errs
	}
	var errs field.ErrorList
	if old == nil {
		errs = append(errs, validateObjectMetaCreate(obj, v.shared.namespaced, false)...)
		if v.schemaValidator != nil {
			errs = append(errs, v.schemaValidator.Validate(nil, obj)...)
		}
	} else {
		errs = append(errs, validateObjectMetaUpdate(obj, old)...)
		if v.schemaValidator != nil {
			errs = append(errs, v.schemaValidator.ValidateUpdate(nil, obj, old)...)
		}
	}
	errs = append(errs, v.validateScaleSpec(obj)...)
	errs = append(errs, v.validateScaleStatus(obj)...)
	return errs
}

// validateTypeMeta mirrors customResourceValidator.ValidateTypeMeta.
func (v *Validator) validateTypeMeta(obj map[string]interface{}) field.ErrorList {
	var errs field.ErrorList
	kind, _ := obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	if kind != v.shared.kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), kind, fmt.Sprintf("must be %v", v.shared.kind)))
	}
	want := v.shared.group + "/" + v.version
	if apiVersion != want {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), apiVersion, fmt.Sprintf("must be %v", want)))
	}
	return errs
}

func (v *Validator) validateScaleSpec(obj map[string]interface{}) field.ErrorList {
	if v.scale == nil {
		return nil
	}
	return checkReplicas(obj, v.scale.specReplicasPath)
}

func (v *Validator) validateScaleStatus(obj map[string]interface{}) field.ErrorList {
	if v.scale == nil {
		return nil
	}
	errs := checkReplicas(obj, v.scale.statusReplicasPath)
	if v.scale.labelSelectorPath != nil {
		p := *v.scale.labelSelectorPath
		if _, _, err := nestedString(obj, strings.Split(strings.TrimPrefix(p, "."), ".")...); err != nil {
			errs = append(errs, field.Invalid(field.NewPath(p), "", err.Error()))
		}
	}
	return errs
}

// checkReplicas mirrors ValidateScaleSpec/ValidateScaleStatus's replicas check.
func checkReplicas(obj map[string]interface{}, path string) field.ErrorList {
	replicas, _, err := nestedInt64(obj, strings.Split(strings.TrimPrefix(path, "."), ".")...)
	switch {
	case err != nil:
		return field.ErrorList{field.Invalid(field.NewPath(path), replicas, err.Error())}
	case replicas < 0:
		return field.ErrorList{field.Invalid(field.NewPath(path), replicas, "should be a non-negative integer")}
	case replicas > math.MaxInt32:
		return field.ErrorList{field.Invalid(field.NewPath(path), replicas, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32))}
	}
	return nil
}

// update mirrors rest.BeforeUpdate with customResourceStrategy.
func (v *Validator) update(obj, old map[string]interface{}, res *Result) {
	v.beforeUpdate(obj, old, false)
	errs := validateCommonFields(obj, old, v.shared.namespaced)
	errs = append(errs, v.strategyValidateUpdate(obj, old, res)...)
	if len(errs) > 0 {
		res.Errors = errs
		return
	}
	res.Warnings = append(res.Warnings, finalizerWarnings(obj, old)...)
}

// statusUpdate mirrors rest.BeforeUpdate with statusStrategy; it returns the
// object that would be stored (the old object with the new status).
func (v *Validator) statusUpdate(obj, old map[string]interface{}, res *Result) map[string]interface{} {
	obj = v.beforeUpdate(obj, old, true)
	errs := validateCommonFields(obj, old, v.shared.namespaced)
	errs = append(errs, v.statusValidateUpdate(obj, old, res)...)
	if len(errs) > 0 {
		res.Errors = errs
	}
	return obj
}

// beforeUpdate mirrors the part of rest.BeforeUpdate before validation,
// including the strategy's PrepareForUpdate.
func (v *Validator) beforeUpdate(obj, old map[string]interface{}, status bool) map[string]interface{} {
	if rv, _ := nestedStringNoErr(obj, "metadata", "resourceVersion"); rv == "" {
		if orv, _ := nestedStringNoErr(old, "metadata", "resourceVersion"); orv != "" {
			setNested(obj, orv, "metadata", "resourceVersion")
		}
	}
	oldGen, _, _ := nestedInt64(old, "metadata", "generation")
	setGeneration(obj, oldGen)
	if status {
		obj = prepareStatusUpdate(obj, old)
	} else {
		v.prepareForUpdate(obj, old)
	}
	if uid, _ := nestedStringNoErr(obj, "metadata", "uid"); uid == "" {
		if ouid, _ := nestedStringNoErr(old, "metadata", "uid"); ouid != "" {
			setNested(obj, ouid, "metadata", "uid")
		}
	}
	if ts, ok := nestedField(old, "metadata", "creationTimestamp"); ok && ts != nil && ts != "" {
		setNested(obj, ts, "metadata", "creationTimestamp")
	}
	if ts, ok := nestedField(old, "metadata", "deletionTimestamp"); ok && ts != nil {
		setNested(obj, ts, "metadata", "deletionTimestamp")
	}
	if gp, ok := nestedField(old, "metadata", "deletionGracePeriodSeconds"); ok && gp != nil {
		if cur, ok := nestedField(obj, "metadata", "deletionGracePeriodSeconds"); !ok || cur == nil {
			setNested(obj, gp, "metadata", "deletionGracePeriodSeconds")
		}
	}
	return obj
}

func setGeneration(obj map[string]interface{}, g int64) {
	if g == 0 {
		removeNested(obj, "metadata", "generation")
		return
	}
	setNested(obj, g, "metadata", "generation")
}

// prepareForUpdate mirrors customResourceStrategy.PrepareForUpdate.
func (v *Validator) prepareForUpdate(obj, old map[string]interface{}) {
	if v.hasStatus {
		_, newHas := obj["status"]
		oldStatus, oldHas := old["status"]
		switch {
		case oldHas:
			obj["status"] = oldStatus
		case newHas:
			delete(obj, "status")
		}
	}
	if !reflect.DeepEqual(withoutMetadata(obj), withoutMetadata(old)) {
		oldGen, _, _ := nestedInt64(old, "metadata", "generation")
		setGeneration(obj, oldGen+1)
	}
}

func withoutMetadata(m map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(m))
	for k, v := range m {
		if k != "metadata" {
			out[k] = v
		}
	}
	return out
}

// prepareStatusUpdate mirrors statusStrategy.PrepareForUpdate: the stored
// object becomes a copy of the old one with the new status and the new
// managedFields.
func prepareStatusUpdate(obj, old map[string]interface{}) map[string]interface{} {
	status, hasStatus := obj["status"]
	managed, hasManaged := nestedField(obj, "metadata", "managedFields")
	out := schema.DeepCopyJSONValue(old).(map[string]interface{})
	if hasManaged && managed != nil {
		setNested(out, managed, "metadata", "managedFields")
	} else {
		removeNested(out, "metadata", "managedFields")
	}
	if hasStatus {
		out["status"] = status
	} else {
		delete(out, "status")
	}
	return out
}

// strategyValidateUpdate mirrors customResourceStrategy.ValidateUpdate.
func (v *Validator) strategyValidateUpdate(obj, old map[string]interface{}, res *Result) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, v.validatorValidate(obj, old)...)
	errs = append(errs, validateEmbeddedObjectMeta(obj, v.structural)...)
	if oldErrs := validateListSetsAndMaps(old, v.structural); len(oldErrs) == 0 {
		errs = append(errs, validateListSetsAndMaps(obj, v.structural)...)
	}
	errs = append(errs, v.validateCEL(errs, obj, old, res)...)
	return errs
}

// statusValidateUpdate mirrors statusStrategy.ValidateUpdate.
func (v *Validator) statusValidateUpdate(obj, old map[string]interface{}, res *Result) field.ErrorList {
	var errs field.ErrorList
	// customResourceValidator.ValidateStatusUpdate
	if tm := v.validateTypeMeta(obj); len(tm) > 0 {
		errs = append(errs, tm...)
	} else {
		errs = append(errs, validateObjectMetaUpdate(obj, old)...)
		if status, ok := obj["status"]; ok && v.statusValidator != nil {
			errs = append(errs, v.statusValidator.ValidateUpdate(field.NewPath("status"), status, old["status"])...)
		}
		errs = append(errs, v.validateScaleStatus(obj)...)
	}
	if newErrs := validateListSetsAndMaps(obj, v.structural); len(newErrs) > 0 {
		if oldErrs := validateListSetsAndMaps(old, v.structural); len(oldErrs) == 0 {
			errs = append(errs, newErrs...)
		}
	}
	errs = append(errs, v.validateCEL(errs, obj, old, res)...)
	return errs
}

// ---------------------------------------------------------------------------
// CEL SLOT — the one place where x-kubernetes-validations are evaluated.
//
// Upstream (strategy.go Validate/ValidateUpdate, status_strategy.go
// ValidateUpdate): if the errors so far contain a blocking error
// (hasBlockingErr), a single Invalid error is appended instead of running
// CEL; otherwise celValidator.Validate(ctx, nil, structuralSchema, obj, old,
// RuntimeCELCostBudget, ratcheting options) runs and its errors are appended.
// The CEL engineer replaces the body of runCEL below.
// ---------------------------------------------------------------------------

// validateCEL returns the errors to append after the non-CEL validation.
func (v *Validator) validateCEL(errsSoFar field.ErrorList, obj, old map[string]interface{}, res *Result) field.ErrorList {
	if v.cel == nil {
		return nil
	}
	if blocking := hasBlockingErr(errsSoFar); blocking != nil {
		return field.ErrorList{blocking}
	}
	return v.runCEL(obj, old, res)
}

// runCEL evaluates the rules as the strategies do: on create without an old
// object; on update with the old object and ratcheting (1.37: the
// CRDValidationRatcheting feature is GA), within the per-object runtime
// budget. Ratcheted errors become warnings, as upstream emits them through
// the request context; per-rule runtime costs are kept in the result.
func (v *Validator) runCEL(obj, old map[string]interface{}, res *Result) field.ErrorList {
	var (
		errs   field.ErrorList
		report *cel.Report
	)
	if old == nil {
		errs, _, report = v.cel.Validate(nil, obj, nil, cel.RuntimeCELCostBudget)
	} else {
		errs, _, report = v.cel.Validate(nil, obj, old, cel.RuntimeCELCostBudget,
			cel.WithRatcheting(cel.NewCorrelatedObject(obj, old, v.structural)))
	}
	if report != nil {
		res.Warnings = append(res.Warnings, report.Warnings...)
		res.Costs = append(res.Costs, report.Costs...)
	}
	return errs
}

// hasBlockingErr mirrors the strategy's hasBlockingErr.
func hasBlockingErr(errs field.ErrorList) *field.Error {
	for _, err := range errs {
		switch err.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return nil
}

// recordWarnings does what kube-apiserver's warning recorder
// (k8s.io/apiserver/pkg/endpoints/filters/warning.go) does to the warnings
// of one response: empty ones are dropped and a repeated text is sent once,
// in first-seen order. (Its 4 KiB header truncation is not applied: crdlab
// returns every warning in full.)
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

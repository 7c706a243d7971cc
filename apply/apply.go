// Package apply runs server-side apply offline: a sequence of requests
// (apply, update, status-subresource writes, delete) against one stored
// custom resource, each giving what kube-apiserver 1.37 gives — the stored
// object with metadata.managedFields (operation, apiVersion, fieldsType,
// FieldsV1, subresource, time), the 409 conflict text, and the pruning,
// defaulting and validation of the result (package engine).
//
// The merge is sigs.k8s.io/structured-merge-diff/v6 (v6.4.2, the version
// Kubernetes 1.37 uses) over the CRD's structural schema converted as the
// API server converts it; the field manager around it (manager
// identifiers, the cap of ten update managers, metadata stripping, reset
// fields of the status subresource, kubectl's last-applied annotation) is
// internal/ssa.
//
// Files: apply.go is Run, the request sequence, with the reset fields of
// the main resource and the status subresource (registry/customresource's
// GetResetFields, in fieldManager); steps.go is the steps file of crdlab
// apply (ParseSteps, docs/apply-steps.schema.json); upgrade.go is
// UpgradeBehaviour, what a CRD upgrade does to stored managedFields and to
// each manager's next apply (SMD's ReconcileFieldSetWithSchema at the next
// write, managedfields.ExtractInto for the re-applied configuration; both
// CRDs' typed schemas, Run under each), which crdlab upgrade renders
// (cmd/crdlab's upgradeapply.go). The pruning, defaulting and validation of
// each result are package engine's (CRD.Validate with the stored object as
// old).
package apply

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/ssa"
)

// Operation is the kind of request a step sends.
type Operation string

// The operations.
const (
	// Apply is a server-side apply (PATCH application/apply-patch+yaml).
	Apply Operation = "Apply"
	// Update is a write with a field manager (PUT, or POST when there is no
	// object yet); merge and JSON patches give the same ownership as the
	// PUT of their result.
	Update Operation = "Update"
	// Delete deletes the object (it may be created again by a later step).
	Delete Operation = "Delete"
)

// Step is one request.
type Step struct {
	// Manager is the fieldManager ("" is the API server's "unknown" for an
	// update; an apply requires one).
	Manager string
	// Operation is Apply, Update or Delete.
	Operation Operation
	// Force is the apply's force (ignored for updates).
	Force bool
	// Subresource is "" or "status".
	Subresource string
	// Object is the applied configuration or the updated object, YAML or
	// JSON; unused for Delete.
	Object []byte
}

// Options select the clock and identity the server would pick.
type Options struct {
	// Time is the time of the first step; step i is i seconds later. The
	// zero value is DefaultTime.
	Time time.Time
	// UID is the uid a created object gets; "" is DefaultUID.
	UID string
	// FieldValidation is an update's fieldValidation (Strict, Warn,
	// Ignore; "" is Strict, as kubectl sends). An apply is always decoded
	// leniently and checked for duplicate fields under Strict.
	FieldValidation engine.FieldValidation
}

// DefaultTime is the time of the first step when Options.Time is zero.
var DefaultTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// DefaultUID is the uid of an object created by a step.
const DefaultUID = "00000000-0000-0000-0000-000000000001"

// ManagedFieldsEntry is one metadata.managedFields entry, serialized as the
// API server serializes it (FieldsV1 verbatim).
type ManagedFieldsEntry = ssa.Entry

// Conflict is one conflicting field of a 409: the cause's message
// ("conflict with \"mgr\" using stable.example.com/v1") and field path.
type Conflict = ssa.Conflict

// StepResult is the outcome of one step.
type StepResult struct {
	// Object is the stored object after the step (unchanged when the step
	// failed; nil when there is none). Its metadata.managedFields hold
	// plain values: ObjectJSON renders them verbatim.
	Object map[string]interface{}
	// ManagedFields are the stored object's entries after the step.
	ManagedFields []ManagedFieldsEntry
	// Conflict is the 409 message when the apply conflicts.
	Conflict string
	// Conflicts are its causes.
	Conflicts []Conflict
	// Error is any other failure of the step: the API server's status
	// message for a bad request, a decoding error, an invalid result
	// ("CronTab.stable.example.com "x" is invalid: ..."), or an internal
	// error of the field manager.
	Error string
	// Code is the HTTP status of a failed step (400, 409, 422, 500), 0 on
	// success.
	Code int
	// Result is the validation of the step's object (nil when the step
	// failed before it): errors, warnings, pruned fields.
	Result *engine.Result
}

// Failed reports whether the step was refused.
func (s *StepResult) Failed() bool { return s.Code != 0 }

// ObjectJSON is the stored object as the API server serializes it (keys
// sorted, FieldsV1 verbatim), or nil.
func (s *StepResult) ObjectJSON() []byte {
	if s.Object == nil {
		return nil
	}
	b, err := objectJSON(s.Object, s.ManagedFields)
	if err != nil {
		return nil
	}
	return b
}

// MarshalJSON renders {"object", "managedFields", "conflict", "error"}.
func (s *StepResult) MarshalJSON() ([]byte, error) {
	type out struct {
		Object        json.RawMessage      `json:"object"`
		ManagedFields []ManagedFieldsEntry `json:"managedFields"`
		Conflict      string               `json:"conflict,omitempty"`
		Conflicts     []Conflict           `json:"conflicts,omitempty"`
		Error         string               `json:"error,omitempty"`
		Code          int                  `json:"code,omitempty"`
		Warnings      []string             `json:"warnings,omitempty"`
	}
	o := out{Object: json.RawMessage("null"), ManagedFields: s.ManagedFields, Conflict: s.Conflict, Conflicts: s.Conflicts, Error: s.Error, Code: s.Code}
	if o.ManagedFields == nil {
		o.ManagedFields = []ManagedFieldsEntry{}
	}
	if b := s.ObjectJSON(); b != nil {
		o.Object = b
	}
	if s.Result != nil {
		o.Warnings = s.Result.Warnings
	}
	return json.Marshal(o)
}

// Report is the outcome of a run: one result per step.
type Report struct {
	Steps []*StepResult `json:"steps"`

	tc *ssa.TypeConverter
}

// Failed reports whether any step was refused.
func (r *Report) Failed() bool {
	for _, s := range r.Steps {
		if s.Failed() {
			return true
		}
	}
	return false
}

// Run sends steps, in order, to the CRD's endpoints, starting from stored
// (the object as stored, YAML or JSON, or nil when there is none yet). Each
// step sees the object the previous steps stored; a failed step stores
// nothing. The error is for misuse (an invalid CRD, an unreadable stored
// object, a step without operation); a refused step is in its result.
func Run(crd *engine.CRD, stored []byte, steps []Step, opts Options) (rep *Report, err error) {
	defer func() {
		if p := recover(); p != nil {
			rep, err = nil, fmt.Errorf("crdlab: internal error running the steps: %v", p)
		}
	}()
	r, err := newRunner(crd, opts)
	if err != nil {
		return nil, err
	}
	if stored != nil {
		if err := r.setStored(stored); err != nil {
			return nil, err
		}
	}
	rep = &Report{Steps: make([]*StepResult, 0, len(steps)), tc: r.tc}
	for i, s := range steps {
		r.now = r.opts.Time.Add(time.Duration(i) * time.Second)
		res, err := r.step(s)
		if err != nil {
			return nil, fmt.Errorf("step %d: %v", i+1, err)
		}
		if res.Object == nil && r.cur != nil {
			// A refused step leaves the stored object: as a read returns
			// it (decoded at its stored version: pruned, defaulted).
			res.Object = r.read()
			res.ManagedFields = r.entries
		}
		rep.Steps = append(rep.Steps, res)
	}
	return rep, nil
}

type runner struct {
	crd     *engine.CRD
	opts    Options
	tc      *ssa.TypeConverter
	group   string
	kind    string
	status  map[string]bool // versions with a status subresource
	all     []string
	cur     map[string]interface{} // the stored object, nil when none
	name    string                 // the name of the object last deleted
	entries []ssa.Entry            // its managedFields
	now     time.Time
}

func newRunner(crd *engine.CRD, opts Options) (*runner, error) {
	if crd == nil {
		return nil, fmt.Errorf("no CRD")
	}
	if !crd.Valid() {
		msg := crd.DecodeError()
		if msg == "" {
			msg = crd.Errors().ToAggregate().Error()
		}
		return nil, fmt.Errorf("the CustomResourceDefinition is invalid: %s", msg)
	}
	def := crd.Definition()
	tc, err := ssa.NewTypeConverter(def)
	if err != nil {
		return nil, err
	}
	if opts.Time.IsZero() {
		opts.Time = DefaultTime
	}
	if opts.UID == "" {
		opts.UID = DefaultUID
	}
	r := &runner{crd: crd, opts: opts, tc: tc, group: def.Spec.Group, kind: def.Spec.Names.Kind, status: map[string]bool{}}
	for _, v := range def.Spec.Versions {
		r.all = append(r.all, v.Name)
		if v.Subresources != nil && v.Subresources.Status != nil {
			r.status[v.Name] = true
		}
	}
	return r, nil
}

func (r *runner) setStored(stored []byte) error {
	var obj map[string]interface{}
	if err := yaml.Unmarshal(stored, &obj); err != nil {
		return fmt.Errorf("stored object: %v", err)
	}
	if obj == nil {
		return fmt.Errorf("stored object: not an object")
	}
	obj = canonical(obj)
	entries, _, err := ssa.EntriesFromObject(obj)
	if err != nil {
		return fmt.Errorf("stored object: metadata.managedFields: %v", err)
	}
	md, _ := obj["metadata"].(map[string]interface{})
	if md == nil {
		return fmt.Errorf("stored object: no metadata")
	}
	// every stored object has a uid.
	if uid, _ := md["uid"].(string); uid == "" {
		md["uid"] = r.opts.UID
	}
	r.cur, r.entries = obj, entries
	return nil
}

// fieldManager builds the endpoint's field manager as the CRD handler does
// (scopeWithFieldManager): the main resource's reset fields are status when
// the version has a status subresource; the status subresource's are
// metadata and spec of every version that has one.
func (r *runner) fieldManager(version, subresource string) *ssa.FieldManager {
	reset := map[string]*fieldpath.Set{}
	if subresource == "status" {
		for _, v := range r.all {
			if r.status[v] {
				reset[r.group+"/"+v] = fieldpath.NewSet(fieldpath.MakePathOrDie("metadata"), fieldpath.MakePathOrDie("spec"))
			}
		}
	} else if r.status[version] {
		reset[r.group+"/"+version] = fieldpath.NewSet(fieldpath.MakePathOrDie("status"))
	}
	fm := ssa.NewFieldManager(r.tc, ssa.GVK{Group: r.group, Version: version, Kind: r.kind}, subresource, reset, r.all)
	now := r.now
	fm.Now = func() time.Time { return now }
	return fm
}

func fail(code int, msg string) *StepResult { return &StepResult{Code: code, Error: msg} }

func (r *runner) step(s Step) (*StepResult, error) {
	switch s.Operation {
	case Delete:
		if r.cur == nil {
			// The store's NotFound of the resource and the name the
			// steps last stored the object under (a DELETE's URL).
			return fail(404, fmt.Sprintf("%s.%s %q not found", strings.ToLower(r.crd.Definition().Spec.Names.Plural), r.group, r.name)), nil
		}
		r.name = objName(r.cur)
		r.cur, r.entries = nil, nil
		return &StepResult{}, nil
	case Apply, Update:
	default:
		return nil, fmt.Errorf("operation %q: want Apply, Update or Delete", s.Operation)
	}
	switch s.Subresource {
	case "", "status":
	default:
		return nil, fmt.Errorf("subresource %q: want \"\" or \"status\"", s.Subresource)
	}
	if res := r.validateOptions(s); res != nil {
		return res, nil
	}
	var obj map[string]interface{}
	if err := yaml.Unmarshal(s.Object, &obj); err != nil {
		if s.Operation == Apply {
			return fail(400, fmt.Sprintf("error decoding patch: %v", err)), nil
		}
		return nil, fmt.Errorf("object: %v", err)
	}
	if obj == nil {
		return nil, fmt.Errorf("object: want a YAML or JSON object")
	}
	version, err := r.version(obj)
	if err != nil {
		return nil, err
	}
	if s.Subresource == "status" {
		if !r.status[version] {
			// The CRD handler's answer to a subresource the version
			// does not have: NotFound of the resource and name.
			return fail(404, fmt.Sprintf("%s.%s %q not found", r.crd.Definition().Spec.Names.Plural, r.group, objName(obj))), nil
		}
		if r.cur == nil {
			return fail(404, fmt.Sprintf("%s.%s %q not found", r.crd.Definition().Spec.Names.Plural, r.group, objName(obj))), nil
		}
	}
	if r.cur != nil && objName(obj) != "" && objName(obj) != objName(r.cur) {
		return nil, fmt.Errorf("object %q: the steps address one object, %q", objName(obj), objName(r.cur))
	}
	fm := r.fieldManager(version, s.Subresource)
	if s.Operation == Apply {
		return r.apply(fm, version, s, obj)
	}
	return r.update(fm, version, s, obj)
}

// validateOptions is the handlers' ValidatePatchOptions,
// ValidateUpdateOptions and ValidateCreateOptions for what a step sets: the
// field manager (required for an apply, at most 128 bytes, printable).
func (r *runner) validateOptions(s Step) *StepResult {
	kind := "UpdateOptions"
	switch {
	case s.Operation == Apply:
		kind = "PatchOptions"
	case r.cur == nil:
		kind = "CreateOptions"
	}
	path := field.NewPath("fieldManager")
	var errs field.ErrorList
	if s.Operation == Apply && s.Manager == "" {
		errs = append(errs, field.Required(path, "is required for apply patch"))
	}
	if len(s.Manager) > maxFieldManagerLength {
		errs = append(errs, field.TooLong(path, "", maxFieldManagerLength))
	}
	for i, c := range s.Manager {
		if !unicode.IsPrint(c) {
			errs = append(errs, field.Invalid(path, s.Manager, fmt.Sprintf("invalid character %#U (at position %d)", c, i)))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fail(422, fmt.Sprintf("%s.meta.k8s.io %q is invalid: %v", kind, "", errs.ToAggregate()))
}

// maxFieldManagerLength is validation.FieldManagerMaxLength.
const maxFieldManagerLength = 128

func objName(obj map[string]interface{}) string {
	md, _ := obj["metadata"].(map[string]interface{})
	n, _ := md["name"].(string)
	return n
}

// version is the endpoint a step's object is sent to: its apiVersion's, a
// version the CRD serves.
func (r *runner) version(obj map[string]interface{}) (string, error) {
	av, _ := obj["apiVersion"].(string)
	g := ssa.ObjectGVK(obj)
	if av == "" || g.Group != r.group {
		return "", fmt.Errorf("apiVersion %q: want %s/<version>", av, r.group)
	}
	for _, v := range r.crd.ServedVersions() {
		if v == g.Version {
			return v, nil
		}
	}
	return "", fmt.Errorf("apiVersion %q: version %q is not served by the CRD", av, g.Version)
}

// read is the stored object as a read at its stored version returns it (the
// storage codec's decoding: pruned, defaulted); the object itself when the
// codec refuses it (a read would fail; the steps report that).
func (r *runner) read() map[string]interface{} {
	obj, _, res, err := r.live(ssa.ObjectGVK(r.cur).Version)
	if err != nil || res != nil || obj == nil {
		return canonical(r.cur)
	}
	return canonical(obj)
}

// live reads the stored object at version as the endpoint's storage codec
// does.
func (r *runner) live(version string) (map[string]interface{}, []byte, *StepResult, error) {
	b, err := objectJSON(r.cur, r.entries)
	if err != nil {
		return nil, nil, nil, err
	}
	rd, err := r.crd.ReadStored(b, version)
	if err != nil {
		return nil, nil, nil, err
	}
	if rd.Error != "" {
		return nil, nil, fail(500, rd.Error), nil
	}
	return rd.Object, b, nil, nil
}

func (r *runner) apply(fm *ssa.FieldManager, version string, s Step, patch map[string]interface{}) (*StepResult, error) {
	var live map[string]interface{}
	var old []byte
	if r.cur == nil {
		live = map[string]interface{}{"apiVersion": r.group + "/" + version, "kind": r.kind}
	} else {
		var res *StepResult
		var err error
		live, old, res, err = r.live(version)
		if err != nil || res != nil {
			return res, err
		}
	}
	obj, err := fm.Apply(live, patch, s.Manager, s.Force)
	if err != nil {
		se, ok := err.(*ssa.StatusError)
		if !ok {
			return fail(500, err.Error()), nil
		}
		res := fail(se.Code, se.Message)
		if se.Code == 409 {
			res.Conflict, res.Conflicts, res.Error = se.Message, se.Conflicts, ""
		}
		return res, nil
	}
	fv := r.opts.FieldValidation
	if fv == "" || fv == engine.Strict {
		var m map[string]interface{}
		if err := yaml.UnmarshalStrict(s.Object, &m); err != nil {
			return fail(400, fmt.Sprintf("error strict decoding patch: %v", err)), nil
		}
	}
	return r.store(version, s.Subresource, obj, old, engine.Ignore)
}

func (r *runner) update(fm *ssa.FieldManager, version string, s Step, parsed map[string]interface{}) (*StepResult, error) {
	// The field manager runs before validation: managedFields the request
	// carries decide the previous ownership (or reset it) and are replaced
	// before the object is validated.
	body := s.Object
	md, _ := parsed["metadata"].(map[string]interface{})
	reqManaged, hasManaged := md["managedFields"]
	if hasManaged {
		delete(md, "managedFields")
		body = mustJSON(parsed)
	}
	var old []byte
	if r.cur != nil {
		b, err := objectJSON(r.cur, r.entries)
		if err != nil {
			return nil, err
		}
		old = b
	}
	fv := r.opts.FieldValidation
	res, err := r.crd.Validate(body, engine.ValidateOptions{Version: version, Old: old, Subresource: s.Subresource, FieldValidation: fv})
	if err != nil {
		return nil, err
	}
	if out := r.refused(res); out != nil {
		return out, nil
	}
	obj, _ := res.Object.(map[string]interface{})
	live, _ := res.OldObject.(map[string]interface{})
	if live == nil {
		live = map[string]interface{}{"apiVersion": r.group + "/" + version, "kind": r.kind}
	}
	obj = canonical(obj)
	if hasManaged {
		if omd, ok := obj["metadata"].(map[string]interface{}); ok {
			omd["managedFields"] = reqManaged
		}
	}
	obj, _ = fm.Update(live, obj, s.Manager)
	return r.commit(obj, res, old == nil)
}

// store validates the object a field manager produced as the store does
// (the update or create path of the engine, without strict decoding) and
// keeps it.
func (r *runner) store(version, subresource string, obj map[string]interface{}, old []byte, fv engine.FieldValidation) (*StepResult, error) {
	entries, _, err := ssa.EntriesFromObject(obj)
	if err != nil {
		return nil, err
	}
	b, err := objectJSON(obj, entries)
	if err != nil {
		return nil, err
	}
	res, err := r.crd.Validate(b, engine.ValidateOptions{Version: version, Old: old, Subresource: subresource, FieldValidation: fv, MaxBodyBytes: -1, Applied: true})
	if err != nil {
		return nil, err
	}
	if out := r.refused(res); out != nil {
		return out, nil
	}
	final, _ := res.Object.(map[string]interface{})
	if err := ssa.SetEntries(final, entries); err != nil {
		return nil, err
	}
	return r.commit(final, res, old == nil)
}

func (r *runner) refused(res *engine.Result) *StepResult {
	if res.DecodeError != "" {
		code := 400
		if strings.HasPrefix(res.DecodeError, "Operation cannot be fulfilled") {
			code = 409
		}
		return &StepResult{Code: code, Error: res.DecodeError, Result: res}
	}
	if len(res.Errors) > 0 {
		obj, _ := res.Object.(map[string]interface{})
		return &StepResult{Code: 422, Error: r.invalid(objName(obj), res.Errors), Result: res}
	}
	return nil
}

// invalid is the store's 422 status message (errors.NewInvalid of the
// object's group and kind): "Widget.example.com "w" is invalid: <errors>",
// several errors as "[a, b]", as the handler returns it (kubectl prints
// its own rendering of the causes instead).
func (r *runner) invalid(name string, errs field.ErrorList) string {
	gk := r.kind
	if r.group != "" {
		gk += "." + r.group
	}
	return fmt.Sprintf("%s %q is invalid: %v", gk, name, errs.ToAggregate())
}

// commit keeps obj as the stored object; a create gets the uid and
// creationTimestamp the store fills in.
func (r *runner) commit(obj map[string]interface{}, res *engine.Result, created bool) (*StepResult, error) {
	if created {
		md, _ := obj["metadata"].(map[string]interface{})
		if md == nil {
			md = map[string]interface{}{}
			obj["metadata"] = md
		}
		md["uid"] = r.opts.UID
		md["creationTimestamp"] = r.now.UTC().Format(time.RFC3339)
	}
	entries, _, err := ssa.EntriesFromObject(obj)
	if err != nil {
		return nil, err
	}
	r.cur, r.entries = canonical(obj), entries
	return &StepResult{Object: canonical(r.cur), ManagedFields: entries, Result: res}, nil
}

// objectJSON serializes obj with its managedFields replaced by entries
// (FieldsV1 verbatim).
func objectJSON(obj map[string]interface{}, entries []ssa.Entry) ([]byte, error) {
	c := canonical(obj)
	md, _ := c["metadata"].(map[string]interface{})
	if md == nil || entries == nil {
		if md != nil {
			delete(md, "managedFields")
		}
		return json.Marshal(c)
	}
	md["managedFields"] = entries
	return json.Marshal(c)
}

// canonical returns a copy of obj (sharing nothing with it; nil stays nil)
// whose numbers are int64 or float64 as the API server's JSON decoding
// makes them (a round trip through JSON with UseNumber): the objects a step
// stores and returns are the API server's, not a deep copy of what
// validation produced (float64 1 becomes int64 1).
func canonical(obj map[string]interface{}) map[string]interface{} {
	b, err := json.Marshal(obj)
	if err != nil {
		return obj
	}
	out, err := decodeJSON(b)
	if err != nil {
		return obj
	}
	return out
}

func mustJSON(v interface{}) []byte {
	b, _ := json.Marshal(v)
	return b
}

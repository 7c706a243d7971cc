package ssa

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// The constants of the default field manager chain
// (internal.NewDefaultFieldManager).
const (
	// DefaultMaxUpdateManagers is the cap on Update managers.
	DefaultMaxUpdateManagers = 10
	ancientChangesManager    = "ancient-changes"
	beforeFirstApplyManager  = "before-first-apply"
	currentOperationManager  = "current-operation"
	kubectlManager           = "kubectl"
	// LastAppliedAnnotation is kubectl's last-applied-configuration.
	LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
)

// FieldManager is the default CRD field manager of one endpoint (a version,
// and the main resource or the status subresource): upstream's chain
// versionCheck → lastAppliedUpdater → lastAppliedManager → skipNonApplied →
// capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta →
// structuredMerge.
type FieldManager struct {
	tc          *TypeConverter
	gvk         GVK
	subresource string
	updater     merge.Updater
	// Versions are the CRD's versions (the converter's valid versions).
	versions map[string]bool
	// Default applies the version's structural defaults in place (the
	// request scope's unstructuredDefaulter), may be nil.
	Default func(obj map[string]interface{}, version string)
	// Now is the clock of managedFields times.
	Now func() time.Time
}

// NewFieldManager builds the field manager of the endpoint gvk.
// resetFields are the strategy's reset fields by apiVersion (what
// fieldpath.NewExcludeFilterSetMap wraps); group is the CRD's group and
// versions all its versions.
func NewFieldManager(tc *TypeConverter, gvk GVK, subresource string, resetFields map[string]*fieldpath.Set, versions []string) *FieldManager {
	f := &FieldManager{tc: tc, gvk: gvk, subresource: subresource, versions: map[string]bool{}, Now: time.Now}
	for _, v := range versions {
		f.versions[v] = true
	}
	var filter map[fieldpath.APIVersion]fieldpath.Filter
	if resetFields != nil {
		filter = map[fieldpath.APIVersion]fieldpath.Filter{}
		for av, s := range resetFields {
			filter[fieldpath.APIVersion(av)] = fieldpath.NewExcludeSetFilter(s)
		}
	}
	f.updater = merge.Updater{Converter: &versionConverter{f}, IgnoreFilter: filter}
	return f
}

// StatusError is a request failure with its HTTP code (400 bad request, 409
// conflict, 500 internal error).
type StatusError struct {
	Code    int
	Message string
	// Conflicts are the apply conflicts (409).
	Conflicts []Conflict
}

func (e *StatusError) Error() string { return e.Message }

// Conflict is one field conflict: the StatusCause upstream reports.
type Conflict struct {
	// Message is the cause's message: "conflict with \"mgr\" using g/v1".
	Message string `json:"message"`
	// Field is the field path (".spec.x").
	Field string `json:"field"`
}

func badRequest(format string, args ...interface{}) error {
	return &StatusError{Code: 400, Message: fmt.Sprintf(format, args...)}
}

func internal(format string, args ...interface{}) error {
	return &StatusError{Code: 500, Message: fmt.Sprintf(format, args...)}
}

// Apply runs a server-side apply of patch by manager on live (an empty
// object with apiVersion and kind for a create) and returns the new object
// with its managedFields, or live (without managedFields changes) when
// nothing changed.
func (f *FieldManager) Apply(live, patch map[string]interface{}, manager string, force bool) (map[string]interface{}, error) {
	entries, _, err := EntriesFromObject(live)
	if err != nil {
		return nil, internal("failed to decode managed fields: %v", err)
	}
	managed, err := DecodeManagedFields(entries)
	if err != nil {
		return nil, internal("failed to decode managed fields: %v", err)
	}
	// versionCheckManager
	if g := ObjectGVK(patch); g != f.gvk {
		return nil, badRequest("invalid object type: %v", g)
	}
	obj, managed, err := f.lastAppliedManagerApply(live, patch, managed, manager, force)
	if err != nil {
		if c, ok := err.(merge.Conflicts); ok {
			return nil, conflictError(c)
		}
		return nil, err
	}
	// lastAppliedUpdater
	if manager == kubectlManager && hasLastApplied(obj) {
		if err := setLastApplied(obj, patch); err != nil {
			return nil, err
		}
	}
	out, err := EncodeManagedFields(managed)
	if err != nil {
		return nil, internal("failed to encode managed fields: %v", err)
	}
	if err := SetEntries(obj, out); err != nil {
		return nil, internal("failed to encode managed fields: %v", err)
	}
	return obj, nil
}

// lastAppliedManagerApply: for kubectl, conflicts on fields whose live value
// is still the last-applied one are forced.
func (f *FieldManager) lastAppliedManagerApply(live, patch map[string]interface{}, managed *Managed, manager string, force bool) (map[string]interface{}, *Managed, error) {
	m0 := copyManaged(managed)
	obj, m, err := f.skipNonAppliedApply(live, patch, managed, manager, force)
	if manager != kubectlManager || err == nil {
		return obj, m, err
	}
	conflicts, ok := err.(merge.Conflicts)
	if !ok {
		return obj, m, err
	}
	allowed, aerr := f.allowedConflictsFromLastApplied(live)
	if aerr != nil {
		return obj, m, err
	}
	conflictSet := fieldpath.NewSet()
	for _, c := range conflicts {
		conflictSet.Insert(c.Path)
	}
	if !conflictSet.Difference(allowed).Empty() {
		var rest merge.Conflicts
		for _, c := range conflicts {
			if !allowed.Has(c.Path) {
				rest = append(rest, c)
			}
		}
		return obj, m, rest
	}
	return f.skipNonAppliedApply(live, patch, m0, manager, true)
}

func copyManaged(m *Managed) *Managed {
	c := &Managed{Fields: fieldpath.ManagedFields{}, Times: map[string]*Time{}}
	for k, v := range m.Fields {
		c.Fields[k] = v
	}
	for k, v := range m.Times {
		c.Times[k] = v
	}
	return c
}

func (f *FieldManager) allowedConflictsFromLastApplied(live map[string]interface{}) (*fieldpath.Set, error) {
	md, _ := live["metadata"].(map[string]interface{})
	ann, _ := md["annotations"].(map[string]interface{})
	last, _ := ann[LastAppliedAnnotation].(string)
	if last == "" {
		return nil, fmt.Errorf("no last applied annotation")
	}
	liveTyped, err := f.tc.ObjectToTyped(f.toVersioned(live))
	if err != nil {
		return nil, err
	}
	var lastObj map[string]interface{}
	if err := json.Unmarshal([]byte(last), &lastObj); err != nil {
		return nil, err
	}
	if av, _ := lastObj["apiVersion"].(string); av != f.gvk.GroupVersion() {
		return nil, fmt.Errorf("expected version of last applied to match live object")
	}
	lastTyped, err := f.tc.ObjectToTyped(lastObj)
	if err != nil {
		return nil, err
	}
	set, err := lastTyped.ToFieldSet()
	if err != nil {
		return nil, err
	}
	cmp, err := lastTyped.Compare(liveTyped)
	if err != nil {
		return nil, err
	}
	return set.Difference(cmp.Modified).Difference(cmp.Added).Difference(cmp.Removed), nil
}

func hasLastApplied(obj map[string]interface{}) bool {
	md, _ := obj["metadata"].(map[string]interface{})
	ann, _ := md["annotations"].(map[string]interface{})
	s, ok := ann[LastAppliedAnnotation].(string)
	return ok && s != ""
}

// setLastApplied is lastAppliedUpdater's buildLastApplied + SetLastApplied:
// the applied object without the annotation, as JSON.
func setLastApplied(obj, patch map[string]interface{}) error {
	c := unstructured.DeepCopy(patch).(map[string]interface{})
	if md, ok := c["metadata"].(map[string]interface{}); ok {
		if ann, ok := md["annotations"].(map[string]interface{}); ok {
			delete(ann, LastAppliedAnnotation)
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return internal("failed to build last-applied annotation: %v", err)
	}
	md, _ := obj["metadata"].(map[string]interface{})
	ann, _ := md["annotations"].(map[string]interface{})
	if ann == nil {
		ann = map[string]interface{}{}
		md["annotations"] = ann
	}
	ann[LastAppliedAnnotation] = string(b) + "\n"
	return nil
}

// skipNonAppliedApply: an object without managers gets its existing fields
// owned by "before-first-apply" first.
func (f *FieldManager) skipNonAppliedApply(live, patch map[string]interface{}, managed *Managed, manager string, force bool) (map[string]interface{}, *Managed, error) {
	if len(managed.Fields) == 0 {
		empty := map[string]interface{}{"apiVersion": patch["apiVersion"], "kind": patch["kind"]}
		var err error
		live, managed, err = f.capUpdate(empty, live, managed, beforeFirstApplyManager)
		if err != nil {
			return nil, nil, internal("failed to create manager for existing fields: %v", err)
		}
	}
	return f.infoApply(live, patch, managed, manager, force)
}

// infoApply is buildManagerInfo → managedFieldsUpdater → stripMeta →
// structuredMerge for an Apply.
func (f *FieldManager) infoApply(live, patch map[string]interface{}, managed *Managed, manager string, force bool) (map[string]interface{}, *Managed, error) {
	id, err := f.managerInfo(manager, OperationApply)
	if err != nil {
		return nil, nil, err
	}
	obj, managed, err := f.structuredApply(live, patch, managed, id, force)
	if err != nil {
		return nil, nil, err
	}
	stripFields(managed.Fields, id)
	if obj != nil {
		t := Time{Time: f.Now().UTC()}
		managed.Times[id] = &t
	} else {
		obj = unstructured.DeepCopy(live).(map[string]interface{})
		SetEntries(obj, nil)
	}
	return obj, managed, nil
}

// Update records the ownership change of an update (create, update, patch
// other than apply) by manager: UpdateNoErrors. It returns newObj with its
// managedFields; on an internal failure newObj keeps live's managedFields
// and the error is returned beside it.
func (f *FieldManager) Update(live, newObj map[string]interface{}, manager string) (map[string]interface{}, error) {
	obj, err := f.update(live, newObj, manager)
	if err != nil {
		entries, _, _ := EntriesFromObject(live)
		SetEntries(newObj, entries)
		return newObj, err
	}
	return obj, nil
}

func (f *FieldManager) update(live, newObj map[string]interface{}, manager string) (map[string]interface{}, error) {
	managed := f.decodeLiveOrNew(live, newObj)
	SetEntries(newObj, nil)
	// skipNonAppliedManager: an existing object without managers keeps none.
	if len(managed.Fields) == 0 && objectUID(live) != "" {
		return newObj, f.encode(newObj, managed)
	}
	obj, managed, err := f.capUpdate(live, newObj, managed, manager)
	if err != nil {
		return nil, err
	}
	return obj, f.encode(obj, managed)
}

func (f *FieldManager) encode(obj map[string]interface{}, managed *Managed) error {
	out, err := EncodeManagedFields(managed)
	if err != nil {
		return fmt.Errorf("failed to encode managed fields: %v", err)
	}
	return SetEntries(obj, out)
}

func objectUID(obj map[string]interface{}) string {
	md, _ := obj["metadata"].(map[string]interface{})
	s, _ := md["uid"].(string)
	return s
}

// decodeLiveOrNew: the request's managedFields win unless the request is to
// a subresource, they are absent or do not decode; [{}] resets them.
func (f *FieldManager) decodeLiveOrNew(live, newObj map[string]interface{}) *Managed {
	fromLive := func() *Managed {
		entries, _, err := EntriesFromObject(live)
		if err != nil {
			return NewEmptyManaged()
		}
		m, err := DecodeManagedFields(entries)
		if err != nil {
			return NewEmptyManaged()
		}
		return m
	}
	if f.subresource != "" {
		return fromLive()
	}
	entries, found, err := EntriesFromObject(newObj)
	if err == nil && found && isResetManagedFields(entries) {
		return NewEmptyManaged()
	}
	if err != nil {
		return fromLive()
	}
	m, err := DecodeManagedFields(entries)
	if err != nil || len(m.Fields) == 0 {
		return fromLive()
	}
	return m
}

func isResetManagedFields(entries []Entry) bool {
	if len(entries) == 0 {
		return entries != nil
	}
	if len(entries) == 1 {
		e := entries[0]
		return e.Manager == "" && e.Operation == "" && e.APIVersion == "" && e.Time == nil && e.FieldsType == "" && e.FieldsV1 == nil && e.Subresource == ""
	}
	return false
}

// capUpdate is capManagers → buildManagerInfo → managedFieldsUpdater →
// stripMeta → structuredMerge for an Update.
func (f *FieldManager) capUpdate(live, newObj map[string]interface{}, managed *Managed, manager string) (map[string]interface{}, *Managed, error) {
	id, err := f.managerInfo(manager, OperationUpdate)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to build manager identifier: %v", err)
	}
	managed, err = f.structuredUpdate(live, newObj, managed, currentOperationManager)
	if err != nil {
		return nil, nil, err
	}
	stripFields(managed.Fields, currentOperationManager)
	if vs, ok := managed.Fields[currentOperationManager]; ok {
		delete(managed.Fields, currentOperationManager)
		if prev, ok := managed.Fields[id]; ok {
			managed.Fields[id] = fieldpath.NewVersionedSet(vs.Set().Union(prev.Set()), vs.APIVersion(), vs.Applied())
		} else {
			managed.Fields[id] = vs
		}
		t := Time{Time: f.Now().UTC()}
		managed.Times[id] = &t
	}
	if err := f.capUpdateManagers(managed); err != nil {
		return nil, nil, fmt.Errorf("failed to cap update managers: %v", err)
	}
	return newObj, managed, nil
}

func (f *FieldManager) managerInfo(manager, operation string) (string, error) {
	e := &Entry{Manager: manager, Operation: operation, APIVersion: f.gvk.GroupVersion(), Subresource: f.subresource}
	if e.Manager == "" {
		e.Manager = "unknown"
	}
	return BuildManagerIdentifier(e)
}

// capUpdateManagers merges the oldest Update managers beyond the cap into
// one "ancient-changes" manager per apiVersion.
func (f *FieldManager) capUpdateManagers(managed *Managed) error {
	var updaters []string
	for m, vs := range managed.Fields {
		if !vs.Applied() {
			updaters = append(updaters, m)
		}
	}
	if len(updaters) <= DefaultMaxUpdateManagers {
		return nil
	}
	sort.Slice(updaters, func(i, j int) bool {
		is, js := unixOf(managed.Times[updaters[i]]), unixOf(managed.Times[updaters[j]])
		if is != js {
			return is < js
		}
		return updaters[i] < updaters[j]
	})
	first := map[string]string{}
	for i, n := 0, len(updaters); i < len(updaters) && n > DefaultMaxUpdateManagers; i++ {
		m := updaters[i]
		vs := managed.Fields[m]
		t := managed.Times[m]
		version := string(vs.APIVersion())
		bucket, err := BuildManagerIdentifier(&Entry{Manager: ancientChangesManager, Operation: OperationUpdate, APIVersion: version})
		if err != nil {
			return fmt.Errorf("failed to create bucket manager for version %v: %v", version, err)
		}
		if fm, ok := first[version]; ok {
			if _, ok := managed.Fields[bucket]; !ok {
				s := managed.Fields[fm]
				delete(managed.Fields, fm)
				managed.Fields[bucket] = s
			}
			managed.Fields[bucket] = fieldpath.NewVersionedSet(vs.Set().Union(managed.Fields[bucket].Set()), vs.APIVersion(), vs.Applied())
			delete(managed.Fields, m)
			n--
			managed.Times[bucket] = t
		} else {
			first[version] = m
		}
	}
	return nil
}

// stripSet are the fields no manager owns (stripMetaManager).
var stripSet = fieldpath.NewSet(
	fieldpath.MakePathOrDie("apiVersion"),
	fieldpath.MakePathOrDie("kind"),
	fieldpath.MakePathOrDie("metadata"),
	fieldpath.MakePathOrDie("metadata", "name"),
	fieldpath.MakePathOrDie("metadata", "namespace"),
	fieldpath.MakePathOrDie("metadata", "creationTimestamp"),
	fieldpath.MakePathOrDie("metadata", "selfLink"),
	fieldpath.MakePathOrDie("metadata", "uid"),
	fieldpath.MakePathOrDie("metadata", "clusterName"),
	fieldpath.MakePathOrDie("metadata", "generation"),
	fieldpath.MakePathOrDie("metadata", "managedFields"),
	fieldpath.MakePathOrDie("metadata", "resourceVersion"),
)

func stripFields(managed fieldpath.ManagedFields, manager string) {
	vs, ok := managed[manager]
	if !ok || vs == nil {
		return
	}
	s := vs.Set().Difference(stripSet)
	if s.Empty() {
		delete(managed, manager)
	} else {
		managed[manager] = fieldpath.NewVersionedSet(s, vs.APIVersion(), vs.Applied())
	}
}

func (f *FieldManager) objectName(obj map[string]interface{}) string {
	md, _ := obj["metadata"].(map[string]interface{})
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	return fmt.Sprintf("%v/%v; %v", ns, name, ObjectGVK(obj))
}

// structuredUpdate is structuredMergeManager.Update.
func (f *FieldManager) structuredUpdate(live, newObj map[string]interface{}, managed *Managed, manager string) (*Managed, error) {
	newV := f.toVersioned(newObj)
	liveV := f.toVersioned(live)
	newT, err := f.tc.ObjectToTyped(newV, typed.AllowDuplicates)
	if err != nil {
		return nil, fmt.Errorf("failed to convert new object (%v) to smd typed: %v", f.objectName(newV), err)
	}
	liveT, err := f.tc.ObjectToTyped(liveV, typed.AllowDuplicates)
	if err != nil {
		return nil, fmt.Errorf("failed to convert live object (%v) to smd typed: %v", f.objectName(liveV), err)
	}
	_, fields, err := f.updater.Update(liveT, newT, fieldpath.APIVersion(f.gvk.GroupVersion()), managed.Fields, manager)
	if err != nil {
		return nil, fmt.Errorf("failed to update ManagedFields (%v): %v", f.objectName(newV), err)
	}
	return &Managed{Fields: fields, Times: managed.Times}, nil
}

// structuredApply is structuredMergeManager.Apply.
func (f *FieldManager) structuredApply(live, patch map[string]interface{}, managed *Managed, manager string, force bool) (map[string]interface{}, *Managed, error) {
	if g := ObjectGVK(patch); g.GroupVersion() != f.gvk.GroupVersion() {
		return nil, nil, badRequest("Incorrect version specified in apply patch. Specified patch version: %s, expected: %s", g.GroupVersion(), f.gvk.GroupVersion())
	}
	if md, ok := patch["metadata"].(map[string]interface{}); ok {
		if mf, ok := md["managedFields"]; ok && mf != nil {
			if _, isList := mf.([]interface{}); isList {
				return nil, nil, badRequest("metadata.managedFields must be nil")
			}
		}
	}
	liveV := f.toVersioned(live)
	patchT, err := f.tc.ObjectToTyped(patch)
	if err != nil {
		return nil, nil, internal("failed to create typed patch object (%v): %v", f.objectName(patch), err)
	}
	liveT, err := f.tc.ObjectToTyped(liveV, typed.AllowDuplicates)
	if err != nil {
		return nil, nil, internal("failed to create typed live object (%v): %v", f.objectName(liveV), err)
	}
	newT, fields, err := f.updater.Apply(liveT, patchT, fieldpath.APIVersion(f.gvk.GroupVersion()), managed.Fields, manager, force)
	if err != nil {
		if _, ok := err.(merge.Conflicts); ok {
			return nil, nil, err
		}
		return nil, nil, internal("%v", err)
	}
	managed = &Managed{Fields: fields, Times: managed.Times}
	if newT == nil {
		return nil, managed, nil
	}
	u, ok := newT.AsValue().Unstructured().(map[string]interface{})
	if !ok {
		return nil, nil, internal("failed to convert new typed object (%v) to object: failed to convert value to unstructured for type %T", f.objectName(patch), newT.AsValue().Unstructured())
	}
	u = f.toVersioned(u)
	if f.Default != nil {
		f.Default(u, f.gvk.Version)
	}
	return u, managed, nil
}

// toVersioned is the request scope's converter to the endpoint's version:
// the CRD's nopConverter through the safe wrapper (a copy with the new
// apiVersion).
func (f *FieldManager) toVersioned(obj map[string]interface{}) map[string]interface{} {
	c := unstructured.DeepCopy(obj).(map[string]interface{})
	c["apiVersion"] = f.gvk.GroupVersion()
	return c
}

// versionConverter is the CRD version converter SMD converts managers'
// versions with: nop conversion between the CRD's versions.
type versionConverter struct{ f *FieldManager }

func (v *versionConverter) Convert(object *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	group, ver := splitAPIVersion(string(version))
	if g, ok := typedGroupVersion(object); ok && g == string(version) {
		return object, nil
	}
	u, ok := object.AsValue().Unstructured().(map[string]interface{})
	if !ok {
		return object, fmt.Errorf("failed to convert value to unstructured for type %T", object.AsValue().Unstructured())
	}
	if group != v.f.gvk.Group || !v.f.versions[ver] {
		return object, fmt.Errorf("request to convert CR to an invalid group/version: %s", version)
	}
	c := unstructured.DeepCopy(u).(map[string]interface{})
	c["apiVersion"] = string(version)
	return v.f.tc.ObjectToTyped(c)
}

func (v *versionConverter) IsMissingVersionError(err error) bool {
	_, ok := err.(*NoCorrespondingTypeError)
	return ok
}

func typedGroupVersion(tv *typed.TypedValue) (string, bool) {
	val := tv.AsValue()
	if val == nil || !val.IsMap() {
		return "", false
	}
	av, ok := val.AsMap().Get("apiVersion")
	if !ok || !av.IsString() {
		return "", false
	}
	g, ver := splitAPIVersion(av.AsString())
	if ver == "" {
		return "", false
	}
	if g == "" {
		return ver, true
	}
	return g + "/" + ver, true
}

// conflictError is NewConflictError: the 409's message and causes.
func conflictError(conflicts merge.Conflicts) *StatusError {
	e := &StatusError{Code: 409}
	for _, c := range conflicts {
		e.Conflicts = append(e.Conflicts, Conflict{Message: "conflict with " + printManager(c.Manager), Field: c.Path.String()})
	}
	e.Message = conflictMessage(conflicts)
	return e
}

func conflictMessage(conflicts merge.Conflicts) string {
	if len(conflicts) == 1 {
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %v: %v", printManager(conflicts[0].Manager), conflicts[0].Path)
	}
	m := map[string][]fieldpath.Path{}
	for _, c := range conflicts {
		m[c.Manager] = append(m[c.Manager], c.Path)
	}
	managers := keys.Sorted(m)
	var msgs []string
	for _, k := range managers {
		msgs = append(msgs, fmt.Sprintf("conflicts with %v:", printManager(k)))
		for _, p := range m[k] {
			msgs = append(msgs, fmt.Sprintf("- %v", p))
		}
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(conflicts), strings.Join(msgs, "\n"))
}

func printManager(manager string) string {
	var e Entry
	if err := json.Unmarshal([]byte(manager), &e); err != nil {
		return fmt.Sprintf("%q", manager)
	}
	s := fmt.Sprintf("%q", e.Manager)
	if e.Subresource != "" {
		s = fmt.Sprintf("%s with subresource %q", s, e.Subresource)
	}
	if e.Operation == OperationUpdate {
		if e.Time == nil {
			return fmt.Sprintf("%s using %v", s, e.APIVersion)
		}
		return fmt.Sprintf("%s using %v at %v", s, e.APIVersion, e.Time.UTC().Format(time.RFC3339))
	}
	return s
}

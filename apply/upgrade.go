package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/ssa"
)

// UpgradeObject is one stored object (JSON or YAML, with its
// metadata.managedFields) given to UpgradeBehaviour.
type UpgradeObject struct {
	// Source names the object in the report (e.g. file:line).
	Source string
	Data   []byte
}

// UpgradeReport is what a CRD update changes for server-side apply: the
// lists and maps whose merge type changes, and for each stored object what
// happens to its managedFields and to the next apply of each manager.
type UpgradeReport struct {
	// MergeTypeChanges are the changes of the typed schema the field
	// manager merges with, per version both CRDs have.
	MergeTypeChanges []MergeTypeChange `json:"mergeTypeChanges"`
	// Objects are the stored objects, in the order given.
	Objects []ObjectApplyBehaviour `json:"objects"`
}

// MergeTypeChange is one list or map whose merge type differs.
type MergeTypeChange struct {
	Version string `json:"version"`
	// Path is the field path; "[*]" stands for any item or map value.
	Path string `json:"path"`
	// Old and New are the merge types: "atomic list", "set list", "map list
	// keyed by name", "granular map", "atomic map", "granular struct",
	// "atomic struct".
	Old string `json:"old"`
	New string `json:"new"`
	// Meaning says what it means for managers' ownership.
	Meaning string `json:"meaning"`
}

// ObjectApplyBehaviour is one stored object's outcome.
type ObjectApplyBehaviour struct {
	Source string `json:"source"`
	Name   string `json:"name"`
	// Skipped says why the object is not looked at (another kind, no
	// managedFields).
	Skipped string `json:"skipped,omitempty"`
	// Error is a failure to read the object or its managedFields.
	Error string `json:"error,omitempty"`
	// Orphaned are the fields (paths under the new CRD) some manager owned
	// under the old CRD that no managedFields entry covers under the new
	// one: any manager may now change them without a conflict.
	Orphaned []string `json:"orphaned"`
	// Managers are the object's managedFields entries, in order.
	Managers []ManagerApplyBehaviour `json:"managers"`
}

// ManagerApplyBehaviour is one managedFields entry's outcome.
type ManagerApplyBehaviour struct {
	Manager     string `json:"manager"`
	Operation   string `json:"operation"`
	Subresource string `json:"subresource,omitempty"`
	APIVersion  string `json:"apiVersion"`
	// ReconciledFieldsV1 is the entry's FieldsV1 as the field manager
	// rewrites it at the object's next write (any manager's), when the
	// new schema changes it: SMD reconciles managed fields with schema
	// changes, giving the whole of a list or map that became atomic to
	// every entry that owned a part of it.
	ReconciledFieldsV1 json.RawMessage `json:"reconciledFieldsV1,omitempty"`
	// NoLongerOwned are the fields (paths under the new CRD) whose data the
	// entry covered under the old CRD and does not cover under the new one
	// (after that reconciliation).
	NoLongerOwned []string `json:"noLongerOwned"`
	// NewlyOwned are the fields the reconciliation adds to the entry.
	NewlyOwned []string `json:"newlyOwned"`
	// NextApply is the manager's next apply (Apply entries only).
	NextApply *NextApply `json:"nextApply,omitempty"`
}

// NextApply compares the manager's next apply under the old and the new
// CRD. The next apply is assumed to re-send the configuration the manager
// last applied, as upstream's managedfields.ExtractInto (and the generated
// Extract<Kind> functions) rebuild it from the stored object: the values of
// the fields the entry owns, extracted with the old CRD's schema, plus
// apiVersion (the entry's), kind, name and namespace; sent without force,
// to the entry's subresource, against the stored object as it is.
type NextApply struct {
	// Configuration is that applied configuration.
	Configuration json.RawMessage `json:"configuration"`
	// Old and New are the apply's outcome under each CRD.
	Old ApplyOutcome `json:"old"`
	New ApplyOutcome `json:"new"`
	// Wiped are fields the apply removes under the new CRD and keeps under
	// the old one.
	Wiped []string `json:"wiped"`
	// NoLongerWiped are fields it removes under the old CRD only.
	NoLongerWiped []string `json:"noLongerWiped"`
	// Changed are fields both keep with different values.
	Changed []string `json:"changed"`
	// NewConflicts are conflicts ("path: conflict with \"m\"...") under the
	// new CRD only; GoneConflicts under the old CRD only.
	NewConflicts  []string `json:"newConflicts"`
	GoneConflicts []string `json:"goneConflicts"`
}

// ApplyOutcome is the result of one apply.
type ApplyOutcome struct {
	// Code is 0 when the apply succeeds, else the HTTP status.
	Code int `json:"code,omitempty"`
	// Conflict is the 409 message; Error any other refusal.
	Conflict string `json:"conflict,omitempty"`
	Error    string `json:"error,omitempty"`
	// Removed are the stored object's fields the apply removes.
	Removed []string `json:"removed"`
	// Owned are the fields the manager owns afterwards (paths under the
	// CRD applied to).
	Owned []string `json:"owned"`

	obj       map[string]interface{}
	conflicts []Conflict
}

// UpgradeBehaviour reports what updating oldCRD to newCRD changes for
// server-side apply on the stored objects: both CRDs must be valid (the
// update accepted). Every result comes from the field manager (the typed
// schemas of both CRDs, Run on each): nothing is inferred by rule.
func UpgradeBehaviour(oldCRD, newCRD *engine.CRD, objects []UpgradeObject) (rep *UpgradeReport, err error) {
	defer func() {
		if p := recover(); p != nil {
			rep, err = nil, fmt.Errorf("crdlab: internal error comparing apply behaviour: %v", p)
		}
	}()
	for _, c := range []*engine.CRD{oldCRD, newCRD} {
		if c == nil || !c.Valid() {
			return nil, fmt.Errorf("both CRDs must be valid")
		}
	}
	oldTC, err := ssa.NewTypeConverter(oldCRD.Definition())
	if err != nil {
		return nil, fmt.Errorf("old CRD: %v", err)
	}
	newTC, err := ssa.NewTypeConverter(newCRD.Definition())
	if err != nil {
		return nil, fmt.Errorf("new CRD: %v", err)
	}
	u := &upgrader{old: oldCRD, new: newCRD, oldTC: oldTC, newTC: newTC}
	rep = &UpgradeReport{MergeTypeChanges: mergeTypeChanges(oldTC, newTC, oldCRD, newCRD), Objects: []ObjectApplyBehaviour{}}
	for _, o := range objects {
		rep.Objects = append(rep.Objects, u.object(o))
	}
	return rep, nil
}

type upgrader struct {
	old, new     *engine.CRD
	oldTC, newTC *ssa.TypeConverter
}

func (u *upgrader) object(o UpgradeObject) ObjectApplyBehaviour {
	ob := ObjectApplyBehaviour{Source: o.Source, Orphaned: []string{}, Managers: []ManagerApplyBehaviour{}}
	var obj map[string]interface{}
	if err := yaml.Unmarshal(o.Data, &obj); err != nil || obj == nil {
		ob.Error = "not an object"
		if err != nil {
			ob.Error = err.Error()
		}
		return ob
	}
	obj = canonical(obj)
	ob.Name = objName(obj)
	if md, _ := obj["metadata"].(map[string]interface{}); md != nil {
		if ns, _ := md["namespace"].(string); ns != "" {
			ob.Name = ns + "/" + ob.Name
		}
	}
	def := u.new.Definition()
	if g := ssa.ObjectGVK(obj); g.Group != def.Spec.Group || g.Kind != def.Spec.Names.Kind {
		ob.Skipped = fmt.Sprintf("%v is not a %s of %s", obj["apiVersion"], def.Spec.Names.Kind, def.Spec.Group)
		return ob
	}
	entries, _, err := ssa.EntriesFromObject(obj)
	if err != nil {
		ob.Error = "metadata.managedFields: " + err.Error()
		return ob
	}
	if len(entries) == 0 {
		ob.Skipped = "no managedFields"
		return ob
	}
	// The object as each CRD types it, at the version it is stored at.
	version := ssa.ObjectGVK(obj).Version
	oldObj, err := readAt(u.old, o.Data, version)
	if err != nil {
		ob.Error = "under the old CRD: " + err.Error()
		return ob
	}
	newObj, err := readAt(u.new, o.Data, version)
	if err != nil {
		ob.Error = "under the new CRD: " + err.Error()
		return ob
	}
	oldLeaves, err := leaves(u.oldTC, oldObj)
	if err != nil {
		ob.Error = "under the old CRD: " + err.Error()
		return ob
	}
	newLeaves, err := leaves(u.newTC, newObj)
	if err != nil {
		ob.Error = "under the new CRD: " + err.Error()
		return ob
	}
	sets := make([]*fieldpath.Set, len(entries))
	for i, e := range entries {
		sets[i] = &fieldpath.Set{}
		if err := sets[i].FromJSON(bytes.NewReader(e.FieldsV1)); err != nil {
			ob.Error = fmt.Sprintf("managedFields of %q: %v", e.Manager, err)
			return ob
		}
	}
	// Ownership compares where the data is (its location in the object,
	// list items by index), since the two CRDs name the same data with
	// different paths (.spec.ports vs .spec.ports[name="http"].port).
	// At its next write of any kind, the field manager reconciles each
	// entry with the new schema (SMD's ReconcileFieldSetWithSchema: parts
	// of a list or map that became atomic turn into the whole); ownership
	// under the new CRD is that reconciled set.
	newSets := make([]*fieldpath.Set, len(entries))
	reconciled := make([]json.RawMessage, len(entries))
	for i, e := range entries {
		newSets[i] = sets[i]
		at, err := readAt(u.new, o.Data, ssa.ObjectGVK(map[string]interface{}{"apiVersion": e.APIVersion}).Version)
		if err != nil {
			continue // a version the new CRD lacks: its entry is dropped
		}
		at["apiVersion"] = e.APIVersion
		tv, err := u.newTC.ObjectToTyped(at)
		if err != nil {
			continue
		}
		rs, err := typed.ReconcileFieldSetWithSchema(sets[i], tv)
		if err != nil {
			ob.Error = fmt.Sprintf("managedFields of %q under the new CRD: %v", e.Manager, err)
			return ob
		}
		if rs != nil {
			newSets[i] = rs
			if b, err := rs.ToJSON(); err == nil {
				reconciled[i] = b
			}
		}
	}
	ownedOld := make([][]string, len(entries))
	anyOld := []string{}
	for i, s := range sets {
		for _, p := range oldLeaves {
			if s.Has(p) {
				if loc, ok := location(oldObj, p); ok {
					ownedOld[i] = append(ownedOld[i], loc)
					anyOld = append(anyOld, loc)
				}
			}
		}
	}
	for _, p := range newLeaves {
		owned := false
		for _, s := range newSets {
			if s.Has(p) {
				owned = true
			}
		}
		if loc, ok := location(newObj, p); ok && !owned && overlaps(loc, anyOld) {
			ob.Orphaned = append(ob.Orphaned, p.String())
		}
	}
	for i, e := range entries {
		mb := ManagerApplyBehaviour{Manager: e.Manager, Operation: e.Operation, Subresource: e.Subresource, APIVersion: e.APIVersion, ReconciledFieldsV1: reconciled[i], NoLongerOwned: []string{}, NewlyOwned: []string{}}
		for _, p := range newLeaves {
			if loc, ok := location(newObj, p); ok && !newSets[i].Has(p) && overlaps(loc, ownedOld[i]) {
				mb.NoLongerOwned = append(mb.NoLongerOwned, p.String())
			}
			if newSets[i].Has(p) && !sets[i].Has(p) {
				mb.NewlyOwned = append(mb.NewlyOwned, p.String())
			}
		}
		if e.Operation == "Apply" {
			mb.NextApply = u.nextApply(o.Data, obj, e, sets[i], oldLeaves, newLeaves)
		}
		ob.Managers = append(ob.Managers, mb)
	}
	return ob
}

// readAt is the stored object as the CRD's storage reads it at version (its
// own when served, else the storage version), without its managedFields.
func readAt(c *engine.CRD, data []byte, version string) (map[string]interface{}, error) {
	rd, err := c.ReadStored(data, version)
	if err != nil {
		rd, err = c.ReadStored(data, c.StorageVersion())
	}
	if err != nil {
		return nil, err
	}
	if rd.Error != "" {
		return nil, fmt.Errorf("%s", rd.Error)
	}
	return canonical(rd.Object), nil
}

// leaves are the leaf fields of obj typed by tc.
func leaves(tc *ssa.TypeConverter, obj map[string]interface{}) ([]fieldpath.Path, error) {
	tv, err := tc.ObjectToTyped(obj)
	if err != nil {
		return nil, err
	}
	set, err := tv.ToFieldSet()
	if err != nil {
		return nil, err
	}
	var out []fieldpath.Path
	set.Leaves().Iterate(func(p fieldpath.Path) {
		if len(p) > 0 && p[0].FieldName != nil {
			switch *p[0].FieldName {
			case "apiVersion", "kind":
				return
			case "metadata":
				if stripSet.Has(p) {
					return
				}
			}
		}
		out = append(out, p.Copy())
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, nil
}

// location is where p points in obj: "/field/0/field", list items by index.
func location(obj interface{}, p fieldpath.Path) (string, bool) {
	var b strings.Builder
	cur := obj
	for i := range p {
		pe := p[i]
		if pe.FieldName != nil {
			m, ok := cur.(map[string]interface{})
			if !ok {
				return "", false
			}
			cur = m[*pe.FieldName]
			b.WriteString("/" + strings.ReplaceAll(*pe.FieldName, "/", "~1"))
			continue
		}
		l, ok := cur.([]interface{})
		if !ok {
			return "", false
		}
		idx := -1
		switch {
		case pe.Index != nil:
			idx = *pe.Index
		default:
			// the first item the key or value selects, as valueAt finds it
			if found := valueAt(l, fieldpath.Path{pe}); found != nil {
				for j, it := range l {
					if reflect.DeepEqual(found, it) {
						idx = j
						break
					}
				}
			}
		}
		if idx < 0 || idx >= len(l) {
			return "", false
		}
		cur = l[idx]
		fmt.Fprintf(&b, "/%d", idx)
	}
	return b.String(), true
}

// overlaps reports whether loc is one of locs, inside one, or holds one.
func overlaps(loc string, locs []string) bool {
	for _, l := range locs {
		if l == loc || strings.HasPrefix(loc, l+"/") || strings.HasPrefix(l, loc+"/") {
			return true
		}
	}
	return false
}

// nextApply replays the manager's next apply under both CRDs.
func (u *upgrader) nextApply(data []byte, obj map[string]interface{}, e ssa.Entry, owned *fieldpath.Set, oldLeaves, newLeaves []fieldpath.Path) *NextApply {
	na := &NextApply{Wiped: []string{}, NoLongerWiped: []string{}, Changed: []string{}, NewConflicts: []string{}, GoneConflicts: []string{}}
	g := ssa.ObjectGVK(map[string]interface{}{"apiVersion": e.APIVersion})
	at, err := readAt(u.old, data, g.Version)
	if err != nil {
		na.Old.Error = "cannot read the object at " + e.APIVersion + ": " + err.Error()
		na.New.Error = na.Old.Error
		return na
	}
	at["apiVersion"] = e.APIVersion
	tv, err := u.oldTC.ObjectToTyped(at)
	if err != nil {
		na.Old.Error = err.Error()
		na.New.Error = na.Old.Error
		return na
	}
	cfg, _ := tv.ExtractItems(owned.Leaves()).AsValue().Unstructured().(map[string]interface{})
	if cfg == nil {
		cfg = map[string]interface{}{}
	}
	// Extract<Kind>: kind and apiVersion, name and namespace set.
	cfg["apiVersion"], cfg["kind"] = e.APIVersion, u.new.Definition().Spec.Names.Kind
	md, _ := cfg["metadata"].(map[string]interface{})
	if md == nil {
		md = map[string]interface{}{}
		cfg["metadata"] = md
	}
	omd, _ := obj["metadata"].(map[string]interface{})
	for _, k := range []string{"name", "namespace"} {
		if v, ok := omd[k]; ok {
			md[k] = v
		}
	}
	na.Configuration = mustJSON(cfg)
	step := Step{Manager: e.Manager, Operation: Apply, Subresource: e.Subresource, Object: na.Configuration}
	na.Old = u.run(u.old, u.oldTC, data, step)
	na.New = u.run(u.new, u.newTC, data, step)

	// The stored fields (named by either CRD) each apply keeps.
	seen := map[string]bool{}
	for _, p := range append(append([]fieldpath.Path{}, newLeaves...), oldLeaves...) {
		s := p.String()
		if seen[s] {
			continue
		}
		seen[s] = true
		if na.Old.Code != 0 || na.New.Code != 0 {
			continue
		}
		vo, vn := valueAt(na.Old.obj, p), valueAt(na.New.obj, p)
		switch {
		case vo != nil && vn == nil:
			na.Wiped = append(na.Wiped, s)
		case vo == nil && vn != nil:
			na.NoLongerWiped = append(na.NoLongerWiped, s)
		case vo != nil && !reflect.DeepEqual(vo, vn):
			na.Changed = append(na.Changed, s)
		}
	}
	removed := func(out *ApplyOutcome) {
		out.Removed = []string{}
		if out.Code != 0 {
			return
		}
		for _, p := range append(append([]fieldpath.Path{}, newLeaves...), oldLeaves...) {
			if valueAt(out.obj, p) == nil && !slices.Contains(out.Removed, p.String()) {
				out.Removed = append(out.Removed, p.String())
			}
		}
		sort.Strings(out.Removed)
	}
	removed(&na.Old)
	removed(&na.New)
	sort.Strings(na.Wiped)
	sort.Strings(na.NoLongerWiped)
	sort.Strings(na.Changed)
	oldC, newC := conflictSet(na.Old.conflicts), conflictSet(na.New.conflicts)
	for _, c := range newC {
		if !slices.Contains(oldC, c) {
			na.NewConflicts = append(na.NewConflicts, c)
		}
	}
	for _, c := range oldC {
		if !slices.Contains(newC, c) {
			na.GoneConflicts = append(na.GoneConflicts, c)
		}
	}
	return na
}

func (u *upgrader) run(c *engine.CRD, tc *ssa.TypeConverter, data []byte, s Step) ApplyOutcome {
	out := ApplyOutcome{Removed: []string{}, Owned: []string{}}
	rep, err := Run(c, data, []Step{s}, Options{})
	if err != nil {
		out.Code, out.Error = 500, err.Error()
		return out
	}
	r := rep.Steps[0]
	out.Code, out.Conflict, out.Error, out.conflicts = r.Code, r.Conflict, r.Error, r.Conflicts
	if r.Code != 0 {
		return out
	}
	out.obj = r.Object
	for _, e := range r.ManagedFields {
		if e.Manager != s.Manager || e.Operation != "Apply" || e.Subresource != s.Subresource {
			continue
		}
		set := &fieldpath.Set{}
		if err := set.FromJSON(bytes.NewReader(e.FieldsV1)); err != nil {
			continue
		}
		ls, err := leaves(tc, r.Object)
		if err != nil {
			continue
		}
		for _, p := range ls {
			if set.Has(p) {
				out.Owned = append(out.Owned, p.String())
			}
		}
	}
	return out
}

func conflictSet(cs []Conflict) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Field+": "+c.Message)
	}
	sort.Strings(out)
	return out
}

// mergeTypeChanges walks each version's typed schema under both CRDs.
func mergeTypeChanges(oldTC, newTC *ssa.TypeConverter, oldCRD, newCRD *engine.CRD) []MergeTypeChange {
	out := []MergeTypeChange{}
	os, otypes := oldTC.Schema()
	ns, ntypes := newTC.Schema()
	def := newCRD.Definition()
	for _, v := range oldCRD.Definition().Spec.Versions {
		g := ssa.GVK{Group: def.Spec.Group, Version: v.Name, Kind: def.Spec.Names.Kind}
		on, ok1 := otypes[ssa.GVK{Group: oldCRD.Definition().Spec.Group, Version: v.Name, Kind: oldCRD.Definition().Spec.Names.Kind}]
		nn, ok2 := ntypes[g]
		if !ok1 || !ok2 {
			continue
		}
		w := &mergeWalker{os: os, ns: ns, version: v.Name, out: &out}
		oa, _ := os.Resolve(schema.TypeRef{NamedType: &on})
		na, _ := ns.Resolve(schema.TypeRef{NamedType: &nn})
		w.atom("", oa, na, 0)
	}
	return out
}

type mergeWalker struct {
	os, ns  *schema.Schema
	version string
	out     *[]MergeTypeChange
}

// resolve follows an inlined type; named types (ObjectMeta, untyped nodes)
// are the same under both CRDs and not walked.
func resolve(s *schema.Schema, r schema.TypeRef) (schema.Atom, bool) {
	if r.NamedType != nil {
		return schema.Atom{}, false
	}
	return s.Resolve(r)
}

func (w *mergeWalker) atom(path string, o, n schema.Atom, depth int) {
	if depth > 100 {
		return
	}
	switch {
	case o.List != nil && n.List != nil && o.Map == nil && n.Map == nil:
		if a, b := listType(o.List), listType(n.List); a != b {
			w.add(path, a, b)
		}
		oe, ok1 := resolve(w.os, o.List.ElementType)
		ne, ok2 := resolve(w.ns, n.List.ElementType)
		if ok1 && ok2 {
			w.atom(path+"[*]", oe, ne, depth+1)
		}
	case o.Map != nil && n.Map != nil && o.List == nil && n.List == nil:
		if a, b := mapType(o.Map), mapType(n.Map); a != b {
			w.add(path, a, b)
		}
		nf := map[string]schema.StructField{}
		for _, f := range n.Map.Fields {
			nf[f.Name] = f
		}
		for _, f := range o.Map.Fields {
			g, ok := nf[f.Name]
			if !ok {
				continue
			}
			oa, ok1 := resolve(w.os, f.Type)
			na, ok2 := resolve(w.ns, g.Type)
			if ok1 && ok2 {
				w.atom(path+"."+f.Name, oa, na, depth+1)
			}
		}
		if len(o.Map.Fields) == 0 && len(n.Map.Fields) == 0 {
			oa, ok1 := resolve(w.os, o.Map.ElementType)
			na, ok2 := resolve(w.ns, n.Map.ElementType)
			if ok1 && ok2 {
				w.atom(path+"[*]", oa, na, depth+1)
			}
		}
	}
}

func listType(l *schema.List) string {
	switch {
	case l.ElementRelationship != schema.Associative:
		return "atomic list"
	case len(l.Keys) == 0:
		return "set list"
	default:
		return "map list keyed by " + strings.Join(l.Keys, ",")
	}
}

func mapType(m *schema.Map) string {
	kind := "map"
	if len(m.Fields) > 0 {
		kind = "struct"
	}
	if m.ElementRelationship == schema.Atomic {
		return "atomic " + kind
	}
	return "granular " + kind
}

func (w *mergeWalker) add(path, o, n string) {
	*w.out = append(*w.out, MergeTypeChange{Version: w.version, Path: path, Old: o, New: n, Meaning: meaning(o, n)})
}

// meaning says what a merge type change does to ownership: how SMD records
// ownership of each merge type (fieldpath sets), which the recorded
// managedFields keep after the update.
func meaning(o, n string) string {
	whole := func(s string) bool { return strings.HasPrefix(s, "atomic") }
	switch {
	case whole(o) && !whole(n):
		return "its parts are now owned one by one (items by " + unit(n) + "); an entry that owned it whole keeps only the " + kindOf(n) + " itself, none of its parts (the field manager treats it as if it had always been granular): other managers may change or add parts without a conflict until its owner applies them again, and the owner's next apply without it still removes the parts no other manager owns"
	case !whole(o) && whole(n):
		return "it is now owned and replaced as a whole; at the object's next write the field manager gives every entry that owned a part of it the whole (SMD reconciles managed fields with the schema): those managers share it, and an apply that changes it conflicts with each of the others"
	case strings.HasPrefix(o, "map list") && strings.HasPrefix(n, "map list"):
		return "items are now identified by other keys: ownership recorded by the old keys matches no item, so the items are owned by nobody until applied again"
	case strings.HasPrefix(o, "set list") || strings.HasPrefix(n, "set list"):
		return "items are now identified by " + unit(n) + " instead of " + unit(o) + ": ownership recorded for the old identity matches no item, so the items are owned by nobody until applied again"
	}
	return "server-side apply merges it differently"
}

func kindOf(t string) string {
	switch {
	case strings.HasSuffix(t, "struct"):
		return "struct"
	case strings.HasSuffix(t, "map"):
		return "map"
	}
	return "list"
}

func unit(t string) string {
	switch {
	case strings.HasPrefix(t, "set"):
		return "value"
	case strings.HasPrefix(t, "map list keyed by "):
		return "key (" + strings.TrimPrefix(t, "map list keyed by ") + ")"
	case strings.HasSuffix(t, "struct"):
		return "field"
	default:
		return "key"
	}
}

package apply

import (
	"bytes"
	"fmt"
	"sort"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// FieldOwner is one leaf field of the stored object and who owns it.
type FieldOwner struct {
	// Path is the field path as SMD prints it: ".spec.ports[name=\"http\"].port".
	Path string `json:"path"`
	// Value is the field's value (a whole list or map when it is atomic).
	Value interface{} `json:"value"`
	// Owners are "manager (Operation)" or "manager (Operation, subresource)",
	// sorted; none when no manager owns the field.
	Owners []string `json:"owners"`
}

// Ownership lists the leaf fields of the step's stored object (apiVersion,
// kind and the metadata no manager can own left out) with their owners:
// the readable view of managedFields.
func (r *Report) Ownership(step int) ([]FieldOwner, error) {
	if step < 0 || step >= len(r.Steps) {
		return nil, fmt.Errorf("no step %d", step+1)
	}
	s := r.Steps[step]
	if s.Object == nil {
		return nil, nil
	}
	tv, err := r.tc.ObjectToTyped(s.Object)
	if err != nil {
		return nil, err
	}
	set, err := tv.ToFieldSet()
	if err != nil {
		return nil, err
	}
	type owned struct {
		label string
		set   *fieldpath.Set
	}
	var owners []owned
	for _, e := range s.ManagedFields {
		fs := &fieldpath.Set{}
		if err := fs.FromJSON(bytes.NewReader(e.FieldsV1)); err != nil {
			return nil, fmt.Errorf("managedFields of %q: %v", e.Manager, err)
		}
		label := e.Manager + " (" + e.Operation
		if e.Subresource != "" {
			label += ", " + e.Subresource
		}
		owners = append(owners, owned{label + ")", fs})
	}
	var out []FieldOwner
	set.Leaves().Iterate(func(p fieldpath.Path) {
		if len(p) > 0 && p[0].FieldName != nil {
			switch *p[0].FieldName {
			case "apiVersion", "kind":
				return
			case "metadata":
				if len(p) == 2 && p[1].FieldName != nil && stripSet.Has(p) {
					return
				}
			}
		}
		fo := FieldOwner{Path: p.String(), Value: valueAt(s.Object, p), Owners: []string{}}
		for _, o := range owners {
			if o.set.Has(p) {
				fo.Owners = append(fo.Owners, o.label)
			}
		}
		sort.Strings(fo.Owners)
		out = append(out, fo)
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// stripSet are the metadata fields the field manager never records.
var stripSet = fieldpath.NewSet(
	fieldpath.MakePathOrDie("metadata", "name"),
	fieldpath.MakePathOrDie("metadata", "namespace"),
	fieldpath.MakePathOrDie("metadata", "creationTimestamp"),
	fieldpath.MakePathOrDie("metadata", "selfLink"),
	fieldpath.MakePathOrDie("metadata", "uid"),
	fieldpath.MakePathOrDie("metadata", "generation"),
	fieldpath.MakePathOrDie("metadata", "managedFields"),
	fieldpath.MakePathOrDie("metadata", "resourceVersion"),
)

// valueAt walks obj along p.
func valueAt(obj interface{}, p fieldpath.Path) interface{} {
	cur := obj
	for _, pe := range p {
		switch {
		case pe.FieldName != nil:
			m, ok := cur.(map[string]interface{})
			if !ok {
				return nil
			}
			cur = m[*pe.FieldName]
		case pe.Index != nil:
			l, ok := cur.([]interface{})
			if !ok || *pe.Index < 0 || *pe.Index >= len(l) {
				return nil
			}
			cur = l[*pe.Index]
		case pe.Value != nil:
			l, _ := cur.([]interface{})
			var found interface{}
			for _, it := range l {
				if value.Equals(value.NewValueInterface(it), *pe.Value) {
					found = it
					break
				}
			}
			cur = found
		case pe.Key != nil:
			l, _ := cur.([]interface{})
			var found interface{}
			for _, it := range l {
				m, ok := it.(map[string]interface{})
				if !ok {
					continue
				}
				match := true
				for _, f := range *pe.Key {
					v, ok := m[f.Name]
					if !ok || !value.Equals(value.NewValueInterface(v), f.Value) {
						match = false
						break
					}
				}
				if match {
					found = it
					break
				}
			}
			cur = found
		}
		if cur == nil {
			return nil
		}
	}
	return cur
}

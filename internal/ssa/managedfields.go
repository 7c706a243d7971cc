package ssa

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/unstructured"
	"sort"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Operations of a managedFields entry.
const (
	OperationApply  = "Apply"
	OperationUpdate = "Update"
)

// Entry is one metadata.managedFields entry (metav1.ManagedFieldsEntry): its
// JSON form, field order and omitempty rules are upstream's, so that manager
// identifiers (which are this JSON) compare and sort as upstream's do.
type Entry struct {
	Manager     string          `json:"manager,omitempty"`
	Operation   string          `json:"operation,omitempty"`
	APIVersion  string          `json:"apiVersion,omitempty"`
	Time        *Time           `json:"time,omitempty"`
	FieldsType  string          `json:"fieldsType,omitempty"`
	FieldsV1    json.RawMessage `json:"fieldsV1,omitempty"`
	Subresource string          `json:"subresource,omitempty"`
}

// Time is metav1.Time: RFC 3339 in UTC with seconds, null when zero
// (internal/objectmeta's, which ObjectMeta's time stamps use too).
type Time = objectmeta.Time

// unixOf is t's Unix time, 0 for a nil time (an entry without one).
func unixOf(t *Time) int64 {
	if t == nil {
		return 0
	}
	return t.Unix()
}

// Managed is the decoded managedFields: the field sets by manager
// identifier and their times (internal.ManagedInterface).
type Managed struct {
	Fields fieldpath.ManagedFields
	Times  map[string]*Time
}

// NewEmptyManaged has no managers.
func NewEmptyManaged() *Managed {
	return &Managed{Fields: fieldpath.ManagedFields{}, Times: map[string]*Time{}}
}

// emptyFields is the FieldsV1 of an empty set.
var emptyFields = []byte("{}")

// BuildManagerIdentifier is the JSON of the entry without its fields type,
// fields and time, and without apiVersion for an Apply.
func BuildManagerIdentifier(e *Entry) (string, error) {
	c := *e
	c.FieldsType = ""
	c.FieldsV1 = nil
	c.Time = nil
	if e.Operation == OperationApply {
		c.APIVersion = ""
	}
	b, err := json.Marshal(&c)
	if err != nil {
		return "", fmt.Errorf("error marshalling manager identifier: %v", err)
	}
	return string(b), nil
}

// DecodeManagedFields decodes the entries (internal.DecodeManagedFields).
func DecodeManagedFields(entries []Entry) (*Managed, error) {
	m := &Managed{Fields: make(fieldpath.ManagedFields, len(entries)), Times: make(map[string]*Time, len(entries))}
	for i := range entries {
		e := &entries[i]
		switch e.Operation {
		case OperationApply, OperationUpdate:
		default:
			return nil, fmt.Errorf("operation must be `Apply` or `Update`")
		}
		if e.APIVersion == "" {
			return nil, fmt.Errorf("apiVersion must not be empty")
		}
		switch e.FieldsType {
		case "FieldsV1":
		case "":
			return nil, fmt.Errorf("missing fieldsType in managed fields entry %d", i)
		default:
			return nil, fmt.Errorf("invalid fieldsType %q in managed fields entry %d", e.FieldsType, i)
		}
		id, err := BuildManagerIdentifier(e)
		if err != nil {
			return nil, fmt.Errorf("error decoding manager from %v: %v", e, err)
		}
		fields := e.FieldsV1
		if fields == nil {
			fields = emptyFields
		}
		set := &fieldpath.Set{}
		if err := set.FromJSON(bytes.NewReader(fields)); err != nil {
			return nil, fmt.Errorf("error decoding versioned set from %v: error decoding set: %v", e, err)
		}
		m.Fields[id] = fieldpath.NewVersionedSet(set, fieldpath.APIVersion(e.APIVersion), e.Operation == OperationApply)
		m.Times[id] = e.Time
	}
	return m, nil
}

// EncodeManagedFields encodes the managers in upstream's order: operation,
// time (seconds), manager, apiVersion, subresource. No managers encode as
// nil (the object has no managedFields).
func EncodeManagedFields(m *Managed) ([]Entry, error) {
	if len(m.Fields) == 0 {
		return nil, nil
	}
	out := make([]Entry, 0, len(m.Fields))
	for id, vs := range m.Fields {
		var e Entry
		if err := json.Unmarshal([]byte(id), &e); err != nil {
			return nil, fmt.Errorf("error encoding versioned set for %v: error unmarshalling manager identifier %v: %v", id, id, err)
		}
		e.APIVersion = string(vs.APIVersion())
		if vs.Applied() {
			e.Operation = OperationApply
		}
		e.FieldsType = "FieldsV1"
		raw, err := vs.Set().ToJSON()
		if err != nil {
			return nil, fmt.Errorf("error encoding versioned set for %v: error encoding set: %v", id, err)
		}
		e.FieldsV1 = raw
		if t, ok := m.Times[id]; ok {
			e.Time = t
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		p, q := out[i], out[j]
		if p.Operation != q.Operation {
			return p.Operation < q.Operation
		}
		if ps, qs := unixOf(p.Time), unixOf(q.Time); ps != qs {
			return ps < qs
		}
		if p.Manager != q.Manager {
			return p.Manager < q.Manager
		}
		if p.APIVersion != q.APIVersion {
			return p.APIVersion < q.APIVersion
		}
		return p.Subresource < q.Subresource
	})
	return out, nil
}

// EntriesFromObject reads metadata.managedFields of an unstructured object
// as the unstructured accessor does (GetManagedFields): nil when absent, an
// error when the entries do not decode.
func EntriesFromObject(obj map[string]interface{}) ([]Entry, bool, error) {
	md, _ := obj["metadata"].(map[string]interface{})
	raw, ok := md["managedFields"]
	if !ok {
		return nil, false, nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, true, err
	}
	var entries []Entry
	if err := json.Unmarshal(b, &entries); err != nil {
		return nil, true, err
	}
	return entries, true, nil
}

// SetEntries sets (or, for nil, removes) metadata.managedFields of obj as
// unstructured values.
func SetEntries(obj map[string]interface{}, entries []Entry) error {
	md, _ := obj["metadata"].(map[string]interface{})
	if entries == nil {
		if md != nil {
			delete(md, "managedFields")
		}
		return nil
	}
	if md == nil {
		md = map[string]interface{}{}
		obj["metadata"] = md
	}
	b, err := json.Marshal(entries)
	if err != nil {
		return err
	}
	var v interface{}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return err
	}
	md["managedFields"] = unstructured.ConvertNumbers(v)
	return nil
}

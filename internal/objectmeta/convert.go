package objectmeta

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/unstructured"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
)

// JSON field names of the structs, used to make decoding case-sensitive as
// upstream's sigs.k8s.io/json is (encoding/json matches names ignoring case).
var (
	objectMetaFields = fieldSet("name", "generateName", "namespace", "selfLink", "uid", "resourceVersion",
		"generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels",
		"annotations", "ownerReferences", "finalizers", "managedFields")
	ownerReferenceFields = fieldSet("apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion")
	managedFieldsFields  = fieldSet("manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource")
)

func fieldSet(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// knownOnly copies m without the keys that are not exact field names.
func knownOnly(m map[string]interface{}, known map[string]bool) map[string]interface{} {
	out := make(map[string]interface{}, len(m))
	for k, v := range m {
		if known[k] {
			out[k] = v
		}
	}
	return out
}

// caseSensitive prepares a metadata value for encoding/json so that only
// exactly spelled field names are decoded; unknown fields are returned with
// their JSON paths below the metadata (e.g. "ownerReferences[0].Kind").
func caseSensitive(metadata map[string]interface{}) (map[string]interface{}, []string) {
	var unknown []string
	out := make(map[string]interface{}, len(metadata))
	for _, k := range keys.Sorted(metadata) {
		v := metadata[k]
		if !objectMetaFields[k] {
			unknown = append(unknown, k)
			continue
		}
		var nested map[string]bool
		switch k {
		case "ownerReferences":
			nested = ownerReferenceFields
		case "managedFields":
			nested = managedFieldsFields
		}
		if l, ok := v.([]interface{}); ok && nested != nil {
			cl := make([]interface{}, len(l))
			for i, item := range l {
				if m, ok := item.(map[string]interface{}); ok {
					for _, ik := range keys.Sorted(m) {
						if !nested[ik] {
							unknown = append(unknown, fmt.Sprintf("%s[%d].%s", k, i, ik))
						}
					}
					item = knownOnly(m, nested)
				}
				cl[i] = item
			}
			v = cl
		}
		out[k] = v
	}
	return out, unknown
}

// decodeObjectMeta decodes metadata like upstream's JSON round trip. With
// dropMalformed, fields that do not decode are dropped one by one instead of
// failing the whole decoding. It also returns the unknown field paths
// (relative to the metadata).
func decodeObjectMeta(metadata interface{}, dropMalformed bool) (*ObjectMeta, []string, error) {
	m, isMap := metadata.(map[string]interface{})
	var unknown []string
	var toDecode interface{} = metadata
	if isMap && m != nil {
		var filtered map[string]interface{}
		filtered, unknown = caseSensitive(m)
		toDecode = filtered
	}
	if filtered, ok := toDecode.(map[string]interface{}); ok && filtered != nil {
		if meta, ok := fastObjectMeta(filtered); ok {
			return meta, unknown, nil
		}
	}
	data, err := json.Marshal(toDecode)
	if err != nil {
		return nil, nil, err
	}
	meta := &ObjectMeta{}
	unmarshalErr := json.Unmarshal(data, meta)
	if unmarshalErr == nil {
		return meta, unknown, nil
	}
	if !dropMalformed {
		return nil, nil, upstreamTypeNames(unmarshalErr)
	}
	if !isMap {
		return nil, nil, fmt.Errorf("invalid metadata: expected object, got %T", metadata)
	}
	filtered := toDecode.(map[string]interface{})
	acc := &ObjectMeta{}
	for _, k := range keys.Sorted(filtered) {
		single, err := json.Marshal(map[string]interface{}{k: filtered[k]})
		if err != nil {
			continue
		}
		if json.Unmarshal(single, &ObjectMeta{}) == nil {
			_ = json.Unmarshal(single, acc)
		}
	}
	return acc, unknown, nil
}

// upstreamTypeNames renames our types in encoding/json error messages to
// upstream's (metav1 is package v1, UID is types.UID).
func upstreamTypeNames(err error) error {
	msg := strings.ReplaceAll(err.Error(), "objectmeta.UID", "types.UID")
	msg = strings.ReplaceAll(msg, "objectmeta.", "v1.")
	return errors.New(msg)
}

// ToUnstructured encodes m as runtime.DefaultUnstructuredConverter does:
// empty strings, zero integers, nil or empty maps and slices and nil
// pointers are omitted, times are RFC 3339 UTC strings, integers int64.
func (m *ObjectMeta) ToUnstructured() map[string]interface{} {
	out := map[string]interface{}{}
	putString(out, "name", m.Name)
	putString(out, "generateName", m.GenerateName)
	putString(out, "namespace", m.Namespace)
	putString(out, "selfLink", m.SelfLink)
	putString(out, "uid", string(m.UID))
	putString(out, "resourceVersion", m.ResourceVersion)
	if m.Generation != 0 {
		out["generation"] = m.Generation
	}
	if !m.CreationTimestamp.IsZero() {
		out["creationTimestamp"] = m.CreationTimestamp.toUnstructured()
	}
	if m.DeletionTimestamp != nil {
		out["deletionTimestamp"] = m.DeletionTimestamp.toUnstructured()
	}
	if m.DeletionGracePeriodSeconds != nil {
		out["deletionGracePeriodSeconds"] = *m.DeletionGracePeriodSeconds
	}
	putStringMap(out, "labels", m.Labels)
	putStringMap(out, "annotations", m.Annotations)
	if len(m.OwnerReferences) > 0 {
		refs := make([]interface{}, len(m.OwnerReferences))
		for i, r := range m.OwnerReferences {
			ref := map[string]interface{}{
				"apiVersion": r.APIVersion,
				"kind":       r.Kind,
				"name":       r.Name,
				"uid":        string(r.UID),
			}
			if r.Controller != nil {
				ref["controller"] = *r.Controller
			}
			if r.BlockOwnerDeletion != nil {
				ref["blockOwnerDeletion"] = *r.BlockOwnerDeletion
			}
			refs[i] = ref
		}
		out["ownerReferences"] = refs
	}
	if len(m.Finalizers) > 0 {
		fs := make([]interface{}, len(m.Finalizers))
		for i, f := range m.Finalizers {
			fs[i] = f
		}
		out["finalizers"] = fs
	}
	if len(m.ManagedFields) > 0 {
		mfs := make([]interface{}, len(m.ManagedFields))
		for i, e := range m.ManagedFields {
			mf := map[string]interface{}{}
			putString(mf, "manager", e.Manager)
			putString(mf, "operation", string(e.Operation))
			putString(mf, "apiVersion", e.APIVersion)
			if e.Time != nil {
				mf["time"] = e.Time.toUnstructured()
			}
			putString(mf, "fieldsType", e.FieldsType)
			if e.FieldsV1 != nil {
				mf["fieldsV1"] = decodeRaw(e.FieldsV1.Raw)
			}
			putString(mf, "subresource", e.Subresource)
			mfs[i] = mf
		}
		out["managedFields"] = mfs
	}
	return out
}

func putString(m map[string]interface{}, k, v string) {
	if v != "" {
		m[k] = v
	}
}

func putStringMap(m map[string]interface{}, k string, v map[string]string) {
	if len(v) == 0 {
		return
	}
	out := make(map[string]interface{}, len(v))
	for key, val := range v {
		out[key] = val
	}
	m[k] = out
}

// decodeRaw decodes raw JSON into unstructured values (int64 for integers).
func decodeRaw(raw []byte) interface{} {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return unstructured.ConvertNumbers(v)
}

// ObjectMetaOptions says how GetObjectMetaWithOptions decodes.
type ObjectMetaOptions struct {
	// DropMalformedFields discards fields of the wrong type instead of failing.
	DropMalformedFields bool
	// ReturnUnknownFieldPaths returns the paths of unknown fields.
	ReturnUnknownFieldPaths bool
	// ParentPath is the path of the object holding the metadata (nil: root).
	ParentPath *field.Path
}

// GetObjectMeta decodes obj["metadata"]. found is false when there is no
// metadata field.
func GetObjectMeta(obj map[string]interface{}, dropMalformedFields bool) (meta *ObjectMeta, found bool, err error) {
	meta, found, _, err = GetObjectMetaWithOptions(obj, ObjectMetaOptions{DropMalformedFields: dropMalformedFields})
	return meta, found, err
}

// GetObjectMetaWithOptions decodes obj["metadata"] as upstream's JSON round
// trip does, optionally dropping malformed fields and returning the paths of
// unknown fields (e.g. "metadata.foo", "spec.template.metadata.bar").
func GetObjectMetaWithOptions(obj map[string]interface{}, opts ObjectMetaOptions) (*ObjectMeta, bool, []string, error) {
	metadata, found := obj["metadata"]
	if !found {
		return nil, false, nil, nil
	}
	meta, unknown, err := decodeObjectMeta(metadata, opts.DropMalformedFields)
	if err != nil {
		if opts.DropMalformedFields && strings.HasPrefix(err.Error(), "invalid metadata:") {
			return nil, false, nil, err
		}
		return nil, true, nil, err
	}
	if !opts.ReturnUnknownFieldPaths || len(unknown) == 0 {
		return meta, true, nil, nil
	}
	prefix := opts.ParentPath.Child("metadata").String()
	paths := make([]string, len(unknown))
	for i, u := range unknown {
		paths[i] = prefix + "." + u
	}
	return meta, true, paths, nil
}

// SetObjectMeta writes meta into obj["metadata"] (removing it for nil). The
// error is always nil; it is kept for upstream's signature.
func SetObjectMeta(obj map[string]interface{}, meta *ObjectMeta) error {
	if meta == nil {
		delete(obj, "metadata")
		return nil
	}
	obj["metadata"] = meta.ToUnstructured()
	return nil
}

// SetObjectMetaAt is SetObjectMeta as release rel writes a resource's own
// metadata: before Kubernetes 1.34 a zero creationTimestamp is written as
// null (kubeversion.CreationTimestampOmitted). (An embedded resource's is
// removed at every release: CoerceWithOptions.)
func SetObjectMetaAt(obj map[string]interface{}, meta *ObjectMeta, rel kubeversion.Release) {
	_ = SetObjectMeta(obj, meta)
	if meta != nil && meta.CreationTimestamp.IsZero() && !rel.Has(kubeversion.CreationTimestampOmitted) {
		obj["metadata"].(map[string]interface{})["creationTimestamp"] = nil
	}
}

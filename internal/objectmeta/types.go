// Package objectmeta handles the ObjectMeta and TypeMeta of custom resources
// and of their embedded resources (x-kubernetes-embedded-resource), mirroring
// upstream's k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta
// (GetObjectMeta, SetObjectMeta, Coerce, Validate) and the metadata
// validation the custom resource strategy and the generic registry run on
// create and update (k8s.io/apimachinery/pkg/api/validation ObjectMeta
// validation, label validation from pkg/apis/meta/v1/validation, and the
// finalizer warnings of the custom resource strategy).
//
// ObjectMeta is our own struct with metav1.ObjectMeta's JSON shape. Decoding
// from an unstructured value follows what upstream's JSON round trip does
// (case-sensitive field names, unknown fields dropped, nulls ignored,
// timestamps parsed as RFC 3339 and written back in UTC with second
// precision); encoding follows runtime.DefaultUnstructuredConverter (empty
// fields omitted, integers as int64).
package objectmeta

import (
	"encoding/json"
	"time"
)

// UID mirrors types.UID: a named string, rendered as JSON in error values.
type UID string

// ManagedFieldsOperationType mirrors metav1.ManagedFieldsOperationType.
type ManagedFieldsOperationType string

// The managed fields operations.
const (
	ManagedFieldsOperationApply  ManagedFieldsOperationType = "Apply"
	ManagedFieldsOperationUpdate ManagedFieldsOperationType = "Update"
)

// Standard finalizers (metav1 and core/v1).
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
	FinalizerKubernetes       = "kubernetes"
)

// Time mirrors metav1.Time: RFC 3339 in JSON, null when zero.
type Time struct {
	time.Time
}

// IsZero reports whether t is nil or the zero time.
func (t *Time) IsZero() bool { return t == nil || t.Time.IsZero() }

// MarshalJSON writes the time in UTC with second precision, or null.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.Time.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(time.RFC3339))
}

// UnmarshalJSON parses an RFC 3339 string; null is the zero time.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = pt.Local()
	return nil
}

// toUnstructured is metav1.Time.ToUnstructured: nil when zero.
func (t Time) toUnstructured() interface{} {
	if t.Time.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// FieldsV1 holds the raw JSON of a managed fields set.
type FieldsV1 struct {
	Raw []byte
}

// MarshalJSON writes the raw JSON, or null when empty.
func (f FieldsV1) MarshalJSON() ([]byte, error) {
	if len(f.Raw) == 0 {
		return []byte("null"), nil
	}
	return f.Raw, nil
}

// UnmarshalJSON keeps any JSON value but null.
func (f *FieldsV1) UnmarshalJSON(b []byte) error {
	if string(b) != "null" {
		f.Raw = append(f.Raw[:0], b...)
	}
	return nil
}

// ObjectMeta mirrors metav1.ObjectMeta's JSON shape.
type ObjectMeta struct {
	Name                       string               `json:"name,omitempty"`
	GenerateName               string               `json:"generateName,omitempty"`
	Namespace                  string               `json:"namespace,omitempty"`
	SelfLink                   string               `json:"selfLink,omitempty"`
	UID                        UID                  `json:"uid,omitempty"`
	ResourceVersion            string               `json:"resourceVersion,omitempty"`
	Generation                 int64                `json:"generation,omitempty"`
	CreationTimestamp          Time                 `json:"creationTimestamp,omitempty,omitzero"`
	DeletionTimestamp          *Time                `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64               `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string    `json:"labels,omitempty"`
	Annotations                map[string]string    `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference     `json:"ownerReferences,omitempty"`
	Finalizers                 []string             `json:"finalizers,omitempty"`
	ManagedFields              []ManagedFieldsEntry `json:"managedFields,omitempty"`
}

// OwnerReference mirrors metav1.OwnerReference.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                UID    `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// GoTypeName implements field.GoTypeNamer: upstream's type, as Kubernetes
// 1.33 and older print a bad owner reference (Go syntax).
func (OwnerReference) GoTypeName() string { return "v1.OwnerReference" }

// ManagedFieldsEntry mirrors metav1.ManagedFieldsEntry.
type ManagedFieldsEntry struct {
	Manager     string                     `json:"manager,omitempty"`
	Operation   ManagedFieldsOperationType `json:"operation,omitempty"`
	APIVersion  string                     `json:"apiVersion,omitempty"`
	Time        *Time                      `json:"time,omitempty"`
	FieldsType  string                     `json:"fieldsType,omitempty"`
	FieldsV1    *FieldsV1                  `json:"fieldsV1,omitempty"`
	Subresource string                     `json:"subresource,omitempty"`
}

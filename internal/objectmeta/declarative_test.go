package objectmeta

import (
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

func TestDeclarativeBetaReplacesCoveredErrorsFrom138(t *testing.T) {
	md := field.NewPath("metadata")
	required := func(p string) *field.Error {
		return field.Required(field.NewPath("metadata").Child("ownerReferences").Index(0).Child(p), "must not be empty")
	}
	label := field.Invalid(md.Child("labels"), "x", "bad label")
	uidChanged := field.Invalid(md.Child("uid"), "u2", FieldImmutableErrorMsg)
	refs := []OwnerReference{{Kind: "K"}}
	tests := []struct {
		name      string
		rel       kubeversion.Release
		meta, old *ObjectMeta
		in        field.ErrorList
		want      []string
	}{
		{"1.37 keeps the handwritten errors", kubeversion.Of(37), &ObjectMeta{OwnerReferences: refs}, nil,
			field.ErrorList{required("name"), label},
			[]string{"metadata.ownerReferences[0].name: Required value: must not be empty", `metadata.labels: Invalid value: "x": bad label`}},
		{"1.38 create: owner references without detail, after the others", kubeversion.Of(38), &ObjectMeta{OwnerReferences: refs}, nil,
			field.ErrorList{required("name"), required("uid"), label},
			[]string{`metadata.labels: Invalid value: "x": bad label`, "metadata.ownerReferences[0].name: Required value", "metadata.ownerReferences[0].uid: Required value"}},
		{"1.38 update with unchanged owner references keeps them", kubeversion.Of(38), &ObjectMeta{OwnerReferences: refs}, &ObjectMeta{OwnerReferences: []OwnerReference{{Kind: "K"}}},
			field.ErrorList{required("name")},
			[]string{"metadata.ownerReferences[0].name: Required value: must not be empty"}},
		{"1.38 update: a changed uid is immutable with no value", kubeversion.Of(38), &ObjectMeta{UID: "u2"}, &ObjectMeta{UID: "u1"},
			field.ErrorList{uidChanged, label},
			[]string{`metadata.labels: Invalid value: "x": bad label`, "metadata.uid: Invalid value: null: field is immutable"}},
		{"1.38 update: a cleared uid keeps the handwritten error", kubeversion.Of(38), &ObjectMeta{}, &ObjectMeta{UID: "u1"},
			field.ErrorList{field.Invalid(md.Child("uid"), "", FieldImmutableErrorMsg)},
			[]string{`metadata.uid: Invalid value: "": field is immutable`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range DeclarativeBeta(tt.rel, tt.in, tt.meta, tt.old, md) {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

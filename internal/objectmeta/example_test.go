package objectmeta_test

import (
	"fmt"

	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

func ExampleGetObjectMeta() {
	obj := map[string]interface{}{"metadata": map[string]interface{}{
		"name":              "demo",
		"creationTimestamp": "2024-05-01T12:00:00.5+02:00",
		"unknown":           true,
	}}
	meta, _, _ := objectmeta.GetObjectMeta(obj, true)
	_ = objectmeta.SetObjectMeta(obj, meta)
	fmt.Println(obj["metadata"])
	// Output: map[creationTimestamp:2024-05-01T10:00:00Z name:demo]
}

func ExampleCoerce() {
	obj := map[string]interface{}{"apiVersion": "v1", "kind": 3}
	fmt.Println(objectmeta.Coerce(nil, obj, nil, true, false))
	// Output: kind: Invalid value: 3: must be a string
}

func ExampleValidate() {
	obj := map[string]interface{}{"kind": "Pod", "metadata": map[string]interface{}{"name": "a/b"}}
	for _, err := range objectmeta.Validate(nil, obj, nil, true) {
		fmt.Println(err)
	}
	// Output:
	// apiVersion: Required value
	// metadata.name: Invalid value: "a/b": may not contain '/'
}

func ExampleValidateCustomResourceCreate() {
	meta := &objectmeta.ObjectMeta{Name: "My_Name", Namespace: "default"}
	for _, err := range objectmeta.ValidateCustomResourceCreate(meta, false) {
		fmt.Println(err.Field, err.Type)
	}
	// Output:
	// metadata.name Invalid value
	// metadata.namespace Forbidden
}

func ExampleWarningsOnCreate() {
	meta := &objectmeta.ObjectMeta{Finalizers: []string{"cleanup", "example.com/cleanup"}}
	// the zero Release is the newest
	for _, w := range objectmeta.WarningsOnCreate(kubeversion.Release{}, meta) {
		fmt.Println(w)
	}
	// Output: metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers
}

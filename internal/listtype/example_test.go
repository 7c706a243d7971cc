package listtype_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/listtype"
	"github.com/crdlab/crdlab/internal/schema"
)

func ExampleValidateListSetsAndMaps() {
	var props crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
		"items":{"type":"object","properties":{"name":{"type":"string"}}}}}}`), &props)
	s, _ := schema.NewStructural(&props)
	obj := map[string]interface{}{"ports": []interface{}{
		map[string]interface{}{"name": "http"},
		map[string]interface{}{"name": "http"},
	}}
	for _, err := range listtype.ValidateListSetsAndMaps(nil, s, obj) {
		fmt.Println(err)
	}
	// Output: ports[1]: Duplicate value: {"name":"http"}
}

func ExampleValidateListSetsAndMapsUpdate() {
	var props crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}`), &props)
	s, _ := schema.NewStructural(&props)
	old := map[string]interface{}{"tags": []interface{}{"a", "a"}}
	obj := map[string]interface{}{"tags": []interface{}{"b", "b"}}
	// the old object already had duplicates: the update is not checked
	fmt.Println(len(listtype.ValidateListSetsAndMapsUpdate(nil, s, obj, old)))
	// Output: 0
}

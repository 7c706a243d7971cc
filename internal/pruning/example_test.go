package pruning_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/internal/pruning"
	"github.com/crdlab/crdlab/internal/schema"
)

func ExamplePrune() {
	s := &schema.Structural{
		Generic: schema.Generic{Type: "object"},
		Properties: map[string]schema.Structural{
			"spec": {
				Generic: schema.Generic{Type: "object"},
				Properties: map[string]schema.Structural{
					"replicas": {Generic: schema.Generic{Type: "integer"}},
					"ports": {
						Generic: schema.Generic{Type: "array"},
						Items: &schema.Structural{
							Generic:    schema.Generic{Type: "object"},
							Properties: map[string]schema.Structural{"port": {Generic: schema.Generic{Type: "integer"}}},
						},
					},
				},
			},
		},
	}
	obj := map[string]interface{}{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]interface{}{"name": "w"},
		"spec": map[string]interface{}{
			"replicas": int64(2),
			"colour":   "blue",
			"ports":    []interface{}{map[string]interface{}{"port": int64(80), "name": "http"}},
		},
		"extra": true,
	}
	paths := pruning.Prune(obj, s, true)
	out, _ := json.Marshal(obj)
	fmt.Println(string(out))
	fmt.Println(paths)
	// Output:
	// {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"ports":[{"port":80}],"replicas":2}}
	// [extra spec.colour spec.ports[0].name]
}

func ExamplePruneWithOptions() {
	s := &schema.Structural{Properties: map[string]schema.Structural{"a": {}}}
	obj := map[string]interface{}{"a": "kept", "b": "dropped"}
	paths := pruning.PruneWithOptions(obj, s, false, pruning.Options{})
	fmt.Println(obj, paths == nil)
	// Output:
	// map[a:kept] true
}

package celcomplete_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/celcomplete"
)

func ExampleComplete() {
	var spec crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{
	  "replicas":{"type":"integer"},
	  "ports":{"type":"array","items":{"type":"object","properties":{"port":{"type":"integer"},"name":{"type":"string"}}}}}}`), &spec)

	// the fields of a list item, in a macro
	r := celcomplete.Complete(&spec, "self.ports.all(p, p.", false)
	fmt.Println(r.Type, r.From)
	for _, o := range r.Options {
		fmt.Println(o.Label, o.Kind, o.Detail)
	}
	// Output:
	// object 20
	// name property string
	// port property int
}

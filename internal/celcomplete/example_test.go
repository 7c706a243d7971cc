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

func ExampleCompletePolicy() {
	var root crd.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
	  "replicas":{"type":"integer"},"image":{"type":"string"}}}}}`), &root)
	p := &celcomplete.Policy{Object: &root, Variables: []celcomplete.PolicyVariable{{Name: "replicas", Expression: "object.spec.replicas"}}}

	// object's fields come from the matched kind's schema
	r := celcomplete.CompletePolicy(p, "object.spec.")
	for _, o := range r.Options[:2] {
		fmt.Println(o.Label, o.Kind, o.Detail)
	}
	// a variable is typed by its expression
	r = celcomplete.CompletePolicy(p, "variables.")
	fmt.Println(r.Options[0].Label, r.Options[0].Detail)
	// names where an identifier starts
	r = celcomplete.CompletePolicy(p, "has(o")
	for _, o := range r.Options {
		fmt.Print(o.Label, " ")
	}
	fmt.Println()
	// Output:
	// image property string
	// replicas property int
	// replicas int
	// authorizer namespaceObject object oldObject request variables
}

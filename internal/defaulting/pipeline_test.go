package defaulting

import (
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/internal/pruning"
)

// TestRequestPipeline runs the object-side steps in kube-apiserver's order
// (schemaCoercingDecoder: prune, drop non-nullable nulls; then the codec's
// defaulter) on a whole custom resource.
func TestRequestPipeline(t *testing.T) {
	s := sch(t, `{"type":"object","properties":{
  "spec":{"type":"object","default":{},"properties":{
    "replicas":{"type":"integer","default":1},
    "image":{"type":"string"},
    "note":{"type":"string","nullable":true},
    "mode":{"type":"string","default":"auto"},
    "ports":{"type":"array","items":{"type":"object","properties":{"port":{"type":"integer"},"protocol":{"type":"string","default":"TCP"}}}},
    "labels":{"type":"object","additionalProperties":{"type":"string","default":"none"}},
    "config":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"level":{"type":"string","default":"info"}}},
    "template":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object","properties":{"size":{"type":"integer","default":3}}}}}
  }},
  "status":{"type":"object","properties":{"ready":{"type":"boolean"}}}
}}`)
	obj := decode(t, `{
  "apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","unknown":1},
  "spec":{
    "image":null,"note":null,"mode":null,"bogus":true,
    "ports":[{"port":80,"name":"http"},{"port":443,"protocol":null}],
    "labels":{"a":"b","c":null},
    "config":{"anything":{"x":null}},
    "template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"extra":1},"junk":2}
  },
  "extra":"x"
}`)
	pruned := pruning.Prune(obj, s, true)
	PruneNonNullableNullsWithoutDefaults(obj, s)
	Default(obj, s)

	wantPruned := []string{"extra", "spec.bogus", "spec.ports[0].name", "spec.template.junk", "spec.template.spec.extra"}
	if !reflect.DeepEqual(pruned, wantPruned) {
		t.Errorf("pruned %v, want %v", pruned, wantPruned)
	}
	want := decode(t, `{
  "apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","unknown":1},
  "spec":{
    "replicas":1,"note":null,"mode":"auto",
    "ports":[{"port":80,"protocol":"TCP"},{"port":443,"protocol":"TCP"}],
    "labels":{"a":"b","c":"none"},
    "config":{"anything":{"x":null},"level":"info"},
    "template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"size":3}}
  }
}`)
	if !reflect.DeepEqual(obj, want) {
		t.Errorf("got\n%s\nwant\n%s", encode(t, obj), encode(t, want))
	}
}

package admission

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/ssa"
)

func widgetConverter(t *testing.T) *ssa.TypeConverter {
	t.Helper()
	data, err := os.ReadFile("testdata/mutating-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	def, err := crd.DecodeOne(data, "mutating-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tc, err := ssa.NewTypeConverter(def)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

func mutate(t *testing.T, docs string, obj string) *MutationResult {
	t.Helper()
	in, err := DecodeFile([]byte(docs), "policies.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMutator(MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings, Objects: in.Objects})
	if err != nil {
		t.Fatal(err)
	}
	o, err := DecodeObject([]byte(obj))
	if err != nil {
		t.Fatal(err)
	}
	req := &Request{Operation: "CREATE", Kind: GVK{"example.com", "v1", "Widget"}, Resource: GVR{"example.com", "v1", "widgets"},
		Namespace: "default", Name: metaString(o, "name"), Object: o}
	return m.Mutate(req, MutationTarget{TypeConverter: widgetConverter(t)})
}

func toJSON(v interface{}) string {
	b, _ := json.Marshal(v)
	return string(b)
}

package defaulting

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/schema"
)

// ValidateDefaults checks defaults against CEL rules itself (internal/cel),
// with or without a compile cache: a default breaking a rule is reported at
// the rule's node, a default satisfying it is not, and a transition rule
// with optionalOldSelf also runs without an old value.
func TestValidateDefaultsChecksCELRules(t *testing.T) {
	var props crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{
		"bad":{"type":"integer","default":1,"x-kubernetes-validations":[{"rule":"self > 5","message":"too small"}]},
		"good":{"type":"integer","default":9,"x-kubernetes-validations":[{"rule":"self > 5"}]},
		"opt":{"type":"integer","default":2,"x-kubernetes-validations":[{"rule":"oldSelf.hasValue()","optionalOldSelf":true,"message":"needs old"}]}}}`), &props); err != nil {
		t.Fatal(err)
	}
	s, err := schema.NewStructural(&props)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"x.properties[bad].default: Invalid value: 1: too small",
		"x.properties[opt].default: Invalid value: 2: needs old",
	}
	for name, opts := range map[string]ValidateOptions{"no cache": {}, "cache": {CompileCache: cel.NewCompileCache()}} {
		errs, err := ValidateDefaultsWithOptions(field.NewPath("x"), s, true, true, opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: got\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

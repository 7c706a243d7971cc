package crdtest

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/internal/keys"
)

// TestJSONSchemaMatchesTypes keeps docs/crdtest.schema.json in step with
// the suite types: the same property names at every level.
func TestJSONSchemaMatchesTypes(t *testing.T) {
	data, err := os.ReadFile("../docs/crdtest.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties map[string]json.RawMessage            `json:"properties"`
		Defs       map[string]map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	props := func(raw json.RawMessage) []string {
		var m map[string]json.RawMessage
		json.Unmarshal(raw, &m)
		out := keys.Sorted(m)
		return out
	}
	fields := func(v interface{}, extra ...string) []string {
		out := append([]string{}, extra...)
		rt := reflect.TypeOf(v)
		for i := 0; i < rt.NumField(); i++ {
			name := strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]
			if name != "" && name != "-" {
				out = append(out, name)
			}
		}
		sort.Strings(out)
		return out
	}
	top := make([]string, 0)
	for k := range schema.Properties {
		top = append(top, k)
	}
	sort.Strings(top)
	for _, tc := range []struct {
		name       string
		schema     []string
		goTypeKeys []string
	}{
		{"suite", top, fields(SuiteFile{}, "apiVersion")},
		{"tests", props(jsonField(schema.Properties["tests"], "properties")), []string{"admission", "apply", "onCreate", "onUpdate", "sequences"}},
		{"onCreate", props(schema.Defs["onCreate"]["properties"]), fields(OnCreate{})},
		{"onUpdate", props(schema.Defs["onUpdate"]["properties"]), fields(OnUpdate{})},
		{"sequence", props(schema.Defs["sequence"]["properties"]), fields(Sequence{})},
		{"step", props(schema.Defs["step"]["properties"]), fields(Step{})},
		{"patch", props(schema.Defs["patch"]["properties"]), fields(Patch{})},
		{"applyCase", props(schema.Defs["applyCase"]["properties"]), fields(ApplyCase{})},
		{"applyStep", props(schema.Defs["applyStep"]["properties"]), fields(ApplyStep{})},
		{"admissionCase", props(schema.Defs["admissionCase"]["properties"]), fields(AdmissionCase{})},
		{"admissionRequest", props(jsonField(jsonField(schema.Defs["admissionCase"]["properties"], "request"), "properties")), fields(AdmissionRequest{})},
		{"userInfo", props(jsonField(jsonField(jsonField(jsonField(schema.Defs["admissionCase"]["properties"], "request"), "properties"), "userInfo"), "properties")), fields(admission.UserInfo{})},
		{"expectedManagedFields", props(jsonField(jsonField(jsonField(schema.Defs["applyStep"]["properties"], "expectedManagedFields"), "items"), "properties")), fields(ExpectedManagedFields{})},
	} {
		if !reflect.DeepEqual(tc.schema, tc.goTypeKeys) {
			t.Errorf("%s: schema properties %v, Go fields %v", tc.name, tc.schema, tc.goTypeKeys)
		}
	}
}

func jsonField(raw json.RawMessage, key string) json.RawMessage {
	var m map[string]json.RawMessage
	json.Unmarshal(raw, &m)
	return m[key]
}

package conformance

// Differential tests of the CRD-time CEL checks: internal/crdvalidation
// (which compiles rules with internal/cel) against upstream's
// ValidateCustomResourceDefinition.
// Only errors about x-kubernetes-validations and the schema's total cost are
// compared (the other checks have their own suites).

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	upvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	sigyaml "sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/crdvalidation"
)

func celCRDWithSchema(schemaJSON string) string {
	return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","scope":"Namespaced",
"names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":` + schemaJSON + `}}]}}`
}

func celRelated(s string) bool {
	return strings.Contains(s, "x-kubernetes-validations") || strings.Contains(s, "estimated rule cost total") || strings.Contains(s, ".default")
}

var celCRDCases = []struct{ name, schema string }{
	{"compile errors at nested paths", `{"type":"object","properties":{"spec":{"type":"object",
		"properties":{"a":{"type":"string"},"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer"}},
		"x-kubernetes-validations":[{"rule":"self.y == 1"}]}}},
		"x-kubernetes-validations":[{"rule":"self.a == 1"},{"rule":"self.a","message":"m"},{"rule":"self.a == 'x'","messageExpression":"self.a.size()"}]}}}`},
	{"per-expression cost limit", `{"type":"object","properties":{"spec":{"type":"object",
		"properties":{"l":{"type":"array","items":{"type":"string"}}},
		"x-kubernetes-validations":[{"rule":"self.l.all(a, self.l.all(b, a == b))"},{"rule":"self.l.all(a, a.size() < 10)","messageExpression":"self.l.map(a, self.l.map(b, a + b)).join(',')"}]}}}`},
	{"cardinality multiplies cost", `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"outer":{"type":"array","items":{"type":"object","properties":{"inner":{"type":"array","maxItems":1000,"items":{"type":"string","maxLength":100}}},
		"x-kubernetes-validations":[{"rule":"self.inner.all(a, a.size() > 1)"}]}}}}}}`},
	{"total cost limit attribution", `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"a":{"type":"array","maxItems":3000,"items":{"type":"string","maxLength":10}},
		"b":{"type":"array","maxItems":3000,"items":{"type":"string","maxLength":10}}},
		"x-kubernetes-validations":[
			{"rule":"self.a.all(x, self.b.all(y, x != y))"},
			{"rule":"self.b.all(x, self.a.all(y, x != y))"},
			{"rule":"self.a.all(x, self.a.all(y, x == y))"},
			{"rule":"self.b.all(x, self.b.all(y, x == y))"},
			{"rule":"self.a.exists(x, self.b.exists(y, x == y))"}]}}}`},
	{"oldSelf on uncorrelatable paths and optionalOldSelf", `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"atomic":{"type":"array","items":{"type":"object","properties":{"v":{"type":"string"}},"x-kubernetes-validations":[{"rule":"self.v == oldSelf.v"}]}},
		"set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf"}]}},
		"map":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"}},"x-kubernetes-validations":[{"rule":"self.k == oldSelf.k"}]}},
		"opt":{"type":"string","x-kubernetes-validations":[{"rule":"self == 'a'","optionalOldSelf":true},{"rule":"oldSelf.orValue('') != self","optionalOldSelf":true}]}}}}}`},
	{"embedded resource and int-or-string typing", `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-validations":[{"rule":"self.metadata.name != '' && self.kind == 'X'"},{"rule":"self.spec == 1"}]},
		"ios":{"x-kubernetes-int-or-string":true,"x-kubernetes-validations":[{"rule":"self == 1"},{"rule":"self.size() > 1"}]},
		"m":{"type":"object","additionalProperties":{"type":"string","x-kubernetes-validations":[{"rule":"self.startsWith('x')"}]}}}}}}`},
	{"defaults are checked against rules", `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"n":{"type":"integer","default":20,"x-kubernetes-validations":[{"rule":"self <= 10","message":"at most 10"}]},
		"s":{"type":"string","default":"abc","x-kubernetes-validations":[{"rule":"oldSelf.hasValue() || self == 'x'","optionalOldSelf":true}]},
		"t":{"type":"string","default":"ok","x-kubernetes-validations":[{"rule":"self == oldSelf"}]},
		"o":{"type":"object","default":{"a":5},"properties":{"a":{"type":"integer","x-kubernetes-validations":[{"rule":"self < 3"}]}}}}}}}`},
	{"root rules see apiVersion kind metadata", `{"type":"object","x-kubernetes-validations":[{"rule":"self.metadata.name.size() < 10 && self.apiVersion != '' && self.kind != ''"},{"rule":"self.metadata.namespace == 'x'"}],
		"properties":{"spec":{"type":"object"}}}`},
}

func TestCELCRDChecksDifferential(t *testing.T) {
	for _, tc := range celCRDCases {
		t.Run(tc.name, func(t *testing.T) {
			js := celCRDWithSchema(tc.schema)
			// upstream
			var v1 apiextensionsv1.CustomResourceDefinition
			if err := sigyaml.Unmarshal([]byte(js), &v1); err != nil {
				t.Fatal(err)
			}
			var internal apiextensions.CustomResourceDefinition
			if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&v1, &internal, nil); err != nil {
				t.Fatal(err)
			}
			internal.Status.StoredVersions = []string{"v1"}
			internal.Generation = 1
			var up []string
			for _, e := range upvalidation.ValidateCustomResourceDefinition(context.Background(), &internal) {
				if s := fmt.Sprintf("%s|%s", e.Type, e.Error()); celRelated(s) {
					up = append(up, celNormalize(s))
				}
			}
			// ours
			var c crd.CustomResourceDefinition
			if err := sigyaml.Unmarshal([]byte(js), &c); err != nil {
				t.Fatal(err)
			}
			errs, _ := crdvalidation.ValidateCustomResourceDefinition(&c, crdvalidation.Options{})
			var ours []string
			for _, e := range errs {
				if s := fmt.Sprintf("%s|%s", e.Type, e.Error()); celRelated(s) {
					ours = append(ours, celNormalize(s))
				}
			}
			sort.Strings(up)
			sort.Strings(ours)
			if strings.Join(up, "\n") != strings.Join(ours, "\n") {
				t.Errorf("CRD CEL errors differ\nupstream:\n%s\nours:\n%s", strings.Join(up, "\n"), strings.Join(ours, "\n"))
			} else if len(up) == 0 && tc.name != "" {
				t.Logf("no CEL errors (both)")
			}
			if celVerbose() {
				t.Logf("upstream:\n%s", strings.Join(up, "\n"))
			}
		})
	}
}

package conformance

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/engine/crd"
	iadm "github.com/crdlab/crdlab/internal/admission"
	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/schema"
)

// The CRDs of the type-checking cases: widgets (two served versions of
// different shapes, an unserved one, embedded resources, int-or-string,
// maps, lists of objects, formats), gadgets (cluster-scoped, no singular),
// settings (a param kind), free (preserve-unknown-fields root), and
// widgets of another group (a core-group rule's version match).
var typeCheckCRDs = []string{`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name: {type: string, maxLength: 20}
          spec:
            type: object
            required: [replicas]
            properties:
              replicas: {type: integer}
              image: {type: string}
              ratio: {type: number}
              enabled: {type: boolean}
              port: {x-kubernetes-int-or-string: true}
              expires: {type: string, format: date-time}
              timeout: {type: string, format: duration}
              blob: {type: string, format: byte}
              labels: {type: object, additionalProperties: {type: string}}
              ports:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    number: {type: integer}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              "in": {type: string}
              dash-name: {type: string}
              a.b: {type: string}
              x/y: {type: integer}
              namespace: {type: string}
              "if": {type: boolean}
              1st: {type: string}
              mapobj:
                type: object
                additionalProperties:
                  type: object
                  properties:
                    x: {type: integer}
              matrix:
                type: array
                items:
                  type: array
                  items:
                    type: object
                    properties:
                      y: {type: string}
          status:
            type: object
            properties:
              ready: {type: boolean}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string}
              image: {type: string}
  - name: v3alpha1
    served: false
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              nothing: {type: string}
`, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {plural: gadgets, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              items:
                type: array
                items:
                  type: object
                  x-kubernetes-embedded-resource: true
                  properties:
                    spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
`, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: settings.config.example.com}
spec:
  group: config.example.com
  scope: Namespaced
  names: {plural: settings, singular: setting, kind: Setting}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          maxReplicas: {type: integer}
          registry: {type: string}
          allowed: {type: array, items: {type: string}}
`, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: frees.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: frees, singular: free, kind: Free}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.other.example.org}
spec:
  group: other.example.org
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: OtherWidget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              color: {type: string}
`}

// typeCheckBuiltins are built-in resources the REST mapper knows; their
// schemas are not resolved (crdlab has none).
var typeCheckBuiltins = []upstream.BuiltinResource{
	{Group: "apps", Version: "v1", Resource: "deployments", Kind: "Deployment", Namespaced: true},
	{Group: "", Version: "v1", Resource: "configmaps", Kind: "ConfigMap", Namespaced: true},
	{Group: "", Version: "v1", Resource: "pods", Kind: "Pod", Namespaced: true},
	{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions", Kind: "CustomResourceDefinition"},
}

const tcWidgets = `{apiGroups: [example.com], apiVersions: [v1], resources: [widgets], operations: ["*"]}`

// typeCheckPolicies: name, matchConstraints resourceRules, the rest of the spec.
var typeCheckPolicies = []struct{ name, rules, spec string }{
	{"wrong-field-name", tcWidgets, `validations: [{expression: "object.spec.replica > 1"}]`},
	{"right-field", tcWidgets, `validations: [{expression: "object.spec.replicas > 1"}]`},
	{"int-vs-string", tcWidgets, `validations: [{expression: "object.spec.replicas == 'three'"}]`},
	{"string-vs-int", tcWidgets, `validations: [{expression: "object.spec.image > 3"}]`},
	{"double-vs-int", tcWidgets, `validations: [{expression: "object.spec.ratio < 1"}]`},
	{"bool-ops", tcWidgets, `validations: [{expression: "object.spec.enabled && object.status.ready"}, {expression: "object.spec.enabled + 1 > 0"}]`},
	{"int-or-string-is-dyn", tcWidgets, `validations: [{expression: "object.spec.port == 80 || object.spec.port == 'http'"}]`},
	{"formats", tcWidgets, `validations: [{expression: "object.spec.expires < now()"}, {expression: "object.spec.timeout > duration('1s')"}, {expression: "object.spec.blob.size() > 0 && object.spec.expires.startsWith('2')"}]`},
	{"map-and-list", tcWidgets, `validations: [{expression: "object.spec.labels.all(k, object.spec.labels[k].size() < 64)"}, {expression: "object.spec.ports.all(p, p.number > 0 && p.nam != '')"}, {expression: "object.spec.labels.foo == 1"}]`},
	{"metadata-objectmeta", tcWidgets, `validations: [{expression: "object.metadata.labels['app'] == 'x' && object.metadata.generation > 0"}, {expression: "object.metadata.creationTimestamp < timestamp('2020-01-01T00:00:00Z')"}, {expression: "object.metadata.ownerReferences.all(o, o.controller && o.uid != '')"}, {expression: "object.metadata.nosuch == 'x'"}, {expression: "object.metadata.name.size() > 1 && object.metadata.__namespace__ != ''"}, {expression: "object.metadata.managedFields.exists(m, m.fieldsV1.x == 1)"}, {expression: "object.metadata.generation == 'a'"}]`},
	{"typemeta", tcWidgets, `validations: [{expression: "object.apiVersion == 1"}, {expression: "object.kind.startsWith('W')"}]`},
	{"embedded-resource", tcWidgets, `validations: [{expression: "object.spec.template.metadata.labels.size() > 0 && object.spec.template.kind != ''"}, {expression: "object.spec.template.spec.x == 1"}, {expression: "object.spec.template.apiVersion == 2"}]`},
	{"preserve-unknown", tcWidgets, `validations: [{expression: "object.spec.extra.anything == 1"}]`},
	{"escaped-names", tcWidgets, `validations: [{expression: "object.spec.__in__ == 'a' && object.spec.dash__dash__name == 'b'"}, {expression: "object.spec.dash_name == 'b'"}]`},
	{"old-object", tcWidgets, `validations: [{expression: "oldObject == null || oldObject.spec.replicas <= object.spec.replicas"}, {expression: "oldObject.spec.replicass == 1"}]`},
	{"message-expression", tcWidgets, `validations: [{expression: "true", messageExpression: "'replicas: ' + object.spec.replicas"}, {expression: "true", messageExpression: "'image: ' + object.spec.image"}, {expression: "object.spec.x", messageExpression: "object.spec.y"}]`},
	{"variables", tcWidgets, `variables: [{name: r, expression: "object.spec.replicas"}, {name: img, expression: "object.spec.image"}, {name: spec, expression: "object.spec"}, {name: bad, expression: "object.spec.nosuch"}, {name: ports, expression: "object.spec.ports.map(p, p.number)"}]
  validations: [{expression: "variables.r > 'x'"}, {expression: "variables.img.size() > 1 && variables.spec.whatever == 1"}, {expression: "variables.bad == 1"}, {expression: "variables.ports.all(n, n == 'a')"}, {expression: "variables.nosuch == 1"}]`},
	{"params-typed", tcWidgets, `paramKind: {apiVersion: config.example.com/v1, kind: Setting}
  validations: [{expression: "object.spec.replicas <= params.maxReplicas"}, {expression: "object.spec.image.startsWith(params.registry) && params.allowed.exists(a, a == 1)"}, {expression: "params.nosuch == 1"}, {expression: "params.registry == object.spec.replicas"}]`},
	{"params-builtin-dyn", tcWidgets, `paramKind: {apiVersion: v1, kind: ConfigMap}
  validations: [{expression: "params.data.anything == 'x' && object.spec.replicas > 0"}, {expression: "object.spec.replicas > params.data.max"}]`},
	{"params-unparsable", tcWidgets, `paramKind: {apiVersion: a/b/c, kind: Setting}
  validations: [{expression: "params.maxReplicas > 1"}]`},
	{"no-params-kind", tcWidgets, `validations: [{expression: "params.x == 1"}]`},
	{"match-conditions-not-checked", tcWidgets, `matchConditions: [{name: m, expression: "object.spec.nosuch == 1"}]
  validations: [{expression: "object.spec.replicas > 0"}]`},
	{"audit-annotations-not-checked", tcWidgets, `auditAnnotations: [{key: a, valueExpression: "string(object.spec.nosuch)"}]
  validations: [{expression: "object.spec.replicas > 0"}]`},
	{"multiple-versions", `{apiGroups: [example.com], apiVersions: [v1, v2], resources: [widgets], operations: ["*"]}`, `validations: [{expression: "object.spec.image != ''"}, {expression: "object.spec.replicas > 1"}, {expression: "object.spec.size == 'big'"}]`},
	{"unserved-version", `{apiGroups: [example.com], apiVersions: [v3alpha1, v2], resources: [widgets], operations: ["*"]}`, `validations: [{expression: "object.spec.nothing == 'x'"}]`},
	{"two-kinds", `{apiGroups: [example.com], apiVersions: [v1], resources: [widgets, gadgets], operations: ["*"]}`, `validations: [{expression: "object.spec.size > 1"}, {expression: "object.spec.replicas > 1"}]`},
	{"two-rules", tcWidgets + `
    - {apiGroups: [config.example.com], apiVersions: [v1], resources: [settings], operations: ["*"]}`, `validations: [{expression: "object.maxReplicas > 0"}]`},
	{"singular-name", `{apiGroups: [example.com], apiVersions: [v1], resources: [widget], operations: ["*"]}`, `validations: [{expression: "object.spec.nosuch == 1"}]`},
	{"no-match", `{apiGroups: [example.com], apiVersions: [v1], resources: [nothings], operations: ["*"]}`, `validations: [{expression: "object.spec.nosuch == 1"}]`},
	{"wildcard-group", `{apiGroups: ["*"], apiVersions: [v1], resources: [widgets], operations: ["*"]}`, `validations: [{expression: "object.spec.nosuch == 1"}]`},
	{"wildcard-version", `{apiGroups: [example.com], apiVersions: ["*"], resources: [widgets], operations: ["*"]}`, `validations: [{expression: "object.spec.nosuch == 1"}]`},
	{"wildcard-and-subresource-resources", `{apiGroups: [example.com], apiVersions: [v1], resources: ["*", widgets/status, gadgets], operations: ["*"]}`, `validations: [{expression: "object.spec.nosuch == 1"}]`},
	{"core-group-version-match", `{apiGroups: [""], apiVersions: [v1], resources: [widgets], operations: ["*"]}`, `validations: [{expression: "object.spec.color == 1"}]`},
	{"builtin-kind-skipped", `{apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: ["*"]}`, `validations: [{expression: "object.spec.nosuch == 1"}]`},
	{"builtin-and-crd", `{apiGroups: ["", apps, example.com], apiVersions: [v1], resources: [pods, deployments, widgets], operations: ["*"]}`, `validations: [{expression: "object.spec.replicas == 'x'"}]`},
	{"cluster-scoped-embedded-list", `{apiGroups: [example.com], apiVersions: [v1], resources: [gadgets], operations: ["*"]}`, `validations: [{expression: "object.spec.items.all(i, i.metadata.name != '' && i.spec.anything == 1 && i.kind == 3)"}]`},
	{"preserve-unknown-root", `{apiGroups: [example.com], apiVersions: [v1], resources: [frees], operations: ["*"]}`, `validations: [{expression: "object.spec.anything == 1 && object.metadata.labels.size() > 0"}, {expression: "object.metadata.name == 1"}]`},
	{"request-namespace-authorizer", tcWidgets, `validations: [{expression: "request.userInfo.username == 1"}, {expression: "namespaceObject.metadata.labels.env == 'prod'"}, {expression: "authorizer.group('').resource('pods').check('get').allowed()"}, {expression: "authorizer.requestResource.check('get').allowed()"}]`},
	{"syntax-error", tcWidgets, `validations: [{expression: "object.spec.replicas >"}]`},
	{"object-type-in-message", tcWidgets, `validations: [{expression: "object.spec + 1 == 2"}, {expression: "object.spec.ports[0] == 'a'"}]`},
	{"ten-kinds-stop-the-enumeration", `{apiGroups: [config.example.com, example.com, other.example.org], apiVersions: [v1, v2], resources: [gadget, gadgets, setting, settings, widget, widgets], operations: ["*"]}
    - {apiGroups: [example.com], apiVersions: [v1], resources: [frees], operations: ["*"]}`, `validations: [{expression: "object.spec.nosuch == 1"}]`},
	{"upper-case-resource", `{apiGroups: [example.com], apiVersions: [v1], resources: [Widgets], operations: ["*"]}`, `validations: [{expression: "object.spec.nosuch == 1"}]`},
	{"params-unserved-version", tcWidgets, `paramKind: {apiVersion: example.com/v3alpha1, kind: Widget}
  validations: [{expression: "params.anything == object.spec.replicas"}]`},
	{"params-empty-api-version", tcWidgets, `paramKind: {kind: Setting}
  validations: [{expression: "params.anything == 1"}]`},
	{"params-same-kind-as-object", tcWidgets, `paramKind: {apiVersion: example.com/v1, kind: Widget}
  validations: [{expression: "params.spec.replicas == object.spec.replicas"}, {expression: "params.spec == object.spec.replicas"}]`},
	{"variable-redefined", tcWidgets, `variables: [{name: v, expression: "object.spec.replicas"}, {name: v, expression: "object.spec.image"}]
  validations: [{expression: "variables.v > 1"}, {expression: "variables.v.startsWith('a')"}]`},
	{"non-bool-result-not-checked", tcWidgets, `validations: [{expression: "object.spec.replicas"}, {expression: "true", messageExpression: "object.spec.replicas"}]`},
	{"nested-maps-and-lists", tcWidgets, `validations: [{expression: "object.spec.mapobj.all(k, object.spec.mapobj[k].x > 0)"}, {expression: "object.spec.mapobj['a'] + 1 > 0"}, {expression: "object.spec.matrix.all(r, r.all(c, c.y == 1))"}, {expression: "object.spec.matrix[0][0] == 1"}]`},
	{"more-escaped-names", tcWidgets, `validations: [{expression: "object.spec.a__dot__b == 'x' && object.spec.x__slash__y > 0 && object.spec.__namespace__ == 'n' && object.spec.__if__"}, {expression: "object.spec.x__slash__y == 'a'"}, {expression: "object.spec.namespace == 'n'"}, {expression: "object.spec.1st == 'a'"}]`},
	{"crd-kind", `{apiGroups: [apiextensions.k8s.io], apiVersions: [v1], resources: [customresourcedefinitions], operations: ["*"]}`, `validations: [{expression: "object.spec.versions.exists(v, v.name == 'v1' && v.served)"}, {expression: "object.spec.group == 1"}, {expression: "object.spec.names.kindd == 'x'"}, {expression: "object.metadata.annotations['gateway.networking.k8s.io/bundle-version'] < 'v1.5.0'"}, {expression: "object.status.storedVersions.all(v, v != '')"}, {expression: "object.spec.versions[0].schema.openAPIV3Schema.properties['spec'].type == 'object'"}, {expression: "object.spec.versions[0].schema.openAPIV3Schema.type == 1"}, {expression: "object.spec.conversion.webhook.clientConfig.caBundle.size() > 0 && object.spec.preserveUnknownFields"}]`},
	{"crd-kind-core-group-and-singular", `{apiGroups: [""], apiVersions: [v1], resources: [customresourcedefinition], operations: ["*"]}`, `validations: [{expression: "object.spec.nosuch == 1"}]`},
	{"crd-kind-as-params", tcWidgets, `paramKind: {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition}
  validations: [{expression: "params.spec.group == object.spec.replicas"}, {expression: "params.spec.names.plural != ''"}]`},
	{"no-match-constraints", ``, `validations: [{expression: "object.spec.nosuch == 1"}]`},
	{"optional-and-has", tcWidgets, `validations: [{expression: "has(object.spec.image) && !has(object.spec.imag)"}, {expression: "object.spec.?image.orValue('') != ''"}]`},
}

func typeCheckPolicyYAML(name, rules, spec string) string {
	mc := ""
	if rules != "" {
		mc = "  matchConstraints:\n    resourceRules:\n    - " + rules + "\n"
	}
	return fmt.Sprintf(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: %s}
spec:
%s  %s
`, name, mc, spec)
}

// TestPolicyTypeCheckingIsUpstreams: the status.typeChecking warnings of
// each policy, against the CRDs of the case, equal those of upstream's
// TypeChecker (the policy status controller's) with the REST mapper of
// discovery and the schema resolver of the published OpenAPI v3 documents
// (conformance/upstream.TypeCheckPolicy). Upstream names the object types
// after the kind and the nanosecond of the check; crdlab after the kind and
// 0 (object) or 1 (params): both are compared with the digits removed.
func TestPolicyTypeCheckingIsUpstreams(t *testing.T) {
	var theirCRDs []*apiextensionsv1.CustomResourceDefinition
	var ourCRDs []*crd.CustomResourceDefinition
	for _, src := range typeCheckCRDs {
		theirCRDs = append(theirCRDs, mustDecodeCRD(t, src))
		c, err := crd.DecodeOne([]byte(src), "crd.yaml")
		if err != nil {
			t.Fatal(err)
		}
		ourCRDs = append(ourCRDs, c)
	}
	withWarnings := 0
	for _, tc := range typeCheckPolicies {
		t.Run(tc.name, func(t *testing.T) {
			if compareTypeChecking(t, typeCheckPolicyYAML(tc.name, tc.rules, tc.spec), theirCRDs, ourCRDs) > 0 {
				withWarnings++
			}
		})
	}
	if withWarnings < len(typeCheckPolicies)/2 {
		t.Errorf("only %d of %d policies have warnings upstream: the cases exercise too little", withWarnings, len(typeCheckPolicies))
	}
}

// compareTypeChecking type-checks the one policy of src with upstream's
// TypeChecker and crdlab's and fails the test on any difference in the
// warnings (the digits of type names aside); it returns upstream's count.
func compareTypeChecking(t *testing.T, src string, theirCRDs []*apiextensionsv1.CustomResourceDefinition, ourCRDs []*crd.CustomResourceDefinition) int {
	t.Helper()
	names := []string{"CustomResourceDefinition"}
	for _, c := range ourCRDs {
		names = append(names, regexp.QuoteMeta(c.Spec.Names.Kind))
	}
	typeName := regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)[0-9]+\b`)
	norm := func(s string) string { return typeName.ReplaceAllString(s, "${1}#") }
	js, err := yaml.YAMLToJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want, err := upstream.TypeCheckPolicy(js, theirCRDs, typeCheckBuiltins)
	if err != nil {
		t.Fatal(err)
	}
	in, err := iadm.DecodeFile([]byte(src), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Policies) != 1 {
		t.Fatalf("%d policies", len(in.Policies))
	}
	got, err := iadm.TypeCheck(in.Policies[0], ourCRDs)
	if err != nil {
		t.Fatal(err)
	}
	wj, _ := json.MarshalIndent(want, "", "  ")
	gj, _ := json.MarshalIndent(got, "", "  ")
	if norm(string(wj)) != norm(string(gj)) {
		t.Errorf("warnings differ\nupstream: %s\ncrdlab:   %s", wj, gj)
	}
	return len(want)
}

// TestPublishedDeclTypeIsTheResolvedSchemasType: for every served version
// of the type-checking CRDs, crdlab's type of the kind
// (internal/cel.PublishedDeclType of the structural schema) is, field by
// field, the type upstream's type checker builds from the published
// OpenAPI v3 document (ObjectMeta, TypeMeta, embedded resources, formats).
func TestPublishedDeclTypeIsTheResolvedSchemasType(t *testing.T) {
	for _, src := range typeCheckCRDs {
		theirs := mustDecodeCRD(t, src)
		ours, err := crd.DecodeOne([]byte(src), "crd.yaml")
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range ours.Spec.Versions {
			if !v.Served {
				continue
			}
			want, err := upstream.PublishedDeclType(theirs, v.Name, "T")
			if err != nil {
				t.Fatal(err)
			}
			s, err := schema.NewStructural(v.Schema.OpenAPIV3Schema)
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			renderOurDeclType("object", kcel.PublishedDeclType(s).MaybeAssignTypeName("T"), false, &lines)
			sort.Strings(lines)
			if got := strings.Join(lines, "\n"); got != want {
				t.Errorf("%s %s: types differ\nupstream:\n%s\ncrdlab:\n%s", ours.Metadata.Name, v.Name, want, got)
			}
			if !strings.Contains(want, "object.metadata.ownerReferences[].uid: string (required)") {
				t.Errorf("%s %s: the upstream type lacks ObjectMeta:\n%s", ours.Metadata.Name, v.Name, want)
			}
		}
	}
}

func renderOurDeclType(path string, t *kcel.DeclType, required bool, lines *[]string) {
	line := path + ": " + t.CelType().String()
	if required {
		line += " (required)"
	}
	*lines = append(*lines, line)
	switch {
	case t.IsObject():
		for n, f := range t.Fields {
			renderOurDeclType(path+"."+n, f.Type, f.Required, lines)
		}
	case t.IsList():
		renderOurDeclType(path+"[]", t.ElemType, false, lines)
	case t.IsMap():
		renderOurDeclType(path+"{}", t.ElemType, false, lines)
	}
}

var updateTypeCheck = flag.Bool("update-typecheck", false, "rewrite internal/admission/crdkind.json from upstream")

// TestCRDKindSchemaIsUpstreams pins internal/admission/crdkind.json, the
// schema crdlab types apiextensions.k8s.io/v1 CustomResourceDefinition
// with, to the one the policy status controller's definitions resolver
// gives (-update-typecheck rewrites it).
func TestCRDKindSchemaIsUpstreams(t *testing.T) {
	s, err := upstream.CRDKindSchema()
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	const path = "../internal/admission/crdkind.json"
	if *updateTypeCheck {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	cur, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(cur, want) {
		t.Errorf("%s differs from upstream's CustomResourceDefinition schema (go test -run TestCRDKindSchemaIsUpstreams -update-typecheck)", path)
	}
}

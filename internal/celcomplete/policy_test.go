package celcomplete

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
)

// The expressions of an admission policy complete with the variables
// kube-apiserver declares for them: object and oldObject typed by the
// matched kind's schema, request, namespaceObject, params, the policy's
// variables (typed by their expressions when those are select chains),
// authorizer; and, where an identifier starts, their names.
func TestCompletePolicyOffersThePolicyVariables(t *testing.T) {
	root, _ := schemas(t)
	p := &Policy{Object: root, Params: true, Variables: []PolicyVariable{
		{Name: "replicas", Expression: "object.spec.replicas"},
		{Name: "firstItem", Expression: "object.spec.items[0]"},
		{Name: "computed", Expression: "object.spec.replicas + 1"},
		{Name: "again", Expression: "variables.firstItem.ports"},
	}}
	all := []string{"authorizer", "namespaceObject", "object", "oldObject", "params", "request", "variables"}
	for _, c := range []struct {
		name   string
		p      *Policy
		before string
		from   int
		typ    string
		has    []string
		lacks  []string
		exact  []string
	}{
		{"object's root", p, "object.", 7, "object", []string{"apiVersion", "kind", "metadata", "spec"}, nil, nil},
		{"object's fields", p, "object.spec.", 12, "object", []string{"replicas", "items", "max__dash__surge", "__namespace__"}, nil, nil},
		{"a name typed", p, "has(oldObject.spec.rep", 19, "object", []string{"replicas"}, nil, nil},
		{"a macro on the object", p, "object.spec.items.all(i, i.", 27, "object", nil, nil, []string{"name", "ports"}},
		{"request", p, "request.", 8, "kubernetes.AdmissionRequest", []string{"operation", "userInfo", "kind", "resource", "namespace", "dryRun", "options"}, nil, nil},
		{"request.userInfo", p, "request.userInfo.", 17, "kubernetes.UserInfo", nil, nil, []string{"extra", "groups", "uid", "username"}},
		{"request.userInfo.groups", p, "request.userInfo.groups.", 24, "list(string)", []string{"exists", "join"}, nil, nil},
		{"namespaceObject", p, "namespaceObject.metadata.labels.", 32, "map(string, string)", []string{"all"}, nil, nil},
		{"variables by name", p, "variables.", 10, "kubernetes.variables", nil, nil, []string{"again", "computed", "firstItem", "replicas"}},
		{"a variable typed by its chain", p, "variables.firstItem.", 20, "object", nil, nil, []string{"name", "ports"}},
		{"a variable from a variable", p, "variables.again.", 16, "list(object)", []string{"all", "size"}, nil, nil},
		{"authorizer", p, "authorizer.", 11, "Authorizer", nil, nil, []string{"group", "path", "requestResource", "serviceAccount"}},
		{"authorizer checks", p, "authorizer.group('apps').resource('deployments').", 49, "ResourceCheck", []string{"check", "namespace", "name", "subresource"}, nil, nil},
		{"authorizer decision", p, "authorizer.requestResource.check('update').", 43, "Decision", nil, nil, []string{"allowed", "error", "errored", "reason"}},
		{"names at the start", p, "", 0, "", all, nil, nil},
		{"names after an operator", p, "object.spec.replicas <= ", 24, "", all, nil, nil},
		{"a name typed", p, "size(ob", 5, "", []string{"object", "oldObject"}, nil, nil},
		{"macro variables in scope", p, "object.spec.items.all(item, ", 28, "", []string{"item", "object"}, nil, nil},
		{"no params without paramKind", &Policy{}, "", 0, "", []string{"object"}, []string{"params"}, nil},
		{"object is dyn without a schema", &Policy{}, "object.", 0, "", nil, nil, nil},
		{"nil policy", nil, "request.name.", 13, "string", []string{"startsWith"}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := CompletePolicy(c.p, c.before)
			if c.has == nil && c.exact == nil {
				if r != nil {
					t.Fatalf("got %+v, want nothing", r)
				}
				return
			}
			if r == nil {
				t.Fatal("nothing offered")
			}
			if r.From != c.from || r.Type != c.typ {
				t.Errorf("from %d type %q, want %d %q", r.From, r.Type, c.from, c.typ)
			}
			got := labels(r)
			for _, h := range c.has {
				if !slices.Contains(got, h) {
					t.Errorf("%q missing from %v", h, got)
				}
			}
			for _, l := range c.lacks {
				if slices.Contains(got, l) {
					t.Errorf("%q offered: %v", l, got)
				}
			}
			if c.exact != nil && !reflect.DeepEqual(got, c.exact) {
				t.Errorf("got %v, want %v", got, c.exact)
			}
		})
	}
}

// No names are offered where no identifier may start: inside a string, in
// a number, right after a complete identifier.
func TestCompletePolicyOffersNoNameWhereNoIdentifierStarts(t *testing.T) {
	for _, before := range []string{"'obj", `"a" + "ob`, "12", "object ", "object.spec.replicas"} {
		if r := CompletePolicy(&Policy{}, before); r != nil {
			t.Errorf("%q: got %+v, want nothing", before, r)
		}
	}
}

// The names' details are their types: object is the schema's object,
// a variable's the type of its chain.
func TestCompletePolicyNameDetails(t *testing.T) {
	root, _ := schemas(t)
	r := CompletePolicy(&Policy{Object: root}, "")
	got := map[string]string{}
	for _, o := range r.Options {
		if o.Kind != Variable {
			t.Errorf("%s: kind %s", o.Label, o.Kind)
		}
		got[o.Label] = o.Detail
	}
	want := map[string]string{"authorizer": "Authorizer", "namespaceObject": "kubernetes.Namespace", "object": "object",
		"oldObject": "object", "request": "kubernetes.AdmissionRequest", "variables": "kubernetes.variables"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// PolicyFor types object by the CRD version the policy's rules match (the
// kind type checking checks; with a wildcard version, the served version
// the rules match, storage first), params by paramKind's CRD, and reads
// the variables; a policy matching another resource leaves object dyn.
func TestPolicyForTypesObjectByTheMatchedVersion(t *testing.T) {
	const crdText = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {old: {type: string}}}}}}
  - name: v2
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}
`
	defs, err := crd.Decode([]byte(crdText), "crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	policy := func(versions, paramKind string) string {
		return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: p}
spec:
  ` + paramKind + `
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: ` + versions + `, operations: [CREATE], resources: [widgets]}
  variables:
  - {name: size, expression: object.spec.size}
  validations:
  - expression: "true"
`
	}
	for _, c := range []struct {
		name, doc, before string
		want              []string
	}{
		{"the version named", policy("[v1]", ""), "object.spec.", []string{"old"}},
		{"a wildcard version: the storage version", policy(`["*"]`, ""), "object.spec.", []string{"size"}},
		{"variables", policy("[v2]", ""), "variables.", []string{"size"}},
		{"a variable typed by the schema", policy("[v2]", ""), "variables.size.", nil},
		{"params typed by paramKind", policy("[v2]", "paramKind: {apiVersion: example.com/v1, kind: Widget}"), "params.spec.", []string{"old"}},
		{"another resource", strings.Replace(policy("[v2]", ""), "widgets]", "gadgets]", 1), "object.", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := PolicyFor([]byte(c.doc), defs)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if r := CompletePolicy(p, c.before); r != nil {
				for _, o := range r.Options {
					if o.Kind == Property {
						got = append(got, o.Label)
					}
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s properties %v, want %v", c.before, got, c.want)
			}
		})
	}
	if _, err := PolicyFor([]byte("spec: {variables: 3}"), defs); err == nil {
		t.Error("a policy whose variables are not a list: no error")
	}
}

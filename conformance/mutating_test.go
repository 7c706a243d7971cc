package conformance

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/engine/crd"
)

// The differential suite of mutating admission policies: every case runs
// crdlab's admission.Mutator and k8s.io/apiserver's mutating policy
// dispatcher (conformance/upstream.Mutate, the reinvoker's two passes) on
// the same policies, bindings, params and request, and compares the
// mutated object, the status (message, first cause, reason, code) and
// whether the reinvocation pass ran.

const widgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
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
              replicas: {type: integer}
              image: {type: string}
              mode: {type: string, default: auto}
              big: {type: integer}
              tags: {type: array, items: {type: string}}
              set: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer}
                    protocol: {type: string}
              labels: {type: object, additionalProperties: {type: string}}
              atomicMap: {type: object, x-kubernetes-map-type: atomic, additionalProperties: {type: string}}
              atomicStruct:
                type: object
                x-kubernetes-map-type: atomic
                properties: {a: {type: string}, b: {type: string}}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true}
              initContainers:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    image: {type: string}
                    args: {type: array, items: {type: string}}
                    restartPolicy: {type: string}
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
              replicas: {type: integer}
              image: {type: string}
              mode: {type: string, default: auto}
              big: {type: integer}
              tags: {type: array, items: {type: string}}
              set: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer}
                    protocol: {type: string}
              labels: {type: object, additionalProperties: {type: string}}
              atomicMap: {type: object, x-kubernetes-map-type: atomic, additionalProperties: {type: string}}
              atomicStruct:
                type: object
                x-kubernetes-map-type: atomic
                properties: {a: {type: string}, b: {type: string}}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true}
              initContainers:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    image: {type: string}
                    args: {type: array, items: {type: string}}
                    restartPolicy: {type: string}
`

const widgetObject = `apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default, labels: {app: web}}
spec:
  replicas: 2
  image: nginx
  mode: manual
  tags: [a, b]
  set: [x]
  ports: [{name: http, port: 80}]
  labels: {team: blue}
  atomicMap: {k: v}
  atomicStruct: {a: "1"}
  free: {nested: {keep: true}}
`

type mutatingCase struct {
	name string
	// policies: MutatingAdmissionPolicies, bindings, params (YAML)
	policies string
	op       string // CREATE when empty
	obj, old string // widgetObject when obj is empty and op is not DELETE
	// noSchema: the kind's schema is not published (no type converter).
	noSchema bool
}

// mapPolicy is a policy named name matching widgets with the given
// mutations (YAML list items, indented by 2) and extra spec fields, and a
// binding "<name>-binding" with the given binding spec extras.
func mapPolicy(name, extra, mutations, bindingExtra string) string {
	return fmt.Sprintf(`
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: %s}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE, UPDATE, DELETE], resources: [widgets]}
%s  mutations:
%s
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: %s-binding}
spec:
  policyName: %s
%s---
`, name, extra, mutations, name, name, bindingExtra)
}

func ac(expr string) string {
	return fmt.Sprintf("  - patchType: ApplyConfiguration\n    applyConfiguration:\n      expression: %s\n", quoteYAML(expr))
}

func jp(expr string) string {
	return fmt.Sprintf("  - patchType: JSONPatch\n    jsonPatch:\n      expression: %s\n", quoteYAML(expr))
}

func quoteYAML(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func one(extra, mutations string) string { return mapPolicy("p", extra, mutations, "") }

func mutatingCases() []mutatingCase {
	ignore := "  failurePolicy: Ignore\n"
	ifNeeded := "  reinvocationPolicy: IfNeeded\n"
	return []mutatingCase{
		// ApplyConfiguration on each kind of field.
		{name: "ac-scalar", policies: one("", ac(`Object{spec: Object.spec{replicas: 5}}`))},
		{name: "ac-scalar-from-object", policies: one("", ac(`Object{spec: Object.spec{replicas: object.spec.replicas * 2, image: object.spec.image + ":1.25"}}`))},
		{name: "ac-atomic-list", policies: one("", ac(`Object{spec: Object.spec{tags: ["c"]}}`))},
		{name: "ac-atomic-list-ignore", policies: one(ignore, ac(`Object{spec: Object.spec{tags: ["c"]}}`))},
		{name: "ac-set-merge", policies: one("", ac(`Object{spec: Object.spec{set: ["y", "x"]}}`))},
		{name: "ac-set-duplicates", policies: one("", ac(`Object{spec: Object.spec{set: ["y", "y"]}}`))},
		{name: "ac-map-list-add", policies: one("", ac(`Object{spec: Object.spec{ports: [Object.spec.ports{name: "grpc", port: 9090}]}}`))},
		{name: "ac-map-list-merge-key", policies: one("", ac(`Object{spec: Object.spec{ports: [Object.spec.ports{name: "http", protocol: "TCP"}]}}`))},
		{name: "ac-map-list-from-object", policies: one("", ac(`Object{spec: Object.spec{ports: object.spec.ports.map(p, Object.spec.ports{name: p.name, port: p.port + 1})}}`))},
		{name: "ac-granular-map", policies: one("", ac(`Object{spec: Object.spec{labels: {"tier": "gold"}}}`))},
		{name: "ac-atomic-map", policies: one("", ac(`Object{spec: Object.spec{atomicMap: {"k2": "v2"}}}`))},
		{name: "ac-atomic-struct", policies: one("", ac(`Object{spec: Object.spec{atomicStruct: Object.spec.atomicStruct{b: "2"}}}`))},
		{name: "ac-preserve-unknown", policies: one("", ac(`Object{spec: Object.spec{free: Object.spec.free{nested: Object.spec.free.nested{added: 1}, other: "x"}}}`))},
		// (One error each: SMD reports several in map order, which varies
		// upstream as here.)
		{name: "ac-nested-list-literals", policies: one("", ac(`Object{spec: Object.spec{free: Object.spec.free{x: [[1], [2]]}}}`))},
		{name: "ac-nested-map-literals", policies: one("", ac(`Object{spec: Object.spec{free: Object.spec.free{y: {"a": [{"b": 1}]}}}}`))},
		{name: "ac-nested-objects-in-list", policies: one("", ac(`Object{spec: Object.spec{free: Object.spec.free{z: [Object.spec.free.z{w: 1}]}}}`))},
		{name: "ac-null-field", policies: one("", ac(`Object{spec: Object.spec{image: null}}`))},
		{name: "ac-metadata-labels", policies: one("", ac(`Object{metadata: Object.metadata{labels: {"injected": "yes"}, annotations: {"a/b": "c"}}}`))},
		{name: "ac-type-name-mismatch", policies: one("", ac(`Object{spec: Object.spek{replicas: 1}}`))},
		{name: "ac-undeclared-field", policies: one("", ac(`Object{spec: Object.spec{unknown: 1}}`))},
		{name: "ac-wrong-type", policies: one("", ac(`Object{spec: Object.spec{replicas: "three"}}`))},
		{name: "ac-defaults-after-patch", policies: one("", ac(`Object{spec: Object.spec{replicas: 1}}`)), obj: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\nspec: {image: x}\n"},
		{name: "ac-compile-error", policies: one("", ac(`Object{spec: Object.spec{replicas: nope}}`))},
		{name: "ac-wrong-return-type", policies: one("", ac(`"a string"`))},
		{name: "ac-runtime-error", policies: one("", ac(`Object{spec: Object.spec{replicas: object.spec.missing}}`))},
		{name: "ac-runtime-error-ignore", policies: one(ignore, ac(`Object{spec: Object.spec{replicas: object.spec.missing}}`))},
		// JSONPatch.
		{name: "jp-add", policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/big", value: 42}]`))},
		{name: "jp-replace", policies: one("", jp(`[JSONPatch{op: "replace", path: "/spec/image", value: "busybox"}]`))},
		{name: "jp-remove", policies: one("", jp(`[JSONPatch{op: "remove", path: "/spec/tags"}]`))},
		{name: "jp-remove-missing", policies: one("", jp(`[JSONPatch{op: "remove", path: "/spec/nothing"}]`))},
		{name: "jp-remove-missing-ignore", policies: one(ignore, jp(`[JSONPatch{op: "remove", path: "/spec/nothing"}]`))},
		{name: "jp-test-pass", policies: one("", jp(`[JSONPatch{op: "test", path: "/spec/image", value: "nginx"}, JSONPatch{op: "replace", path: "/spec/image", value: "tested"}]`))},
		{name: "jp-test-fail", policies: one("", jp(`[JSONPatch{op: "test", path: "/spec/image", value: "other"}, JSONPatch{op: "replace", path: "/spec/image", value: "tested"}]`))},
		{name: "jp-escape-key", policies: one("", jp(`[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/a~b"), value: "v"}]`))},
		{name: "jp-list-append", policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/tags/-", value: "z"}]`))},
		{name: "jp-list-insert", policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/tags/0", value: "first"}]`))},
		{name: "jp-list-index-out-of-range", policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/tags/9", value: "far"}]`))},
		{name: "jp-mixed-literal-compile-error", policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/free", value: {"a": [1, 2.5, "s", true, null]}}]`))},
		{name: "jp-map-value", policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/free", value: {"a": dyn([1, 2]), "b": dyn("s"), "c": dyn(2.5), "d": dyn(null), "e": dyn({"x": true})}}]`))},
		{name: "jp-value-from-object", policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/free/copied", value: object.spec.ports}]`))},
		{name: "jp-object-value", policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/free", value: Object.spec.free{a: 1}}]`))},
		{name: "jp-copy-move", policies: one("", jp(`[JSONPatch{op: "copy", from: "/spec/image", path: "/spec/mode"}, JSONPatch{op: "move", from: "/spec/labels", path: "/metadata/annotations"}]`))},
		{name: "jp-replace-root", policies: one("", jp(`[JSONPatch{op: "replace", path: "", value: 1}]`))},
		{name: "jp-replace-metadata-object", policies: one("", jp(`[JSONPatch{op: "replace", path: "/metadata", value: Object.metadata{name: "w", namespace: "default", labels: {"a": "b"}}}]`))},
		{name: "jp-missing-parent", policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/a/b", value: 1}]`))},
		{name: "jp-remove-kind", policies: one("", jp(`[JSONPatch{op: "remove", path: "/kind"}]`))},
		{name: "jp-big-int", policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/big", value: 9007199254740993}]`))},
		{name: "jp-unknown-op", policies: one("", jp(`[JSONPatch{op: "frobnicate", path: "/spec/image"}]`))},
		{name: "jp-defaults-after-patch", policies: one("", jp(`[JSONPatch{op: "remove", path: "/spec/mode"}]`))},
		{name: "jp-compile-error-ignore", policies: one(ignore, jp(`[JSONPatch{op: 1}]`))},
		{name: "jp-compile-error", policies: one("", jp(`[JSONPatch{op: "add", path: 1}]`))},
		{name: "jp-and-ac-in-order", policies: one("", jp(`[JSONPatch{op: "replace", path: "/spec/replicas", value: 10}]`)+ac(`Object{spec: Object.spec{image: "r" + string(object.spec.replicas)}}`))},
		// The Kubernetes documentation's examples (Mutating Admission
		// Policy page), on a Pod-like initContainers map list.
		{name: "docs-sidecar-apply-configuration", policies: one("  matchConditions:\n  - name: does-not-already-have-sidecar\n    expression: '!has(object.spec.initContainers) || !object.spec.initContainers.exists(ic, ic.name == \"mesh-proxy\")'\n",
			ac(`Object{spec: Object.spec{initContainers: [Object.spec.initContainers{name: "mesh-proxy", image: "mesh/proxy:v1.0.0", args: ["proxy", "sidecar"], restartPolicy: "Always"}]}}`))},
		{name: "docs-sidecar-already-there", obj: strings.Replace(widgetObject, "spec:\n", "spec:\n  initContainers: [{name: mesh-proxy, image: old}]\n", 1),
			policies: one("  matchConditions:\n  - name: does-not-already-have-sidecar\n    expression: '!has(object.spec.initContainers) || !object.spec.initContainers.exists(ic, ic.name == \"mesh-proxy\")'\n",
				ac(`Object{spec: Object.spec{initContainers: [Object.spec.initContainers{name: "mesh-proxy", image: "mesh/proxy:v1.0.0"}]}}`))},
		{name: "docs-sidecar-json-patch", obj: strings.Replace(widgetObject, "spec:\n", "spec:\n  initContainers: [{name: init, image: busybox}]\n", 1),
			policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/initContainers/-", value: Object.spec.initContainers{name: "mesh-proxy", image: "mesh-proxy/v1.0.0", restartPolicy: "Always"}}]`))},
		{name: "docs-escape-key-label", policies: one("", jp(`[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/environment"), value: "test"}]`))},
		// Params, match conditions, variables.
		{name: "params-configmap", policies: mapPolicy("p", "  paramKind: {apiVersion: v1, kind: ConfigMap}\n",
			ac(`Object{spec: Object.spec{image: params.data.image}}`), "  paramRef: {name: settings, namespace: default, parameterNotFoundAction: Deny}\n") + `
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
data: {image: "registry.example/nginx:2"}
`},
		{name: "params-selector-two", policies: mapPolicy("p", "  paramKind: {apiVersion: v1, kind: ConfigMap}\n",
			jp(`[JSONPatch{op: "add", path: "/metadata/labels/" + params.metadata.name, value: "set"}]`), "  paramRef: {selector: {matchLabels: {use: \"yes\"}}, parameterNotFoundAction: Allow}\n") + `
apiVersion: v1
kind: ConfigMap
metadata: {name: one, namespace: default, labels: {use: "yes"}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: two, namespace: default, labels: {use: "yes"}}
`},
		{name: "params-not-found-deny", policies: mapPolicy("p", "  paramKind: {apiVersion: v1, kind: ConfigMap}\n",
			ac(`Object{spec: Object.spec{image: params.data.image}}`), "  paramRef: {name: missing, parameterNotFoundAction: Deny}\n")},
		{name: "params-not-found-allow", policies: mapPolicy("p", "  paramKind: {apiVersion: v1, kind: ConfigMap}\n",
			ac(`Object{spec: Object.spec{image: params.data.image}}`), "  paramRef: {name: missing, parameterNotFoundAction: Allow}\n")},
		{name: "match-condition-false", policies: one("  matchConditions:\n  - {name: big, expression: 'object.spec.replicas > 10'}\n", ac(`Object{spec: Object.spec{replicas: 1}}`))},
		{name: "match-condition-true", policies: one("  matchConditions:\n  - {name: small, expression: 'object.spec.replicas < 10'}\n", ac(`Object{spec: Object.spec{replicas: 1}}`))},
		{name: "match-condition-error", policies: one("  matchConditions:\n  - {name: bad, expression: 'object.spec.missing == 1'}\n", ac(`Object{spec: Object.spec{replicas: 1}}`))},
		{name: "match-condition-error-ignore", policies: one(ignore+"  matchConditions:\n  - {name: bad, expression: 'object.spec.missing == 1'}\n", ac(`Object{spec: Object.spec{replicas: 1}}`))},
		{name: "variables", policies: one("  variables:\n  - {name: img, expression: 'object.spec.image + \":latest\"'}\n  - {name: count, expression: 'size(variables.img)'}\n",
			ac(`Object{spec: Object.spec{image: variables.img, replicas: variables.count}}`))},
		{name: "variables-per-mutation-reinvoked", policies: one(ifNeeded+"  variables:\n  - {name: r, expression: 'object.spec.replicas + 1'}\n",
			ac(`Object{spec: Object.spec{replicas: variables.r}}`)+jp(`[JSONPatch{op: "add", path: "/spec/tags/-", value: string(variables.r)}]`))},
		{name: "variable-error", policies: one("  variables:\n  - {name: bad, expression: 'object.spec.missing'}\n", ac(`Object{spec: Object.spec{image: variables.bad}}`))},
		// The authorizer (RBAC over rbacObjects; the requester is in
		// system:masters, so the checks are made for service accounts).
		{name: "authorizer-reasons", policies: one("", jp(`[JSONPatch{op: "add", path: "/metadata/annotations", value: {"deployer": authorizer.serviceAccount('prod', 'deployer').group('apps').resource('deployments').namespace('dev').check('update').reason(), "other": string(authorizer.serviceAccount('prod', 'other').group('').resource('pods').check('get').allowed())}}]`)) + rbacObjects},
		{name: "authorizer-field-compile-error", policies: one("", ac(`Object{spec: Object.spec{image: string(authorizer.serviceAccount('prod', 'other').requestResource.check('create').allowed())}}`)) + rbacObjects},
		{name: "authorizer-request-resource", policies: one("", ac(`Object{metadata: Object.metadata{labels: {"may-delete": string(authorizer.requestResource.check('delete').allowed())}}}`)) + rbacObjects},
		{name: "authorizer-match-condition", policies: one("  matchConditions:\n  - {name: ops, expression: \"authorizer.serviceAccount('kube-system', 'ops').path('/metrics').check('get').allowed()\"}\n  - {name: deployer, expression: \"authorizer.serviceAccount('prod', 'deployer').path('/metrics').check('get').allowed()\"}\n", ac(`Object{spec: Object.spec{replicas: 1}}`)) + rbacObjects},
		{name: "authorizer-error", policies: one("", ac(`Object{spec: Object.spec{image: authorizer.serviceAccount('BAD', 'x').path('/').check('get').reason()}}`)) + rbacObjects},
		{name: "namespace-object-and-request", policies: one("", jp(`[JSONPatch{op: "add", path: "/metadata/annotations", value: {"ns": namespaceObject.metadata.name, "op": request.operation, "user": request.userInfo.username}}]`))},
		// Equivalent matching: a policy for v2 sees (and patches) the v1
		// object converted to v2; the result is converted back to v1.
		{name: "equivalent-v2-policy", policies: strings.Replace(one("", jp(`[JSONPatch{op: "add", path: "/metadata/annotations", value: {"seen-as": string(object.apiVersion), "request": request.kind.version, "requested": request.requestKind.version}}]`)+ac(`Object{spec: Object.spec{replicas: 8}}`)), "apiVersions: [v1]", "apiVersions: [v2]", 1)},
		{name: "exact-v2-policy-skips-v1", policies: strings.Replace(strings.Replace(one("", ac(`Object{spec: Object.spec{replicas: 8}}`)), "apiVersions: [v1]", "apiVersions: [v2]", 1), "    resourceRules:", "    matchPolicy: Exact\n    resourceRules:", 1)},
		// Order, reinvocation, errors across policies.
		{name: "order-by-name", policies: mapPolicy("b-second", "", ac(`Object{spec: Object.spec{image: "from-b"}}`), "") + mapPolicy("a-first", "", ac(`Object{spec: Object.spec{image: "from-a", replicas: 7}}`), "")},
		{name: "reinvocation-if-needed", policies: mapPolicy("a", ifNeeded, ac(`Object{metadata: Object.metadata{labels: {"replicas": string(object.spec.replicas)}}}`), "") +
			mapPolicy("b", "", ac(`Object{spec: Object.spec{replicas: 9}}`), "")},
		{name: "reinvocation-never", policies: mapPolicy("a", "", ac(`Object{metadata: Object.metadata{labels: {"replicas": string(object.spec.replicas)}}}`), "") +
			mapPolicy("b", "", ac(`Object{spec: Object.spec{replicas: 9}}`), "")},
		{name: "reinvocation-append-twice", policies: mapPolicy("a", ifNeeded, jp(`[JSONPatch{op: "add", path: "/spec/tags/-", value: "again"}]`), "")},
		{name: "reinvocation-no-change", policies: mapPolicy("a", ifNeeded, jp(`[JSONPatch{op: "test", path: "/spec/image", value: "nope"}]`), "")},
		{name: "two-errors-first-wins", policies: mapPolicy("a", "", ac(`Object{spec: Object.spec{tags: ["x"]}}`), "") + mapPolicy("b", "", jp(`[JSONPatch{op: "remove", path: "/nothing"}]`), "")},
		{name: "error-then-success", policies: one("", jp(`[JSONPatch{op: "remove", path: "/nothing"}]`)+ac(`Object{spec: Object.spec{replicas: 3}}`))},
		{name: "binding-excludes-namespace", policies: mapPolicy("p", "", ac(`Object{spec: Object.spec{replicas: 3}}`),
			"  matchResources:\n    namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [default]}]}\n")},
		{name: "delete-no-object", op: "DELETE", old: widgetObject, policies: one("", ac(`Object{spec: Object.spec{replicas: 3}}`))},
		{name: "update-old-object", op: "UPDATE", old: strings.Replace(widgetObject, "replicas: 2", "replicas: 40", 1),
			policies: one("", ac(`Object{spec: Object.spec{replicas: oldObject.spec.replicas + 1}}`))},
		{name: "no-schema", noSchema: true, policies: one("", jp(`[JSONPatch{op: "add", path: "/spec/big", value: 1}]`))},
	}
}

type widgetResources struct{}

func (widgetResources) Equivalents(res admission.GVR, sub string) []admission.Equivalent {
	var out []admission.Equivalent
	for _, v := range []string{"v1", "v2"} {
		out = append(out, admission.Equivalent{Resource: admission.GVR{Group: "example.com", Version: v, Resource: "widgets"}, Kind: admission.GVK{Group: "example.com", Version: v, Kind: "Widget"}})
	}
	return out
}
func (widgetResources) ParamScope(apiVersion, kind string) bool { return true }

type mutatingOutcome struct {
	Object         map[string]interface{}
	Denied         bool
	Message, Cause string
	Reason         string
	Code           int
	Reinvoked      bool
}

func TestMutatingAdmissionPolicies(t *testing.T) {
	def, err := crd.DecodeOne([]byte(widgetCRD), "widgets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	target, err := admission.TargetFor(def)
	if err != nil {
		t.Fatal(err)
	}
	upCRD := mustDecodeCRD(t, widgetCRD)
	cases := mutatingCases()
	if len(cases) < 40 {
		t.Errorf("%d cases, want at least 40", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := admission.DecodeFile([]byte(admissionNamespaces+"\n---\n"+c.policies), c.name+".yaml")
			if err != nil {
				t.Fatal(err)
			}
			if len(in.MutatingPolicies) == 0 {
				t.Fatal("no policies")
			}
			m, err := admission.NewMutator(admission.MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings, Objects: in.Objects, Resources: widgetResources{}})
			if err != nil {
				t.Fatal(err)
			}
			var pols, binds [][]byte
			for _, p := range in.MutatingPolicies {
				b, _ := json.Marshal(p)
				pols = append(pols, b)
			}
			for _, b := range in.MutatingBindings {
				bb, _ := json.Marshal(b)
				binds = append(binds, bb)
			}
			op := c.op
			if op == "" {
				op = "CREATE"
			}
			objYAML := c.obj
			if objYAML == "" && op != "DELETE" {
				objYAML = widgetObject
			}
			obj, old := mustJSON(t, objYAML), mustJSON(t, c.old)
			objects := append(append([]map[string]interface{}(nil), in.Objects...), admission.DefaultNamespace("default"))
			res := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
			kind := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
			usr := admission.UserInfo{Username: "admin", Groups: []string{"system:masters", "system:authenticated"}}
			upDef := upCRD
			tgt := target
			if c.noSchema {
				upDef, tgt = nil, admission.MutationTarget{}
			}
			up, err := upstream.Mutate(&upstream.AdmissionInput{
				Policies: pols, Bindings: binds, Objects: objects, ParamNamespaced: true,
				Equivalents: map[schema.GroupVersionResource]schema.GroupVersionKind{
					res: kind,
					{Group: "example.com", Version: "v2", Resource: "widgets"}: {Group: "example.com", Version: "v2", Kind: "Widget"},
				},
				Operation: op, Kind: kind, Resource: res, Name: "w", Namespace: "default",
				Object: obj, OldObject: old,
				User:    &user.DefaultInfo{Name: usr.Username, Groups: usr.Groups},
				Options: upstreamOptions(op),
			}, upDef)
			if err != nil {
				t.Fatalf("upstream: %v", err)
			}
			r := m.Mutate(&admission.Request{
				Operation: op,
				Kind:      admission.GVK{Group: kind.Group, Version: kind.Version, Kind: kind.Kind},
				Resource:  admission.GVR{Group: res.Group, Version: res.Version, Resource: res.Resource},
				Name:      "w", Namespace: "default", Object: obj, OldObject: old, UserInfo: usr,
			}, tgt)
			got := mutatingOutcome{Object: r.Object, Reinvoked: r.Reinvoked}
			if r.Denied != nil {
				got.Object = nil
				got.Denied, got.Message, got.Cause, got.Reason, got.Code = true, r.Denied.Message, r.Denied.Cause, r.Denied.Reason, r.Denied.Code
			}
			want := mutatingOutcome{Object: up.Object, Denied: up.Denied, Message: up.Message, Cause: up.Cause, Reason: up.Reason, Code: up.Code, Reinvoked: up.Reinvoked}
			if want.Denied {
				want.Object = nil
			}
			g, _ := json.MarshalIndent(got, "", "  ")
			w, _ := json.MarshalIndent(want, "", "  ")
			if string(g) != string(w) || !reflect.DeepEqual(normalizeJSON(got.Object), normalizeJSON(want.Object)) {
				t.Errorf("crdlab:\n%s\nupstream:\n%s", g, w)
			}
			if testing.Verbose() {
				t.Logf("%s", w)
			}
		})
	}
}

func normalizeJSON(m map[string]interface{}) interface{} {
	if m == nil {
		return nil
	}
	b, _ := json.Marshal(m)
	var v interface{}
	_ = json.Unmarshal(b, &v)
	return v
}

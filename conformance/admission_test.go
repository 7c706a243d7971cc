package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/conformance/upstream"
)

// The differential suite of validating admission policies: every case runs
// crdlab's admission package and k8s.io/apiserver's validating policy
// dispatcher (conformance/upstream.Admit) on the same policies, bindings,
// params, Namespaces and request, and compares the verdict, status message,
// reason, code, warnings and audit annotations.

// admissionScenario is a set of policies and bindings (YAML) run against the
// standard requests, plus requests of its own.
type admissionScenario struct {
	name string
	yaml string
	// paramsClusterScoped: the param kind is cluster-scoped.
	paramsClusterScoped bool
	extra               []admissionRequest
}

type admissionRequest struct {
	name      string
	op        string
	obj, old  string // YAML
	namespace string
	resource  schema.GroupVersionResource
	kind      schema.GroupVersionKind
	sub       string
	user      admission.UserInfo
	dryRun    bool
}

var (
	crontabsV1   = schema.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}
	crontabsV2   = schema.GroupVersionResource{Group: "stable.example.com", Version: "v2", Resource: "crontabs"}
	crontabV1    = schema.GroupVersionKind{Group: "stable.example.com", Version: "v1", Kind: "CronTab"}
	crontabV2    = schema.GroupVersionKind{Group: "stable.example.com", Version: "v2", Kind: "CronTab"}
	crdsV1       = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	crdV1        = schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}
	namespacesV1 = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	namespaceV1  = schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}
)

func crontabYAML(name, ns string, replicas int, env string) string {
	return fmt.Sprintf(`apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: %s, namespace: %s, labels: {env: %s}, uid: 11111111-2222-3333-4444-555555555555, generation: 1}
spec: {replicas: %d, image: "nginx:1.25", cronSpec: "*/5 * * * *"}
`, name, ns, env, replicas)
}

// standardRequests run against every scenario.
var standardRequests = []admissionRequest{
	{name: "create-small", op: "CREATE", obj: crontabYAML("small", "prod", 3, "prod"), namespace: "prod"},
	{name: "create-big", op: "CREATE", obj: crontabYAML("big", "dev", 7, "dev"), namespace: "dev"},
	{name: "update-grow", op: "UPDATE", obj: crontabYAML("small", "prod", 9, "prod"), old: crontabYAML("small", "prod", 3, "prod"), namespace: "prod"},
	{name: "delete", op: "DELETE", old: crontabYAML("small", "other", 3, "test"), namespace: "other"},
}

const admissionNamespaces = `
apiVersion: v1
kind: Namespace
metadata: {name: prod, labels: {env: prod, kubernetes.io/metadata.name: prod}, uid: aaaa, resourceVersion: "12", creationTimestamp: "2024-01-02T03:04:05Z"}
spec: {finalizers: [kubernetes]}
status: {phase: Active}
---
apiVersion: v1
kind: Namespace
metadata: {name: dev, labels: {env: dev, kubernetes.io/metadata.name: dev}, annotations: {owner: team-a}}
status: {phase: Terminating}
`

// vap renders a policy matching CronTabs (v1) on every operation unless
// spec sets matchConstraints.
func vap(name, spec string) string {
	if !strings.Contains(spec, "matchConstraints:") {
		spec = `  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: ["*"], resources: [crontabs]}
` + spec
	}
	return fmt.Sprintf("---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: %s}\nspec:\n%s", name, spec)
}

func vapb(name, policy, actions, extra string) string {
	return fmt.Sprintf("---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: %s}\nspec:\n  policyName: %s\n  validationActions: [%s]\n%s", name, policy, actions, extra)
}

const replicasRule = `  validations:
  - expression: "object.spec.replicas <= 5"
`

func param(name, ns string, max int, labels string) string {
	nsLine := ""
	if ns != "" {
		nsLine = ", namespace: " + ns
	}
	return fmt.Sprintf("---\napiVersion: rules.example.com/v1\nkind: ReplicaLimit\nmetadata: {name: %s%s, labels: {%s}}\nmaxReplicas: %d\n", name, nsLine, labels, max)
}

const paramKind = "  paramKind: {apiVersion: rules.example.com/v1, kind: ReplicaLimit}\n"

const paramRule = paramKind + `  validations:
  - expression: "object.spec.replicas <= params.maxReplicas"
    messageExpression: "'at most ' + string(params.maxReplicas) + ' replicas (' + params.metadata.name + ')'"
`

func bigList(n int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprint(&b, i)
	}
	b.WriteString("]")
	return b.String()
}

func costlyObject(n int) string {
	return fmt.Sprintf("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: costly, namespace: prod}\nspec: {replicas: 1, items: %s}\n", bigList(n))
}

// stringObject has a 20,000-character spec.s: costlyFind on it costs
// 800,400 (find: ceil(20001 * 0.1) * ceil(1600 * 0.25)) and runs fast.
func stringObject() string {
	return fmt.Sprintf("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: costly, namespace: prod}\nspec: {replicas: 1, s: %s}\n", strings.Repeat("x", 20000))
}

var costlyFind = "object.spec.s.find('" + strings.Repeat("y", 1600) + "') == ''"

// facts renders one validation per expression: with the Warn action, the
// warnings list the expressions that are false or fail.
func facts(exprs ...string) string {
	var b strings.Builder
	b.WriteString("  validations:\n")
	for _, e := range exprs {
		fmt.Fprintf(&b, "  - expression: %q\n", e)
	}
	return b.String()
}

func manyValidations(n int, expr string) string {
	var b strings.Builder
	b.WriteString("  validations:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - expression: %q\n", expr)
	}
	return b.String()
}

const crdObject = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gateways.gateway.networking.k8s.io
  annotations: {gateway.networking.k8s.io/bundle-version: v1.4.0, gateway.networking.k8s.io/channel: experimental}
spec:
  group: gateway.networking.k8s.io
  scope: Namespaced
  names: {plural: gateways, kind: Gateway}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
`

const crdObjectStandard = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gateways.gateway.networking.k8s.io
  annotations: {gateway.networking.k8s.io/bundle-version: v1.6.1, gateway.networking.k8s.io/channel: standard}
spec:
  group: gateway.networking.k8s.io
  scope: Namespaced
  names: {plural: gateways, kind: Gateway}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
`

func admissionScenarios() []admissionScenario {
	deny := func(name, spec string) admissionScenario {
		return admissionScenario{name: name, yaml: vap("p", spec) + vapb("b", "p", "Deny", "")}
	}
	withActions := func(name, actions, spec string) admissionScenario {
		return admissionScenario{name: name, yaml: vap("p", spec) + vapb("b", "p", actions, "")}
	}
	s := []admissionScenario{
		deny("deny", replicasRule),
		withActions("warn", "Warn", replicasRule),
		withActions("audit", "Audit", replicasRule),
		withActions("deny-warn-audit", "Deny, Warn, Audit", replicasRule),
		withActions("warn-audit", "Warn, Audit", replicasRule),
		deny("message", `  validations:
  - expression: "object.spec.replicas <= 5"
    message: "  too many replicas  "
`),
		deny("message-expression", `  validations:
  - expression: "object.spec.replicas <= 5"
    message: static
    messageExpression: "'replicas: ' + string(object.spec.replicas)"
`),
		deny("message-expression-blank", `  validations:
  - expression: "object.spec.replicas <= 5"
    message: static fallback
    messageExpression: "'   '"
`),
		deny("message-expression-newline", `  validations:
  - expression: "object.spec.replicas <= 5"
    messageExpression: "'line1\\nline2'"
`),
		deny("message-expression-error", `  validations:
  - expression: "object.spec.replicas <= 5"
    message: fallback after error
    messageExpression: "object.spec.missing"
`),
		deny("message-expression-compile-error", `  validations:
  - expression: "object.spec.replicas <= 5"
    messageExpression: "object.spec.replicas"
`),
		deny("message-expression-uses-params-absent", `  validations:
  - expression: "object.spec.replicas <= 5"
    messageExpression: "params.x"
`),
		deny("reason-forbidden", `  validations:
  - expression: "object.spec.replicas <= 5"
    reason: Forbidden
`),
		deny("reason-too-large", `  validations:
  - expression: "object.spec.replicas <= 5"
    reason: RequestEntityTooLarge
`),
		deny("reason-unauthorized", `  validations:
  - expression: "object.spec.replicas <= 5"
    reason: Unauthorized
`),
		deny("several-validations", `  validations:
  - expression: "object.spec.image.startsWith('nginx')"
  - expression: "object.spec.replicas < 8"
    message: fewer than 8
  - expression: "object.spec.replicas <= 5"
    message: at most 5
`),
		deny("compile-error-fail", `  validations:
  - expression: "object.spec.replicas <= "
`),
		deny("compile-error-undeclared", `  validations:
  - expression: "obj.spec.replicas <= 5"
`),
		deny("compile-error-type", `  validations:
  - expression: "object.spec.replicas"
`),
		deny("compile-error-ignore", `  failurePolicy: Ignore
  validations:
  - expression: "object.spec.replicas <= "
`),
		withActions("compile-error-warn", "Warn", `  validations:
  - expression: "1 + 'a' == 2"
`),
		deny("runtime-error-fail", `  validations:
  - expression: "object.spec.missing == 1"
`),
		deny("runtime-error-ignore", `  failurePolicy: Ignore
  validations:
  - expression: "object.spec.missing == 1"
  - expression: "object.spec.replicas <= 5"
`),
		deny("unrecognized-failure-policy", `  failurePolicy: Sometimes
  validations:
  - expression: "object.spec.missing == 1"
`),
		deny("no-match-constraints-binding", `  matchConstraints: null
  validations:
  - expression: "false"
`),
		deny("match-conditions", `  matchConditions:
  - name: only-prod
    expression: "object != null && object.metadata.labels.env == 'prod'"
  - name: not-dry-run
    expression: "!request.dryRun"
`+replicasRule),
		deny("match-conditions-error-fail", `  matchConditions:
  - name: broken
    expression: "object.spec.nope == 1"
`+replicasRule),
		deny("match-conditions-errors-aggregated", `  matchConditions:
  - name: broken1
    expression: "object.spec.nope == 1"
  - name: broken2
    expression: "object.spec.nada == 1"
  - name: broken3
    expression: "object.spec.nope == 1"
`+replicasRule),
		deny("match-conditions-error-then-false", `  matchConditions:
  - name: broken
    expression: "object.spec.nope == 1"
  - name: never
    expression: "false"
`+replicasRule),
		deny("match-conditions-error-ignore", `  failurePolicy: Ignore
  matchConditions:
  - name: broken
    expression: "object.spec.nope == 1"
  validations:
  - expression: "false"
`),
		deny("match-conditions-compile-error", `  matchConditions:
  - name: bad
    expression: "object.spec.replicas"
`+replicasRule),
		deny("match-conditions-namespace-null", `  matchConditions:
  - name: ns
    expression: "namespaceObject == null"
  validations:
  - expression: "false"
    message: namespaceObject is null in matchConditions
`),
		deny("match-conditions-request", `  matchConditions:
  - name: req
    expression: "request.resource.version == 'v1' && request.kind.version == 'v1'"
  validations:
  - expression: "false"
    messageExpression: "request.operation + ' ' + request.resource.resource"
`),
		deny("variables", `  variables:
  - name: replicas
    expression: "object.spec.replicas"
  - name: limit
    expression: "variables.replicas > 5 ? 'over' : 'ok'"
  validations:
  - expression: "variables.limit == 'ok'"
    messageExpression: "'replicas ' + string(variables.replicas) + ' is ' + variables.limit"
`),
		deny("variables-lazy-error-unused", `  variables:
  - name: broken
    expression: "object.spec.nothing"
  validations:
  - expression: "object.spec.replicas <= 5"
`),
		deny("variables-runtime-error", `  variables:
  - name: broken
    expression: "object.spec.nothing"
  validations:
  - expression: "variables.broken == 1"
`),
		deny("variables-compile-error", `  variables:
  - name: broken
    expression: "object.spec.("
  validations:
  - expression: "variables.broken == 1"
`),
		deny("variables-undefined", `  validations:
  - expression: "variables.nope == 1"
`),
		deny("variables-forward-reference", `  variables:
  - name: a
    expression: "variables.b"
  - name: b
    expression: "1"
  validations:
  - expression: "variables.a == 1"
`),
		deny("variables-typed-list", `  variables:
  - name: names
    expression: "['a', 'b']"
  - name: first
    expression: "variables.names[0]"
  validations:
  - expression: "variables.first + variables.names[1] == 'ab'"
  - expression: "variables.names.size() == 3"
    messageExpression: "'size ' + string(variables.names.size())"
`),
		deny("variables-has", `  variables:
  - name: x
    expression: "object.spec.replicas"
  validations:
  - expression: "has(variables.x) && variables.x < 5"
`),
		deny("audit-annotations", `  auditAnnotations:
  - key: replicas
    valueExpression: "'replicas=' + string(object.spec.replicas)"
  - key: empty
    valueExpression: "'  '"
  - key: nothing
    valueExpression: "null"
`+replicasRule),
		withActions("audit-annotations-error-fail", "Warn", `  auditAnnotations:
  - key: broken
    valueExpression: "object.spec.nothing"
  validations:
  - expression: "true"
`),
		deny("audit-annotations-error-ignore", `  failurePolicy: Ignore
  auditAnnotations:
  - key: broken
    valueExpression: "object.spec.nothing"
  - key: ok
    valueExpression: "'fine'"
  validations:
  - expression: "true"
`),
		deny("audit-annotations-dyn-type", `  auditAnnotations:
  - key: dyn
    valueExpression: "object.spec.replicas > 5 ? null : 'small'"
  validations:
  - expression: "true"
`),
		deny("audit-annotations-compile-error", `  auditAnnotations:
  - key: bad
    valueExpression: "object.spec.replicas + 1"
  validations:
  - expression: "true"
`),
		{name: "audit-annotations-two-bindings", yaml: vap("p", paramKind+`  auditAnnotations:
  - key: limit
    valueExpression: "'max ' + string(params.maxReplicas)"
  - key: same
    valueExpression: "'same'"
  validations:
  - expression: "true"
`) + vapb("b1", "p", "Audit", "  paramRef: {name: low, namespace: prod}\n") + vapb("b2", "p", "Audit", "  paramRef: {name: high, namespace: prod}\n") +
			param("low", "prod", 2, "tier: low") + param("high", "prod", 8, "tier: high")},
		{name: "params-by-name", yaml: vap("p", paramRule) + vapb("b", "p", "Deny", "  paramRef: {name: limit, parameterNotFoundAction: Allow}\n") +
			param("limit", "prod", 4, "a: b") + param("limit", "dev", 10, "a: b") + param("limit", "other", 1, "a: b")},
		{name: "params-not-found-allow", yaml: vap("p", paramRule) + vapb("b", "p", "Deny", "  paramRef: {name: missing, parameterNotFoundAction: Allow}\n") + param("limit", "prod", 4, "a: b")},
		{name: "params-not-found-deny", yaml: vap("p", paramRule) + vapb("b", "p", "Deny", "  paramRef: {name: missing, parameterNotFoundAction: Deny}\n") + param("limit", "prod", 4, "a: b")},
		{name: "params-not-found-deny-ignore", yaml: vap("p", "  failurePolicy: Ignore\n"+paramRule) + vapb("b", "p", "Deny", "  paramRef: {name: missing, parameterNotFoundAction: Deny}\n")},
		{name: "params-explicit-namespace", yaml: vap("p", paramRule) + vapb("b", "p", "Deny, Warn", "  paramRef: {name: limit, namespace: dev, parameterNotFoundAction: Deny}\n") +
			param("limit", "prod", 4, "a: b") + param("limit", "dev", 6, "a: b")},
		{name: "params-selector", yaml: vap("p", paramRule) + vapb("b", "p", "Deny, Audit", "  paramRef: {selector: {matchLabels: {team: a}}, parameterNotFoundAction: Allow}\n") +
			param("a1", "prod", 4, "team: a") + param("a2", "prod", 2, "team: a") + param("b1", "prod", 1, "team: b") + param("a3", "dev", 5, "team: a")},
		{name: "params-selector-expressions", yaml: vap("p", paramRule) + vapb("b", "p", "Warn", "  paramRef: {selector: {matchExpressions: [{key: team, operator: In, values: [a, c]}, {key: skip, operator: DoesNotExist}]}, parameterNotFoundAction: Deny}\n") +
			param("a1", "prod", 4, "team: a") + param("c1", "prod", 2, "team: c") + param("a2", "prod", 1, "team: a, skip: 'yes'") + param("a3", "dev", 5, "team: c")},
		{name: "params-selector-empty-matches-all", yaml: vap("p", paramRule) + vapb("b", "p", "Deny", "  paramRef: {selector: {}, parameterNotFoundAction: Deny}\n") +
			param("a1", "prod", 6, "team: a") + param("b1", "prod", 4, "team: b") + param("d1", "dev", 8, "team: b")},
		{name: "params-cluster-scoped", paramsClusterScoped: true, yaml: vap("p", paramRule) + vapb("b", "p", "Deny", "  paramRef: {name: global, parameterNotFoundAction: Deny}\n") + param("global", "", 5, "a: b")},
		{name: "params-cluster-scoped-with-namespace", paramsClusterScoped: true, yaml: vap("p", paramRule) + vapb("b", "p", "Deny", "  paramRef: {name: global, namespace: prod, parameterNotFoundAction: Deny}\n") + param("global", "", 5, "a: b")},
		{name: "params-name-and-selector", yaml: vap("p", paramRule) + vapb("b", "p", "Deny", "  paramRef: {name: x, selector: {}, parameterNotFoundAction: Deny}\n")},
		{name: "params-neither", yaml: vap("p", paramRule) + vapb("b", "p", "Deny", "  paramRef: {parameterNotFoundAction: Deny}\n")},
		{name: "params-kind-without-ref", yaml: vap("p", paramKind+`  validations:
  - expression: "params == null"
    message: params should be null
  - expression: "object.spec.replicas <= 5"
`) + vapb("b", "p", "Deny", "")},
		{name: "params-ref-without-kind", yaml: vap("p", replicasRule) + vapb("b", "p", "Deny", "  paramRef: {name: limit, parameterNotFoundAction: Deny}\n")},
		{name: "params-configmap", yaml: vap("p", `  paramKind: {apiVersion: v1, kind: ConfigMap}
`+facts("object.spec.replicas <= int(params.data.maxReplicas)", "params.kind == 'ConfigMap'", "params.apiVersion == 'v1'",
			"has(params.metadata.creationTimestamp)", "params.metadata.name == 'limits'", "has(params.metadata.labels)", "has(params.binaryData)",
			"has(params.immutable)", "has(params.extra)", "params.metadata.size() > 3", "params.size() == 4")) + vapb("b", "p", "Warn", "  paramRef: {name: limits, parameterNotFoundAction: Deny}\n") +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits, namespace: prod, labels: {a: b}}\ndata: {maxReplicas: '4'}\nextra: {a: 1}\n" +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits, namespace: dev, uid: u1, resourceVersion: '7', creationTimestamp: '2024-05-06T07:08:09Z'}\ndata: {maxReplicas: '8'}\nimmutable: true\n"},
		{name: "namespace-request", yaml: vap("p", `  matchConstraints:
    namespaceSelector: {matchLabels: {env: prod}}
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: ["*"], resources: [namespaces]}
  validations:
  - expression: "false"
    messageExpression: "'ns ' + object.metadata.name + ' ' + string(namespaceObject == null) + ' ' + request.namespace"
`) + vapb("b", "p", "Deny", ""),
			extra: []admissionRequest{
				{name: "create-labelled", op: "CREATE", obj: "apiVersion: v1\nkind: Namespace\nmetadata: {name: newprod, labels: {env: prod}}\n", namespace: "newprod", resource: namespacesV1, kind: namespaceV1},
				{name: "create-unlabelled", op: "CREATE", obj: "apiVersion: v1\nkind: Namespace\nmetadata: {name: newdev, labels: {env: dev}}\n", namespace: "newdev", resource: namespacesV1, kind: namespaceV1},
				{name: "update-to-prod", op: "UPDATE", obj: "apiVersion: v1\nkind: Namespace\nmetadata: {name: dev, labels: {env: prod}}\n", old: "apiVersion: v1\nkind: Namespace\nmetadata: {name: dev, labels: {env: dev}}\n", namespace: "dev", resource: namespacesV1, kind: namespaceV1},
				{name: "delete-prod", op: "DELETE", old: "apiVersion: v1\nkind: Namespace\nmetadata: {name: prod, labels: {env: prod}}\n", namespace: "prod", resource: namespacesV1, kind: namespaceV1},
			}},
		{name: "namespace-selector", yaml: vap("p", `  matchConstraints:
    namespaceSelector: {matchLabels: {env: prod}}
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: ["*"], resources: [crontabs]}
  validations:
  - expression: "false"
    messageExpression: "'in ' + namespaceObject.metadata.name"
`) + vapb("b", "p", "Deny", "")},
		{name: "namespace-selector-expressions", yaml: vap("p", `  matchConstraints:
    namespaceSelector: {matchExpressions: [{key: env, operator: NotIn, values: [prod]}, {key: kubernetes.io/metadata.name, operator: Exists}]}
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: ["*"], resources: [crontabs]}
  validations:
  - expression: "false"
    messageExpression: "'in ' + namespaceObject.metadata.name"
`) + vapb("b", "p", "Deny", "")},
		{name: "namespace-selector-invalid-operator", yaml: vap("p", `  matchConstraints:
    namespaceSelector: {matchExpressions: [{key: env, operator: Like, values: [prod]}]}
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: ["*"], resources: [crontabs]}
`+replicasRule) + vapb("b", "p", "Deny", "")},
		{name: "object-selector-in-without-values", yaml: vap("p", `  matchConstraints:
    objectSelector: {matchExpressions: [{key: env, operator: In}]}
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: ["*"], resources: [crontabs]}
`+replicasRule) + vapb("b", "p", "Deny", "")},
		{name: "binding-selector-exists-with-values", yaml: vap("p", replicasRule) + vapb("b", "p", "Deny", "  matchResources:\n    objectSelector: {matchExpressions: [{key: env, operator: Exists, values: [a, b]}]}\n")},
		{name: "binding-namespace-selector", yaml: vap("p", replicasRule) + vapb("b", "p", "Deny", "  matchResources:\n    namespaceSelector: {matchLabels: {env: dev}}\n")},
		{name: "object-selector", yaml: vap("p", `  matchConstraints:
    objectSelector: {matchLabels: {env: prod}}
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: ["*"], resources: [crontabs]}
`+replicasRule) + vapb("b", "p", "Deny", "")},
		{name: "binding-object-selector", yaml: vap("p", replicasRule) + vapb("b", "p", "Deny", "  matchResources:\n    objectSelector: {matchExpressions: [{key: env, operator: In, values: [dev, test]}]}\n")},
		{name: "exclude-resource-rules", yaml: vap("p", `  matchConstraints:
    resourceRules:
    - {apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}
    excludeResourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: [UPDATE], resources: [crontabs]}
`+replicasRule) + vapb("b", "p", "Deny", "")},
		{name: "resource-names", yaml: vap("p", `  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: ["*"], resources: [crontabs], resourceNames: [big]}
`+replicasRule) + vapb("b", "p", "Deny", "")},
		{name: "operations-create-only", yaml: vap("p", `  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: [CREATE], resources: [crontabs]}
`+replicasRule) + vapb("b", "p", "Deny", "")},
		{name: "scope-cluster", yaml: vap("p", `  matchConstraints:
    resourceRules:
    - {apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"], scope: Cluster}
  validations:
  - expression: "false"
`) + vapb("b", "p", "Deny", "")},
		{name: "scope-namespaced", yaml: vap("p", `  matchConstraints:
    resourceRules:
    - {apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"], scope: Namespaced}
  validations:
  - expression: "false"
`) + vapb("b", "p", "Deny", "")},
		{name: "subresource-rule", yaml: vap("p", `  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: ["*"], resources: [crontabs/status]}
  validations:
  - expression: "false"
    messageExpression: "request.subResource"
`) + vapb("b", "p", "Deny", "")},
		{name: "equivalent-version", yaml: vap("p", `  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v2], operations: ["*"], resources: [crontabs]}
  validations:
  - expression: "object.apiVersion == 'stable.example.com/v2' && object.spec.replicas <= 5"
    messageExpression: "object.apiVersion + ' ' + request.kind.version + ' ' + request.resource.version + ' ' + request.requestKind.version + ' ' + request.requestResource.version"
`) + vapb("b", "p", "Deny", "")},
		{name: "exact-version", yaml: vap("p", `  matchConstraints:
    matchPolicy: Exact
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v2], operations: ["*"], resources: [crontabs]}
  validations:
  - expression: "false"
`) + vapb("b", "p", "Deny", "")},
		{name: "equivalent-version-old-object", yaml: vap("p", `  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v2], operations: [UPDATE, DELETE], resources: [crontabs]}
  validations:
  - expression: "oldObject.apiVersion == 'stable.example.com/v2'"
  - expression: "object == null || object.spec.replicas <= oldObject.spec.replicas"
    message: no scaling up
`) + vapb("b", "p", "Deny", "")},
		{name: "transition-rule", yaml: vap("p", `  validations:
  - expression: "request.operation != 'UPDATE' || object.spec.replicas <= oldObject.spec.replicas * 2"
    messageExpression: "'from ' + string(oldObject.spec.replicas) + ' to ' + string(object.spec.replicas)"
`) + vapb("b", "p", "Deny", "")},
		{name: "delete-object-null", yaml: vap("p", `  validations:
  - expression: "request.operation != 'DELETE' || (object == null && oldObject.metadata.name == 'small')"
  - expression: "request.operation != 'DELETE'"
    messageExpression: "'deleting ' + oldObject.metadata.name + ' in ' + request.namespace"
`) + vapb("b", "p", "Deny", "")},
		{name: "request-fields", yaml: vap("p", facts(
			"request.operation == 'CREATE'", "request.name == 'small'", "request.namespace == 'prod'", "has(request.name)", "has(request.namespace)",
			"request.userInfo.username == 'admin'", "request.userInfo.groups == ['system:masters', 'system:authenticated']",
			"request.dryRun == false", "has(request.dryRun)", "request.kind.kind == 'CronTab'", "request.kind.group == 'stable.example.com'",
			"request.resource.resource == 'crontabs'", "has(request.subResource)", "has(request.requestSubResource)",
			"has(request.userInfo.uid)", "has(request.userInfo.extra)", "request.requestKind == request.kind", "request.requestResource.version == 'v1'")) + vapb("b", "p", "Warn", "")},
		{name: "request-options", yaml: vap("p", facts(
			"has(request.options)", "request.options == null", "request.options.kind == 'CreateOptions'", "request.options.apiVersion == 'meta.k8s.io/v1'",
			"request.options.size() == 2", "request.size() > 10", "request.userInfo.size() == 2", "request.kind.size() == 3",
			"request.kind == {'group': 'stable.example.com', 'version': 'v1', 'kind': 'CronTab'}")) + vapb("b", "p", "Warn", "")},
		{name: "namespace-object", yaml: vap("p", facts(
			"namespaceObject.metadata.name == 'prod'", "namespaceObject.metadata.labels.env == 'prod'", "has(namespaceObject.metadata.annotations)",
			"has(namespaceObject.status.phase)", "namespaceObject.status.phase == 'Active'", "has(namespaceObject.spec.finalizers)",
			"has(namespaceObject.metadata.creationTimestamp)", "string(namespaceObject.metadata.creationTimestamp) != ''",
			"has(namespaceObject.metadata.UID)", "has(namespaceObject.metadata.resourceVersion)", "namespaceObject.metadata.resourceVersion == '12'",
			"has(namespaceObject.metadata.generation)", "has(namespaceObject.metadata.finalizers)", "namespaceObject.spec.finalizers == ['kubernetes']",
			"has(namespaceObject.status.conditions)", "namespaceObject.metadata.annotations.owner == 'team-a'")) + vapb("b", "p", "Warn", "")},
		{name: "namespace-object-audit", yaml: vap("p", `  auditAnnotations:
  - key: ns
    valueExpression: "namespaceObject.metadata.name + (has(namespaceObject.metadata.creationTimestamp) ? ' ts' : ' no-ts') + (has(namespaceObject.metadata.labels) ? ' labels' : '')"
  validations:
  - expression: "true"
`) + vapb("b", "p", "Deny", "")},
		{name: "two-policies-order", yaml: vap("b-policy", replicasRule) + vapb("z-binding", "b-policy", "Deny, Warn", "") +
			vap("a-policy", `  validations:
  - expression: "object.spec.replicas < 8"
    message: a says fewer than 8
`) + vapb("y-binding", "a-policy", "Deny, Warn", "") + vapb("x-binding", "a-policy", "Warn, Audit", "")},
		{name: "policy-without-binding", yaml: vap("p", `  validations:
  - expression: "false"
`)},
		{name: "binding-to-missing-policy", yaml: vap("p", replicasRule) + vapb("b", "q", "Deny", "")},
		{name: "per-call-cost-limit", yaml: vap("p", `  validations:
  - expression: "object.spec.items.all(x, object.spec.items.all(y, y >= 0))"
`) + vapb("b", "p", "Deny", ""), extra: []admissionRequest{{name: "costly", op: "CREATE", obj: costlyObject(700), namespace: "prod"}}},
		{name: "runtime-budget", yaml: vap("p", manyValidations(15, costlyFind)) + vapb("b", "p", "Deny", ""),
			extra: []admissionRequest{{name: "costly", op: "CREATE", obj: stringObject(), namespace: "prod"}}},
		{name: "runtime-budget-ignore", yaml: vap("p", "  failurePolicy: Ignore\n"+manyValidations(15, costlyFind)) + vapb("b", "p", "Deny", ""),
			extra: []admissionRequest{{name: "costly", op: "CREATE", obj: stringObject(), namespace: "prod"}}},
		{name: "runtime-budget-variables", yaml: vap("p", `  variables:
  - name: a
    expression: "`+costlyFind+`"
`+manyValidations(7, "variables.a && "+costlyFind)) + vapb("b", "p", "Deny", ""),
			extra: []admissionRequest{{name: "costly", op: "CREATE", obj: stringObject(), namespace: "prod"}}},
		{name: "message-expression-budget", yaml: vap("p", `  validations:
`+strings.Repeat(`  - expression: "`+costlyFind+`"
    messageExpression: "`+costlyFind+` ? 'a' : 'b'"
`, 7)+`  - expression: "false"
    messageExpression: "`+costlyFind+` ? 'c' : 'd'"
`) + vapb("b", "p", "Deny, Warn", ""),
			extra: []admissionRequest{{name: "costly", op: "CREATE", obj: stringObject(), namespace: "prod"}}},
		{name: "crd-as-object", yaml: vap("safe-upgrades", `  matchConstraints:
    resourceRules:
    - {apiGroups: [apiextensions.k8s.io], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [customresourcedefinitions]}
  matchConditions:
  - name: gateway-crds
    expression: "object.spec.group == 'gateway.networking.k8s.io'"
  validations:
  - expression: "object.metadata.annotations['gateway.networking.k8s.io/channel'] == 'standard'"
    message: installing experimental CRDs is not allowed
  - expression: "request.operation != 'UPDATE' || semver(object.metadata.annotations['gateway.networking.k8s.io/bundle-version'].substring(1)).compareTo(semver(oldObject.metadata.annotations['gateway.networking.k8s.io/bundle-version'].substring(1))) >= 0"
    message: downgrades are not allowed
`) + vapb("safe-upgrades", "safe-upgrades", "Deny", ""),
			extra: []admissionRequest{
				{name: "crd-create-experimental", op: "CREATE", obj: crdObject, resource: crdsV1, kind: crdV1},
				{name: "crd-create-standard", op: "CREATE", obj: crdObjectStandard, resource: crdsV1, kind: crdV1},
				{name: "crd-downgrade", op: "UPDATE", obj: strings.Replace(crdObjectStandard, "v1.6.1", "v1.4.0", 1), old: crdObjectStandard, resource: crdsV1, kind: crdV1},
				{name: "crd-upgrade", op: "UPDATE", obj: strings.Replace(crdObjectStandard, "v1.6.1", "v1.6.3", 1), old: crdObjectStandard, resource: crdsV1, kind: crdV1},
			}},
		{name: "crd-params-namespaced-cluster-request", yaml: vap("p", `  paramKind: {apiVersion: rules.example.com/v1, kind: ReplicaLimit}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apiextensions.k8s.io], apiVersions: [v1], operations: ["*"], resources: [customresourcedefinitions]}
  validations:
  - expression: "true"
`) + vapb("b", "p", "Deny", "  paramRef: {name: limit, parameterNotFoundAction: Deny}\n") + param("limit", "prod", 4, "a: b"),
			extra: []admissionRequest{{name: "crd-create", op: "CREATE", obj: crdObject, resource: crdsV1, kind: crdV1}}},
		{name: "library-functions", yaml: vap("p", `  validations:
  - expression: "object.spec.image.split(':')[1] == '1.25' && quantity('1Gi').isGreaterThan(quantity('1Mi')) && isURL('https://example.com') && ip('10.0.0.1').family() == 4 && object.spec.cronSpec.matches('^[*/0-9 ]+$')"
  - expression: "sets.contains([1, 2, 3], [object.spec.replicas])"
    messageExpression: "'replicas ' + string(object.spec.replicas) + ' not in [1,2,3]; ' + string(['b', 'a'].sort())"
`) + vapb("b", "p", "Deny, Audit", "")},
		{name: "optional-types", yaml: vap("p", `  validations:
  - expression: "object.?spec.?replicas.orValue(0) <= 5"
  - expression: "object.metadata.?labels.?team.hasValue()"
    message: team label required
`) + vapb("b", "p", "Warn", "")},
		{name: "user-groups", yaml: vap("p", `  validations:
  - expression: "'system:masters' in request.userInfo.groups"
    messageExpression: "request.userInfo.username + ' is not an admin'"
`) + vapb("b", "p", "Deny", ""),
			extra: []admissionRequest{
				{name: "plain-user", op: "CREATE", obj: crontabYAML("u", "prod", 1, "prod"), namespace: "prod", user: admission.UserInfo{Username: "jane", UID: "42", Groups: []string{"devs"}, Extra: map[string][]string{"scopes": {"a"}}}},
				{name: "dry-run", op: "CREATE", obj: crontabYAML("u", "prod", 1, "prod"), namespace: "prod", dryRun: true, user: admission.UserInfo{Username: "root", Groups: []string{"system:masters"}}},
			}},
		{name: "user-extra", yaml: vap("p", facts("request.userInfo.extra['scopes'] == ['a', 'b']", "request.userInfo.uid == '42'", "request.userInfo.username == 'jane'", "has(request.userInfo.groups)")) + vapb("b", "p", "Warn", ""),
			extra: []admissionRequest{{name: "extra", op: "CREATE", obj: crontabYAML("u", "prod", 1, "prod"), namespace: "prod", user: admission.UserInfo{Username: "jane", UID: "42", Extra: map[string][]string{"scopes": {"a", "b"}}}}}},
		{name: "status-subresource-request", yaml: vap("p", `  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: [UPDATE], resources: ["crontabs/*"]}
  validations:
  - expression: "false"
    messageExpression: "request.subResource + ' ' + request.requestSubResource"
`) + vapb("b", "p", "Deny", ""),
			extra: []admissionRequest{{name: "status-update", op: "UPDATE", sub: "status", obj: crontabYAML("s", "prod", 1, "prod"), old: crontabYAML("s", "prod", 1, "prod"), namespace: "prod"}}},
		{name: "v2-request", yaml: vap("p", `  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: ["*"], resources: [crontabs]}
  validations:
  - expression: "false"
    messageExpression: "object.apiVersion + ' ' + request.kind.version + ' ' + request.requestKind.version"
`) + vapb("b", "p", "Deny", ""),
			extra: []admissionRequest{{name: "v2-create", op: "CREATE", obj: strings.Replace(crontabYAML("v", "prod", 1, "prod"), "stable.example.com/v1", "stable.example.com/v2", 1), namespace: "prod", resource: crontabsV2, kind: crontabV2}}},
		{name: "generate-name", yaml: vap("p", replicasRule) + vapb("b", "p", "Deny", ""),
			extra: []admissionRequest{{name: "generated", op: "CREATE", obj: "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {generateName: gen-, namespace: prod}\nspec: {replicas: 9}\n", namespace: "prod"}}},
	}
	return s
}

func mustJSON(t *testing.T, y string) map[string]interface{} {
	t.Helper()
	if y == "" {
		return nil
	}
	js, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	m, err := admission.DecodeObject(js)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

type testResources struct{ clusterScopedParams bool }

func (r testResources) Equivalents(res admission.GVR, sub string) []admission.Equivalent {
	if res.Group != "stable.example.com" || res.Resource != "crontabs" {
		return []admission.Equivalent{{Resource: res}}
	}
	return []admission.Equivalent{
		{Resource: admission.GVR{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}, Kind: admission.GVK{Group: "stable.example.com", Version: "v1", Kind: "CronTab"}},
		{Resource: admission.GVR{Group: "stable.example.com", Version: "v2", Resource: "crontabs"}, Kind: admission.GVK{Group: "stable.example.com", Version: "v2", Kind: "CronTab"}},
	}
}

func (r testResources) ParamScope(apiVersion, kind string) bool { return !r.clusterScopedParams }

type admissionOutcome struct {
	Denied           bool
	Message, Cause   string
	Reason           string
	Code             int
	Warnings         []string
	AuditAnnotations map[string]string
}

func TestAdmissionPolicies(t *testing.T) {
	n := 0
	for _, sc := range admissionScenarios() {
		n += runAdmissionScenario(t, sc, append(append([]admissionRequest(nil), standardRequests...), sc.extra...))
	}
	if n < 150 {
		t.Errorf("%d cases, want at least 150", n)
	}
}

// runAdmissionScenario runs the requests against the scenario's policies
// in crdlab and upstream and compares the outcomes; it returns the number
// of requests.
func runAdmissionScenario(t *testing.T, sc admissionScenario, requests []admissionRequest) int {
	n := 0
	{
		in, err := admission.DecodeFile([]byte(admissionNamespaces+sc.yaml), sc.name+".yaml")
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		crd, err := admission.New(admission.Config{Policies: in.Policies, Bindings: in.Bindings, Objects: in.Objects, Resources: testResources{sc.paramsClusterScoped}})
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		var pols, binds [][]byte
		for _, p := range in.Policies {
			b, _ := json.Marshal(p)
			pols = append(pols, b)
		}
		for _, b := range in.Bindings {
			bb, _ := json.Marshal(b)
			binds = append(binds, bb)
		}
		for _, rq := range requests {
			n++
			t.Run(sc.name+"/"+rq.name, func(t *testing.T) {
				res, kind := rq.resource, rq.kind
				if res.Empty() {
					res, kind = crontabsV1, crontabV1
				}
				obj, old := mustJSON(t, rq.obj), mustJSON(t, rq.old)
				name := ""
				for _, o := range []map[string]interface{}{obj, old} {
					if md, ok := o["metadata"].(map[string]interface{}); ok && name == "" {
						name, _ = md["name"].(string)
					}
				}
				usr := rq.user
				if usr.Username == "" && usr.Groups == nil {
					usr = admission.UserInfo{Username: "admin", Groups: []string{"system:masters", "system:authenticated"}}
				}
				objects := append([]map[string]interface{}(nil), in.Objects...)
				if rq.namespace != "" {
					found := false
					for _, o := range objects {
						if o["kind"] == "Namespace" && o["metadata"].(map[string]interface{})["name"] == rq.namespace {
							found = true
						}
					}
					if !found {
						objects = append(objects, admission.DefaultNamespace(rq.namespace))
					}
				}
				equivalents := map[schema.GroupVersionResource]schema.GroupVersionKind{}
				for _, e := range (testResources{}).Equivalents(admission.GVR{Group: res.Group, Version: res.Version, Resource: res.Resource}, rq.sub) {
					equivalents[schema.GroupVersionResource{Group: e.Resource.Group, Version: e.Resource.Version, Resource: e.Resource.Resource}] =
						schema.GroupVersionKind{Group: e.Kind.Group, Version: e.Kind.Version, Kind: e.Kind.Kind}
				}
				up, err := upstream.Admit(&upstream.AdmissionInput{
					Policies: pols, Bindings: binds, Objects: objects, ParamNamespaced: !sc.paramsClusterScoped,
					Equivalents: equivalents,
					Operation:   rq.op, Kind: kind, Resource: res, SubResource: rq.sub, Name: name, Namespace: rq.namespace,
					Object: obj, OldObject: old, DryRun: rq.dryRun,
					User:    &user.DefaultInfo{Name: usr.Username, UID: usr.UID, Groups: usr.Groups, Extra: usr.Extra},
					Options: upstreamOptions(rq.op),
				})
				if err != nil {
					t.Fatalf("upstream: %v", err)
				}
				d := crd.Validate(&admission.Request{
					Operation:   rq.op,
					Kind:        admission.GVK{Group: kind.Group, Version: kind.Version, Kind: kind.Kind},
					Resource:    admission.GVR{Group: res.Group, Version: res.Version, Resource: res.Resource},
					SubResource: rq.sub, Name: name, Namespace: rq.namespace,
					Object: obj, OldObject: old, UserInfo: usr, DryRun: rq.dryRun,
				})
				got := admissionOutcome{Warnings: d.Warnings, AuditAnnotations: d.AuditAnnotations}
				if d.Denied != nil {
					got.Denied, got.Message, got.Cause, got.Reason, got.Code = true, d.Denied.Message, d.Denied.Cause, d.Denied.Reason, d.Denied.Code
				}
				want := admissionOutcome{Denied: up.Denied, Message: up.Message, Cause: up.Cause, Reason: up.Reason, Code: up.Code, Warnings: up.Warnings, AuditAnnotations: up.AuditAnnotations}
				if os.Getenv("ADMISSION_DUMP") != "" {
					w, _ := json.Marshal(want)
					t.Logf("OUT %s", w)
				}
				if !reflect.DeepEqual(got, want) {
					g, _ := json.MarshalIndent(got, "", "  ")
					w, _ := json.MarshalIndent(want, "", "  ")
					t.Errorf("crdlab:\n%s\nupstream:\n%s", g, w)
				}
			})
		}
	}
	return n
}

func upstreamOptions(op string) runtime.Object {
	switch op {
	case "CREATE":
		return &metav1.CreateOptions{TypeMeta: metav1.TypeMeta{Kind: "CreateOptions", APIVersion: "meta.k8s.io/v1"}}
	case "UPDATE":
		return &metav1.UpdateOptions{TypeMeta: metav1.TypeMeta{Kind: "UpdateOptions", APIVersion: "meta.k8s.io/v1"}}
	case "DELETE":
		return &metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{Kind: "DeleteOptions", APIVersion: "meta.k8s.io/v1"}}
	}
	return nil
}

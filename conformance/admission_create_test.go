package conformance

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/conformance/upstream"
	iadm "github.com/crdlab/crdlab/internal/admission"
	"github.com/crdlab/crdlab/internal/yamldoc"
)

// The create validation of admission policies and bindings
// (internal/admission policyvalidation.go) against kube-apiserver's
// registry strategies (upstream.ValidateAdmissionCreate): the same
// documents, the same errors.NewInvalid message (or none).

const createHeader = "apiVersion: admissionregistration.k8s.io/v1\n"

func vapDoc(spec string) string {
	return createHeader + "kind: ValidatingAdmissionPolicy\nmetadata: {name: demo.example.com}\nspec:\n" + indent(spec)
}

func vapbDoc(spec string) string {
	return createHeader + "kind: ValidatingAdmissionPolicyBinding\nmetadata: {name: demo-binding}\nspec:\n" + indent(spec)
}

func mapDoc(spec string) string {
	return createHeader + "kind: MutatingAdmissionPolicy\nmetadata: {name: demo-mutating}\nspec:\n" + indent(spec)
}

func mapbDoc(spec string) string {
	return createHeader + "kind: MutatingAdmissionPolicyBinding\nmetadata: {name: demo-mutating-binding}\nspec:\n" + indent(spec)
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n") + "\n"
}

const deploymentsRule = `matchConstraints:
  resourceRules:
  - apiGroups: [apps]
    apiVersions: [v1]
    operations: [CREATE, UPDATE]
    resources: [deployments]
`

const replicasValidation = `validations:
- expression: object.spec.replicas <= 5
`

var admissionCreateCases = []struct{ name, doc string }{
	// valid
	{"valid policy", vapDoc(deploymentsRule + replicasValidation)},
	{"valid policy with params, variables, audit annotations and match conditions", vapDoc(`paramKind: {apiVersion: example.com/v1, kind: ReplicaLimit}
` + deploymentsRule + `matchConditions:
- name: not-system
  expression: "!request.userInfo.username.startsWith('system:')"
- name: with-params
  expression: "params != null"
variables:
- name: replicas
  expression: object.spec.replicas
validations:
- expression: variables.replicas <= params.maxReplicas
  messageExpression: "'too many: ' + string(variables.replicas)"
  reason: Invalid
auditAnnotations:
- key: high-replicas
  valueExpression: "variables.replicas > 3 ? 'high' : 'low'"
`)},
	{"valid binding", vapbDoc(`policyName: demo.example.com
validationActions: [Deny]
`)},
	{"valid binding with paramRef and matchResources", vapbDoc(`policyName: demo.example.com
validationActions: [Warn, Audit]
paramRef: {name: limits, namespace: default, parameterNotFoundAction: Deny}
matchResources:
  namespaceSelector:
    matchExpressions:
    - {key: environment, operator: In, values: [test]}
  excludeResourceRules:
  - apiGroups: [""]
    apiVersions: ["*"]
    operations: ["*"]
    resources: ["pods/*"]
    resourceNames: [kube-dns]
`)},
	{"valid mutating policy", mapDoc(deploymentsRule + `reinvocationPolicy: IfNeeded
mutations:
- patchType: ApplyConfiguration
  applyConfiguration:
    expression: "Object{spec: Object.spec{replicas: 1}}"
- patchType: JSONPatch
  jsonPatch:
    expression: "[JSONPatch{op: 'add', path: '/metadata/labels/a', value: 'b'}]"
`)},
	{"valid mutating binding", mapbDoc(`policyName: demo-mutating
paramRef: {selector: {matchLabels: {a: b}}, parameterNotFoundAction: Allow}
`)},

	// policy: missing, empty, enums
	{"policy without matchConstraints", vapDoc(replicasValidation)},
	{"policy without resourceRules", vapDoc("matchConstraints: {}\n" + replicasValidation)},
	{"policy without validations or audit annotations", vapDoc(deploymentsRule)},
	{"validation with an empty expression", vapDoc(deploymentsRule + "validations:\n- expression: \"  \"\n")},
	{"validation with a reason outside the enum", vapDoc(deploymentsRule + "validations:\n- expression: 'true'\n  reason: Teapot\n")},
	{"validation with a message of spaces", vapDoc(deploymentsRule + "validations:\n- expression: 'true'\n  message: '   '\n")},
	{"validation with a message on two lines", vapDoc(deploymentsRule + "validations:\n- expression: 'true'\n  message: \"a\\nb\"\n")},
	{"validation with a messageExpression of spaces", vapDoc(deploymentsRule + "validations:\n- expression: 'true'\n  messageExpression: '  '\n")},
	{"failurePolicy outside the enum", vapDoc("failurePolicy: Sometimes\n" + deploymentsRule + replicasValidation)},
	{"matchPolicy outside the enum", vapDoc(`matchConstraints:
  matchPolicy: Loose
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
` + replicasValidation)},
	{"rule scope outside the enum", vapDoc(`matchConstraints:
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments], scope: Everywhere}
` + replicasValidation)},
	{"rule with an unknown operation", vapDoc(`matchConstraints:
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, PATCH], resources: [deployments]}
` + replicasValidation)},
	{"rule with a wildcard operation among others", vapDoc(`matchConstraints:
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: ["*", CREATE], resources: [deployments]}
` + replicasValidation)},
	{"rule without operations, groups, versions, resources", vapDoc(`matchConstraints:
  resourceRules:
  - {resourceNames: [a]}
` + replicasValidation)},
	{"rule with wildcards among groups and versions", vapDoc(`matchConstraints:
  resourceRules:
  - {apiGroups: ["*", apps], apiVersions: [v1, "*", ""], operations: [CREATE], resources: [deployments]}
` + replicasValidation)},
	{"rule resources with wildcard conflicts", vapDoc(`matchConstraints:
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: ["*", deployments, "deployments/*", "deployments/scale", "*/status", "pods/status", ""]}
` + replicasValidation)},
	{"rule resources with */* and others", vapDoc(`matchConstraints:
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: ["*/*", deployments]}
` + replicasValidation)},
	{"rule resourceNames invalid and duplicated", vapDoc(`matchConstraints:
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments], resourceNames: [a, "a/b", a, "..", "x%y"]}
  excludeResourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [DELETE], resources: [deployments], resourceNames: ["."]}
` + replicasValidation)},

	// selectors
	{"namespace selector with a bad operator", vapDoc(`matchConstraints:
  namespaceSelector:
    matchExpressions:
    - {key: env, operator: Equals, values: [a]}
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
` + replicasValidation)},
	{"object selector In without values and Exists with values", vapDoc(`matchConstraints:
  objectSelector:
    matchExpressions:
    - {key: env, operator: In}
    - {key: tier, operator: Exists, values: [x]}
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
` + replicasValidation)},
	{"selector with a bad key and a bad value", vapDoc(`matchConstraints:
  objectSelector:
    matchLabels: {"bad key!": ok}
    matchExpressions:
    - {key: "-x", operator: NotIn, values: ["not valid!", "ok"]}
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
` + replicasValidation)},
	{"selector with a bad label value", vapDoc(`matchConstraints:
  namespaceSelector:
    matchLabels: {env: "a b"}
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
` + replicasValidation)},

	// paramKind
	{"paramKind without apiVersion and kind", vapDoc("paramKind: {}\n" + deploymentsRule + replicasValidation)},
	{"paramKind with a bad group, version and kind", vapDoc("paramKind: {apiVersion: Example_com/V1, kind: Replica_Limit}\n" + deploymentsRule + replicasValidation)},
	{"paramKind with too many slashes", vapDoc("paramKind: {apiVersion: a/b/c, kind: Limit}\n" + deploymentsRule + replicasValidation)},
	{"paramKind without version", vapDoc("paramKind: {apiVersion: example.com/, kind: Limit}\n" + deploymentsRule + replicasValidation)},
	{"paramKind core group", vapDoc("paramKind: {apiVersion: v1, kind: ConfigMap}\n" + deploymentsRule + replicasValidation)},

	// CEL compilation in each expression kind
	{"validation expression does not parse", vapDoc(deploymentsRule + "validations:\n- expression: object.spec.replicas <=\n")},
	{"validation expression is not a bool", vapDoc(deploymentsRule + "validations:\n- expression: object.spec.replicas + 1\n")},
	{"validation expression uses params without paramKind", vapDoc(deploymentsRule + "validations:\n- expression: params.max > 1\n")},
	{"validation expression uses variables without any variable", vapDoc(deploymentsRule + "validations:\n- expression: variables.foo > 1\n")},
	{"validation expression uses an undeclared variable", vapDoc(deploymentsRule + "variables:\n- {name: a, expression: '1'}\nvalidations:\n- expression: variables.b > 1\n")},
	{"validation expression with the wrong variable type", vapDoc(deploymentsRule + "variables:\n- {name: a, expression: \"'x'\"}\nvalidations:\n- expression: variables.a > 1\n")},
	{"messageExpression does not compile", vapDoc(deploymentsRule + "validations:\n- expression: 'true'\n  messageExpression: \"'a' +\"\n")},
	{"messageExpression is not a string", vapDoc(deploymentsRule + "validations:\n- expression: 'true'\n  messageExpression: '1'\n")},
	{"messageExpression uses the authorizer", vapDoc(deploymentsRule + "validations:\n- expression: 'true'\n  messageExpression: \"authorizer.group('').resource('pods').check('get').reason()\"\n")},
	{"match condition does not compile", vapDoc(deploymentsRule + "matchConditions:\n- {name: c, expression: 'object.'}\n" + replicasValidation)},
	{"match condition is not a bool", vapDoc(deploymentsRule + "matchConditions:\n- {name: c, expression: \"  'x'  \"}\n" + replicasValidation)},
	{"match condition uses variables", vapDoc(deploymentsRule + "matchConditions:\n- {name: c, expression: variables.a}\nvariables:\n- {name: a, expression: 'true'}\n" + replicasValidation)},
	{"match condition uses params without paramKind", vapDoc(deploymentsRule + "matchConditions:\n- {name: c, expression: params != null}\n" + replicasValidation)},
	{"match conditions: empty, bad name, duplicate", vapDoc(deploymentsRule + "matchConditions:\n- {name: '', expression: ''}\n- {name: 'bad name', expression: 'true'}\n- {name: ok, expression: 'true'}\n- {name: ok, expression: 'true'}\n" + replicasValidation)},
	{"variable does not compile", vapDoc(deploymentsRule + "variables:\n- {name: a, expression: 'object.spec.('}\n" + replicasValidation)},
	{"variable names: empty, not an identifier, reserved", vapDoc(deploymentsRule + "variables:\n- {name: '', expression: '1'}\n- {name: 1abc, expression: '1'}\n- {name: while, expression: '1'}\n- {name: ok, expression: ''}\n" + replicasValidation)},
	{"audit annotation does not compile", vapDoc(deploymentsRule + "auditAnnotations:\n- {key: a, valueExpression: \"  'x' +  \"}\n")},
	{"audit annotation is not a string", vapDoc(deploymentsRule + "auditAnnotations:\n- {key: a, valueExpression: '  1'}\n")},
	{"audit annotation keys: invalid, duplicate, empty expression", vapDoc(deploymentsRule + "auditAnnotations:\n- {key: 'bad key', valueExpression: \"'x'\"}\n- {key: dup, valueExpression: \"'x'\"}\n- {key: dup, valueExpression: ''}\n")},
	{"audit annotation value expression too long", vapDoc(deploymentsRule + "auditAnnotations:\n- {key: a, valueExpression: \"'" + strings.Repeat("x", 5200) + "'\"}\n")},
	{"validation expression of a newer library", vapDoc(deploymentsRule + "validations:\n- expression: \"[1, 2].includes(1)\"\n")},
	{"many errors in order", vapDoc("failurePolicy: Maybe\nparamKind: {kind: x_y}\nmatchConditions:\n- {name: c, expression: '1'}\nvariables:\n- {name: v, expression: 'object.'}\nvalidations:\n- {expression: '', reason: Nope, message: ' '}\nauditAnnotations:\n- {key: '', valueExpression: ''}\n")},

	{"65 match conditions", vapDoc(deploymentsRule + "matchConditions:\n" + strings.Repeat("- {name: c, expression: 'true'}\n", 65) + replicasValidation)},
	{"21 audit annotations", vapDoc(deploymentsRule + "auditAnnotations:\n" + strings.Repeat("- {key: k, valueExpression: \"'v'\"}\n", 21))},
	{"a variable refers to a later one", vapDoc(deploymentsRule + "variables:\n- {name: a, expression: variables.b}\n- {name: b, expression: '1'}\n" + replicasValidation)},
	{"a variable defined twice", vapDoc(deploymentsRule + "variables:\n- {name: a, expression: \"'x'\"}\n- {name: a, expression: '1'}\nvalidations:\n- expression: variables.a > 0\n")},
	{"params in a match condition and a messageExpression with paramKind", vapDoc("paramKind: {apiVersion: v1, kind: ConfigMap}\n" + deploymentsRule + "matchConditions:\n- {name: c, expression: params.data.x == 'y'}\nvalidations:\n- expression: 'true'\n  messageExpression: params.data.msg\n")},
	{"expression and messageExpression both broken", vapDoc(deploymentsRule + "validations:\n- expression: '1 +'\n  messageExpression: 'true'\n  message: ok\n")},
	{"an audit annotation on a policy with variables", vapDoc(deploymentsRule + "variables:\n- {name: nm, expression: object.metadata.name}\nauditAnnotations:\n- {key: name, valueExpression: variables.nm}\n- {key: bad, valueExpression: variables.m}\n")},
	{"a mutating policy's match condition with params", mapDoc("paramKind: {apiVersion: v1, kind: ConfigMap}\n" + deploymentsRule + "reinvocationPolicy: Never\nmatchConditions:\n- {name: c, expression: \"params.data.on == 'yes'\"}\nmutations:\n- {patchType: ApplyConfiguration, applyConfiguration: {expression: \"Object{metadata: Object.metadata{labels: {'a': params.data.on}}}\"}}\n")},
	{"a JSONPatch using the escapeKey function", mapDoc(deploymentsRule + "reinvocationPolicy: IfNeeded\nmutations:\n- {patchType: JSONPatch, jsonPatch: {expression: \"[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('a/b'), value: 'c'}]\"}}\n")},
	{"a mutation's authorizer use", mapDoc(deploymentsRule + "reinvocationPolicy: Never\nmutations:\n- {patchType: JSONPatch, jsonPatch: {expression: \"authorizer.group('').resource('pods').check('get').allowed() ? [] : [JSONPatch{op: 'remove', path: '/x'}]\"}}\n")},

	// metadata
	{"policy name not a DNS subdomain", strings.Replace(vapDoc(deploymentsRule+replicasValidation), "demo.example.com", "Demo_Policy", 1)},
	{"policy name with the static suffix", strings.Replace(vapDoc(deploymentsRule+replicasValidation), "demo.example.com", "demo.static.k8s.io", 1)},
	{"policy with the static suffix and nothing to validate", strings.Replace(vapDoc(deploymentsRule), "demo.example.com", "demo.static.k8s.io", 1)},
	{"policy with bad labels and annotations", strings.Replace(vapDoc(deploymentsRule+replicasValidation), "{name: demo.example.com}", "{name: demo.example.com, labels: {'a b': c}, annotations: {'/x': z}}", 1)},
	{"policy with a namespace", strings.Replace(vapDoc(deploymentsRule+replicasValidation), "{name: demo.example.com}", "{name: demo.example.com, namespace: default}", 1)},

	// bindings
	{"binding without policyName", vapbDoc("validationActions: [Deny]\n")},
	{"binding without validationActions", vapbDoc("policyName: demo.example.com\n")},
	{"binding without policyName or validationActions", vapbDoc("paramRef: {name: a}\n")},
	{"binding with a bad policyName", vapbDoc("policyName: Demo_Policy\nvalidationActions: [Deny]\n")},
	{"binding with Deny and Warn", vapbDoc("policyName: demo.example.com\nvalidationActions: [Deny, Warn]\n")},
	{"binding with duplicate and unknown actions", vapbDoc("policyName: demo.example.com\nvalidationActions: [Audit, Audit, Block]\n")},
	{"binding paramRef with name and selector", vapbDoc("policyName: demo.example.com\nvalidationActions: [Deny]\nparamRef: {name: a, selector: {}, parameterNotFoundAction: Deny}\n")},
	{"binding paramRef with neither name nor selector", vapbDoc("policyName: demo.example.com\nvalidationActions: [Deny]\nparamRef: {namespace: default}\n")},
	{"binding paramRef with a bad name and action", vapbDoc("policyName: demo.example.com\nvalidationActions: [Deny]\nparamRef: {name: 'a/b', parameterNotFoundAction: Ignore}\n")},
	{"binding paramRef with a bad selector", vapbDoc("policyName: demo.example.com\nvalidationActions: [Deny]\nparamRef: {selector: {matchExpressions: [{key: a, operator: Exists, values: [b]}]}, parameterNotFoundAction: Allow}\n")},
	{"binding matchResources with bad rules", vapbDoc("policyName: demo.example.com\nvalidationActions: [Deny]\nmatchResources:\n  matchPolicy: Sometimes\n  resourceRules:\n  - {operations: [GET], apiGroups: [''], apiVersions: [v1], resources: [pods]}\n")},
	{"binding name with the static suffix", strings.Replace(vapbDoc("policyName: demo.example.com\nvalidationActions: [Deny]\n"), "demo-binding", "b.static.k8s.io", 1)},

	// mutating
	{"mutating policy without mutations or reinvocationPolicy", mapDoc(deploymentsRule)},
	{"mutating policy with DELETE", mapDoc(`matchConstraints:
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, DELETE], resources: [deployments]}
reinvocationPolicy: Never
mutations:
- {patchType: JSONPatch, jsonPatch: {expression: "[]"}}
`)},
	{"mutating policy with a bad reinvocationPolicy and patch types", mapDoc(deploymentsRule + `reinvocationPolicy: Always
mutations:
- patchType: Strategic
- patchType: JSONPatch
- patchType: ApplyConfiguration
- patchType: JSONPatch
  jsonPatch: {expression: "[]"}
  applyConfiguration: {expression: "Object{}"}
- patchType: ApplyConfiguration
  applyConfiguration: {expression: "  "}
  jsonPatch: {expression: "[]"}
- {}
`)},
	{"mutating policy expressions that do not compile", mapDoc(deploymentsRule + `reinvocationPolicy: Never
variables:
- {name: v, expression: "object.metadata.name"}
matchConditions:
- {name: m, expression: "variables.v == 'x'"}
mutations:
- patchType: JSONPatch
  jsonPatch: {expression: "  Object{}  "}
- patchType: ApplyConfiguration
  applyConfiguration: {expression: "[JSONPatch{}]"}
- patchType: ApplyConfiguration
  applyConfiguration: {expression: "Object{spec: variables.w}"}
`)},
	{"mutating binding without policyName, with DELETE", mapbDoc(`matchResources:
  resourceRules:
  - {apiGroups: [apps], apiVersions: [v1], operations: [DELETE], resources: [deployments]}
paramRef: {name: a, selector: {}}
`)},
}

// createDocsOf returns the admission policy and binding documents of the
// example files and crdtest suites of the repository.
func createDocsOf(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	addStream := func(where, text string) {
		docs, err := yamldoc.Split([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		for _, d := range docs {
			var head struct{ APIVersion, Kind string }
			if yaml.Unmarshal(d.Data, &head) != nil || !iadm.IsPolicyKind(head.APIVersion, head.Kind) {
				continue
			}
			out[where+":"+strconv.Itoa(d.Line)] = string(d.Data)
		}
	}
	files, _ := filepath.Glob("../examples/admission*/*.yaml")
	policyFiles, _ := filepath.Glob("../crdtest/testdata/admission/*.yaml")
	for _, f := range append(files, policyFiles...) {
		if strings.Contains(f, ".crdtest.") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		addStream(f, string(data))
	}
	suites, _ := filepath.Glob("../crdtest/testdata/*/*.crdtest.yaml")
	for _, f := range suites {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var suite struct {
			Policies []string `json:"policies"`
			Tests    struct {
				Admission []struct {
					Name     string   `json:"name"`
					Policies []string `json:"policies"`
				} `json:"admission"`
			} `json:"tests"`
		}
		if err := yaml.Unmarshal(data, &suite); err != nil {
			continue
		}
		for i, p := range suite.Policies {
			addStream(f+" policies["+strconv.Itoa(i)+"]", p)
		}
		for _, c := range suite.Tests.Admission {
			for i, p := range c.Policies {
				addStream(f+" "+c.Name+" policies["+strconv.Itoa(i)+"]", p)
			}
		}
	}
	return out
}

func crdlabCreateMessage(t *testing.T, doc string) (string, bool) {
	t.Helper()
	in, err := iadm.DecodeDocument([]byte(doc), "doc.yaml", 1)
	if err != nil {
		return err.Error(), false
	}
	errs := in.CreateErrors()
	if len(errs) == 0 {
		return "", true
	}
	return errs[0].Message(), true
}

func TestAdmissionCreateValidation(t *testing.T) {
	invalid := 0
	for _, tc := range admissionCreateCases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := upstream.ValidateAdmissionCreate([]byte(tc.doc))
			if err != nil {
				t.Fatalf("upstream: %v", err)
			}
			got, ok := crdlabCreateMessage(t, tc.doc)
			if !ok {
				t.Fatalf("crdlab does not decode it: %s", got)
			}
			if got != want {
				t.Errorf("create validation differs\n crdlab: %s\nupstream: %s\n%s", got, want, tc.doc)
			}
			if want != "" {
				invalid++
			}

		})
	}
	if invalid < 50 {
		t.Errorf("%d invalid cases, want at least 50", invalid)
	}
}

// TestAdmissionCreateValidationOfExamples: the policies and bindings of
// the repository's examples and crdtest suites, the Kubernetes
// documentation's among them, as the API server creates them.
func TestAdmissionCreateValidationOfExamples(t *testing.T) {
	docs := createDocsOf(t)
	t.Logf("%d documents", len(docs))
	if len(docs) < 20 {
		t.Fatalf("%d example documents, want at least 20", len(docs))
	}
	for where, doc := range docs {
		want, err := upstream.ValidateAdmissionCreate([]byte(doc))
		if err != nil {
			continue // not decodable by the API server either
		}
		got, ok := crdlabCreateMessage(t, doc)
		if !ok {
			continue
		}
		if got != want {
			t.Errorf("%s: create validation differs\n crdlab: %s\nupstream: %s", where, got, want)
		}
	}
}

package conformance

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/internal/builtin"
)

// The admission chain on built-in kinds: every case runs an object of a
// built-in kind (a Deployment, a Pod, a ConfigMap, a Secret) through
// crdlab's chain as `crdlab validate` and `crdlab test` run it — the object
// as the handler decodes it (builtin.Kinds.Admitted), the mutating
// policies typed by admission.BuiltinTarget and re-defaulted after each
// patch, the kind's registry strategy (builtin.Kinds.Serve), the
// validating policies — and through k8s.io/apiserver v0.37.2's mutating
// dispatcher (typed by the kinds' published schemas, defaulted by the
// scheme), kube-apiserver 1.37's registry strategy
// (upstream.ValidateBuiltin, for the kinds crdlab validates natively) and
// the validating dispatcher, and compares every stage: the mutated object,
// the stored object, the verdict, status message, warnings and audit
// annotations.

type builtinAdmissionCase struct {
	name     string
	policies string // YAML: policies, bindings, params (params may omit their namespace)
	obj, old string // YAML
	op       string // CREATE (default), UPDATE
	// resource is the object's resource (its plural).
	resource string
}

const replicasPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas-limit.example.com}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  validations:
  - expression: object.spec.replicas <= 5
    reason: Invalid
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replicas-limit-binding.example.com}
spec: {policyName: replicas-limit.example.com, validationActions: [Deny]}
`

const paramsReplicasPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas-from-params.example.com}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  validations:
  - expression: object.spec.replicas <= int(params.data.maxReplicas)
    messageExpression: "'replicas must be no greater than ' + params.data.maxReplicas"
    reason: Invalid
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replicas-from-params-binding.example.com}
spec:
  policyName: replicas-from-params.example.com
  validationActions: [Deny]
  paramRef: {name: replica-limits, parameterNotFoundAction: Deny}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: replica-limits}
data: {maxReplicas: "3"}
`

const registryPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: image-registries.example.com}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [pods]
  variables:
  - name: containers
    expression: "object.kind == 'Pod' ? object.spec.containers : object.spec.template.spec.containers"
  validations:
  - expression: "variables.containers.all(c, c.image.startsWith('registry.example.com/'))"
    messageExpression: "'images must come from registry.example.com: ' + variables.containers.filter(c, !c.image.startsWith('registry.example.com/')).map(c, c.image).join(', ')"
  auditAnnotations:
  - key: images
    valueExpression: "variables.containers.map(c, c.image).join(',')"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: image-registries-binding.example.com}
spec: {policyName: image-registries.example.com, validationActions: [Deny, Audit]}
`

const labelsPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: required-labels.example.com}
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["", apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments, configmaps, secrets]
  validations:
  - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
    message: the team label is required
  - expression: "!has(object.metadata.labels) || !('team' in object.metadata.labels) || object.metadata.labels.team.matches('^[a-z]+$')"
    messageExpression: "'team ' + object.metadata.labels.team + ' is not a lowercase word'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: required-labels-warn.example.com}
spec: {policyName: required-labels.example.com, validationActions: [Warn]}
`

const podSecurityPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: baseline.example.com}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [pods]
  validations:
  - expression: "!has(object.spec.hostNetwork) || !object.spec.hostNetwork"
    message: host networking is not allowed
    reason: Forbidden
  - expression: "object.spec.containers.all(c, !has(c.securityContext) || !has(c.securityContext.privileged) || !c.securityContext.privileged)"
    messageExpression: "'privileged containers are not allowed: ' + object.spec.containers.filter(c, has(c.securityContext) && has(c.securityContext.privileged) && c.securityContext.privileged).map(c, c.name).join(', ')"
    reason: Forbidden
  - expression: "object.spec.containers.all(c, has(c.securityContext) && has(c.securityContext.runAsNonRoot) && c.securityContext.runAsNonRoot)"
    message: containers must set securityContext.runAsNonRoot=true
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: baseline-binding.example.com}
spec: {policyName: baseline.example.com, validationActions: [Deny]}
`

const limitsPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: resource-limits.example.com}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  validations:
  - expression: "object.spec.template.spec.containers.all(c, has(c.resources) && has(c.resources.limits) && 'memory' in c.resources.limits && 'cpu' in c.resources.limits)"
    message: every container needs cpu and memory limits
  - expression: "object.spec.template.spec.containers.all(c, !has(c.resources) || !has(c.resources.limits) || !('cpu' in c.resources.limits) || quantity(c.resources.limits.cpu).compareTo(quantity('2')) <= 0)"
    message: at most 2 CPUs per container
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: resource-limits-binding.example.com}
spec: {policyName: resource-limits.example.com, validationActions: [Deny]}
`

const labelsMutatingPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: add-team.example.com}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [configmaps, secrets]
  matchConditions:
  - name: unlabelled
    expression: "!has(object.metadata.labels) || !('team' in object.metadata.labels)"
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{metadata: Object.metadata{labels: {'team': params.data.team}}}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: add-team-binding.example.com}
spec:
  policyName: add-team.example.com
  paramRef: {name: team-defaults, parameterNotFoundAction: Deny}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: team-defaults}
data: {team: payments}
`

const jsonPatchMutatingPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: managed-by.example.com}
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [configmaps, secrets]
  reinvocationPolicy: Never
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: >
        has(object.metadata.annotations) ?
        [JSONPatch{op: "add", path: "/metadata/annotations/" + jsonpatch.escapeKey("example.com/managed-by"), value: "crdlab"}] :
        [JSONPatch{op: "add", path: "/metadata/annotations", value: {"example.com/managed-by": "crdlab"}}]
  - patchType: JSONPatch
    jsonPatch:
      expression: "object.kind == 'Secret' ? [JSONPatch{op: 'remove', path: '/type'}] : []"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: managed-by-binding.example.com}
spec: {policyName: managed-by.example.com}
`

func deploymentYAML(name string, replicas int, image string, extra string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ` + name + `, namespace: shop` + extra + `}
spec:
  replicas: ` + itoa(replicas) + `
  selector: {matchLabels: {app: ` + name + `}}
  template:
    metadata: {labels: {app: ` + name + `}}
    spec:
      containers:
      - name: app
        image: ` + image + `
        resources: {limits: {cpu: 500m, memory: 128Mi}}
      - name: sidecar
        image: registry.example.com/proxy:1.2
        resources: {limits: {cpu: "3", memory: 64Mi}}
`
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func builtinAdmissionCases() []builtinAdmissionCase {
	web := deploymentYAML("web", 7, "nginx:1.27", "")
	small := deploymentYAML("web", 2, "registry.example.com/web:1.0", ", labels: {team: Payments}")
	pod := func(spec string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec:\n" + spec
	}
	return []builtinAdmissionCase{
		{name: "replicas/denied", policies: replicasPolicy, obj: web, resource: "deployments"},
		{name: "replicas/allowed", policies: replicasPolicy, obj: small, resource: "deployments"},
		{name: "replicas/update-grows", policies: replicasPolicy, op: "UPDATE", obj: web, old: small, resource: "deployments"},
		{name: "replicas/params-namespace-defaulted", policies: paramsReplicasPolicy, obj: strings.Replace(small, "namespace: shop", "namespace: default", 1), resource: "deployments"},
		{name: "replicas/params-other-namespace", policies: paramsReplicasPolicy, obj: small, resource: "deployments"},
		{name: "replicas/params-denied", policies: paramsReplicasPolicy, obj: strings.Replace(web, "namespace: shop", "namespace: default", 1), resource: "deployments"},
		{name: "registry/deployment-denied", policies: registryPolicy, obj: web, resource: "deployments"},
		{name: "registry/deployment-allowed", policies: registryPolicy, obj: small, resource: "deployments"},
		{name: "registry/pod-denied", policies: registryPolicy, resource: "pods", obj: pod("  containers: [{name: a, image: docker.io/nginx}, {name: b, image: registry.example.com/b}]\n")},
		{name: "labels/deployment-missing", policies: labelsPolicy, obj: web, resource: "deployments"},
		{name: "labels/deployment-bad-team", policies: labelsPolicy, obj: small, resource: "deployments"},
		{name: "labels/configmap-missing", policies: labelsPolicy, resource: "configmaps", obj: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n"},
		{name: "labels/secret-ok", policies: labelsPolicy, resource: "secrets", obj: "apiVersion: v1\nkind: Secret\nmetadata: {name: s, labels: {team: shop}}\nstringData: {password: x}\n"},
		{name: "pod-security/privileged", policies: podSecurityPolicy, resource: "pods",
			obj: pod("  containers:\n  - {name: a, image: x, securityContext: {privileged: true, runAsNonRoot: true}}\n  - {name: b, image: y, securityContext: {runAsNonRoot: true}}\n")},
		{name: "pod-security/host-network", policies: podSecurityPolicy, resource: "pods",
			obj: pod("  hostNetwork: true\n  containers: [{name: a, image: x}]\n")},
		{name: "pod-security/root", policies: podSecurityPolicy, resource: "pods",
			obj: pod("  containers: [{name: a, image: x}]\n")},
		{name: "pod-security/allowed", policies: podSecurityPolicy, resource: "pods",
			obj: pod("  containers: [{name: a, image: x, securityContext: {runAsNonRoot: true, privileged: false}}]\n")},
		{name: "limits/too-many-cpus", policies: limitsPolicy, obj: small, resource: "deployments"},
		{name: "limits/missing", policies: limitsPolicy, resource: "deployments", obj: strings.Replace(small, "resources: {limits: {cpu: 500m, memory: 128Mi}}", "resources: {}", 1)},
		{name: "mutating/configmap-labels", policies: labelsMutatingPolicy + "---\n" + labelsPolicy, resource: "configmaps",
			obj: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n"},
		{name: "mutating/configmap-labelled", policies: labelsMutatingPolicy + "---\n" + labelsPolicy, resource: "configmaps",
			obj: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: {team: Shop}}\ndata: {a: b}\n"},
		{name: "mutating/secret-labels-update", policies: labelsMutatingPolicy + "---\n" + labelsPolicy, resource: "secrets", op: "UPDATE",
			obj: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: YQ==}\n", old: "apiVersion: v1\nkind: Secret\nmetadata: {name: s, resourceVersion: '3'}\ndata: {a: Yg==}\n"},
		{name: "mutating/json-patch-configmap", policies: jsonPatchMutatingPolicy, resource: "configmaps",
			obj: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, annotations: {x: z}}\n"},
		{name: "mutating/json-patch-secret-type-redefaulted", policies: jsonPatchMutatingPolicy, resource: "secrets",
			obj: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: Opaque\nstringData: {k: v}\n"},
	}
}

// builtinKindsAdapter is admission.BuiltinKinds over internal/builtin, as
// the CLI gives it (cmd/crdlab builtinKinds).
type builtinKindsAdapter struct{ builtin.Kinds }

func (k builtinKindsAdapter) Serve(apiVersion, kind string, obj, old map[string]interface{}, fv string) (admission.BuiltinAnswer, error) {
	a, err := k.Kinds.Serve(apiVersion, kind, obj, old, fv)
	return admission.BuiltinAnswer{Modelled: a.Modelled, Object: a.Object, Message: a.Message, Reason: a.Reason, Code: a.Code, Warnings: a.Warnings}, err
}

type builtinChainOutcome struct {
	Mutated                map[string]interface{}
	MutationDenied         bool
	MutationMessage        string
	Stored                 map[string]interface{}
	Invalid                string
	Denied                 bool
	Message, Cause, Reason string
	Code                   int
	Warnings               []string
	AuditAnnotations       map[string]string
}

func TestBuiltinAdmissionChain(t *testing.T) {
	cases := builtinAdmissionCases()
	if len(cases) < 24 {
		t.Errorf("%d cases, want at least 24", len(cases))
	}
	kinds := builtinKindsAdapter{builtin.Kinds{}}
	var _ admission.BuiltinKinds = kinds
	usr := admission.UserInfo{Username: "admin", Groups: []string{"system:masters", "system:authenticated"}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := admission.DecodeFile([]byte(c.policies), c.name+".yaml")
			if err != nil {
				t.Fatal(err)
			}
			op := c.op
			if op == "" {
				op = "CREATE"
			}
			obj, old := mustJSON(t, c.obj), mustJSON(t, c.old)
			apiVersion, _ := obj["apiVersion"].(string)
			kind, _ := obj["kind"].(string)
			plural, namespaced, ok := kinds.Resource(apiVersion, kind)
			if !ok || plural != c.resource {
				t.Fatalf("resource of %s %s: %q %v, want %q", apiVersion, kind, plural, ok, c.resource)
			}
			// The handler's object: decoded, defaulted, in its namespace.
			if obj, ok = kinds.Admitted(apiVersion, kind, obj, ""); !ok {
				t.Fatal("the object does not decode")
			}
			if old != nil {
				if old, ok = kinds.Admitted(apiVersion, kind, old, "Ignore"); !ok {
					t.Fatal("the old object does not decode")
				}
			}
			obj, _ = admission.ObjectOf(obj)
			old, _ = admission.ObjectOf(old)
			ns := ""
			if namespaced {
				ns, _ = obj["metadata"].(map[string]interface{})["namespace"].(string)
			}
			name, _ := obj["metadata"].(map[string]interface{})["name"].(string)
			group, version := "", apiVersion
			if i := strings.Index(apiVersion, "/"); i >= 0 {
				group, version = apiVersion[:i], apiVersion[i+1:]
			}
			gvk := schema.GroupVersionKind{Group: group, Version: version, Kind: kind}
			gvr := schema.GroupVersionResource{Group: group, Version: version, Resource: plural}
			// Upstream's listers hold the objects kubectl apply created:
			// a param without a namespace is in "default".
			var upObjects []map[string]interface{}
			for _, o := range in.Objects {
				o = mustJSON(t, mustMarshal(o))
				if md, _ := o["metadata"].(map[string]interface{}); md != nil && md["namespace"] == nil && o["kind"] != "Namespace" {
					md["namespace"] = "default"
				}
				upObjects = append(upObjects, o)
			}
			upObjects = append(upObjects, admission.DefaultNamespace(ns))
			crdlabObjects := append(append([]map[string]interface{}(nil), in.Objects...), admission.DefaultNamespace(ns))
			upIn := func(o, oo map[string]interface{}) *upstream.AdmissionInput {
				return &upstream.AdmissionInput{Objects: upObjects, ParamNamespaced: true,
					Equivalents: map[schema.GroupVersionResource]schema.GroupVersionKind{gvr: gvk},
					Operation:   op, Kind: gvk, Resource: gvr, Name: name, Namespace: ns, Object: o, OldObject: oo,
					User: &user.DefaultInfo{Name: usr.Username, Groups: usr.Groups}, Options: upstreamOptions(op)}
			}
			req := admission.Request{Operation: op, Kind: admission.GVK{Group: group, Version: version, Kind: kind},
				Resource: admission.GVR{Group: group, Version: version, Resource: plural}, Name: name, Namespace: ns,
				Object: obj, OldObject: old, UserInfo: usr}
			var got, want builtinChainOutcome

			// Mutating admission.
			gotObj, wantObj := obj, obj
			if len(in.MutatingPolicies) > 0 {
				m, err := admission.NewMutator(admission.MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings, Objects: crdlabObjects})
				if err != nil {
					t.Fatal(err)
				}
				target, err := admission.BuiltinTarget(apiVersion, kind, plural, namespaced, func(o map[string]interface{}) map[string]interface{} {
					d, _ := admission.ObjectOf(kinds.Redefault(apiVersion, kind, o))
					return d
				})
				if err != nil {
					t.Fatal(err)
				}
				r := m.Mutate(&req, target)
				got.Mutated = r.Object
				if r.Denied != nil {
					got.Mutated, got.MutationDenied, got.MutationMessage = nil, true, r.Denied.Message
				}
				ui := upIn(obj, old)
				for _, p := range in.MutatingPolicies {
					ui.Policies = append(ui.Policies, []byte(mustMarshal(p)))
				}
				for _, b := range in.MutatingBindings {
					ui.Bindings = append(ui.Bindings, []byte(mustMarshal(b)))
				}
				up, err := upstream.Mutate(ui, nil)
				if err != nil {
					t.Fatalf("upstream: %v", err)
				}
				want.Mutated, want.MutationDenied, want.MutationMessage = up.Object, up.Denied, up.Message
				if up.Denied {
					want.Mutated = nil
				}
				if got.Mutated != nil {
					gotObj = got.Mutated
				}
				if want.Mutated != nil {
					wantObj = want.Mutated
				}
			}

			// The registry strategy of a kind crdlab validates natively.
			a, err := kinds.Serve(apiVersion, kind, gotObj, old, "")
			if err != nil {
				t.Fatal(err)
			}
			if a.Modelled {
				body := []byte(mustMarshal(wantObj))
				var oldBody []byte
				if old != nil {
					oldBody = []byte(mustMarshal(old))
				}
				up, err := upstream.ValidateBuiltin(upstream.BuiltinRequest{Object: body, Old: oldBody})
				if err != nil {
					t.Fatalf("upstream: %v", err)
				}
				got.Stored, got.Invalid, got.Warnings = a.Object, a.Message, a.Warnings
				want.Stored, want.Invalid, want.Warnings = up.Object, up.Invalid+up.DecodeError, up.Warnings
				if a.Object != nil {
					gotObj, _ = admission.ObjectOf(a.Object)
				}
				if up.Object != nil {
					wantObj = up.Object
				}
			}

			// Validating admission.
			if len(in.Policies) > 0 && got.Invalid == "" && want.Invalid == "" && !got.MutationDenied && !want.MutationDenied {
				adm, err := admission.New(admission.Config{Policies: in.Policies, Bindings: in.Bindings, Objects: crdlabObjects})
				if err != nil {
					t.Fatal(err)
				}
				vreq := req
				vreq.Object = gotObj
				d := adm.Validate(&vreq)
				got.Warnings = append(got.Warnings, d.Warnings...)
				got.AuditAnnotations = d.AuditAnnotations
				if d.Denied != nil {
					got.Denied, got.Message, got.Cause, got.Reason, got.Code = true, d.Denied.Message, d.Denied.Cause, d.Denied.Reason, d.Denied.Code
				}
				ui := upIn(wantObj, old)
				for _, p := range in.Policies {
					ui.Policies = append(ui.Policies, []byte(mustMarshal(p)))
				}
				for _, b := range in.Bindings {
					ui.Bindings = append(ui.Bindings, []byte(mustMarshal(b)))
				}
				up, err := upstream.Admit(ui)
				if err != nil {
					t.Fatalf("upstream: %v", err)
				}
				want.Warnings = append(want.Warnings, up.Warnings...)
				want.AuditAnnotations = up.AuditAnnotations
				want.Denied, want.Message, want.Cause, want.Reason, want.Code = up.Denied, up.Message, up.Cause, up.Reason, up.Code
			}
			for _, o := range []*builtinChainOutcome{&got, &want} {
				if len(o.Warnings) == 0 {
					o.Warnings = nil
				}
			}
			g, _ := json.MarshalIndent(got, "", "  ")
			w, _ := json.MarshalIndent(want, "", "  ")
			if string(g) != string(w) || !reflect.DeepEqual(normalizeJSON(got.Stored), normalizeJSON(want.Stored)) {
				t.Errorf("crdlab:\n%s\nupstream:\n%s", g, w)
			}
			if testing.Verbose() {
				t.Logf("%s", w)
			}
		})
	}
}

package admission_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/admission"
)

// BuiltinTarget types a built-in kind for mutating policies: here a
// MutatingAdmissionPolicy labels a ConfigMap with its param's team, the
// param written without a namespace (the admitter puts it in default, as
// kubectl apply creates it).
func ExampleBuiltinTarget() {
	in, err := admission.DecodeFile([]byte(`
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: team-label}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{metadata: Object.metadata{labels: {'team': params.data.team}}}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: team-label}
spec:
  policyName: team-label
  paramRef: {name: team-defaults, parameterNotFoundAction: Deny}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: team-defaults}
data: {team: payments}
`), "policies.yaml")
	if err != nil {
		panic(err)
	}
	m, err := admission.NewMutator(admission.MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings, Objects: in.Objects})
	if err != nil {
		panic(err)
	}
	target, err := admission.BuiltinTarget("v1", "ConfigMap", "configmaps", true, nil)
	if err != nil {
		panic(err)
	}
	obj := map[string]interface{}{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]interface{}{"name": "web", "namespace": "default"}, "data": map[string]interface{}{"listen": ":8080"}}
	req := admission.ObjectRequest(admission.Request{Operation: "CREATE", UserInfo: admission.UserInfo{Username: "admin"}},
		"v1", "ConfigMap", "configmaps", true, obj, nil, false)
	res := m.Mutate(&req, target)
	b, _ := json.Marshal(res.Object["metadata"])
	fmt.Println(string(b))
	// Output:
	// {"labels":{"team":"payments"},"name":"web","namespace":"default"}
}

// namespaceKinds is a BuiltinKinds that knows one kind, v1 Namespace, and
// stores it as the API server does (its kubernetes.io/metadata.name label,
// phase Active); crdlab's CLI gives internal/builtin's request path.
type namespaceKinds struct{}

func (namespaceKinds) Resource(apiVersion, kind string) (string, bool, bool) {
	return "namespaces", false, apiVersion == "v1" && kind == "Namespace"
}

func (namespaceKinds) Admitted(_, _ string, obj map[string]interface{}, _ string) (map[string]interface{}, bool) {
	return obj, true
}

func (namespaceKinds) Redefault(_, _ string, _ map[string]interface{}) map[string]interface{} {
	return nil
}

func (namespaceKinds) Serve(_, _ string, obj, _ map[string]interface{}, _ string) (admission.BuiltinAnswer, error) {
	md := obj["metadata"].(map[string]interface{})
	stored := map[string]interface{}{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]interface{}{"name": md["name"], "labels": map[string]interface{}{"kubernetes.io/metadata.name": md["name"]}},
		"status":   map[string]interface{}{"phase": "Active"}}
	return admission.BuiltinAnswer{Modelled: true, Object: stored}, nil
}

// StoredObjects turns the objects given as inputs into what the cluster
// stores once they are created, for namespaceObject and params.
func ExampleStoredObjects() {
	objs := admission.StoredObjects([]map[string]interface{}{
		{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]interface{}{"name": "shop"}},
		{"apiVersion": "example.com/v1", "kind": "Limits", "metadata": map[string]interface{}{"name": "l"}},
	}, namespaceKinds{})
	for _, o := range objs {
		b, _ := json.Marshal(o)
		fmt.Println(string(b))
	}
	// Output:
	// {"apiVersion":"v1","kind":"Namespace","metadata":{"labels":{"kubernetes.io/metadata.name":"shop"},"name":"shop"},"status":{"phase":"Active"}}
	// {"apiVersion":"example.com/v1","kind":"Limits","metadata":{"name":"l"}}
}

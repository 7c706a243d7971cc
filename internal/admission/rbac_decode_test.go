package admission

import (
	"strings"
	"testing"
)

func TestDecodeFileLocatesRBACObjectsOfTheWrongShape(t *testing.T) {
	role := "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: ns, labels: {a: b}}\nrules:\n- apiGroups: [\"\"]\n  resources: [pods]\n  verbs: [get]\n"
	binding := "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b}\nsubjects:\n- kind: User\n  apiGroup: rbac.authorization.k8s.io\n  name: alice\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}\n"
	for _, tc := range []struct {
		name, src, want string
	}{
		{"a valid Role", role, ""},
		{"a valid RoleBinding", binding, ""},
		{"a ClusterRole with an aggregationRule", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: c}\naggregationRule:\n  clusterRoleSelectors: [{matchLabels: {x: y}}]\nrules: []\n", ""},
		{"resources a number", strings.Replace(role, "[pods]", "5", 1), `r.yaml:6:3: rules[0].resources: expected a list, got a number`},
		{"a verb not a string", strings.Replace(role, "[get]", "[get, 1]", 1), `r.yaml:7:16: rules[0].verbs[1]: expected a string, got a number`},
		{"an unknown rule field", strings.Replace(role, "  verbs:", "  verb:", 1), `r.yaml:7:3: unknown field "rules[0].verb"`},
		{"a subject's name a list", strings.Replace(binding, "name: alice", "name: [alice]", 1), `r.yaml:7:3: subjects[0].name: expected a string, got a list`},
		{"roleRef not an object", strings.Replace(binding, "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}", "roleRef: r", 1), `r.yaml:8:1: roleRef: expected an object, got a string`},
		{"in the second document", "kind: Namespace\napiVersion: v1\nmetadata: {name: ns}\n---\n" + strings.Replace(role, "[pods]", "5", 1), `r.yaml:10:3: rules[0].resources: expected a list, got a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeFile([]byte(tc.src), "r.yaml")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("err = %q, want %q", got, tc.want)
			}
		})
	}
}

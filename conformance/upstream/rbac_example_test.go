//go:build !versions_oracle

package upstream_test

import (
	"context"
	"fmt"

	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	"github.com/crdlab/crdlab/conformance/upstream"
)

// Authorizer answers as kube-apiserver with --authorization-mode=RBAC over
// the RBAC objects given.
func ExampleAuthorizer() {
	objects := []map[string]interface{}{
		{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": map[string]interface{}{"name": "pod-reader"},
			"rules": []interface{}{map[string]interface{}{"apiGroups": []interface{}{""}, "resources": []interface{}{"pods"}, "verbs": []interface{}{"get"}}}},
		{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": map[string]interface{}{"name": "read", "namespace": "prod"},
			"roleRef":  map[string]interface{}{"kind": "ClusterRole", "name": "pod-reader"},
			"subjects": []interface{}{map[string]interface{}{"kind": "User", "name": "jane"}}},
		{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": map[string]interface{}{"name": "dangling", "namespace": "dev"},
			"roleRef":  map[string]interface{}{"kind": "Role", "name": "missing"},
			"subjects": []interface{}{map[string]interface{}{"kind": "User", "name": "jane"}}},
	}
	a, err := upstream.Authorizer(objects)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ns := range []string{"prod", "dev"} {
		d, reason, _ := a.Authorize(context.Background(), &authorizer.AttributesRecord{
			User: &user.DefaultInfo{Name: "jane"}, ResourceRequest: true, Verb: "get", Resource: "pods", Namespace: ns,
		})
		fmt.Println(ns, d == authorizer.DecisionAllow, reason)
	}
	// Output:
	// prod true RBAC: allowed by RoleBinding "read/prod" of ClusterRole "pod-reader" to User "jane"
	// dev false rbac: RBAC: role.rbac.authorization.k8s.io "missing" not found
}

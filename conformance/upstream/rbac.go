//go:build !versions_oracle

package upstream

import (
	"context"
	"fmt"
	"sort"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/authorization/union"
	rbaclisters "k8s.io/client-go/listers/rbac/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac"
)

// Authorizer is kube-apiserver's authorizer with --authorization-mode=RBAC
// (pkg/kubeapiserver/authorizer reload.go newForConfig): the union of the
// system:masters privileged-group authorizer and the RBAC authorizer
// (rbac.New over informer listers), over the Role, ClusterRole, RoleBinding
// and ClusterRoleBinding objects (rbac.authorization.k8s.io/v1) among
// objects. Objects of other kinds are ignored; a Role or RoleBinding without
// a namespace is in "default".
//
// The informers' lists are in map order, so the API server's order of the
// bindings is unspecified; these listers return them in name order, as
// crdlab does.
func Authorizer(objects []map[string]interface{}) (authorizer.Authorizer, error) {
	roles := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	roleBindings := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	clusterRoles := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	clusterRoleBindings := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, o := range objects {
		if o["apiVersion"] != rbacv1.SchemeGroupVersion.String() {
			continue
		}
		var (
			obj     interface{}
			indexer cache.Indexer
		)
		switch o["kind"] {
		case "Role":
			obj, indexer = &rbacv1.Role{}, roles
		case "RoleBinding":
			obj, indexer = &rbacv1.RoleBinding{}, roleBindings
		case "ClusterRole":
			obj, indexer = &rbacv1.ClusterRole{}, clusterRoles
		case "ClusterRoleBinding":
			obj, indexer = &rbacv1.ClusterRoleBinding{}, clusterRoleBindings
		default:
			continue
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o, obj); err != nil {
			return nil, fmt.Errorf("%v %v: %w", o["kind"], o["metadata"], err)
		}
		switch x := obj.(type) {
		case *rbacv1.Role:
			if x.Namespace == "" {
				x.Namespace = "default"
			}
		case *rbacv1.RoleBinding:
			if x.Namespace == "" {
				x.Namespace = "default"
			}
		}
		if err := indexer.Add(obj); err != nil {
			return nil, err
		}
	}
	rbacAuthorizer := rbac.New(
		&rbac.RoleGetter{Lister: rbaclisters.NewRoleLister(roles)},
		sortedRoleBindings{rbaclisters.NewRoleBindingLister(roleBindings)},
		&rbac.ClusterRoleGetter{Lister: rbaclisters.NewClusterRoleLister(clusterRoles)},
		sortedClusterRoleBindings{rbaclisters.NewClusterRoleBindingLister(clusterRoleBindings)},
	)
	return union.New(
		union.NamedAuthorizer{AuthorizerName: "kubernetes.io/system-privileged-group", Authorizer: authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup)},
		union.NamedAuthorizer{AuthorizerName: "rbac", Authorizer: rbacAuthorizer},
	)
}

type sortedRoleBindings struct{ l rbaclisters.RoleBindingLister }

func (s sortedRoleBindings) ListRoleBindings(_ context.Context, namespace string) ([]*rbacv1.RoleBinding, error) {
	bs, err := s.l.RoleBindings(namespace).List(labels.Everything())
	sort.Slice(bs, func(i, j int) bool { return bs[i].Name < bs[j].Name })
	return bs, err
}

type sortedClusterRoleBindings struct {
	l rbaclisters.ClusterRoleBindingLister
}

func (s sortedClusterRoleBindings) ListClusterRoleBindings(context.Context) ([]*rbacv1.ClusterRoleBinding, error) {
	bs, err := s.l.List(labels.Everything())
	sort.Slice(bs, func(i, j int) bool { return bs[i].Name < bs[j].Name })
	return bs, err
}

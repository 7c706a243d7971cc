package conformance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/admission"
)

// The differential suite of the CEL authorizer: every request runs crdlab's
// admission package and k8s.io/apiserver's validating policy dispatcher with
// kube-apiserver's authorizer for --authorization-mode=RBAC
// (conformance/upstream.Authorizer: the system:masters authorizer and
// rbac.New of k8s.io/kubernetes v1.37.2 over listers of the same objects),
// and compares the outcomes: each check's allowed(), reason() and errored()
// as audit annotations, and the denials of policies that use them.

// rbacObjects is the RBAC state of the suite: roles and cluster roles bound
// to users, groups and service accounts, by RoleBindings (to Roles and to
// ClusterRoles) and ClusterRoleBindings, and bindings to missing roles.
const rbacObjects = `
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: pod-reader}
rules:
- {apiGroups: [""], resources: [pods, pods/log], verbs: [get, list, watch]}
- {nonResourceURLs: [/healthz, "/logs/*"], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: read-pods}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: pod-reader}
subjects:
- {kind: Group, apiGroup: rbac.authorization.k8s.io, name: readers}
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: jane}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: everything}
rules:
- {apiGroups: ["*"], resources: ["*"], verbs: ["*"]}
- {nonResourceURLs: ["*"], verbs: ["*"]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: admins}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: everything}
subjects:
- {kind: Group, apiGroup: rbac.authorization.k8s.io, name: admins}
- {kind: ServiceAccount, name: ops, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: secrets-all}
rules:
- {apiGroups: [""], resources: [secrets], verbs: ["*"]}
- {apiGroups: [""], resources: [nodes], resourceNames: [n1], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: secrets}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: secrets-all}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: jane}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: aggregate-viewer}
aggregationRule:
  clusterRoleSelectors:
  - matchLabels: {rbac.example.com/aggregate-to-viewer: "true"}
rules: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: crontab-viewer, labels: {rbac.example.com/aggregate-to-viewer: "true"}}
rules:
- {apiGroups: [stable.example.com], resources: [crontabs], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: viewers}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: aggregate-viewer}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: vic}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: dangling}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: missing}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: carol}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: role-ref}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: crontab-editor}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: carol}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: crontab-editor, namespace: prod}
rules:
- {apiGroups: [stable.example.com], resources: [crontabs], verbs: ["*"]}
- {apiGroups: [stable.example.com], resources: ["*/status"], verbs: [update]}
- {apiGroups: [""], resources: [configmaps], resourceNames: [settings], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: edit-crontabs, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: crontab-editor}
subjects:
- {kind: ServiceAccount, name: deployer}
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: bob}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: a-dangling, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: missing}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: carol}
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: bob}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: weird, namespace: prod}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Other, name: x}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: carol}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: deploy-editor}
rules:
- {apiGroups: [apps], resources: [deployments, deployments/scale], verbs: [get, update, patch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: deployers, namespace: dev}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: deploy-editor}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: bob}
- {kind: Group, apiGroup: rbac.authorization.k8s.io, name: readers}
- {kind: ServiceAccount, name: deployer, namespace: prod}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: no-namespace}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: pod-reader}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: dave}
`

// rbacChecks are the checks every request makes, one policy each.
var rbacChecks = []string{
	"authorizer.group('').resource('pods').check('get')",
	"authorizer.group('').resource('pods').namespace('prod').check('list')",
	"authorizer.group('').resource('pods').namespace('prod').check('delete')",
	"authorizer.group('').resource('pods').subresource('log').namespace('prod').check('get')",
	"authorizer.group('').resource('pods').subresource('exec').namespace('prod').check('create')",
	"authorizer.group('stable.example.com').resource('crontabs').namespace('prod').check('delete')",
	"authorizer.group('stable.example.com').resource('crontabs').namespace('qa').check('create')",
	"authorizer.group('stable.example.com').resource('crontabs').subresource('status').namespace('prod').check('update')",
	"authorizer.group('stable.example.com').resource('crontabs').subresource('scale').namespace('prod').check('update')",
	"authorizer.group('').resource('configmaps').namespace('prod').name('settings').check('get')",
	"authorizer.group('').resource('configmaps').namespace('prod').name('other').check('get')",
	"authorizer.group('').resource('configmaps').namespace('prod').check('get')",
	"authorizer.path('/healthz').check('get')",
	"authorizer.path('/logs/kubelet.log').check('get')",
	"authorizer.path('/metrics').check('get')",
	"authorizer.path('/healthz').check('post')",
	"authorizer.serviceAccount('prod', 'deployer').group('stable.example.com').resource('crontabs').namespace('prod').check('create')",
	"authorizer.serviceAccount('dev', 'deployer').group('stable.example.com').resource('crontabs').namespace('prod').check('create')",
	"authorizer.serviceAccount('kube-system', 'ops').group('x.example.com').resource('widgets').check('deletecollection')",
	"authorizer.serviceAccount('prod', 'deployer').group('apps').resource('deployments').subresource('scale').namespace('dev').check('patch')",
	"authorizer.requestResource.check('create')",
	"authorizer.requestResource.check('get')",
	"authorizer.group('apps').resource('deployments').namespace('dev').check('update')",
	"authorizer.group('apps').resource('deployments').namespace('prod').check('update')",
	"authorizer.group('').resource('pods').namespace('prod').fieldSelector('spec.nodeName=n1').labelSelector('app in (a, b)').check('list')",
	"authorizer.group('').resource('pods').fieldSelector('spec.nodeName==').labelSelector('app in (').check('list')",
	"authorizer.group('').resource('secrets').namespace('kube-system').name('token').check('escalate')",
	"authorizer.group('').resource('nodes').name('n1').check('get')",
	"authorizer.group('').resource('nodes').name('n2').check('get')",
	"authorizer.group('').resource('pods').namespace('default').check('watch')",
	"authorizer.group('stable.example.com').resource('crontabs').check('get')",
	"authorizer.group('').resource('pods').namespace('prod').check('')",
}

// rbacCheckPolicies renders one policy per check, with Warn: its first
// validation always fails with an error that quotes allowed() and reason()
// ("no such key: allowed=... reason=..."; audit annotations cannot show
// them: the API server binds no authorizer there), its second fails when errored()
// (one or two checks per expression: a check costs 350000 of an
// expression's 1000000). A last policy denies what the requester may not do
// to the request's resource.
func rbacCheckPolicies() string {
	var b strings.Builder
	for i, c := range rbacChecks {
		name := fmt.Sprintf("check-%02d", i)
		b.WriteString(vap(name, fmt.Sprintf(`  validations:
  - {expression: %q}
  - {expression: %q}
`, "{'': 0}['allowed=' + string("+c+".allowed()) + ' reason=' + "+c+".reason()] == 0", "!"+c+".errored() && "+c+".error() == ''")))
		b.WriteString(vapb(name, name, "Warn", ""))
	}
	b.WriteString(vap("may-write", `  matchConditions:
  - {name: not-masters, expression: "!authorizer.group('').resource('nodes').check('delete').allowed()"}
  validations:
  - expression: "authorizer.requestResource.check(request.operation.lowerAscii()).allowed()"
    message: "the requester may not write this CronTab"
    reason: Forbidden
`))
	b.WriteString(vapb("may-write", "may-write", "Deny, Warn", ""))
	return b.String()
}

var rbacUsers = []struct {
	name string
	user admission.UserInfo
}{
	{"jane", admission.UserInfo{Username: "jane", Groups: []string{"system:authenticated"}}},
	{"reader", admission.UserInfo{Username: "x", Groups: []string{"readers", "system:authenticated"}}},
	{"bob", admission.UserInfo{Username: "bob", UID: "b-1"}},
	{"deployer-sa", admission.UserInfo{Username: "system:serviceaccount:prod:deployer", Groups: []string{"system:serviceaccounts", "system:serviceaccounts:prod", "system:authenticated"}}},
	{"ops-sa", admission.UserInfo{Username: "system:serviceaccount:kube-system:ops"}},
	{"carol", admission.UserInfo{Username: "carol"}},
	{"vic", admission.UserInfo{Username: "vic"}},
	{"dave", admission.UserInfo{Username: "dave"}},
	{"admin-group", admission.UserInfo{Username: "alice", Groups: []string{"admins"}}},
	{"masters", admission.UserInfo{Username: "root", Groups: []string{"system:masters"}}},
	{"nobody", admission.UserInfo{Username: "nobody", Groups: []string{"system:authenticated"}}},
}

func rbacRequests() []admissionRequest {
	var rs []admissionRequest
	for _, u := range rbacUsers {
		rs = append(rs,
			admissionRequest{name: u.name + "/create-prod", op: "CREATE", obj: crontabYAML("c", "prod", 1, "prod"), namespace: "prod", user: u.user},
			admissionRequest{name: u.name + "/update-dev", op: "UPDATE", obj: crontabYAML("c", "dev", 2, "dev"), old: crontabYAML("c", "dev", 1, "dev"), namespace: "dev", user: u.user},
		)
	}
	return rs
}

// TestAuthorizerIsRBACs: each user's requests, each evaluating every check,
// answered as kube-apiserver's RBAC authorizer answers them.
func TestAuthorizerIsRBACs(t *testing.T) {
	sc := admissionScenario{name: "rbac", yaml: rbacObjects + rbacCheckPolicies()}
	n := runAdmissionScenario(t, sc, rbacRequests())
	t.Logf("%d requests x %d checks: %d authorizer decisions", n, len(rbacChecks), n*len(rbacChecks))
	if n < 20 || n*len(rbacChecks) < 400 {
		t.Errorf("%d requests x %d checks, want at least 20 requests and 400 decisions", n, len(rbacChecks))
	}
}

// TestAuthorizerErrorsAreUpstreams: the library's argument errors, and the
// authorizer without RBAC objects among the inputs.
func TestAuthorizerErrorsAreUpstreams(t *testing.T) {
	exprs := []string{
		"authorizer.path(' ').check('get').allowed()",
		"authorizer.path('').check('get').allowed()",
		"authorizer.group('').resource('').check('get').allowed()",
		"authorizer.group('').resource('  ').check('get').allowed()",
		"authorizer.serviceAccount('ns', 'Bad_Name').path('/').check('get').allowed()",
		"authorizer.serviceAccount('Bad.NS', 'sa').path('/').check('get').allowed()",
		"authorizer.serviceAccount('Bad.NS', 'Bad_Name').path('/').check('get').allowed()",
		"authorizer.serviceAccount('', 'sa').path('/').check('get').allowed()",
		"authorizer.serviceAccount('ns', 'a.b').path('/').check('get').allowed()",
		"authorizer.group('').resource('pods').check('get').allowed() && authorizer.path('/').check('get').allowed() && authorizer.path('/x').check('get').allowed()",
		"authorizer.group('').resource('pods').check('get').reason() == ''",
		"authorizer.requestResource.check('create').errored() || authorizer.requestResource.check('create').error() != ''",
		"type(authorizer) == type(authorizer)",
		"string(type(authorizer.path('/').check('get'))) == 'kubernetes.authorization.Decision'",
		"authorizer.path('/') == authorizer.path('/')",
	}
	n := 0
	for i, e := range exprs {
		for _, rbac := range []string{"", rbacObjects} {
			name := fmt.Sprintf("expr-%02d", i)
			if rbac != "" {
				name += "-rbac"
			}
			sc := admissionScenario{name: name, yaml: rbac + vap("p", "  validations:\n  - expression: "+fmt.Sprintf("%q", e)+"\n") + vapb("p", "p", "Deny", "")}
			n += runAdmissionScenario(t, sc, []admissionRequest{
				{name: "masters", op: "CREATE", obj: crontabYAML("c", "prod", 1, "prod"), namespace: "prod"},
				{name: "jane", op: "CREATE", obj: crontabYAML("c", "prod", 1, "prod"), namespace: "prod", user: rbacUsers[0].user},
			})
		}
	}
	// Variables that ask the authorizer: bound in validations, not in
	// messageExpressions nor audit annotations.
	vars := `  variables:
  - {name: healthz, expression: "authorizer.path('/healthz').check('get').allowed()"}
  - {name: why, expression: "authorizer.path('/healthz').check('get').reason()"}
  validations:
  - {expression: "variables.healthz && variables.why == ''", messageExpression: "'healthz: ' + string(variables.healthz)"}
  - {expression: "!variables.healthz", messageExpression: "'why: ' + variables.why", message: "the fallback"}
`
	for _, actions := range []string{"Deny", "Warn"} {
		sc := admissionScenario{name: "variables-" + actions, yaml: rbacObjects + vap("p", vars) + vapb("p", "p", actions, "")}
		n += runAdmissionScenario(t, sc, []admissionRequest{
			{name: "masters", op: "CREATE", obj: crontabYAML("c", "prod", 1, "prod"), namespace: "prod"},
			{name: "jane", op: "CREATE", obj: crontabYAML("c", "prod", 1, "prod"), namespace: "prod", user: rbacUsers[0].user},
			{name: "nobody", op: "CREATE", obj: crontabYAML("c", "prod", 1, "prod"), namespace: "prod", user: rbacUsers[len(rbacUsers)-1].user},
		})
	}
	// Audit annotations: the authorizer is declared but not bound.
	sc := admissionScenario{name: "audit-annotation", yaml: rbacObjects + vap("p", "  auditAnnotations:\n  - {key: a, valueExpression: \"authorizer.path('/healthz').check('get').reason()\"}\n") + vapb("p", "p", "Deny", "")}
	n += runAdmissionScenario(t, sc, []admissionRequest{{name: "jane", op: "CREATE", obj: crontabYAML("c", "prod", 1, "prod"), namespace: "prod", user: rbacUsers[0].user}})
	if n < 40 {
		t.Errorf("%d cases, want at least 40", n)
	}
}

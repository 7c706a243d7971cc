package admission

import (
	"fmt"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/cel/library"
)

// rbacFixture is the RBAC state of the authorizer tests.
const rbacFixture = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: pod-reader}
rules:
- {apiGroups: [""], resources: [pods, pods/log], verbs: [get, list]}
- {nonResourceURLs: [/healthz, "/logs/*"], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: read-pods}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: pod-reader}
subjects:
- {kind: Group, name: readers}
- {kind: User, name: jane}
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
- {kind: User, name: bob}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: dangling, namespace: dev}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: missing}
subjects:
- {kind: User, name: bob}
`

// authzPolicy evaluates exprs (strings) in validations of the Warn action
// that always fail with an error quoting the value ("no such key: VALUE";
// audit annotations cannot show them: the API server binds no authorizer
// there). One check per expression: a check costs 350000 of the 1000000 an
// expression may spend.
func authzPolicy(exprs ...string) string {
	var b strings.Builder
	for _, e := range exprs {
		fmt.Fprintf(&b, "  - expression: %q\n", "{'': 0}['=' + "+e+"] == 0")
	}
	return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: authz}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: ["stable.example.com"], apiVersions: ["v1"], operations: ["*"], resources: ["crontabs"]}
  validations:
` + b.String() + `---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: authz}
spec: {policyName: authz, validationActions: [Warn]}
`
}

// decide is a check's allowed(), reason() and errored(), each as a string.
func decide(check string) []string {
	return []string{"string(" + check + ".allowed())", check + ".reason()", "string(" + check + ".errored())"}
}

// results are the values (or errors) of authzPolicy's expressions, joined
// with "|".
func results(d *Decision) string {
	var rs []string
	for _, w := range d.Warnings {
		_, r, _ := strings.Cut(w, "resulted in error: ")
		rs = append(rs, strings.TrimPrefix(r, "no such key: ="))
	}
	return strings.Join(rs, "|")
}

func TestAuthorizerAnswersAsTheRBACAuthorizer(t *testing.T) {
	jane := UserInfo{Username: "jane"}
	bob := UserInfo{Username: "bob", Groups: []string{"system:authenticated"}}
	reader := UserInfo{Username: "x", Groups: []string{"readers"}}
	admin := UserInfo{Username: "root", Groups: []string{"system:masters"}}
	cases := []struct {
		name      string
		user      UserInfo
		namespace string
		check     string
		want      string
	}{
		{"cluster role by user", jane, "prod", "authorizer.group('').resource('pods').check('get')",
			`true|RBAC: allowed by ClusterRoleBinding "read-pods" of ClusterRole "pod-reader" to User "jane"|false`},
		{"cluster role by group", reader, "prod", "authorizer.group('').resource('pods').namespace('any').check('list')",
			`true|RBAC: allowed by ClusterRoleBinding "read-pods" of ClusterRole "pod-reader" to Group "readers"|false`},
		{"verb not granted", jane, "prod", "authorizer.group('').resource('pods').check('delete')", `false||false`},
		{"subresource named in the rule", jane, "", "authorizer.group('').resource('pods').subresource('log').check('get')",
			`true|RBAC: allowed by ClusterRoleBinding "read-pods" of ClusterRole "pod-reader" to User "jane"|false`},
		{"subresource not named", jane, "", "authorizer.group('').resource('pods').subresource('exec').check('get')", `false||false`},
		{"non-resource URL", jane, "", "authorizer.path('/healthz').check('get')",
			`true|RBAC: allowed by ClusterRoleBinding "read-pods" of ClusterRole "pod-reader" to User "jane"|false`},
		{"non-resource URL prefix", jane, "", "authorizer.path('/logs/kubelet.log').check('get')",
			`true|RBAC: allowed by ClusterRoleBinding "read-pods" of ClusterRole "pod-reader" to User "jane"|false`},
		{"non-resource URL other", jane, "", "authorizer.path('/metrics').check('get')", `false||false`},
		{"role binding in its namespace", bob, "prod", "authorizer.group('stable.example.com').resource('crontabs').namespace('prod').check('delete')",
			`true|RBAC: allowed by RoleBinding "edit-crontabs/prod" of Role "crontab-editor" to User "bob"|false`},
		{"role binding elsewhere", bob, "prod", "authorizer.group('stable.example.com').resource('crontabs').namespace('qa').check('delete')", `false||false`},
		{"wildcard subresource", bob, "prod", "authorizer.group('stable.example.com').resource('crontabs').subresource('status').namespace('prod').check('update')",
			`true|RBAC: allowed by RoleBinding "edit-crontabs/prod" of Role "crontab-editor" to User "bob"|false`},
		{"resource name granted", bob, "prod", "authorizer.group('').resource('configmaps').namespace('prod').name('settings').check('get')",
			`true|RBAC: allowed by RoleBinding "edit-crontabs/prod" of Role "crontab-editor" to User "bob"|false`},
		{"resource name not granted", bob, "prod", "authorizer.group('').resource('configmaps').namespace('prod').name('other').check('get')", `false||false`},
		{"missing role is the reason", bob, "dev", "authorizer.group('').resource('pods').namespace('dev').check('get')",
			`false|rbac: RBAC: role.rbac.authorization.k8s.io "missing" not found|false`},
		{"service account", jane, "prod", "authorizer.serviceAccount('prod', 'deployer').group('stable.example.com').resource('crontabs').namespace('prod').check('create')",
			`true|RBAC: allowed by RoleBinding "edit-crontabs/prod" of Role "crontab-editor" to ServiceAccount "deployer/prod"|false`},
		{"other service account", jane, "prod", "authorizer.serviceAccount('prod', 'other').group('stable.example.com').resource('crontabs').namespace('prod').check('create')", `false||false`},
		{"system:masters", admin, "", "authorizer.group('x').resource('y').check('z')", `true||false`},
		{"request resource", bob, "prod", "authorizer.requestResource.check('create')",
			`true|RBAC: allowed by RoleBinding "edit-crontabs/prod" of Role "crontab-editor" to User "bob"|false`},
		{"request resource elsewhere", bob, "qa", "authorizer.requestResource.check('create')", `false||false`},
		{"selectors are ignored by RBAC", jane, "", "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=a').labelSelector('a in (b').check('list')",
			`true|RBAC: allowed by ClusterRoleBinding "read-pods" of ClusterRole "pod-reader" to User "jane"|false`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := DecodeFile([]byte(authzPolicy(decide(c.check)...)+"---\n"+rbacFixture), "p.yaml")
			if err != nil {
				t.Fatal(err)
			}
			a, err := New(Config{Policies: in.Policies, Bindings: in.Bindings, Objects: in.Objects})
			if err != nil {
				t.Fatal(err)
			}
			req := crontabRequest(crontab(1))
			req.Namespace, req.UserInfo = c.namespace, c.user
			d := a.Validate(req)
			if d.Denied != nil {
				t.Fatalf("denied: %s", d.Denied.Message)
			}
			if got := results(d); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if len(d.Notes) != 0 {
				t.Errorf("notes = %q", d.Notes)
			}
		})
	}
}

func TestAuthorizerArgumentErrors(t *testing.T) {
	for expr, want := range map[string]string{
		"authorizer.path(' ').check('get').reason()":                                  "path must not be empty",
		"authorizer.group('').resource('').check('get').reason()":                     "resource must not be empty",
		"authorizer.serviceAccount('ns', 'Bad_Name').path('/').check('get').reason()": "Invalid service account name",
		"authorizer.serviceAccount('Bad.NS', 'sa').path('/').check('get').reason()":   "Invalid service account namespace",
	} {
		in, err := DecodeFile([]byte(authzPolicy(expr)), "p.yaml")
		if err != nil {
			t.Fatal(err)
		}
		a, err := New(Config{Policies: in.Policies, Bindings: in.Bindings})
		if err != nil {
			t.Fatal(err)
		}
		d := a.Validate(crontabRequest(crontab(1)))
		if got := results(d); got != want {
			t.Errorf("%s: %q, want %q", expr, got, want)
		}
	}
}

func TestAuthorizerWithoutRBACObjectsDeniesAndIsNoted(t *testing.T) {
	src := strings.Replace(replicasPolicy, `  - expression: "variables.replicas <= 5"`, `  - expression: "authorizer.group('').resource('pods').check('create').allowed()"
    message: not allowed
  - expression: "variables.replicas <= 5"`, 1)
	in, err := DecodeFile([]byte(src), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Policies: in.Policies, Bindings: in.Bindings})
	if err != nil {
		t.Fatal(err)
	}
	d := a.Validate(crontabRequest(crontab(3)))
	if d.Denied == nil || !strings.HasSuffix(d.Denied.Message, "denied request: not allowed") {
		t.Errorf("denied = %+v", d.Denied)
	}
	want := `ValidatingAdmissionPolicy 'max-replicas': expression "authorizer.group('').resource('pods').check('create').allowed()" uses the authorizer and no RBAC objects (Role, ClusterRole, RoleBinding, ClusterRoleBinding) are among the inputs: every check is answered not allowed, except for group system:masters`
	if len(d.Notes) != 1 || d.Notes[0] != want {
		t.Errorf("notes = %q", d.Notes)
	}
	req := crontabRequest(crontab(3))
	req.UserInfo.Groups = []string{"system:masters"}
	if d := a.Validate(req); d.Denied != nil {
		t.Errorf("system:masters denied: %+v", d.Denied)
	}
}

func TestAuthorizerIsUnboundInAuditAnnotations(t *testing.T) {
	src := strings.Replace(authzPolicy("''"), "  validations:", `  auditAnnotations:
  - {key: a, valueExpression: "authorizer.path('/healthz').check('get').reason()"}
  validations:`, 1)
	in, err := DecodeFile([]byte(src+"---\n"+rbacFixture), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Policies: in.Policies, Bindings: in.Bindings, Objects: in.Objects})
	if err != nil {
		t.Fatal(err)
	}
	req := crontabRequest(crontab(1))
	req.UserInfo = UserInfo{Username: "jane"}
	d := a.Validate(req)
	if got := d.AuditAnnotations["authz/a"]; got != "" {
		t.Errorf("annotation = %q", got)
	}
	want := `ValidatingAdmissionPolicy 'authz': expression "authorizer.path('/healthz').check('get').reason()" uses the authorizer, which the API server does not bind in audit annotations: its evaluation fails with "no such attribute(s): authorizer"`
	if len(d.Notes) != 1 || d.Notes[0] != want {
		t.Errorf("notes = %q", d.Notes)
	}
}

func TestRBACObjectsOfTheWrongShapeAreErrors(t *testing.T) {
	_, err := New(Config{Objects: []map[string]interface{}{{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
		"metadata": map[string]interface{}{"name": "b", "namespace": "prod"},
		"subjects": "jane",
	}}})
	want := `RoleBinding "b": json: cannot unmarshal string into Go struct field rbacBinding.subjects of type []admission.rbacSubject`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

func TestRBACDefaultsAndReplacements(t *testing.T) {
	r, err := newRBACAuthorizer([]map[string]interface{}{
		{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": map[string]interface{}{"name": "r", "namespace": "ignored"},
			"rules": []interface{}{map[string]interface{}{"apiGroups": []interface{}{""}, "resources": []interface{}{"pods"}, "verbs": []interface{}{"get"}}}},
		{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": map[string]interface{}{"name": "b"},
			"roleRef": map[string]interface{}{"kind": "ClusterRole", "name": "r"}, "subjects": []interface{}{map[string]interface{}{"kind": "User", "name": "ann"}}},
		{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": map[string]interface{}{"name": "b"},
			"roleRef": map[string]interface{}{"kind": "ClusterRole", "name": "r"}, "subjects": []interface{}{map[string]interface{}{"kind": "User", "name": "bea"}}},
		{"apiVersion": "rbac.authorization.k8s.io/v1beta1", "kind": "ClusterRoleBinding", "metadata": map[string]interface{}{"name": "old"},
			"roleRef": map[string]interface{}{"kind": "ClusterRole", "name": "r"}, "subjects": []interface{}{map[string]interface{}{"kind": "User", "name": "ann"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(user, ns string) (bool, string) {
		ok, reason, _ := r.Authorize(library.AuthzAttributes{User: library.AuthzUser{Name: user}, Verb: "get", ResourceRequest: true, Resource: "pods", Namespace: ns})
		return ok, reason
	}
	// the RoleBinding without a namespace is in "default"; the later "b"
	// replaces the earlier; v1beta1 is not read
	if ok, reason := check("bea", "default"); !ok || reason != `RBAC: allowed by RoleBinding "b/default" of ClusterRole "r" to User "bea"` {
		t.Errorf("bea: %v %q", ok, reason)
	}
	if ok, _ := check("ann", "default"); ok {
		t.Error("ann is allowed")
	}
	if r.objects != 3 {
		t.Errorf("objects = %d, want 3", r.objects)
	}
}

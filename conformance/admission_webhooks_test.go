package conformance

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/conformance/upstream"
)

// The differential suite of admission webhook matching: every request runs
// through crdlab's Admitter.Webhooks and k8s.io/apiserver's
// generic.Webhook.ShouldCallHook (conformance/upstream.ShouldCallHooks) for
// every webhook of the configurations below, comparing whether it is called,
// with which resource, subresource and kind, and the error text and code
// where upstream fails the request.

// hook renders one webhook of a configuration.
func hook(name, body string) string {
	return fmt.Sprintf(`- name: %s.example.com
  clientConfig: {url: "https://hooks.example.com/%s"}
  sideEffects: None
  admissionReviewVersions: [v1]
%s`, name, name, body)
}

const allRules = `  rules:
  - {operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"]}
`

var webhookConfigs = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: rules}
webhooks:
` + hook("exact-v1", `  matchPolicy: Exact
  rules:
  - {operations: [CREATE], apiGroups: [stable.example.com], apiVersions: [v1], resources: [crontabs]}
`) + hook("equivalent-v1", `  rules:
  - {operations: [CREATE, UPDATE], apiGroups: [stable.example.com], apiVersions: [v1], resources: [crontabs]}
`) + hook("equivalent-v2", `  rules:
  - {operations: [CREATE, UPDATE, DELETE], apiGroups: [stable.example.com], apiVersions: [v2], resources: [crontabs, crontabs/status, crontabs/scale]}
`) + hook("all-no-subresources", `  rules:
  - {operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"]}
`) + hook("all-subresources", allRules) + hook("status-only", `  rules:
  - {operations: [UPDATE], apiGroups: [stable.example.com], apiVersions: ["*"], resources: [crontabs/status]}
`) + hook("any-scale", `  rules:
  - {operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/scale"]}
`) + hook("namespaced", `  rules:
  - {operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"], scope: Namespaced}
`) + hook("cluster", `  rules:
  - {operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"], scope: Cluster}
`) + hook("second-rule", `  rules:
  - {operations: [DELETE], apiGroups: [other.example.com], apiVersions: ["*"], resources: ["*"]}
  - {operations: [DELETE, CONNECT], apiGroups: [""], apiVersions: [v1], resources: [namespaces]}
`) + hook("crds", `  rules:
  - {operations: [CREATE], apiGroups: [apiextensions.k8s.io], apiVersions: [v1], resources: [customresourcedefinitions]}
`) + hook("no-rules", "") + `---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: selectors}
webhooks:
` + hook("ns-prod", `  namespaceSelector: {matchLabels: {env: prod}}
`+allRules) + hook("ns-not-prod", `  namespaceSelector:
    matchExpressions: [{key: env, operator: NotIn, values: [prod]}]
`+allRules) + hook("ns-has-env", `  namespaceSelector:
    matchExpressions: [{key: env, operator: Exists}]
`+allRules) + hook("ns-bad-operator", `  namespaceSelector:
    matchExpressions: [{key: env, operator: Bogus}]
`+allRules) + hook("obj-prod", `  objectSelector: {matchLabels: {env: prod}}
`+allRules) + hook("obj-dev", `  objectSelector: {matchLabels: {env: dev}}
`+allRules) + hook("obj-no-env", `  objectSelector:
    matchExpressions: [{key: env, operator: DoesNotExist}]
`+allRules) + hook("obj-bad-values", `  objectSelector:
    matchExpressions: [{key: env, operator: In, values: []}]
`+allRules) + hook("obj-bad-but-ns-skips", `  namespaceSelector: {matchLabels: {env: nowhere}}
  objectSelector:
    matchExpressions: [{key: env, operator: Exists, values: [x]}]
`+allRules) + `---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: conditions}
webhooks:
` + hook("cond-true", `  matchConditions:
  - {name: has-user, expression: "request.userInfo.username != ''"}
  - {name: is-v1-kind, expression: "request.kind.version == 'v1' || request.kind.kind != 'CronTab'"}
`+allRules) + hook("cond-false", `  matchConditions:
  - {name: not-delete, expression: "request.operation != 'DELETE'"}
  - {name: not-prod, expression: "request.namespace != 'prod'"}
`+allRules) + hook("cond-error-fail", `  matchConditions:
  - {name: missing, expression: "object.spec.missing == 1"}
`+allRules) + hook("cond-error-ignore", `  failurePolicy: Ignore
  matchConditions:
  - {name: missing, expression: "object.spec.missing == 1"}
`+allRules) + hook("cond-error-then-false", `  matchConditions:
  - {name: missing, expression: "object.spec.missing == 1"}
  - {name: never, expression: "false"}
`+allRules) + hook("cond-two-errors", `  matchConditions:
  - {name: missing, expression: "object.spec.missing == 1"}
  - {name: old-missing, expression: "oldObject.spec.missing == 1"}
`+allRules) + hook("cond-compile-error", `  matchConditions:
  - {name: vars, expression: "variables.x == 1"}
`+allRules) + hook("cond-no-params", `  failurePolicy: Ignore
  matchConditions:
  - {name: params, expression: "params == null"}
`+allRules) + hook("cond-converted-object", `  matchConditions:
  - {name: v1-object, expression: "object == null || object.apiVersion == 'stable.example.com/v1' || object.kind != 'CronTab'"}
  rules:
  - {operations: ["*"], apiGroups: [stable.example.com], apiVersions: [v1], resources: ["*"]}
`) + hook("cond-namespace-object", `  matchConditions:
  - {name: ns, expression: "namespaceObject == null"}
`+allRules) + hook("cond-authz-sa", `  matchConditions:
  - {name: deployer-may-create, expression: "authorizer.serviceAccount('prod', 'deployer').group('stable.example.com').resource('crontabs').namespace(request.namespace).check('create').allowed()"}
`+allRules) + hook("cond-authz-request", `  matchConditions:
  - {name: may-delete, expression: "authorizer.requestResource.check('delete').allowed()"}
`+allRules) + hook("cond-authz-error", `  matchConditions:
  - {name: bad-path, expression: "authorizer.path(' ').check('get').allowed()"}
`+allRules)

// webhookRequests are the requests every webhook is asked about.
var webhookRequests = []admissionRequest{
	{name: "create-v1-prod", op: "CREATE", obj: crontabYAML("small", "prod", 3, "prod"), namespace: "prod"},
	{name: "create-v2-dev", op: "CREATE", obj: strings.Replace(crontabYAML("big", "dev", 7, "dev"), "stable.example.com/v1", "stable.example.com/v2", 1),
		namespace: "dev", resource: crontabsV2, kind: crontabV2},
	{name: "update-v1-labels-change", op: "UPDATE", obj: crontabYAML("small", "prod", 9, "prod"), old: crontabYAML("small", "prod", 3, "dev"), namespace: "prod"},
	{name: "update-v2-status", op: "UPDATE", obj: strings.Replace(crontabYAML("s", "dev", 2, "none"), "stable.example.com/v1", "stable.example.com/v2", 1),
		old:       strings.Replace(crontabYAML("s", "dev", 2, "none"), "stable.example.com/v1", "stable.example.com/v2", 1),
		namespace: "dev", resource: crontabsV2, kind: crontabV2, sub: "status"},
	{name: "update-v1-scale", op: "UPDATE", obj: scaleYAML, old: scaleYAML, namespace: "prod",
		kind: schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}, sub: "scale"},
	{name: "delete-v1-other", op: "DELETE", old: crontabYAML("small", "other", 3, "test"), namespace: "other"},
	{name: "delete-v2-unlabelled", op: "DELETE", old: "apiVersion: stable.example.com/v2\nkind: CronTab\nmetadata: {name: bare, namespace: prod}\n",
		namespace: "prod", resource: crontabsV2, kind: crontabV2},
	{name: "create-crd", op: "CREATE", obj: "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: crontabs.stable.example.com, labels: {env: prod}}\nspec: {group: stable.example.com}\n",
		resource: crdsV1, kind: crdV1},
	{name: "create-namespace", op: "CREATE", obj: "apiVersion: v1\nkind: Namespace\nmetadata: {name: prod2, labels: {env: prod}}\n",
		namespace: "prod2", resource: namespacesV1, kind: namespaceV1},
	{name: "delete-namespace-dev", op: "DELETE", old: "apiVersion: v1\nkind: Namespace\nmetadata: {name: dev, labels: {env: dev}}\n",
		namespace: "dev", resource: namespacesV1, kind: namespaceV1},
	{name: "update-namespace-finalize", op: "UPDATE", obj: "apiVersion: v1\nkind: Namespace\nmetadata: {name: dev, labels: {env: dev}}\n",
		old: "apiVersion: v1\nkind: Namespace\nmetadata: {name: dev, labels: {env: dev}}\n", namespace: "dev", resource: namespacesV1, kind: namespaceV1, sub: "finalize"},
}

const scaleYAML = "apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: small, namespace: prod}\nspec: {replicas: 2}\n"

// webhookResources knows the CronTab CRD's versions, with the kinds of
// its subresources (a CRD's scale is autoscaling/v1 Scale).
type webhookResources struct{}

func (webhookResources) Equivalents(res admission.GVR, sub string) []admission.Equivalent {
	out := (testResources{}).Equivalents(res, sub)
	if sub == "scale" && res.Group == "stable.example.com" {
		for i := range out {
			out[i].Kind = admission.GVK{Group: "autoscaling", Version: "v1", Kind: "Scale"}
		}
	}
	return out
}

func (webhookResources) ParamScope(string, string) bool { return true }

func TestWebhookMatching(t *testing.T) {
	// rbacObjects answer the authorizer of the cond-authz hooks
	in, err := admission.DecodeFile([]byte(admissionNamespaces+"---\n"+webhookConfigs+rbacObjects), "webhooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crd, err := admission.New(admission.Config{Webhooks: in.Webhooks, Objects: in.Objects, Resources: webhookResources{}})
	if err != nil {
		t.Fatal(err)
	}
	// The upstream hooks in crdlab's order (mutating configurations first,
	// each kind by name), their JSON with crdlab's defaults.
	var hooks []upstream.WebhookHook
	for _, m := range []bool{true, false} {
		var cs []*admission.WebhookConfiguration
		for _, c := range in.Webhooks {
			if c.Mutating() == m {
				cs = append(cs, c)
			}
		}
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				if cs[j].Metadata.Name < cs[i].Metadata.Name {
					cs[i], cs[j] = cs[j], cs[i]
				}
			}
		}
		for _, c := range cs {
			for _, w := range c.Webhooks {
				b, err := json.Marshal(w)
				if err != nil {
					t.Fatal(err)
				}
				hooks = append(hooks, upstream.WebhookHook{Configuration: c.Metadata.Name, Mutating: m, Hook: b})
			}
		}
	}
	if crd.WebhookCount() != len(hooks) {
		t.Fatalf("crdlab has %d webhooks, upstream %d", crd.WebhookCount(), len(hooks))
	}
	cases, called, skipped, errored := 0, 0, 0, 0
	for _, rq := range webhookRequests {
		t.Run(rq.name, func(t *testing.T) {
			res, kind := rq.resource, rq.kind
			if res.Empty() {
				res = crontabsV1
			}
			if kind.Empty() {
				kind = crontabV1
			}
			obj, old := mustJSON(t, rq.obj), mustJSON(t, rq.old)
			name := ""
			for _, o := range []map[string]interface{}{obj, old} {
				if md, ok := o["metadata"].(map[string]interface{}); ok && name == "" {
					name, _ = md["name"].(string)
				}
			}
			objects := withNamespace(in.Objects, rq.namespace)
			equivalents := map[schema.GroupVersionResource]schema.GroupVersionKind{}
			for _, e := range (testResources{}).Equivalents(admission.GVR{Group: res.Group, Version: res.Version, Resource: res.Resource}, rq.sub) {
				equivalents[schema.GroupVersionResource{Group: e.Resource.Group, Version: e.Resource.Version, Resource: e.Resource.Resource}] =
					schema.GroupVersionKind{Group: e.Kind.Group, Version: e.Kind.Version, Kind: e.Kind.Kind}
			}
			usr := admission.UserInfo{Username: "admin", Groups: []string{"system:masters", "system:authenticated"}}
			up, err := upstream.ShouldCallHooks(&upstream.AdmissionInput{
				Objects: objects, Equivalents: equivalents,
				Operation: rq.op, Kind: kind, Resource: res, SubResource: rq.sub, Name: name, Namespace: rq.namespace,
				Object: obj, OldObject: old,
				User:    &user.DefaultInfo{Name: usr.Username, Groups: usr.Groups},
				Options: upstreamOptions(rq.op),
			}, hooks)
			if err != nil {
				t.Fatalf("upstream: %v", err)
			}
			a, err := admission.New(admission.Config{Webhooks: in.Webhooks, Objects: objects, Resources: webhookResources{}})
			if err != nil {
				t.Fatal(err)
			}
			got := a.Webhooks(&admission.Request{
				Operation:   rq.op,
				Kind:        admission.GVK{Group: kind.Group, Version: kind.Version, Kind: kind.Kind},
				Resource:    admission.GVR{Group: res.Group, Version: res.Version, Resource: res.Resource},
				SubResource: rq.sub, Name: name, Namespace: rq.namespace,
				Object: obj, OldObject: old, UserInfo: usr,
			})
			// Every webhook is compared on its own: crdlab's "not reached"
			// after an error is checked against that earlier error, and
			// the webhook is compared as if it had been reached.
			for i, w := range got {
				cases++
				u := up[i]
				if strings.HasPrefix(w.Skipped, "not reached") {
					w = single(t, a, in, i, rq, res, kind, obj, old, name, usr)
				}
				var g upstream.WebhookDecision
				switch {
				case w.Called:
					g.Called = true
					g.Resource = schema.GroupVersionResource{Group: w.CalledWith.Group, Version: w.CalledWith.Version, Resource: w.CalledWith.Resource}
					g.SubResource = w.CalledWith.SubResource
					g.Kind = schema.FromAPIVersionAndKind(w.CalledWith.APIVersion, w.CalledWith.Kind)
					called++
				case w.Error != "":
					g.Error, g.Code = w.Error, w.Code
					errored++
				default:
					skipped++
				}
				if g != u {
					t.Errorf("%s/%s:\n crdlab   %+v (%s)\n upstream %+v", w.Configuration, w.Webhook, g, w.Skipped, u)
				}
			}
		})
	}
	t.Logf("%d webhook decisions: %d called, %d skipped, %d errors", cases, called, skipped, errored)
	if cases < 40 || called == 0 || skipped == 0 || errored == 0 {
		t.Errorf("%d decisions (%d called, %d skipped, %d errors): want at least 40 with each outcome", cases, called, skipped, errored)
	}
}

// single asks crdlab about the i-th webhook alone (a dispatch that failed
// earlier does not reach it).
func single(t *testing.T, a *admission.Admitter, in *admission.Inputs, i int, rq admissionRequest, res schema.GroupVersionResource,
	kind schema.GroupVersionKind, obj, old map[string]interface{}, name string, usr admission.UserInfo) admission.WebhookCall {
	t.Helper()
	_ = a
	n := 0
	var cs []*admission.WebhookConfiguration
	for _, m := range []bool{true, false} {
		var group []*admission.WebhookConfiguration
		for _, c := range in.Webhooks {
			if c.Mutating() == m {
				group = append(group, c)
			}
		}
		for x := range group {
			for y := x + 1; y < len(group); y++ {
				if group[y].Metadata.Name < group[x].Metadata.Name {
					group[x], group[y] = group[y], group[x]
				}
			}
		}
		cs = append(cs, group...)
	}
	for _, c := range cs {
		for j := range c.Webhooks {
			if n == i {
				one := *c
				one.Webhooks = c.Webhooks[j : j+1]
				objects := withNamespace(in.Objects, rq.namespace)
				b, err := admission.New(admission.Config{Webhooks: []*admission.WebhookConfiguration{&one}, Objects: objects, Resources: webhookResources{}})
				if err != nil {
					t.Fatal(err)
				}
				return b.Webhooks(&admission.Request{
					Operation:   rq.op,
					Kind:        admission.GVK{Group: kind.Group, Version: kind.Version, Kind: kind.Kind},
					Resource:    admission.GVR{Group: res.Group, Version: res.Version, Resource: res.Resource},
					SubResource: rq.sub, Name: name, Namespace: rq.namespace,
					Object: obj, OldObject: old, UserInfo: usr,
				})[0]
			}
			n++
		}
	}
	t.Fatalf("no webhook %d", i)
	return admission.WebhookCall{}
}

// withNamespace adds the default Namespace ns to objects unless they hold it.
func withNamespace(objects []map[string]interface{}, ns string) []map[string]interface{} {
	out := append([]map[string]interface{}(nil), objects...)
	if ns == "" {
		return out
	}
	for _, o := range out {
		if o["kind"] == "Namespace" && o["metadata"].(map[string]interface{})["name"] == ns {
			return out
		}
	}
	return append(out, admission.DefaultNamespace(ns))
}

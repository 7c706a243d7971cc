package builtin

import (
	"strings"
	"testing"
	"time"
)

// TestHostileObjectsOfTheLaterKinds: the RBAC, Lease, PodDisruptionBudget,
// StorageClass and NetworkPolicy paths answer hostile bodies — nulls
// everywhere, wrong types, huge lists, a body of a million empty topology
// terms (quadratic upstream) — with a clear answer, never a panic or a
// hang.
func TestHostileObjectsOfTheLaterKinds(t *testing.T) {
	many := func(n int, item string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
	}
	tests := []struct {
		name, body string
		want       string // in the decode error or the first error; "" for valid
	}{
		{"role with nulls", `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"r"},"rules":[null,{"verbs":null}]}`, "rules[0].apiGroups: Required value"},
		{"clusterrole with null selectors", `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"r"},"aggregationRule":{"clusterRoleSelectors":[null,{"matchExpressions":[null]}]}}`, "aggregationRule.clusterRoleSelectors[1].matchExpressions[0].operator: Invalid value"},
		{"binding with null roleRef", `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"b"},"roleRef":null,"subjects":null}`, `roleRef.kind: Unsupported value: ""`},
		{"40k rules", `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"r"},"rules":` + many(40000, `{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}`) + `}`, ""},
		{"100k nameless subjects", `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"b"},"roleRef":{"kind":"ClusterRole","name":"v"},"subjects":` + many(100000, `{"kind":"User"}`) + `}`, "subjects[0].name: Required value"},
		{"lease duration overflow", `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l"},"spec":{"leaseDurationSeconds":99999999999}}`, "cannot unmarshal number 99999999999 into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32"},
		{"lease time garbage", `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l"},"spec":{"renewTime":"` + strings.Repeat("9", 100000) + `"}}`, "parsing time"},
		{"pdb int-or-string object", `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p"},"spec":{"minAvailable":{"a":1}}}`, "cannot unmarshal object into Go struct field PodDisruptionBudgetSpec.spec.minAvailable of type int32"},
		{"pdb huge percent", `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p"},"spec":{"minAvailable":"` + strings.Repeat("9", 100000) + `%"}}`, "spec.minAvailable: Invalid value"},
		{"a million empty topology terms", `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"s"},"provisioner":"a.b/c","allowedTopologies":` + many(1000000, `{}`) + `}`, "allowedTopologies: Internal error: more than 100000 duplicate terms"},
		{"20k equal topology terms", `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"s"},"provisioner":"a.b/c","allowedTopologies":` + many(20000, `{"matchLabelExpressions":[{"key":"z","values":["a"]}]}`) + `}`, "allowedTopologies: Internal error"},
		{"network policy of 50k peers", `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"n"},"spec":{"podSelector":{},"ingress":[{"from":` + many(50000, `{"ipBlock":{"cidr":"10.0.0.0/8","except":["10.1.0.0/16"]}}`) + `}]}}`, ""},
		{"network policy cidr garbage", `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"n"},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":"` + strings.Repeat("0", 100000) + `.0.0.0/8"}}]}]}}`, "must not have leading 0s"},
		{"network policy cidr colons", `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"n"},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":"` + strings.Repeat(":", 100000) + `/8"}}]}]}}`, "must be a valid CIDR value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			o, err := Serve(Request{Body: []byte(tt.body)})
			if err != nil {
				t.Fatal(err)
			}
			got := o.DecodeError
			if len(o.Errors) > 0 {
				got += o.Errors[0].Error()
			}
			if tt.want == "" {
				if !o.Valid() {
					t.Fatalf("invalid: %.300s", got)
				}
			} else if !strings.Contains(got, tt.want) && !strings.Contains(o.Errors.ToAggregate().Error(), tt.want) {
				t.Fatalf("got %.300q, want %q", got, tt.want)
			}
			t.Logf("%d errors in %v", len(o.Errors), time.Since(start))
		})
	}
}

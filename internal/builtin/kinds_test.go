package builtin

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/internal/kubeversion"
)

// kindCase is one request of the kinds added after the first six: the
// errors, rendered, must be exactly these, in order; a valid request's
// stored object must be object.
type kindCase struct {
	name      string
	rel       int
	body, old string
	errs      []string
	warnings  []string
	object    string
}

func runKindCases(t *testing.T, cases []kindCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			req := Request{Body: []byte(tt.body)}
			if tt.rel != 0 {
				req.Release = kubeversion.Of(tt.rel)
			}
			if tt.old != "" {
				req.Old = []byte(tt.old)
			}
			o, err := Serve(req)
			if err != nil {
				t.Fatal(err)
			}
			if !o.Modelled || o.DecodeError != "" {
				t.Fatalf("modelled %v, decode error %q", o.Modelled, o.DecodeError)
			}
			var got []string
			for _, e := range o.Errors {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, tt.errs) {
				t.Errorf("errors\n%q\nwant\n%q", got, tt.errs)
			}
			if len(o.Warnings) != len(tt.warnings) || len(tt.warnings) > 0 && !reflect.DeepEqual(o.Warnings, tt.warnings) {
				t.Errorf("warnings %q, want %q", o.Warnings, tt.warnings)
			}
			if tt.object == "" {
				if o.Valid() {
					t.Errorf("valid, object %v", o.Object)
				}
				return
			}
			var want, gotv interface{}
			if err := json.Unmarshal([]byte(tt.object), &want); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(o.Object)
			_ = json.Unmarshal(b, &gotv)
			if !reflect.DeepEqual(gotv, want) {
				t.Errorf("object %s\nwant   %s", b, tt.object)
			}
		})
	}
}

func TestRBACKindsAnswerAsKubeAPIServer(t *testing.T) {
	const rb = `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"b","namespace":"default"},`
	runKindCases(t, []kindCase{{
		name:   "subjects and roleRef default their apiGroup",
		body:   rb + `"subjects":[{"kind":"User","name":"jane"},{"kind":"ServiceAccount","name":"sa"}],"roleRef":{"kind":"Role","name":"r"}}`,
		object: `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"b","namespace":"default"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"jane"},{"kind":"ServiceAccount","name":"sa"}],"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"}}`,
	}, {
		name: "required names are declarative from 1.37: last, without detail",
		body: rb + `"subjects":[{"kind":"Robot"}],"roleRef":{"kind":"Role"}}`,
		errs: []string{
			`subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"`,
			`subjects[0].name: Required value`,
			`roleRef.name: Required value`,
		},
	}, {
		name: "required names are handwritten at 1.36, in place",
		rel:  36,
		body: rb + `"subjects":[{"kind":"Robot"}],"roleRef":{"kind":"Role"}}`,
		errs: []string{
			`roleRef.name: Required value`,
			`subjects[0].name: Required value`,
			`subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"`,
		},
	}, {
		name: "verbs required at 1.36 with its detail",
		rel:  36,
		body: `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"r"},"rules":[{}]}`,
		errs: []string{
			`rules[0].verbs: Required value: verbs must contain at least one value`,
			`rules[0].apiGroups: Required value: resource rules must supply at least one api group`,
			`rules[0].resources: Required value: resource rules must supply at least one resource`,
		},
	}, {
		name: "roleRef immutable shows the internal RoleRef at 1.37",
		old:  rb + `"roleRef":{"kind":"Role","name":"r"}}`,
		body: rb + `"roleRef":{"kind":"Role","name":"s"}}`,
		errs: []string{`roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"s"}: field is immutable`},
	}, {
		name: "roleRef immutable in Go syntax at 1.33",
		rel:  33,
		old:  rb + `"roleRef":{"kind":"Role","name":"r"}}`,
		body: rb + `"roleRef":{"kind":"Role","name":"s"}}`,
		errs: []string{`roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"s"}: field is immutable`},
	}, {
		name: "roleRef immutable is declarative at 1.38",
		rel:  38,
		old:  rb + `"roleRef":{"kind":"Role","name":"r"}}`,
		body: rb + `"subjects":[{"kind":"Robot","name":"x"}],"roleRef":{"kind":"Role","name":"s"}}`,
		errs: []string{
			`subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"`,
			`roleRef: Invalid value: null: field is immutable`,
		},
	}, {
		name: "an aggregation selector that does not convert",
		body: `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"c"},"aggregationRule":{"clusterRoleSelectors":[{"matchExpressions":[{"key":"k","operator":"In"}]}]}}`,
		errs: []string{
			"aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
			`aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector.`,
		},
	}})
}

func TestLeaseAndPDBAnswerAsKubeAPIServer(t *testing.T) {
	runKindCases(t, []kindCase{{
		name:   "lease drops strategy and preferredHolder, keeps micro times",
		body:   `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l"},"spec":{"strategy":"OldestEmulationVersion","preferredHolder":"a","renewTime":"2024-05-01T10:00:10.000000+02:00"}}`,
		object: `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l","namespace":"default"},"spec":{"renewTime":"2024-05-01T08:00:10.000000Z"}}`,
	}, {
		name: "lease durations, value shown through the pointer",
		body: `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l"},"spec":{"leaseDurationSeconds":0,"leaseTransitions":-1}}`,
		errs: []string{
			`spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0`,
			`spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0`,
		},
	}, {
		name: "lease strategy kept from the old lease, its errors at strategy.strategy",
		old:  `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l","namespace":"default"},"spec":{"strategy":"OldestEmulationVersion"}}`,
		body: `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l","namespace":"default"},"spec":{"strategy":"Newest"}}`,
		errs: []string{`spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"`},
	}, {
		name:   "pdb status reset, generation 1",
		body:   `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p"},"spec":{"minAvailable":"50%"},"status":{"currentHealthy":3}}`,
		object: `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p","namespace":"default","generation":1},"spec":{"minAvailable":"50%"},"status":{"disruptionsAllowed":0,"currentHealthy":0,"desiredHealthy":0,"expectedPods":0}}`,
	}, {
		name: "pdb both set shows the internal spec",
		body: `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p"},"spec":{"minAvailable":1,"maxUnavailable":"101%"}}`,
		errs: []string{
			`spec: Invalid value: {"MinAvailable":1,"Selector":null,"MaxUnavailable":"101%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set`,
			`spec.maxUnavailable: Invalid value: "101%": must not be greater than 100%`,
		},
	}, {
		name: "pdb int-or-percent in Go syntax at 1.33",
		rel:  33,
		body: `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p"},"spec":{"maxUnavailable":"x%"}}`,
		errs: []string{`spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x%"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
	}, {
		name: "pdb metadata checked only when the spec passed",
		body: `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"a/b"},"spec":{"minAvailable":-1}}`,
		errs: []string{`spec.minAvailable: Invalid value: -1: must be greater than or equal to 0`},
	}})
}

func TestStorageClassAnswersAsKubeAPIServer(t *testing.T) {
	const sc = `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"x"},`
	runKindCases(t, []kindCase{{
		name:   "reclaimPolicy and volumeBindingMode defaulted",
		body:   sc + `"provisioner":"example.com/p"}`,
		object: `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"x"},"provisioner":"example.com/p","reclaimPolicy":"Delete","volumeBindingMode":"Immediate"}`,
	}, {
		name:     "a deprecated topology key warns",
		body:     sc + `"provisioner":"example.com/p","allowedTopologies":[{"matchLabelExpressions":[{"key":"beta.kubernetes.io/os","values":["linux"]}]}]}`,
		warnings: []string{`allowedTopologies[0].matchLabelExpressions[0].key: deprecated since v1.14; use "kubernetes.io/os" instead`},
		object:   `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"x"},"provisioner":"example.com/p","reclaimPolicy":"Delete","volumeBindingMode":"Immediate","allowedTopologies":[{"matchLabelExpressions":[{"key":"beta.kubernetes.io/os","values":["linux"]}]}]}`,
	}, {
		name: "an empty topology term equals upstream's nil placeholders",
		body: sc + `"provisioner":"example.com/p","allowedTopologies":[{},{}]}`,
		errs: []string{
			`allowedTopologies[0].matchLabelExpressions: Duplicate value: ""`,
			`allowedTopologies[0].matchLabelExpressions: Duplicate value: ""`,
			`allowedTopologies[1].matchLabelExpressions: Duplicate value: ""`,
			`allowedTopologies[1].matchLabelExpressions: Duplicate value: ""`,
			`allowedTopologies[1].matchLabelExpressions: Duplicate value: ""`,
		},
	}, {
		name: "immutable fields are declarative from 1.37: last, value null",
		old:  sc + `"provisioner":"example.com/p"}`,
		body: sc + `"provisioner":"example.com/p","reclaimPolicy":"Retain","volumeBindingMode":"Later"}`,
		errs: []string{
			`volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"`,
			`reclaimPolicy: Invalid value: null: field is immutable`,
			`volumeBindingMode: Invalid value: null: field is immutable`,
		},
	}, {
		name: "immutable fields are handwritten at 1.36",
		rel:  36,
		old:  sc + `"provisioner":"example.com/p"}`,
		body: sc + `"provisioner":"example.com/p","reclaimPolicy":"Retain","volumeBindingMode":"Later"}`,
		errs: []string{
			`volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"`,
			`reclaimPolicy: Invalid value: "Retain": field is immutable`,
			`volumeBindingMode: Invalid value: "Later": field is immutable`,
		},
	}})
}

func TestNetworkPolicyAnswersAsKubeAPIServer(t *testing.T) {
	np := func(cidr string) string {
		return `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"p"},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":"` + cidr + `"}}]}]}}`
	}
	stored := func(cidr string) string {
		return `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"p","namespace":"default","generation":1},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":"` + cidr + `"}}]}],"policyTypes":["Ingress"]}}`
	}
	runKindCases(t, []kindCase{{
		name: "host bits refused from 1.36",
		body: np("10.0.0.1/8"),
		errs: []string{`spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length`},
	}, {
		name:     "host bits warned at 1.35",
		rel:      35,
		body:     np("10.0.0.1/8"),
		warnings: []string{`spec.ingress[0].from[0].ipBlock.cidr: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)`},
		object:   stored("10.0.0.1/8"),
	}, {
		name:     "leading zeros read as decimal and warned at 1.33",
		rel:      33,
		body:     np("010.0.0.0/8"),
		warnings: []string{`spec.ingress[0].from[0].ipBlock.cidr: non-standard CIDR value "010.0.0.0/8" is invalid: use "10.0.0.0/8"`},
		object:   stored("010.0.0.0/8"),
	}, {
		name:   "no CIDR warnings at 1.32",
		rel:    32,
		body:   np("10.0.0.1/8"),
		object: stored("10.0.0.1/8"),
	}, {
		name: "an empty cidr is declarative from 1.37",
		body: `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"p"},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":""}}],"ports":[{"port":0}]}]}}`,
		errs: []string{
			`spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive`,
			`spec.ingress[0].from[0].ipBlock.cidr: Required value`,
		},
	}, {
		name: "an empty cidr in place at 1.36",
		rel:  36,
		body: `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"p"},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":""}}],"ports":[{"port":0}]}],"policyTypes":["ingress"]}}`,
		errs: []string{
			`spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive`,
			`spec.ingress[0].from[0].ipBlock.cidr: Required value`,
			`spec.policyTypes[0]: Unsupported value: "ingress": supported values: "Ingress", "Egress"`,
		},
	}})
}

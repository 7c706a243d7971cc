package builtin

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/kubeversion"
)

func TestServeAnswersLikeKubeAPIServer(t *testing.T) {
	tests := []struct {
		name      string
		rel       int
		body, old string
		fv        string
		decode    string   // want DecodeError (substring)
		errs      []string // want rendered errors
		warnings  []string
		object    string // want stored object (JSON), when valid
	}{{
		name:   "configmap defaults to the default namespace",
		body:   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","uid":"u"},"data":{"k":"v"}}`,
		object: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default"},"data":{"k":"v"}}`,
	}, {
		name:   "configmap type error names the Go field",
		body:   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":1}}`,
		decode: `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string`,
	}, {
		name:   "metadata type errors name upstream's types",
		body:   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","uid":1}}`,
		decode: `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID`,
	}, {
		name:   "managedFields operation type error names meta/v1's type",
		body:   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","managedFields":[{"operation":1}]}}`,
		decode: `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ManagedFieldsEntry.metadata.managedFields.operation of type v1.ManagedFieldsOperationType`,
	}, {
		name:   "unknown and duplicate fields in document order",
		body:   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","foo":1},"data":{"k":"v","k":"w"},"bar":2}`,
		decode: `strict decoding error: unknown field "metadata.foo", duplicate field "data.k", unknown field "bar"`,
	}, {
		name:     "warn turns strict errors into warnings",
		fv:       Warn,
		body:     `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"datas":{}}`,
		warnings: []string{`unknown field "datas"`},
		object:   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default"}}`,
	}, {
		name: "configmap keys sorted",
		body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"z/":"","a b":""}}`,
		errs: []string{`data[a b]: Invalid value: "a b": a valid config key`, `data[z/]: Invalid value: "z/": a valid config key`},
	}, {
		name: "configmap too large at 1.37",
		body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"` + strings.Repeat("x", 1<<20+1) + `"}}`,
		errs: []string{`[]: Too long: may not be more than 1048576 bytes`},
	}, {
		name: "configmap too large at 1.31",
		rel:  31,
		body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"` + strings.Repeat("x", 1<<20+1) + `"}}`,
		errs: []string{`[]: Too long: must have at most 1048576 bytes`},
	}, {
		name:   "secret stringData merged and type defaulted",
		body:   `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","namespace":"ci"},"stringData":{"a":"b"}}`,
		object: `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","namespace":"ci"},"data":{"a":"Yg=="},"type":"Opaque"}`,
	}, {
		name: "secret type is immutable",
		old:  `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","namespace":"default"},"type":"Opaque"}`,
		body: `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"type":"kubernetes.io/ssh-auth","stringData":{"ssh-privatekey":"k"}}`,
		errs: []string{`type: Invalid value: "kubernetes.io/ssh-auth": field is immutable`},
	}, {
		name:   "namespace label, finalizer and phase",
		body:   `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team","namespace":"x"}}`,
		object: `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team","labels":{"kubernetes.io/metadata.name":"team"}},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}`,
	}, {
		name: "namespace name is a DNS label",
		body: `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a.b"}}`,
		errs: []string{`metadata.name: Invalid value: "a.b": must not contain dots`},
	}, {
		name:     "service account annotation warns from 1.32",
		body:     `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa","annotations":{"kubernetes.io/enforce-mountable-secrets":"true"}}}`,
		warnings: []string{"metadata.annotations[kubernetes.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets"},
		object:   `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa","namespace":"default","annotations":{"kubernetes.io/enforce-mountable-secrets":"true"}}}`,
	}, {
		name:   "service account annotation silent at 1.31",
		rel:    31,
		body:   `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa","annotations":{"kubernetes.io/enforce-mountable-secrets":"true"}}}`,
		object: `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa","namespace":"default","annotations":{"kubernetes.io/enforce-mountable-secrets":"true"}}}`,
	}, {
		name:   "priority class defaults its preemption policy and generation",
		body:   `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"high","namespace":"x"},"value":1000}`,
		object: `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"high","generation":1},"value":1000,"preemptionPolicy":"PreemptLowerPriority"}`,
	}, {
		name: "priority class system names are reserved",
		body: `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"system-high"},"value":5}`,
		errs: []string{`metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-high is not a known system priority class`},
	}, {
		name:   "priority class value is an int32",
		body:   `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"p"},"value":3000000000}`,
		decode: `PriorityClass in version "v1" cannot be handled as a PriorityClass: json: cannot unmarshal number 3000000000 into Go struct field PriorityClass.value of type int32`,
	}, {
		name:   "ingress class parameters default to cluster scope",
		body:   `{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"lb"},"spec":{"controller":"example.com/lb","parameters":{"kind":"P","name":"p"}}}`,
		object: `{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"lb","generation":1},"spec":{"controller":"example.com/lb","parameters":{"kind":"P","name":"p","scope":"Cluster"}}}`,
	}, {
		name: "ingress class controller is a domain-prefixed path",
		body: `{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"lb"},"spec":{"controller":"lb"}}`,
		errs: []string{`spec.controller: Invalid value: "lb": must be a domain-prefixed path (such as "acme.io/foo")`},
	}, {
		name:   "update conflict",
		old:    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default","resourceVersion":"5"}}`,
		body:   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"4"}}`,
		decode: `Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := Request{Body: []byte(tt.body), FieldValidation: tt.fv}
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
			if !o.Modelled {
				t.Fatal("not modelled")
			}
			if !strings.Contains(o.DecodeError, tt.decode) || (tt.decode == "") != (o.DecodeError == "") {
				t.Fatalf("decode error %q, want %q", o.DecodeError, tt.decode)
			}
			if len(o.Errors) != len(tt.errs) {
				t.Fatalf("errors %v, want %v", o.Errors, tt.errs)
			}
			for i, e := range o.Errors {
				if !strings.HasPrefix(e.Error(), tt.errs[i]) {
					t.Errorf("error %d: %q, want prefix %q", i, e.Error(), tt.errs[i])
				}
			}
			if fmt.Sprint(o.Warnings) != fmt.Sprint(nonNil(tt.warnings)) {
				t.Errorf("warnings %q, want %q", o.Warnings, tt.warnings)
			}
			if tt.object != "" {
				var want map[string]interface{}
				if err := json.Unmarshal([]byte(tt.object), &want); err != nil {
					t.Fatal(err)
				}
				got, _ := json.Marshal(o.Object)
				var gotv map[string]interface{}
				_ = json.Unmarshal(got, &gotv)
				if !reflect.DeepEqual(gotv, want) {
					t.Errorf("object %s\nwant   %s", got, tt.object)
				}
			} else if o.Valid() {
				t.Errorf("valid, object %v", o.Object)
			}
		})
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestServeChecksOnlyTheSurfaceOfKindsNotModelled(t *testing.T) {
	o, err := Serve(Request{Body: []byte(`{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"d"},"spec":{"attachRequired":"yes"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if o.Modelled || o.Object != nil || o.Resource.ResourceGroup() != "csidrivers.storage.k8s.io" {
		t.Fatalf("got %+v", o)
	}
	o, err = Serve(Request{Release: kubeversion.Of(31), Body: []byte(`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1beta3","kind":"FlowSchema","metadata":{"name":"f"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], "is deprecated in v1.29+") {
		t.Fatalf("warnings %q", o.Warnings)
	}
}

func TestServeRefusesWhatIsNotARequest(t *testing.T) {
	for name, body := range map[string]string{
		"not JSON":       `{"apiVersion":`,
		"not served":     `{"apiVersion":"extensions/v1beta1","kind":"Ingress"}`,
		"no kind":        `{"apiVersion":"v1"}`,
		"kind not a str": `{"apiVersion":"v1","kind":5}`,
	} {
		if _, err := Serve(Request{Body: []byte(body)}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	_, err := Serve(Request{Body: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`), Old: []byte(`{"apiVersion":"v1","kind":"ConfigMap","data":5}`)})
	if err == nil || !strings.HasPrefix(err.Error(), "old object: ") {
		t.Fatalf("err = %v", err)
	}
}

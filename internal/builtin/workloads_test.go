package builtin

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
)

func TestImagePullPolicyFollowsTheImageReference(t *testing.T) {
	tests := []struct {
		image string
		want  v1.PullPolicy
	}{
		{"nginx", v1.PullAlways},
		{"nginx:latest", v1.PullAlways},
		{"docker.io/library/nginx", v1.PullAlways},
		{"registry.example.com:5000/team/app", v1.PullAlways},
		{"localhost/app:latest", v1.PullAlways},
		{"nginx:1.27", v1.PullIfNotPresent},
		{"nginx:LATEST", v1.PullIfNotPresent},
		{"nginx@sha256:" + strings.Repeat("a", 64), v1.PullIfNotPresent},
		{"nginx:latest@sha256:" + strings.Repeat("a", 64), v1.PullAlways},
		{"Registry.Example.com/app", v1.PullAlways},
		// names that do not parse: IfNotPresent
		{"Nginx", v1.PullIfNotPresent},
		{"", v1.PullIfNotPresent},
		{strings.Repeat("a", 64), v1.PullIfNotPresent},
		{"nginx@sha256:abc", v1.PullIfNotPresent},
		{"nginx@md5:" + strings.Repeat("a", 32), v1.PullIfNotPresent},
		{"nginx:", v1.PullIfNotPresent},
		{"a/" + strings.Repeat("b", 260), v1.PullIfNotPresent},
	}
	for _, tt := range tests {
		if got := pullPolicyFor(tt.image); got != tt.want {
			t.Errorf("pullPolicyFor(%q) = %s, want %s", tt.image, got, tt.want)
		}
	}
}

func TestDeploymentListsThePodTemplateFieldsNotModelled(t *testing.T) {
	doc := func(spec string) []byte {
		return []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}` + spec + `}}}`)
	}
	tests := []struct {
		name, spec string
		want       []string
	}{
		{"everything modelled", `},"spec":{"containers":[{"name":"web","image":"nginx:1","ports":[{"containerPort":80}],"env":[{"name":"A","value":"b"}],"resources":{"limits":{"cpu":"1"}},"readinessProbe":{"httpGet":{"port":80}}}],"volumes":[{"name":"v","configMap":{"name":"c"}}]}`, nil},
		{"affinity and init containers", `},"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"In","values":["b"]}]}]}},"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"podAffinityTerm":{"topologyKey":"k","labelSelector":{"matchLabels":{"app":"web"}},"matchLabelKeys":["pod-template-hash"]}}]}},"initContainers":[{"name":"i","image":"x"},{"name":"sidecar","image":"x","restartPolicy":"Always"}],"containers":[{"name":"web","image":"x"}]}`,
			[]string{"spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys", "spec.template.spec.initContainers[1].restartPolicy"}},
		{"init containers and hooks modelled", `},"spec":{"initContainers":[{"name":"i","image":"x","env":[{"name":"A","value":"b"}]}],"containers":[{"name":"web","image":"x","lifecycle":{"preStop":{"sleep":{"seconds":5}},"postStart":{"exec":{"command":["a"]}}}}]}`, nil},
		{"container fields", `},"spec":{"containers":[{"name":"web","image":"x","lifecycle":{"preStop":{"exec":{"command":["a"]}},"stopSignal":"SIGUSR1"},"securityContext":{"seccompProfile":{"type":"RuntimeDefault"}},"livenessProbe":{"grpc":{"port":1}}}]}`,
			[]string{"spec.template.spec.containers[0].lifecycle.stopSignal", "spec.template.spec.containers[0].livenessProbe.grpc", "spec.template.spec.containers[0].securityContext.seccompProfile"}},
		{"volume sources", `},"spec":{"containers":[{"name":"web","image":"x"}],"volumes":[{"name":"a","projected":{"sources":[]}},{"name":"b","nfs":{"server":"s","path":"/"}}]}`,
			[]string{"spec.template.spec.volumes[0].projected", "spec.template.spec.volumes[1].nfs"}},
		{"values not modelled", `},"spec":{"dnsPolicy":"None","containers":[{"name":"web","image":"x","resources":{"limits":{"hugepages-2Mi":"2Mi","memory":"2Mi"}}}],"tolerations":[{"key":"k","operator":"Gt","value":"1"}]}`,
			[]string{"spec.template.spec.containers[0].resources.limits[hugepages-2Mi]", "spec.template.spec.tolerations[0].operator", "spec.template.spec.dnsPolicy"}},
		{"validated annotations", `,"annotations":{"container.apparmor.security.beta.kubernetes.io/web":"runtime/default","team":"a"}},"spec":{"containers":[{"name":"web","image":"x"}]}`,
			[]string{"spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/web]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Serve(Request{Body: doc(tt.spec)})
			if err != nil {
				t.Fatal(err)
			}
			if o.DecodeError != "" {
				t.Fatal(o.DecodeError)
			}
			if !reflect.DeepEqual(o.Unmodelled, tt.want) {
				t.Fatalf("unmodelled %q, want %q (errors %v)", o.Unmodelled, tt.want, o.Errors)
			}
		})
	}
}

func ExampleServe_deployment() {
	o, _ := Serve(Request{Body: []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
		"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"frontend"}},
		"spec":{"containers":[{"name":"Web_1","image":"nginx","ports":[{"containerPort":70000}]}]}}}}`)})
	for _, e := range o.Errors {
		fmt.Println(e.Field, e.Type)
	}
	// Output:
	// spec.template.metadata.labels Invalid value
	// spec.template.spec.containers[0].name Invalid value
	// spec.template.spec.containers[0].ports[0].containerPort Invalid value
}

func TestJobUpdateChangingTheTemplateIsNotModelled(t *testing.T) {
	old := `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi","uid":"u1","generation":1},"spec":{"selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"u1"}},"template":{"metadata":{"labels":{"controller-uid":"u1","batch.kubernetes.io/controller-uid":"u1","job-name":"pi","batch.kubernetes.io/job-name":"pi"}},"spec":{"restartPolicy":"Never","containers":[{"name":"pi","image":"perl:%s"}]}}}}`
	for _, tt := range []struct {
		image string
		want  []string
	}{{"5.34", nil}, {"5.36", []string{"spec.template"}}} {
		o, err := Serve(Request{Body: []byte(fmt.Sprintf(old, tt.image)), Old: []byte(fmt.Sprintf(old, "5.34"))})
		if err != nil {
			t.Fatal(err)
		}
		if !o.Valid() || !reflect.DeepEqual(o.Unmodelled, tt.want) {
			t.Errorf("image %s: valid %v, unmodelled %q, want %q (%v)", tt.image, o.Valid(), o.Unmodelled, tt.want, o.Errors)
		}
	}
}

func TestCreatedJobCarriesTheAssumedUID(t *testing.T) {
	o, err := Serve(Request{Body: []byte(`{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"pi","image":"perl"}]}}}}`)})
	if err != nil || !o.Valid() {
		t.Fatalf("%v %v %s", err, o.Errors, o.DecodeError)
	}
	meta := o.Object["metadata"].(map[string]interface{})
	if _, ok := meta["uid"]; ok {
		t.Fatalf("uid in the answer: %v", meta)
	}
	sel := o.Object["spec"].(map[string]interface{})["selector"].(map[string]interface{})["matchLabels"].(map[string]interface{})
	if sel[v1.ControllerUidLabel] != GeneratedJobUID {
		t.Fatalf("selector %v", sel)
	}
}

package conformance

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/internal/builtin"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// The decoding checks of kinds crdlab has no Go types for (internal/builtin's
// schema decoder: the release's OpenAPI schema with each node's Go type)
// against kube-apiserver 1.37's own decoder (legacyscheme's strict
// serializer into k8s.io/api's types, upstream.DecodeBuiltin): the same
// 400 message (unknown and duplicate fields, type errors, int-or-string,
// quantities, times, base64 bytes) and the same Warn warnings.
var schemaDecodeCases = []struct {
	name, body, fieldValidation string
}{
	// apps/v1 Deployment
	{"deployment valid", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":0.25}}}]}}}}`, ""},
	{"deployment replicas string", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":"3","selector":{"matchLabels":{"app":"web"}},"template":{"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}`, ""},
	{"deployment replicas fraction", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1.5}}`, ""},
	{"deployment replicas overflow", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3000000000}}`, ""},
	{"deployment unknown fields in order", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labelz":{}},"spec":{"replica":3,"template":{"spec":{"containers":[{"name":"a","image":"x","imagePullPolicy":"Always","port":80},{"name":"b","image":"y","foo":{"bar":1}}]}}},"extra":true}`, ""},
	{"deployment unknown fields warn", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replica":3,"template":{"spec":{"containers":[{"name":"a","image":"x","port":80}]}}}}`, "Warn"},
	{"deployment unknown fields ignore", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replica":3}}`, "Ignore"},
	{"deployment duplicate fields", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"a":"1","a":"2"}},"spec":{"replicas":1,"replicas":2,"paused":true}}`, ""},
	{"deployment case-sensitive field", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"Replicas":1}}`, ""},
	{"deployment type error beats unknown field", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"unknown":1,"paused":"yes"}}`, ""},
	{"deployment first type error wins", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"paused":"yes","replicas":"2"}}`, ""},
	{"deployment maxSurge object", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"strategy":{"rollingUpdate":{"maxSurge":{"a":1}}}}}`, ""},
	{"deployment maxSurge bool", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"strategy":{"rollingUpdate":{"maxUnavailable":true}}}}`, ""},
	{"deployment containers object", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":{"name":"web"}}}}}`, ""},
	{"deployment labels value number", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"tier":1}}}`, ""},
	{"deployment apiVersion number", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","generation":"1"}}`, ""},
	{"deployment quantity malformed", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":[{"name":"web","image":"x","resources":{"limits":{"cpu":"one"}}}]}}}}`, ""},
	{"deployment quantity suffix", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":[{"name":"web","image":"x","resources":{"requests":{"memory":"1Gb"}}}]}}}}`, ""},
	{"deployment quantity object", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":[{"name":"web","image":"x","resources":{"requests":{"memory":{}}}}]}}}}`, ""},
	{"deployment creationTimestamp malformed", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","creationTimestamp":"yesterday"}}`, ""},
	{"deployment creationTimestamp number", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","creationTimestamp":5}}`, ""},
	{"deployment spec string", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":"replicas: 3"}`, ""},
	{"deployment spec array", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":[]}`, ""},
	{"deployment protocol number", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":[{"name":"web","image":"x","ports":[{"containerPort":80,"protocol":6}]}]}}}}`, ""},
	{"deployment command string", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":[{"name":"web","image":"x","command":"sleep 1"}]}}}}`, ""},
	// v1 Service
	{"service valid", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80,"targetPort":"http","protocol":"TCP"}]}}`, ""},
	{"service port string", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"ports":[{"port":"80"}]}}`, ""},
	{"service targetPort fraction", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"ports":[{"port":80,"targetPort":8.5}]}}`, ""},
	{"service unknown and duplicate", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"type":"ClusterIP","type":"NodePort","ports":[{"port":80,"nodeport":30000}],"externalIPs":["1.2.3.4"],"loadBalancerIp":"x"}}`, ""},
	// v1 Pod
	{"pod unknown container field", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"busybox","command":["sleep","1"],"envs":[{"name":"A"}]}]}}`, ""},
	{"pod env value number", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"busybox","env":[{"name":"A","value":1}]}]}}`, ""},
	{"pod hostNetwork string", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"hostNetwork":"true","containers":[]}}`, ""},
	{"pod probe port int-or-string", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"x","livenessProbe":{"httpGet":{"port":[80]}}}]}}`, ""},
	{"pod ephemeral storage quantity", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"overhead":{"cpu":"1.5.5"},"containers":[]}}`, ""},
	{"pod securityContext runAsUser string", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"securityContext":{"runAsUser":"1000"},"containers":[]}}`, ""},
	{"pod owner reference controller string", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","ownerReferences":[{"apiVersion":"v1","kind":"X","name":"x","uid":"1","controller":"yes"}]},"spec":{"containers":[]}}`, ""},
	{"pod managedFields raw", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","managedFields":[{"manager":"m","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"anything":[1,2]}}}]},"spec":{"containers":[]}}`, ""},
	// batch/v1 Job
	{"job backoffLimit string", `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"backoffLimit":"6","template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}}`, ""},
	{"job unknown fields", `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"completion":1,"template":{"spec":{"restartpolicy":"Never","containers":[{"name":"c","image":"x"}]}}}}`, ""},
	{"job activeDeadlineSeconds negative fine", `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"activeDeadlineSeconds":-1,"template":{"spec":{"containers":[]}}}}`, ""},
	// networking.k8s.io/v1 Ingress and NetworkPolicy
	{"ingress port number string", `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"i"},"spec":{"rules":[{"host":"a.example","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":"80"}}}}]}}]}}`, ""},
	{"ingress unknown backend field", `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"i"},"spec":{"rules":[{"http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"serviceName":"web","servicePort":80}}]}}]}}`, ""},
	{"networkpolicy port int-or-string", `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"n"},"spec":{"podSelector":{},"ingress":[{"ports":[{"port":"http"},{"port":443,"endPort":"x"}]}]}}`, ""},
	{"networkpolicy policyTypes string", `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"n"},"spec":{"podSelector":{},"policyTypes":"Ingress"}}`, ""},
	// storage.k8s.io/v1 StorageClass
	{"storageclass parameters number", `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"s"},"provisioner":"x","parameters":{"iops":3000}}`, ""},
	{"storageclass unknown and allowVolumeExpansion", `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"s"},"provisioner":"x","reclaimpolicy":"Retain","allowVolumeExpansion":"true"}`, ""},
	// a kind of an API group without a CRD and with a v1 graduated from beta
	{"flowschema matchingPrecedence string", `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":"f"},"spec":{"matchingPrecedence":"500","priorityLevelConfiguration":{"name":"x"}}}`, ""},
	{"flowschema unknown", `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":"f"},"spec":{"priorityLevel":{"name":"x"}}}`, ""},
	// certificates.k8s.io/v1 CertificateSigningRequest: base64 bytes
	{"csr request not base64", `{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"c"},"spec":{"request":"not base64!","signerName":"x"}}`, ""},
	{"csr request number", `{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"c"},"spec":{"request":5,"signerName":"x"}}`, ""},
	// coordination.k8s.io/v1 Lease: micro time
	{"lease renewTime malformed", `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l"},"spec":{"renewTime":"2024-01-01T00:00:00Z"}}`, ""},
	{"lease renewTime valid", `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l"},"spec":{"renewTime":"2024-01-01T00:00:00.000000Z","leaseDurationSeconds":15}}`, ""},
	// policy/v1 PodDisruptionBudget
	{"pdb minAvailable object", `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p"},"spec":{"minAvailable":{},"selector":{"matchLabels":{"a":"b"}}}}`, ""},
	// rbac: an array where an object is expected
	{"role rules object", `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"r"},"rules":{"verbs":["get"]}}`, ""},
	// ObjectMeta's own types, nulls, escapes
	{"uid number", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","uid":5}}`, ""},
	{"managedFields operation number", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","managedFields":[{"manager":"m","operation":1}]}}`, ""},
	{"deletionGracePeriodSeconds string", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","deletionGracePeriodSeconds":"30"}}`, ""},
	{"nulls everywhere", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":null,"creationTimestamp":null},"spec":{"replicas":null,"selector":null,"strategy":{"rollingUpdate":{"maxSurge":null}},"template":{"spec":{"containers":[{"name":"a","image":"x","resources":{"limits":{"cpu":null}}}]}}},"status":null}`, ""},
	{"escaped key matches", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"sp\u0065c":{"replicas":"1"}}`, ""},
	{"quantity with an escape", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"x","resources":{"limits":{"cpu":"1\u0030"}}}]}}`, ""},
	{"quantity number", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"x","resources":{"limits":{"cpu":1e3,"memory":-1}}}]}}`, ""},
	{"quantity bool", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"x","resources":{"limits":{"cpu":true}}}]}}`, ""},
	{"unknown field in a map of structs", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[],"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"In","values":["x"],"value":"y"}]}]}}}}}`, ""},
	{"strict errors of a document with a later type error", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","foo":1},"spec":{"containers":[{"name":"c","image":"x","stdin":"yes"}]}}`, ""},
	{"duplicate in a list item", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","name":"d","image":"x"}]}}`, ""},
	{"duplicate unknown field", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"x":1,"x":2,"containers":[]}}`, "Warn"},
	{"duplicate and unknown warn", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","name":"q"},"spec":{"containers":[{"name":"c","image":"x","imagepullpolicy":"Always"}]}}`, "Warn"},
	{"apiVersion inline type error", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"status":{"conditions":[{"type":"Available","status":"True","lastUpdateTime":"now"}]}}`, ""},
	{"event micro time", `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"},"eventTime":"2024-01-01T00:00:00Z","reportingController":"x","reportingInstance":"y","action":"a","reason":"r"}`, ""},
	{"event series count string", `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"},"eventTime":"2024-01-01T00:00:00.000000Z","series":{"count":"2","lastObservedTime":"2024-01-01T00:00:00.000000Z"}}`, ""},
	{"cronjob schedule number", `{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"c"},"spec":{"schedule":5,"jobTemplate":{"spec":{"template":{"spec":{"containers":[]}}}}}}`, ""},
	{"statefulset volumeClaimTemplates storage", `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"s"},"spec":{"serviceName":"s","selector":{},"template":{},"volumeClaimTemplates":[{"metadata":{"name":"d"},"spec":{"resources":{"requests":{"storage":"1GB"}}}}]}}`, ""},
	{"daemonset unknown", `{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"d"},"spec":{"selector":{},"template":{},"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"10%","partition":1}}}}`, ""},
	{"ingressclass-free ingress tls hosts string", `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"i"},"spec":{"tls":[{"hosts":"a.example"}]}}`, ""},
	{"validatingadmissionpolicy (native elsewhere) unknown", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"v"},"spec":{"validation":[]}}`, ""},
	{"priorityclass-free scheduling: podtemplate labels", `{"apiVersion":"v1","kind":"PodTemplate","metadata":{"name":"t"},"template":{"metadata":{"labels":{"a":true}}}}`, ""},
	{"csidriver bool string", `{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"c"},"spec":{"attachRequired":"false"}}`, ""},
	{"runtimeclass overhead quantity", `{"apiVersion":"node.k8s.io/v1","kind":"RuntimeClass","metadata":{"name":"r"},"handler":"h","overhead":{"podFixed":{"memory":"lots"}}}`, ""},
	{"endpointslice port string", `{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"e"},"addressType":"IPv4","endpoints":[],"ports":[{"port":"80"}]}`, ""},
	{"resourcequota hard quantity", `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":{"hard":{"pods":"ten"}}}`, ""},
	{"limitrange type number", `{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"l"},"spec":{"limits":[{"type":1}]}}`, ""},
	{"pvc accessModes string", `{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"c"},"spec":{"accessModes":"ReadWriteOnce"}}`, ""},
	// autoscaling/v2 HorizontalPodAutoscaler
	{"hpa averageValue malformed", `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"AverageValue","averageValue":"lots"}}}]}}`, ""},
}

// TestSchemaDecodingMatchesTheAPIServersDecoder: for kinds without a native
// Strategy, Serve's DecodeError and warnings are the API server's.
func TestSchemaDecodingMatchesTheAPIServersDecoder(t *testing.T) {
	for _, c := range schemaDecodeCases {
		t.Run(c.name, func(t *testing.T) {
			wantErr, wantWarn, err := upstream.DecodeBuiltin([]byte(c.body), c.fieldValidation)
			if err != nil {
				t.Fatalf("upstream: %v", err)
			}
			o, err := builtin.Serve(builtin.Request{Body: []byte(c.body), FieldValidation: c.fieldValidation, Release: kubeversion.Of(37)})
			if err != nil {
				t.Fatalf("crdlab: %v", err)
			}
			if !o.Modelled && !o.SchemaChecked {
				t.Fatalf("crdlab: neither modelled nor schema-checked")
			}
			if o.DecodeError != wantErr {
				t.Errorf("decode error:\ncrdlab:   %s\nupstream: %s", o.DecodeError, wantErr)
			}
			if wantErr == "" && !cmp.Equal(o.Warnings, wantWarn, cmp.Comparer(func(a, b []string) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })) {
				t.Errorf("warnings:\ncrdlab:   %q\nupstream: %q", o.Warnings, wantWarn)
			}
		})
	}
}

// TestSchemaDecodingOfA131BetaKindMatchesTheDecoder: flowcontrol's v1beta3
// kinds, served at 1.31 only (a beta enabled by default, deprecated),
// decoded by crdlab at 1.31 and by kube-apiserver 1.37's decoder, whose
// scheme still installs v1beta3 with the same Go types' shape (k8s.io/api
// v0.31.14 and v0.37.2's flowcontrol/v1beta3 differ in comments and in
// `json:""` for `json:",inline"`). Only the decode errors are compared: the
// 1.31 answer adds the deprecation warning.
func TestSchemaDecodingOfA131BetaKindMatchesTheDecoder(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		{"valid", `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1beta3","kind":"FlowSchema","metadata":{"name":"f"},"spec":{"matchingPrecedence":500,"priorityLevelConfiguration":{"name":"x"},"rules":[{"subjects":[{"kind":"Group","group":{"name":"g"}}],"resourceRules":[{"verbs":["get"],"apiGroups":["*"],"resources":["*"],"clusterScope":true}]}]}}`},
		{"matchingPrecedence string", `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1beta3","kind":"FlowSchema","metadata":{"name":"f"},"spec":{"matchingPrecedence":"500"}}`},
		{"unknown fields", `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1beta3","kind":"FlowSchema","metadata":{"name":"f"},"spec":{"priorityLevel":{"name":"x"},"rules":[{"subject":[]}]}}`},
		{"priority level shares string", `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1beta3","kind":"PriorityLevelConfiguration","metadata":{"name":"p"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":"30","limitResponse":{"type":"Queue","queuing":{"queues":64}}}}}`},
		{"priority level duplicate", `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1beta3","kind":"PriorityLevelConfiguration","metadata":{"name":"p"},"spec":{"type":"Limited","type":"Exempt"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantErr, _, err := upstream.DecodeBuiltin([]byte(c.body), "")
			if err != nil {
				t.Fatalf("upstream: %v", err)
			}
			o, err := builtin.Serve(builtin.Request{Body: []byte(c.body), Release: kubeversion.Of(31)})
			if err != nil {
				t.Fatalf("crdlab: %v", err)
			}
			if !o.SchemaChecked {
				t.Fatal("crdlab: not schema-checked")
			}
			if o.DecodeError != wantErr {
				t.Errorf("decode error:\ncrdlab:   %s\nupstream: %s", o.DecodeError, wantErr)
			}
		})
	}
}

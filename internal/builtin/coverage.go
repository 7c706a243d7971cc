package builtin

// What of a pod template crdlab's validation does not model: the fields
// set in an object whose native validation crdlab does not reproduce, so
// that an answer reports them (Outcome.Unmodelled) instead of passing
// them silently.

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
)

// modelledPodSpec are the pod spec fields whose validation (and warnings)
// crdlab models, as paths under a PodSpec with "[]" for a list's items; a
// path covers its subtree.
var modelledPodSpec = []string{
	"volumes[].name",
	"volumes[].emptyDir.medium", "volumes[].emptyDir.sizeLimit",
	"volumes[].hostPath.path", "volumes[].hostPath.type",
	"volumes[].secret.secretName", "volumes[].secret.items[].key", "volumes[].secret.items[].path", "volumes[].secret.items[].mode",
	"volumes[].secret.defaultMode", "volumes[].secret.optional",
	"volumes[].configMap.name", "volumes[].configMap.items[].key", "volumes[].configMap.items[].path", "volumes[].configMap.items[].mode",
	"volumes[].configMap.defaultMode", "volumes[].configMap.optional",
	"volumes[].persistentVolumeClaim.claimName", "volumes[].persistentVolumeClaim.readOnly",
	"volumes[].downwardAPI.defaultMode", "volumes[].downwardAPI.items[].path", "volumes[].downwardAPI.items[].mode",
	"volumes[].downwardAPI.items[].fieldRef.apiVersion", "volumes[].downwardAPI.items[].fieldRef.fieldPath",
	"readinessGates[].conditionType", "schedulingGates[].name",
	"containers[].name", "containers[].image", "containers[].command", "containers[].args", "containers[].workingDir",
	"containers[].ports[].name", "containers[].ports[].containerPort", "containers[].ports[].hostPort",
	"containers[].ports[].protocol", "containers[].ports[].hostIP",
	"containers[].env[].name", "containers[].env[].value",
	"containers[].env[].valueFrom.fieldRef.apiVersion", "containers[].env[].valueFrom.fieldRef.fieldPath",
	"containers[].env[].valueFrom.configMapKeyRef", "containers[].env[].valueFrom.secretKeyRef",
	"containers[].envFrom[].prefix", "containers[].envFrom[].configMapRef", "containers[].envFrom[].secretRef",
	"containers[].resources.limits", "containers[].resources.requests",
	"containers[].volumeMounts[].name", "containers[].volumeMounts[].mountPath", "containers[].volumeMounts[].readOnly",
	"containers[].volumeMounts[].subPath",
	"containers[].imagePullPolicy", "containers[].terminationMessagePath", "containers[].terminationMessagePolicy",
	"containers[].stdin", "containers[].stdinOnce", "containers[].tty",
	"containers[].securityContext.privileged", "containers[].securityContext.runAsUser", "containers[].securityContext.runAsGroup",
	"containers[].securityContext.runAsNonRoot", "containers[].securityContext.readOnlyRootFilesystem",
	"containers[].securityContext.allowPrivilegeEscalation", "containers[].securityContext.capabilities",
	"restartPolicy", "terminationGracePeriodSeconds", "activeDeadlineSeconds", "dnsPolicy", "nodeSelector",
	"serviceAccountName", "serviceAccount", "automountServiceAccountToken", "nodeName",
	"hostNetwork", "hostPID", "hostIPC", "shareProcessNamespace",
	"securityContext.runAsUser", "securityContext.runAsGroup", "securityContext.runAsNonRoot",
	"securityContext.supplementalGroups", "securityContext.fsGroup",
	"imagePullSecrets", "hostname", "subdomain", "schedulerName",
	"tolerations[].key", "tolerations[].operator", "tolerations[].value", "tolerations[].effect", "tolerations[].tolerationSeconds",
	"priorityClassName", "enableServiceLinks",
	"affinity.nodeAffinity",
	"topologySpreadConstraints[].maxSkew", "topologySpreadConstraints[].topologyKey", "topologySpreadConstraints[].whenUnsatisfiable",
	"topologySpreadConstraints[].labelSelector", "topologySpreadConstraints[].minDomains",
	"topologySpreadConstraints[].nodeAffinityPolicy", "topologySpreadConstraints[].nodeTaintsPolicy",
}

// modelledProbe are a probe's modelled fields (under each of a
// container's livenessProbe, readinessProbe and startupProbe).
var modelledProbe = []string{
	"exec.command", "httpGet.path", "httpGet.port", "httpGet.host", "httpGet.scheme", "httpGet.httpHeaders",
	"tcpSocket.port", "tcpSocket.host",
	"initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold", "terminationGracePeriodSeconds",
}

// modelledHook are a lifecycle hook's modelled fields (under postStart and
// preStop).
var modelledHook = []string{"exec.command", "httpGet.path", "httpGet.port", "httpGet.host", "httpGet.scheme", "httpGet.httpHeaders",
	"tcpSocket.port", "tcpSocket.host", "sleep.seconds"}

var modelledPodSpecPaths = func() []string {
	out := append([]string(nil), modelledPodSpec...)
	for _, probe := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		for _, f := range modelledProbe {
			out = append(out, "containers[]."+probe+"."+f)
		}
	}
	for _, a := range []string{"podAffinity", "podAntiAffinity"} {
		for _, f := range []string{"labelSelector", "namespaceSelector", "namespaces", "topologyKey"} {
			out = append(out, "affinity."+a+".requiredDuringSchedulingIgnoredDuringExecution[]."+f,
				"affinity."+a+".preferredDuringSchedulingIgnoredDuringExecution[].podAffinityTerm."+f)
		}
		out = append(out, "affinity."+a+".preferredDuringSchedulingIgnoredDuringExecution[].weight")
	}
	for _, hook := range []string{"postStart", "preStop"} {
		for _, f := range modelledHook {
			out = append(out, "containers[].lifecycle."+hook+"."+f)
		}
	}
	// An init container's fields are a container's, but its lifecycle,
	// probes and restartPolicy (a sidecar's).
	for _, p := range append([]string(nil), out...) {
		rest, ok := strings.CutPrefix(p, "containers[].")
		if !ok || strings.HasPrefix(rest, "lifecycle") || strings.HasSuffix(strings.SplitN(rest, ".", 2)[0], "Probe") {
			continue
		}
		out = append(out, "initContainers[]."+rest)
	}
	// Lifecycle hooks and probes of init containers are refused (no
	// sidecars are modelled): the fields are covered, the error is
	// upstream's.
	out = append(out, "initContainers[].lifecycle", "initContainers[].livenessProbe", "initContainers[].readinessProbe", "initContainers[].startupProbe")
	return out
}()

// covers reports whether the allowed path a covers q (q is a or under
// it), and whether q leads to an allowed path (a is under q).
func covers(a, q string) (covered, ancestor bool) {
	if a == q || strings.HasPrefix(q, a+".") || strings.HasPrefix(q, a+"[") {
		return true, false
	}
	return false, strings.HasPrefix(a, q+".") || strings.HasPrefix(a, q+"[")
}

// podTemplateUnmodelled lists, as field paths under p, the fields set in a
// pod template whose validation crdlab does not model; values whose rules
// are not modelled (hugepages, numeric toleration operators, dnsPolicy
// None) are listed too.
func podTemplateUnmodelled(t *v1.PodTemplateSpec, p *field.Path) []string {
	var out []string
	for _, k := range sortedKeys(t.ObjectMeta.Annotations) {
		if podValidatedAnnotation(k) {
			out = append(out, p.Child("metadata", "annotations").Key(k).String())
		}
	}
	data, err := json.Marshal(&t.Spec)
	if err != nil {
		return append(out, p.Child("spec").String())
	}
	var spec map[string]interface{}
	if err := json.Unmarshal(data, &spec); err != nil {
		return append(out, p.Child("spec").String())
	}
	walkUnmodelled(spec, "", p.Child("spec").String(), &out)
	s := &t.Spec
	for i, c := range s.Containers {
		out = append(out, containerValuesUnmodelled(p.Child("spec", "containers").Index(i), &c)...)
	}
	for i, c := range s.InitContainers {
		out = append(out, containerValuesUnmodelled(p.Child("spec", "initContainers").Index(i), &c)...)
	}
	for i, v := range s.Volumes {
		if v.DownwardAPI == nil {
			continue
		}
		for j, f := range v.DownwardAPI.Items {
			if f.FieldRef != nil && f.FieldRef.APIVersion != "v1" {
				out = append(out, p.Child("spec", "volumes").Index(i).Child("downwardAPI", "items").Index(j).Child("fieldRef", "apiVersion").String())
			}
		}
	}
	for i, tol := range s.Tolerations {
		if tol.Operator == "Lt" || tol.Operator == "Gt" {
			out = append(out, p.Child("spec", "tolerations").Index(i).Child("operator").String())
		}
	}
	if s.DNSPolicy == v1.DNSNone {
		out = append(out, p.Child("spec", "dnsPolicy").String())
	}
	return out
}

// containerValuesUnmodelled lists a container's values whose rules are not
// modelled: hugepages, an env fieldRef of another apiVersion.
func containerValuesUnmodelled(cp *field.Path, c *v1.Container) []string {
	var out []string
	for _, list := range []struct {
		name string
		rl   v1.ResourceList
	}{{"limits", c.Resources.Limits}, {"requests", c.Resources.Requests}} {
		for _, k := range sortedKeys(list.rl) {
			if isHugePageResourceName(k) {
				out = append(out, cp.Child("resources", list.name).Key(k).String())
			}
		}
	}
	for j, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.APIVersion != "v1" {
			out = append(out, cp.Child("env").Index(j).Child("valueFrom", "fieldRef", "apiVersion").String())
		}
	}
	return out
}

// podValidatedAnnotation reports the annotations of a pod (template) that
// core validation checks (ValidatePodSpecificAnnotations and the seccomp
// and AppArmor consistency rules): not modelled.
func podValidatedAnnotation(k string) bool {
	switch k {
	case "kubernetes.io/config.mirror", "scheduler.alpha.kubernetes.io/tolerations", "controller.kubernetes.io/pod-deletion-cost",
		"seccomp.security.alpha.kubernetes.io/pod":
		return true
	}
	return strings.HasPrefix(k, "container.seccomp.security.alpha.kubernetes.io/") ||
		strings.HasPrefix(k, "container.apparmor.security.beta.kubernetes.io/")
}

// walkUnmodelled walks a decoded JSON value: norm is its path with "[]"
// for list items (matched against modelledPodSpecPaths), real its field
// path; a field no allowed path covers or leads to is listed, and not
// descended into.
func walkUnmodelled(v interface{}, norm, real string, out *[]string) {
	switch t := v.(type) {
	case map[string]interface{}:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n := k
			if norm != "" {
				n = norm + "." + k
			}
			r := real + "." + k
			covered, ancestor := false, false
			for _, a := range modelledPodSpecPaths {
				c, an := covers(a, n)
				covered = covered || c
				ancestor = ancestor || an
			}
			switch {
			case covered:
			case ancestor:
				walkUnmodelled(t[k], n, r, out)
			default:
				*out = append(*out, r)
			}
		}
	case []interface{}:
		for i, item := range t {
			walkUnmodelled(item, norm+"[]", real+"["+itoa(i)+"]", out)
		}
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

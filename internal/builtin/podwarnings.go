package builtin

// The warnings of a pod template (k8s.io/kubernetes pkg/api/pod
// warnings.go: GetWarningsForPodTemplate), for the parts crdlab models.

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// deprecatedNodeLabels mirrors pkg/api/node's deprecatedNodeLabels.
var deprecatedNodeLabels = map[string]string{
	`beta.kubernetes.io/arch`:                       `deprecated since v1.14; use "kubernetes.io/arch" instead`,
	`beta.kubernetes.io/os`:                         `deprecated since v1.14; use "kubernetes.io/os" instead`,
	`failure-domain.beta.kubernetes.io/region`:      `deprecated since v1.17; use "topology.kubernetes.io/region" instead`,
	`failure-domain.beta.kubernetes.io/zone`:        `deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
	`beta.kubernetes.io/instance-type`:              `deprecated since v1.17; use "node.kubernetes.io/instance-type" instead`,
	`app.kubernetes.io/created-by`:                  `deprecated since v1.9`,
	`scheduler.alpha.kubernetes.io/preferAvoidPods`: `deprecated since v1.22; use Taints and Tolerations instead`,
	`node-role.kubernetes.io/master`:                `use "node-role.kubernetes.io/control-plane" instead`,
}

// deprecatedPodAnnotations mirrors warnings.go's deprecatedAnnotations.
var deprecatedPodAnnotations = []struct{ key, message string }{
	{`scheduler.alpha.kubernetes.io/critical-pod`, `non-functional in v1.16+; use the "priorityClassName" field instead`},
	{`security.alpha.kubernetes.io/sysctls`, `non-functional in v1.11+; use the "sysctls" field instead`},
	{`security.alpha.kubernetes.io/unsafe-sysctls`, `non-functional in v1.11+; use the "sysctls" field instead`},
}

// podTemplateWarnings mirrors warningsForPodSpecAndMeta for a template at
// fieldPath (spec.template). Map keys are sorted where upstream ranges
// over a map.
func podTemplateWarnings(rel kubeversion.Release, fieldPath *field.Path, t *v1.PodTemplateSpec) []string {
	var ws []string
	s, meta := &t.Spec, &t.ObjectMeta
	for _, k := range sortedKeys(s.NodeSelector) {
		if msg, ok := deprecatedNodeLabels[k]; ok {
			ws = append(ws, fmt.Sprintf("%s: %s", fieldPath.Child("spec", "nodeSelector").Key(k), msg))
		}
	}
	ws = append(ws, nodeAffinityWarnings(rel, s.Affinity, fieldPath.Child("spec"))...)
	ws = append(ws, topologySpreadWarnings(s.TopologySpreadConstraints, fieldPath.Child("spec"))...)
	for _, d := range deprecatedPodAnnotations {
		if _, ok := meta.Annotations[d.key]; ok {
			ws = append(ws, fmt.Sprintf("%s: %s", fieldPath.Child("metadata", "annotations").Key(d.key), d.message))
		}
	}
	for i, v := range s.Volumes {
		vp := fieldPath.Child("spec", "volumes").Index(i)
		switch {
		case v.PhotonPersistentDisk != nil:
			ws = append(ws, fmt.Sprintf("%s: deprecated in v1.11, non-functional in v1.16+", vp.Child("photonPersistentDisk")))
		case v.ScaleIO != nil:
			ws = append(ws, fmt.Sprintf("%s: deprecated in v1.16, non-functional in v1.22+", vp.Child("scaleIO")))
		case v.Flocker != nil:
			ws = append(ws, fmt.Sprintf("%s: deprecated in v1.22, non-functional in v1.25+", vp.Child("flocker")))
		case v.StorageOS != nil:
			ws = append(ws, fmt.Sprintf("%s: deprecated in v1.22, non-functional in v1.25+", vp.Child("storageOS")))
		case v.Quobyte != nil:
			ws = append(ws, fmt.Sprintf("%s: deprecated in v1.22, non-functional in v1.25+", vp.Child("quobyte")))
		case v.Glusterfs != nil:
			ws = append(ws, fmt.Sprintf("%s: deprecated in v1.25, non-functional in v1.26+", vp.Child("glusterfs")))
		case v.CephFS != nil:
			ws = append(ws, fmt.Sprintf("%s: deprecated in v1.28, non-functional in v1.31+", vp.Child("cephfs")))
		case v.RBD != nil:
			ws = append(ws, fmt.Sprintf("%s: deprecated in v1.28, non-functional in v1.31+", vp.Child("rbd")))
		}
	}
	ws = append(ws, overlappingPathWarnings(s.Volumes)...)
	if len(s.ImagePullSecrets) > 1 {
		seen := map[string]bool{}
		for i, item := range s.ImagePullSecrets {
			if seen[item.Name] {
				ws = append(ws, fmt.Sprintf("%s: duplicate name %q", fieldPath.Child("spec", "imagePullSecrets").Index(i).Child("name"), item.Name))
			} else {
				seen[item.Name] = true
			}
		}
	}
	for i, item := range s.ImagePullSecrets {
		if item.Name == "" {
			ws = append(ws, fmt.Sprintf("%s: invalid empty name %q", fieldPath.Child("spec", "imagePullSecrets").Index(i).Child("name"), item.Name))
		}
	}
	specPath := fieldPath.Child("spec")
	visitContainers(s, specPath, func(c *v1.Container, p *field.Path) {
		for _, check := range []struct {
			list     v1.ResourceList
			kind     string
			resource v1.ResourceName
		}{
			{c.Resources.Limits, "limits", "memory"}, {c.Resources.Requests, "requests", "memory"},
			{c.Resources.Limits, "limits", "ephemeral-storage"}, {c.Resources.Requests, "requests", "ephemeral-storage"},
		} {
			if q, ok := check.list[check.resource]; ok && milliFractional(q) {
				ws = append(ws, fmt.Sprintf("%s: fractional byte value %q is invalid, must be an integer", p.Child("resources", check.kind).Key(string(check.resource)), q.String()))
			}
		}
		if len(c.Env) > 1 {
			seen := map[string]bool{}
			for i, item := range c.Env {
				if !seen[item.Name] {
					seen[item.Name] = true
					continue
				}
				ref := fmt.Sprintf("$(%s)", item.Name)
				if item.ValueFrom != nil || item.Value == ref || !strings.Contains(item.Value, ref) {
					ws = append(ws, fmt.Sprintf("%s: hides previous definition of %q, which may be dropped when using apply", p.Child("env").Index(i), item.Name))
				}
			}
		}
	})
	type portBlock struct {
		field string
		port  v1.ContainerPort
	}
	allPorts := map[string][]portBlock{}
	visitContainers(s, specPath, func(c *v1.Container, p *field.Path) {
		for i, port := range c.Ports {
			pp := p.Child("ports").Index(i).String()
			if port.HostIP != "" && port.HostPort == 0 {
				ws = append(ws, fmt.Sprintf("%s: hostIP set without hostPort: {Name:%s HostPort:%d ContainerPort:%d Protocol:%s HostIP:%s}",
					pp, port.Name, port.HostPort, port.ContainerPort, port.Protocol, port.HostIP))
			}
			k := fmt.Sprintf("%d/%s", port.ContainerPort, port.Protocol)
			for _, other := range allPorts[k] {
				switch a, b := port.HostIP == "", other.port.HostIP == ""; {
				case port.HostIP == other.port.HostIP && port.HostPort == other.port.HostPort:
					ws = append(ws, fmt.Sprintf("%s: duplicate port definition with %s", pp, other.field))
				case port.HostPort == 0 || other.port.HostPort == 0:
					ws = append(ws, fmt.Sprintf("%s: overlapping port definition with %s", pp, other.field))
				case port.HostPort == other.port.HostPort && ((a || b) && !(a && b)):
					ws = append(ws, fmt.Sprintf("%s: dangerously ambiguous port definition with %s", pp, other.field))
				}
			}
			allPorts[k] = append(allPorts[k], portBlock{field: pp, port: port})
		}
	})
	portNames := map[string]string{}
	visitContainers(s, specPath, func(c *v1.Container, p *field.Path) {
		for i, port := range c.Ports {
			if port.Name == "" {
				continue
			}
			pp := p.Child("ports").Index(i).String()
			if other, ok := portNames[port.Name]; ok {
				ws = append(ws, fmt.Sprintf("%s: duplicate port name %q with %s, services and probes that select ports by name will use %s", pp, port.Name, other, other))
			} else {
				portNames[port.Name] = pp
			}
		}
	})
	if g := s.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		ws = append(ws, fmt.Sprintf("%s: must be >= 0; negative values are invalid and will be treated as 1", fieldPath.Child("spec", "terminationGracePeriodSeconds")))
	}
	ws = append(ws, podAffinityWarnings(s.Affinity, fieldPath.Child("spec"))...)
	return ws
}

package builtin

// Pod template and pod spec validation (k8s.io/kubernetes
// pkg/apis/core/validation: ValidatePodTemplateSpec, ValidatePodSpec and
// what they call), for the parts crdlab models; podUnmodelled lists the
// fields of a spec that are set but whose validation is not modelled, so
// that an answer that passed says what it did not check.

import (
	"fmt"
	"math"
	"path"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

const (
	fileModeErrorMsg     = "must be a number between 0 and 0777 (octal), both inclusive"
	emptyDirModeErrorMsg = "must be a number between 0 and 01777 (octal), both inclusive"
	isNotIntegerErrorMsg = "must be an integer"
)

// podOptions are the PodValidationOptions that the modelled checks read.
type podOptions struct {
	relaxedEnvVarNames bool
}

func podOptionsAt(rel kubeversion.Release, old *v1.PodSpec) podOptions {
	return podOptions{relaxedEnvVarNames: rel.Has(kubeversion.RelaxedEnvVarNames) || (old != nil && usesRelaxedEnvVarNames(old))}
}

// usesRelaxedEnvVarNames mirrors useRelaxedEnvironmentVariableValidation's
// look at the old spec: an env name or envFrom prefix that only the relaxed
// rule accepts.
func usesRelaxedEnvVarNames(s *v1.PodSpec) bool {
	relaxed := false
	visitContainers(s, nil, func(c *v1.Container, _ *field.Path) {
		for _, e := range c.Env {
			if len(names.IsEnvVarName(e.Name)) > 0 {
				relaxed = true
			}
		}
		for _, e := range c.EnvFrom {
			if e.Prefix != "" && len(names.IsEnvVarName(e.Prefix)) > 0 {
				relaxed = true
			}
		}
	})
	return relaxed
}

// visitContainers mirrors podshelper.VisitContainersWithPath: init
// containers, containers, then ephemeral containers.
func visitContainers(s *v1.PodSpec, specPath *field.Path, fn func(c *v1.Container, p *field.Path)) {
	for i := range s.InitContainers {
		fn(&s.InitContainers[i], specPath.Child("initContainers").Index(i))
	}
	for i := range s.Containers {
		fn(&s.Containers[i], specPath.Child("containers").Index(i))
	}
	for i := range s.EphemeralContainers {
		c := v1.Container(s.EphemeralContainers[i].EphemeralContainerCommon)
		fn(&c, specPath.Child("ephemeralContainers").Index(i))
	}
}

func dns1123Label(value string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range names.IsDNS1123Label(value) {
		errs = append(errs, field.Invalid(p, value, msg))
	}
	return errs
}

func nameErrs(fn names.ValidateNameFunc, value string, prefix bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range fn(value, prefix) {
		errs = append(errs, field.Invalid(p, value, msg))
	}
	return errs
}

// validatePodTemplateSpec mirrors ValidatePodTemplateSpec.
func validatePodTemplateSpec(rel kubeversion.Release, t *v1.PodTemplateSpec, p *field.Path, opts podOptions) field.ErrorList {
	errs := field.ErrorList{}
	errs = append(errs, objectmeta.ValidateLabels(rel, t.ObjectMeta.Labels, p.Child("labels"))...)
	errs = append(errs, objectmeta.ValidateAnnotations(rel, t.ObjectMeta.Annotations, p.Child("annotations"))...)
	errs = append(errs, validatePodSpec(rel, &t.Spec, p.Child("spec"), opts)...)
	if len(t.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(p.Child("spec", "ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	return errs
}

// validatePodSpec mirrors ValidatePodSpec for a template (no pod
// metadata), in its order.
func validatePodSpec(rel kubeversion.Release, s *v1.PodSpec, p *field.Path, opts podOptions) field.ErrorList {
	errs := field.ErrorList{}
	if s.TerminationGracePeriodSeconds == nil {
		errs = append(errs, field.Required(p.Child("terminationGracePeriodSeconds"), ""))
	}
	vols, vErrs := validateVolumes(s.Volumes, p.Child("volumes"))
	errs = append(errs, vErrs...)
	errs = append(errs, validateContainers(rel, s.Containers, vols, s.TerminationGracePeriodSeconds, p.Child("containers"), opts)...)
	errs = append(errs, validateInitContainers(rel, s.InitContainers, s.Containers, vols, p.Child("initContainers"), opts)...)
	errs = append(errs, validatePodHostNetworkDeps(s, p)...)
	errs = append(errs, validateRestartPolicy(s.RestartPolicy, p.Child("restartPolicy"))...)
	errs = append(errs, validateDNSPolicy(s.DNSPolicy, p.Child("dnsPolicy"))...)
	errs = append(errs, objectmeta.ValidateLabels(rel, s.NodeSelector, p.Child("nodeSelector"))...)
	errs = append(errs, validatePodSecurityContext(s.SecurityContext, p.Child("securityContext"))...)
	if s.ShareProcessNamespace != nil && s.HostPID && *s.ShareProcessNamespace {
		errs = append(errs, field.Invalid(p.Child("shareProcessNamespace"), *s.ShareProcessNamespace, "ShareProcessNamespace and HostPID cannot both be enabled"))
	}
	// validateImagePullSecrets: a LocalObjectReference has only a name in
	// v1, so nothing else can be set.
	errs = append(errs, validateAffinity(rel, s.Affinity, p.Child("affinity"))...)
	for i, g := range s.ReadinessGates {
		errs = append(errs, qualifiedNameErrs(string(g.ConditionType), p.Child("readinessGates").Index(i).Child("conditionType"))...)
	}
	seenGates := map[string]bool{}
	for i, g := range s.SchedulingGates {
		gp := p.Child("schedulingGates").Index(i)
		errs = append(errs, qualifiedNameErrs(g.Name, gp)...)
		if seenGates[g.Name] {
			errs = append(errs, field.Duplicate(gp, g.Name))
		}
		seenGates[g.Name] = true
	}
	errs = append(errs, validateTopologySpreadConstraints(rel, s.TopologySpreadConstraints, p.Child("topologySpreadConstraints"))...)
	if s.ServiceAccountName != "" {
		errs = append(errs, nameErrs(names.NameIsDNSSubdomain, s.ServiceAccountName, false, p.Child("serviceAccountName"))...)
	}
	if s.DeprecatedServiceAccount != s.ServiceAccountName {
		errs = append(errs, field.Invalid(p.Child("deprecatedServiceAccount"), s.DeprecatedServiceAccount, fmt.Sprintf("must be the same as serviceAccountName: %q", s.ServiceAccountName)))
	}
	if s.NodeName != "" {
		errs = append(errs, nameErrs(names.NameIsDNSSubdomain, s.NodeName, false, p.Child("nodeName"))...)
	}
	if s.ActiveDeadlineSeconds != nil {
		if v := *s.ActiveDeadlineSeconds; v < 1 || v > math.MaxInt32 {
			errs = append(errs, field.Invalid(p.Child("activeDeadlineSeconds"), v, inclusiveRangeError(1, math.MaxInt32)))
		}
	}
	if s.Hostname != "" {
		errs = append(errs, dns1123Label(s.Hostname, p.Child("hostname"))...)
	}
	if s.Subdomain != "" {
		errs = append(errs, dns1123Label(s.Subdomain, p.Child("subdomain"))...)
	}
	if len(s.Tolerations) > 0 {
		errs = append(errs, validateTolerations(rel, s.Tolerations, p.Child("tolerations"))...)
	}
	if s.PriorityClassName != "" {
		errs = append(errs, nameErrs(names.NameIsDNSSubdomain, s.PriorityClassName, false, p.Child("priorityClassName"))...)
	}
	return errs
}

func inclusiveRangeError(lo, hi int) string {
	return fmt.Sprintf("must be between %d and %d, inclusive", lo, hi)
}

// validateVolumes mirrors ValidateVolumes for the modelled sources: the
// names of the volumes that passed, and the errors.
func validateVolumes(vols []v1.Volume, p *field.Path) (map[string]*v1.VolumeSource, field.ErrorList) {
	errs := field.ErrorList{}
	all := map[string]*v1.VolumeSource{}
	for i := range vols {
		vol := &vols[i]
		idx := p.Index(i)
		namePath := idx.Child("name")
		el := validateVolumeSource(&vol.VolumeSource, idx)
		if vol.Name == "" {
			el = append(el, field.Required(namePath, ""))
		} else {
			el = append(el, dns1123Label(vol.Name, namePath)...)
		}
		if _, dup := all[vol.Name]; dup {
			el = append(el, field.Duplicate(namePath, vol.Name))
		}
		if len(el) == 0 {
			all[vol.Name] = &vol.VolumeSource
		} else {
			errs = append(errs, el...)
		}
	}
	return all, errs
}

// validateVolumeSource mirrors validateVolumeSource: one source only, in
// upstream's order of the sources, and each modelled source's rules.
func validateVolumeSource(s *v1.VolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	one := func(set bool, name string, check func() field.ErrorList) {
		if !set {
			return
		}
		if n > 0 {
			errs = append(errs, field.Forbidden(p.Child(name), "may not specify more than 1 volume type"))
			return
		}
		n++
		if check != nil {
			errs = append(errs, check()...)
		}
	}
	if s.EmptyDir != nil {
		n++
		if s.EmptyDir.SizeLimit != nil && s.EmptyDir.SizeLimit.Sign() < 0 {
			errs = append(errs, field.Forbidden(p.Child("emptyDir").Child("sizeLimit"), "SizeLimit field must be a valid resource quantity"))
		}
	}
	one(s.HostPath != nil, "hostPath", func() field.ErrorList { return validateHostPath(s.HostPath, p.Child("hostPath")) })
	one(s.GitRepo != nil, "gitRepo", nil)
	one(s.GCEPersistentDisk != nil, "gcePersistentDisk", nil)
	one(s.AWSElasticBlockStore != nil, "awsElasticBlockStore", nil)
	one(s.Secret != nil, "secret", func() field.ErrorList { return validateSecretVolume(s.Secret, p.Child("secret")) })
	one(s.NFS != nil, "nfs", nil)
	one(s.ISCSI != nil, "iscsi", nil)
	one(s.Glusterfs != nil, "glusterfs", nil)
	one(s.Flocker != nil, "flocker", nil)
	one(s.PersistentVolumeClaim != nil, "persistentVolumeClaim", func() field.ErrorList {
		if s.PersistentVolumeClaim.ClaimName == "" {
			return field.ErrorList{field.Required(p.Child("persistentVolumeClaim").Child("claimName"), "")}
		}
		return nil
	})
	one(s.RBD != nil, "rbd", nil)
	one(s.Quobyte != nil, "quobyte", nil)
	one(s.CephFS != nil, "cephFS", nil)
	// upstream's path of this error has the typo
	one(s.DownwardAPI != nil, "downwarAPI", func() field.ErrorList { return validateDownwardAPIVolume(s.DownwardAPI, p.Child("downwardAPI")) })
	one(s.FC != nil, "fc", nil)
	one(s.FlexVolume != nil, "flexVolume", nil)
	one(s.ConfigMap != nil, "configMap", func() field.ErrorList { return validateConfigMapVolume(s.ConfigMap, p.Child("configMap")) })
	one(s.AzureFile != nil, "azureFile", nil)
	one(s.VsphereVolume != nil, "vsphereVolume", nil)
	one(s.PhotonPersistentDisk != nil, "photonPersistentDisk", nil)
	one(s.Projected != nil, "projected", nil)
	one(s.PortworxVolume != nil, "portworxVolume", nil)
	one(s.AzureDisk != nil, "azureDisk", nil)
	one(s.ScaleIO != nil, "scaleIO", nil)
	one(s.StorageOS != nil, "storageos", nil)
	one(s.CSI != nil, "csi", nil)
	one(s.Ephemeral != nil, "ephemeral", nil)
	one(s.Image != nil, "image", nil)
	if n == 0 {
		errs = append(errs, field.Required(p, "must specify a volume type"))
	}
	return errs
}

var supportedHostPathTypes = []v1.HostPathType{"", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"}

func validateHostPath(h *v1.HostPathVolumeSource, p *field.Path) field.ErrorList {
	if h.Path == "" {
		return field.ErrorList{field.Required(p.Child("path"), "")}
	}
	errs := validatePathNoBacksteps(h.Path, p.Child("path"))
	if h.Type != nil && !contains(supportedHostPathTypes, *h.Type) {
		errs = append(errs, field.NotSupported(p.Child("type"), h.Type, supportedHostPathTypes))
	}
	return errs
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func validatePathNoBacksteps(target string, p *field.Path) field.ErrorList {
	for _, item := range strings.Split(target, "/") {
		if item == ".." {
			return field.ErrorList{field.Invalid(p, target, "must not contain '..'")}
		}
	}
	return nil
}

func validateLocalDescendingPath(target string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if path.IsAbs(target) {
		errs = append(errs, field.Invalid(p, target, "must be a relative path"))
	}
	return append(errs, validatePathNoBacksteps(target, p)...)
}

func validateKeyToPath(kp *v1.KeyToPath, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if kp.Key == "" {
		errs = append(errs, field.Required(p.Child("key"), ""))
	}
	errs = append(errs, validateItemPath(kp.Path, p.Child("path"))...)
	return append(errs, validateFileMode(kp.Mode, p.Child("mode"))...)
}

// validateItemPath is the check of a projected item's path that
// validateKeyToPath and validateDownwardAPIVolumeFile share upstream:
// required, relative without backsteps, not starting with "..".
func validateItemPath(target string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if target == "" {
		errs = append(errs, field.Required(p, ""))
	}
	errs = append(errs, validateLocalDescendingPath(target, p)...)
	if strings.HasPrefix(target, "..") && !strings.HasPrefix(target, "../") {
		errs = append(errs, field.Invalid(p, target, "must not start with '..'"))
	}
	return errs
}

// validateFileMode is the check of a volume's defaultMode and an item's
// mode: nil, or 0 to 0777.
func validateFileMode(m *int32, p *field.Path) field.ErrorList {
	if m != nil && (*m > 0777 || *m < 0) {
		return field.ErrorList{field.Invalid(p, *m, fileModeErrorMsg)}
	}
	return nil
}

func validateSecretVolume(s *v1.SecretVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.SecretName == "" {
		errs = append(errs, field.Required(p.Child("secretName"), ""))
	}
	errs = append(errs, validateFileMode(s.DefaultMode, p.Child("defaultMode"))...)
	for i := range s.Items {
		errs = append(errs, validateKeyToPath(&s.Items[i], p.Child("items").Index(i))...)
	}
	return errs
}

func validateConfigMapVolume(s *v1.ConfigMapVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	errs = append(errs, validateFileMode(s.DefaultMode, p.Child("defaultMode"))...)
	for i := range s.Items {
		errs = append(errs, validateKeyToPath(&s.Items[i], p.Child("items").Index(i))...)
	}
	return errs
}

// validateContainers mirrors validateContainers for regular containers.
func validateContainers(rel kubeversion.Release, cs []v1.Container, vols map[string]*v1.VolumeSource, gracePeriod *int64, p *field.Path, opts podOptions) field.ErrorList {
	errs := field.ErrorList{}
	if len(cs) == 0 {
		return append(errs, field.Required(p, ""))
	}
	seen := map[string]bool{}
	for i := range cs {
		c := &cs[i]
		cp := p.Index(i)
		errs = append(errs, validateContainerCommon(rel, c, vols, cp, opts)...)
		if seen[c.Name] {
			errs = append(errs, field.Duplicate(cp.Child("name"), c.Name))
		} else {
			seen[c.Name] = true
		}
		if c.Lifecycle != nil {
			errs = append(errs, validateLifecycle(c.Lifecycle, gracePeriod, cp.Child("lifecycle"))...)
		}
		errs = append(errs, validateProbe(c.LivenessProbe, gracePeriod, cp.Child("livenessProbe"), true, false)...)
		errs = append(errs, validateProbe(c.ReadinessProbe, gracePeriod, cp.Child("readinessProbe"), false, true)...)
		errs = append(errs, validateProbe(c.StartupProbe, gracePeriod, cp.Child("startupProbe"), true, false)...)
	}
	return append(errs, checkHostPortConflicts(cs, p)...)
}

// checkHostPortConflicts mirrors the function of the same name.
func checkHostPortConflicts(cs []v1.Container, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	ports := map[string]bool{}
	for ci := range cs {
		for pi, port := range cs[ci].Ports {
			if port.HostPort == 0 {
				continue
			}
			s := fmt.Sprintf("%s/%s/%d", port.Protocol, port.HostIP, port.HostPort)
			if ports[s] {
				errs = append(errs, field.Duplicate(p.Index(ci).Child("ports").Index(pi).Child("hostPort"), s))
			} else {
				ports[s] = true
			}
		}
	}
	return errs
}

// validateInitContainers mirrors validateInitContainers for init
// containers without a restartPolicy (sidecars are not modelled:
// podUnmodelled reports their restartPolicy): names unique among all
// containers, no lifecycle or probes.
func validateInitContainers(rel kubeversion.Release, cs, regular []v1.Container, vols map[string]*v1.VolumeSource, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for _, c := range regular {
		names[c.Name] = true
	}
	for i := range cs {
		c := &cs[i]
		ip := p.Index(i)
		errs = append(errs, validateContainerCommon(rel, c, vols, ip, opts)...)
		if names[c.Name] {
			errs = append(errs, field.Duplicate(ip.Child("name"), c.Name))
		} else if c.Name != "" {
			names[c.Name] = true
		}
		// upstream checks each init container alone, as a list of one:
		// its errors name index 0
		errs = append(errs, checkHostPortConflicts(cs[i:i+1], p)...)
		const forbidden = "may not be set for init containers without restartPolicy=Always"
		if c.Lifecycle != nil {
			errs = append(errs, field.Forbidden(ip.Child("lifecycle"), forbidden))
		}
		if c.LivenessProbe != nil {
			errs = append(errs, field.Forbidden(ip.Child("livenessProbe"), forbidden))
		}
		if c.ReadinessProbe != nil {
			errs = append(errs, field.Forbidden(ip.Child("readinessProbe"), forbidden))
		}
		if c.StartupProbe != nil {
			errs = append(errs, field.Forbidden(ip.Child("startupProbe"), forbidden))
		}
	}
	return errs
}

var (
	supportedTerminationMessagePolicies = []v1.TerminationMessagePolicy{v1.TerminationMessageReadFile, v1.TerminationMessageFallbackToLogsOnError}
	supportedPortProtocols              = []v1.Protocol{v1.ProtocolSCTP, v1.ProtocolTCP, v1.ProtocolUDP}
	supportedPullPolicies               = []v1.PullPolicy{v1.PullAlways, v1.PullIfNotPresent, v1.PullNever}
	supportedHTTPSchemes                = []v1.URIScheme{v1.URISchemeHTTP, v1.URISchemeHTTPS}
	supportedRestartPolicies            = []v1.RestartPolicy{v1.RestartPolicyAlways, v1.RestartPolicyOnFailure, v1.RestartPolicyNever}
	supportedDNSPolicies                = []v1.DNSPolicy{v1.DNSClusterFirstWithHostNet, v1.DNSClusterFirst, v1.DNSDefault, v1.DNSNone}
	validVolumeFieldPaths               = []string{"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"}
	validEnvFieldPaths                  = []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}
)

// validateContainerCommon mirrors validateContainerCommon.
func validateContainerCommon(rel kubeversion.Release, c *v1.Container, vols map[string]*v1.VolumeSource, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	namePath := p.Child("name")
	if c.Name == "" {
		errs = append(errs, field.Required(namePath, ""))
	} else {
		errs = append(errs, dns1123Label(c.Name, namePath)...)
	}
	if c.Image == "" {
		errs = append(errs, field.Required(p.Child("image"), ""))
	}
	switch c.TerminationMessagePolicy {
	case v1.TerminationMessageReadFile, v1.TerminationMessageFallbackToLogsOnError:
	case "":
		errs = append(errs, field.Required(p.Child("terminationMessagePolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("terminationMessagePolicy"), c.TerminationMessagePolicy, supportedTerminationMessagePolicies))
	}
	errs = append(errs, validateContainerPorts(c.Ports, p.Child("ports"))...)
	errs = append(errs, validateEnv(c.Env, p.Child("env"), opts)...)
	errs = append(errs, validateEnvFrom(c.EnvFrom, p.Child("envFrom"), opts)...)
	errs = append(errs, validateVolumeMounts(c.VolumeMounts, vols, p.Child("volumeMounts"))...)
	switch c.ImagePullPolicy {
	case v1.PullAlways, v1.PullIfNotPresent, v1.PullNever:
	case "":
		errs = append(errs, field.Required(p.Child("imagePullPolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("imagePullPolicy"), c.ImagePullPolicy, supportedPullPolicies))
	}
	errs = append(errs, validateResources(rel, &c.Resources, p.Child("resources"))...)
	errs = append(errs, validateSecurityContext(c.SecurityContext, p.Child("securityContext"))...)
	return errs
}

func validateContainerPorts(ports []v1.ContainerPort, p *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	seen := map[string]bool{}
	for i, port := range ports {
		idx := p.Index(i)
		if port.Name != "" {
			if msgs := isValidPortName(port.Name); len(msgs) != 0 {
				for _, msg := range msgs {
					errs = append(errs, field.Invalid(idx.Child("name"), port.Name, msg))
				}
			} else if seen[port.Name] {
				errs = append(errs, field.Duplicate(idx.Child("name"), port.Name))
			} else {
				seen[port.Name] = true
			}
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.Required(idx.Child("containerPort"), ""))
		} else if !validPortNum(int64(port.ContainerPort)) {
			errs = append(errs, field.Invalid(idx.Child("containerPort"), port.ContainerPort, inclusiveRangeError(1, 65535)))
		}
		if port.HostPort != 0 && !validPortNum(int64(port.HostPort)) {
			errs = append(errs, field.Invalid(idx.Child("hostPort"), port.HostPort, inclusiveRangeError(1, 65535)))
		}
		if port.Protocol == "" {
			errs = append(errs, field.Required(idx.Child("protocol"), ""))
		} else if !contains(supportedPortProtocols, port.Protocol) {
			errs = append(errs, field.NotSupported(idx.Child("protocol"), port.Protocol, supportedPortProtocols))
		}
	}
	return errs
}

func validPortNum(n int64) bool { return n >= 1 && n <= 65535 }

func envVarNameErrs(name string, opts podOptions) []string {
	if opts.relaxedEnvVarNames {
		return names.IsRelaxedEnvVarName(name)
	}
	return names.IsEnvVarName(name)
}

func validateEnv(vars []v1.EnvVar, p *field.Path, opts podOptions) field.ErrorList {
	errs := field.ErrorList{}
	for i, ev := range vars {
		idx := p.Index(i)
		if ev.Name == "" {
			errs = append(errs, field.Required(idx.Child("name"), ""))
		} else {
			for _, msg := range envVarNameErrs(ev.Name, opts) {
				errs = append(errs, field.Invalid(idx.Child("name"), ev.Name, msg))
			}
		}
		errs = append(errs, validateEnvVarValueFrom(ev, idx.Child("valueFrom"))...)
	}
	return errs
}

func validateEnvVarValueFrom(ev v1.EnvVar, p *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	vf := ev.ValueFrom
	if vf == nil {
		return errs
	}
	n := 0
	if vf.FieldRef != nil {
		n++
		errs = append(errs, validateObjectFieldSelector(vf.FieldRef, validEnvFieldPaths, p.Child("fieldRef"))...)
	}
	if vf.ResourceFieldRef != nil {
		n++
	}
	if vf.ConfigMapKeyRef != nil {
		n++
		errs = append(errs, validateKeySelector(vf.ConfigMapKeyRef.Name, vf.ConfigMapKeyRef.Key, p.Child("configMapKeyRef"))...)
	}
	if vf.SecretKeyRef != nil {
		n++
		errs = append(errs, validateKeySelector(vf.SecretKeyRef.Name, vf.SecretKeyRef.Key, p.Child("secretKeyRef"))...)
	}
	if vf.FileKeyRef != nil {
		n++
	}
	switch {
	case n == 0:
		errs = append(errs, field.Invalid(p, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
	case ev.Value != "":
		errs = append(errs, field.Invalid(p, "", "may not be specified when `value` is not empty"))
	case n > 1:
		errs = append(errs, field.Invalid(p, "", "may not have more than one field specified at a time"))
	}
	return errs
}

// validateObjectFieldSelector mirrors validateObjectFieldSelector for the
// v1 field paths of env vars (ConvertDownwardAPIFieldLabel of v1 is the
// identity for the paths it accepts).
func validateObjectFieldSelector(fs *v1.ObjectFieldSelector, expressions []string, p *field.Path) field.ErrorList {
	if fs.APIVersion == "" {
		return field.ErrorList{field.Required(p.Child("apiVersion"), "")}
	}
	if fs.FieldPath == "" {
		return field.ErrorList{field.Required(p.Child("fieldPath"), "")}
	}
	if fs.APIVersion != "v1" {
		return field.ErrorList{field.Invalid(p.Child("fieldPath"), fs.FieldPath, fmt.Sprintf("error converting fieldPath: %v", fmt.Errorf("unsupported pod version: %s", fs.APIVersion)))}
	}
	fp := fs.FieldPath
	if base, sub, ok := splitSubscript(fp); ok {
		switch base {
		case "metadata.annotations":
			return qualifiedNameErrs(strings.ToLower(sub), p)
		case "metadata.labels":
			return qualifiedNameErrs(sub, p)
		}
		return field.ErrorList{field.Invalid(p.Child("fieldPath"), fp, fmt.Sprintf("error converting fieldPath: %v", fmt.Errorf("field label not supported: %s", fp)))}
	}
	switch fp {
	case "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid",
		"spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
		"status.phase", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs":
	default:
		return field.ErrorList{field.Invalid(p.Child("fieldPath"), fp, fmt.Sprintf("error converting fieldPath: %v", fmt.Errorf("field label not supported: %s", fp)))}
	}
	if !contains(expressions, fp) {
		return field.ErrorList{field.NotSupported(p.Child("fieldPath"), fp, expressions)}
	}
	return nil
}

// splitSubscript mirrors fieldpath.SplitMaybeSubscriptedPath.
func splitSubscript(fp string) (string, string, bool) {
	if !strings.HasSuffix(fp, "']") {
		return fp, "", false
	}
	s := strings.TrimSuffix(fp, "']")
	parts := strings.SplitN(s, "['", 2)
	if len(parts) < 2 || len(parts[0]) == 0 {
		return fp, "", false
	}
	return parts[0], parts[1], true
}

func qualifiedNameErrs(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range names.IsQualifiedName(v) {
		errs = append(errs, field.Invalid(p, v, msg))
	}
	return errs
}

func validateKeySelector(name, key string, p *field.Path) field.ErrorList {
	errs := nameErrs(names.NameIsDNSSubdomain, name, false, p.Child("name"))
	if key == "" {
		errs = append(errs, field.Required(p.Child("key"), ""))
	} else {
		for _, msg := range names.IsConfigMapKey(key) {
			errs = append(errs, field.Invalid(p.Child("key"), key, msg))
		}
	}
	return errs
}

func validateEnvFrom(vars []v1.EnvFromSource, p *field.Path, opts podOptions) field.ErrorList {
	errs := field.ErrorList{}
	for i, ev := range vars {
		idx := p.Index(i)
		if ev.Prefix != "" {
			for _, msg := range envVarNameErrs(ev.Prefix, opts) {
				errs = append(errs, field.Invalid(idx.Child("prefix"), ev.Prefix, msg))
			}
		}
		n := 0
		if ev.ConfigMapRef != nil {
			n++
			errs = append(errs, validateEnvSourceName(ev.ConfigMapRef.Name, idx.Child("configMapRef"))...)
		}
		if ev.SecretRef != nil {
			n++
			errs = append(errs, validateEnvSourceName(ev.SecretRef.Name, idx.Child("secretRef"))...)
		}
		if n == 0 {
			errs = append(errs, field.Invalid(p, "", "must specify one of: `configMapRef` or `secretRef`"))
		} else if n > 1 {
			errs = append(errs, field.Invalid(p, "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}

func validateEnvSourceName(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p.Child("name"), "")}
	}
	return nameErrs(names.NameIsDNSSubdomain, name, true, p.Child("name"))
}

func validateVolumeMounts(mounts []v1.VolumeMount, vols map[string]*v1.VolumeSource, p *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	points := map[string]bool{}
	for i, m := range mounts {
		idx := p.Index(i)
		if m.Name == "" {
			errs = append(errs, field.Required(idx.Child("name"), ""))
		}
		if _, ok := vols[m.Name]; !ok {
			errs = append(errs, field.NotFound(idx.Child("name"), m.Name))
		}
		if m.MountPath == "" {
			errs = append(errs, field.Required(idx.Child("mountPath"), ""))
		}
		if points[m.MountPath] {
			errs = append(errs, field.Invalid(idx.Child("mountPath"), m.MountPath, "must be unique"))
		}
		points[m.MountPath] = true
		if m.SubPath != "" {
			// upstream names the list's path, not the item's
			errs = append(errs, validateLocalDescendingPath(m.SubPath, p.Child("subPath"))...)
		}
	}
	return errs
}

// validateProbe mirrors validateLivenessProbe, validateReadinessProbe and
// validateStartupProbe (successOne: the success threshold must be 1;
// readiness: no terminationGracePeriodSeconds).
func validateProbe(pr *v1.Probe, gracePeriod *int64, p *field.Path, successOne, readiness bool) field.ErrorList {
	errs := field.ErrorList{}
	if pr == nil {
		return errs
	}
	errs = append(errs, validateHandler(probeHandler(&pr.ProbeHandler), gracePeriod, p)...)
	errs = append(errs, objectmeta.ValidateNonnegativeField(int64(pr.InitialDelaySeconds), p.Child("initialDelaySeconds"))...)
	errs = append(errs, objectmeta.ValidateNonnegativeField(int64(pr.TimeoutSeconds), p.Child("timeoutSeconds"))...)
	errs = append(errs, objectmeta.ValidateNonnegativeField(int64(pr.PeriodSeconds), p.Child("periodSeconds"))...)
	errs = append(errs, objectmeta.ValidateNonnegativeField(int64(pr.SuccessThreshold), p.Child("successThreshold"))...)
	errs = append(errs, objectmeta.ValidateNonnegativeField(int64(pr.FailureThreshold), p.Child("failureThreshold"))...)
	if t := pr.TerminationGracePeriodSeconds; t != nil && *t <= 0 {
		errs = append(errs, field.Invalid(p.Child("terminationGracePeriodSeconds"), *t, "must be greater than 0"))
	}
	if successOne && pr.SuccessThreshold != 1 {
		errs = append(errs, field.Invalid(p.Child("successThreshold"), pr.SuccessThreshold, "must be 1"))
	}
	if readiness && pr.TerminationGracePeriodSeconds != nil {
		errs = append(errs, field.Invalid(p.Child("terminationGracePeriodSeconds"), *pr.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
	}
	return errs
}

// handler is upstream's commonHandler: a probe's or a lifecycle hook's
// action (grpc only in probes, sleep only in hooks).
type handler struct {
	exec      *v1.ExecAction
	httpGet   *v1.HTTPGetAction
	tcpSocket *v1.TCPSocketAction
	grpc      *v1.GRPCAction
	sleep     *v1.SleepAction
}

func probeHandler(h *v1.ProbeHandler) handler {
	return handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, grpc: h.GRPC}
}

func lifecycleHandler(h *v1.LifecycleHandler) handler {
	return handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, sleep: h.Sleep}
}

// validateHandler mirrors validateHandler: exactly one of exec, httpGet,
// tcpSocket, grpc, sleep, each checked (grpc's rules are not modelled:
// podUnmodelled reports it).
func validateHandler(h handler, gracePeriod *int64, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	one := func(set bool, name string, check func() field.ErrorList) {
		if !set {
			return
		}
		if n > 0 {
			errs = append(errs, field.Forbidden(p.Child(name), "may not specify more than 1 handler type"))
			return
		}
		n++
		if check != nil {
			errs = append(errs, check()...)
		}
	}
	one(h.exec != nil, "exec", func() field.ErrorList {
		if len(h.exec.Command) == 0 {
			return field.ErrorList{field.Required(p.Child("exec").Child("command"), "")}
		}
		return nil
	})
	one(h.httpGet != nil, "httpGet", func() field.ErrorList { return validateHTTPGet(h.httpGet, p.Child("httpGet")) })
	one(h.tcpSocket != nil, "tcpSocket", func() field.ErrorList {
		return validatePortNumOrName(h.tcpSocket.Port, p.Child("tcpSocket").Child("port"))
	})
	one(h.grpc != nil, "grpc", nil)
	one(h.sleep != nil, "sleep", func() field.ErrorList {
		if g := gracePeriod; g != nil && (h.sleep.Seconds < 0 || h.sleep.Seconds > *g) {
			return field.ErrorList{field.Invalid(p.Child("sleep"), h.sleep.Seconds, fmt.Sprintf("must be non-negative and less than terminationGracePeriodSeconds (%d)", *g))}
		}
		return nil
	})
	if n == 0 {
		errs = append(errs, field.Required(p, "must specify a handler type"))
	}
	return errs
}

// validateLifecycle mirrors validateLifecycle (stopSignal is not
// modelled: podUnmodelled reports it).
func validateLifecycle(l *v1.Lifecycle, gracePeriod *int64, p *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	if l.PostStart != nil {
		errs = append(errs, validateHandler(lifecycleHandler(l.PostStart), gracePeriod, p.Child("postStart"))...)
	}
	if l.PreStop != nil {
		errs = append(errs, validateHandler(lifecycleHandler(l.PreStop), gracePeriod, p.Child("preStop"))...)
	}
	return errs
}

func validateHTTPGet(h *v1.HTTPGetAction, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if h.Path == "" {
		errs = append(errs, field.Required(p.Child("path"), ""))
	}
	errs = append(errs, validatePortNumOrName(h.Port, p.Child("port"))...)
	if !contains(supportedHTTPSchemes, h.Scheme) {
		errs = append(errs, field.NotSupported(p.Child("scheme"), h.Scheme, supportedHTTPSchemes))
	}
	for _, hd := range h.HTTPHeaders {
		if !httpHeaderNameRE(hd.Name) {
			errs = append(errs, field.Invalid(p.Child("httpHeaders"), hd.Name, names.RegexError("a valid HTTP header must consist of alphanumeric characters or '-'", "[-A-Za-z0-9]+", "X-Header-Name")))
		}
	}
	return errs
}

func httpHeaderNameRE(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func validatePortNumOrName(port v1.IntOrString, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !port.IsString() {
		if !validPortNum(int64(port.IntVal)) {
			errs = append(errs, field.Invalid(p, int64(port.IntVal), inclusiveRangeError(1, 65535)))
		}
		return errs
	}
	for _, msg := range isValidPortName(port.StrVal) {
		errs = append(errs, field.Invalid(p, port.StrVal, msg))
	}
	return errs
}

func validateRestartPolicy(r v1.RestartPolicy, p *field.Path) field.ErrorList {
	switch r {
	case v1.RestartPolicyAlways, v1.RestartPolicyOnFailure, v1.RestartPolicyNever:
		return nil
	case "":
		return field.ErrorList{field.Required(p, "")}
	}
	return field.ErrorList{field.NotSupported(p, r, supportedRestartPolicies)}
}

func validateDNSPolicy(d v1.DNSPolicy, p *field.Path) field.ErrorList {
	switch d {
	case v1.DNSClusterFirstWithHostNet, v1.DNSClusterFirst, v1.DNSDefault, v1.DNSNone:
		return nil
	case "":
		return field.ErrorList{field.Required(p, "")}
	}
	return field.ErrorList{field.NotSupported(p, d, supportedDNSPolicies)}
}

func validatePodHostNetworkDeps(s *v1.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !s.HostNetwork {
		return errs
	}
	for i, c := range s.Containers {
		for j, port := range c.Ports {
			if hp, cp := port.HostPort, port.ContainerPort; hp != 0 && hp != cp {
				errs = append(errs, field.Invalid(p.Child("containers").Index(i).Child("ports").Index(j).Child("hostPort"), port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}

func idErrs(v int64, p *field.Path) field.ErrorList {
	if v < 0 || v > math.MaxInt32 {
		return field.ErrorList{field.Invalid(p, v, inclusiveRangeError(0, math.MaxInt32))}
	}
	return nil
}

// validatePodSecurityContext mirrors validatePodSpecSecurityContext for
// the modelled fields.
func validatePodSecurityContext(sc *v1.PodSecurityContext, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if sc == nil {
		return errs
	}
	if sc.FSGroup != nil {
		errs = append(errs, idErrs(*sc.FSGroup, p.Child("fsGroup"))...)
	}
	if sc.RunAsUser != nil {
		errs = append(errs, idErrs(*sc.RunAsUser, p.Child("runAsUser"))...)
	}
	if sc.RunAsGroup != nil {
		errs = append(errs, idErrs(*sc.RunAsGroup, p.Child("runAsGroup"))...)
	}
	for i, g := range sc.SupplementalGroups {
		errs = append(errs, idErrs(g, p.Child("supplementalGroups").Index(i))...)
	}
	return errs
}

// validateSecurityContext mirrors ValidateSecurityContext for the modelled
// fields; privileged containers are allowed (crdlab assumes the API
// server runs with --allow-privileged=true, as kubeadm, kind and the
// managed offerings configure it).
func validateSecurityContext(sc *v1.SecurityContext, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if sc == nil {
		return errs
	}
	if sc.RunAsUser != nil {
		errs = append(errs, idErrs(*sc.RunAsUser, p.Child("runAsUser"))...)
	}
	if sc.RunAsGroup != nil {
		errs = append(errs, idErrs(*sc.RunAsGroup, p.Child("runAsGroup"))...)
	}
	if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		if sc.Privileged != nil && *sc.Privileged {
			errs = append(errs, field.Invalid(p, internalSecurityContext(sc), "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
		}
		if sc.Capabilities != nil {
			for _, c := range sc.Capabilities.Add {
				if string(c) == "CAP_SYS_ADMIN" {
					errs = append(errs, field.Invalid(p, internalSecurityContext(sc), "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
				}
			}
		}
	}
	return errs
}

// tolerationOperators are the operators validateTolerations accepts (the
// numeric Lt and Gt are not modelled: podUnmodelled reports them).
var tolerationOperators = []v1.TolerationOperator{"Equal", "Exists"}

func validateTolerations(rel kubeversion.Release, ts []v1.Toleration, p *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	for i, t := range ts {
		idx := p.Index(i)
		if t.Key != "" {
			errs = append(errs, objectmeta.ValidateLabelName(rel, t.Key, idx.Child("key"))...)
		}
		if t.Key == "" && t.Operator != "Exists" {
			errs = append(errs, field.Invalid(idx.Child("operator"), t.Operator, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != "NoExecute" {
			errs = append(errs, field.Invalid(idx.Child("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case "Equal", "":
			if msgs := names.IsValidLabelValueAt(rel, t.Value); len(msgs) != 0 {
				errs = append(errs, field.Invalid(idx.Child("operator"), t.Value, strings.Join(msgs, ";")))
			}
		case "Exists":
			if t.Value != "" {
				errs = append(errs, field.Invalid(idx.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			errs = append(errs, field.NotSupported(idx.Child("operator"), t.Operator, tolerationOperators))
		}
		if t.Effect != "" {
			switch t.Effect {
			case "NoSchedule", "PreferNoSchedule", "NoExecute":
			default:
				errs = append(errs, field.NotSupported(idx.Child("effect"), t.Effect, []v1.TaintEffect{"NoSchedule", "PreferNoSchedule", "NoExecute"}))
			}
		}
	}
	return errs
}

// internalSecurityContext is a container's security context as upstream's
// error renders it: the internal type, which has no JSON tags (Go field
// names, nil pointers as null).
func internalSecurityContext(sc *v1.SecurityContext) interface{} {
	type capabilities struct{ Add, Drop []v1.Capability }
	var caps *capabilities
	if sc.Capabilities != nil {
		caps = &capabilities{Add: sc.Capabilities.Add, Drop: sc.Capabilities.Drop}
	}
	return struct {
		Capabilities             *capabilities
		Privileged               *bool
		SELinuxOptions           *struct{}
		WindowsOptions           *struct{}
		RunAsUser                *int64
		RunAsGroup               *int64
		RunAsNonRoot             *bool
		ReadOnlyRootFilesystem   *bool
		AllowPrivilegeEscalation *bool
		ProcMount                *v1.ProcMountType
		SeccompProfile           *struct{}
		AppArmorProfile          *struct{}
	}{Capabilities: caps, Privileged: sc.Privileged, RunAsUser: sc.RunAsUser, RunAsGroup: sc.RunAsGroup,
		RunAsNonRoot: sc.RunAsNonRoot, ReadOnlyRootFilesystem: sc.ReadOnlyRootFilesystem,
		AllowPrivilegeEscalation: sc.AllowPrivilegeEscalation, ProcMount: sc.ProcMount}
}

// The resource names of core's helper (pkg/apis/core/helper).
var (
	standardContainerResources = []string{"cpu", "memory", "ephemeral-storage"}
	standardResources          = []string{"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
		"limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services", "replicationcontrollers", "secrets",
		"configmaps", "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports", "services.loadbalancers"}
	integerResources = []string{"pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"}
)

func isHugePageResourceName(n string) bool { return strings.HasPrefix(n, "hugepages-") }

func isNativeResource(n string) bool {
	return !strings.Contains(n, "/") || strings.Contains(n, "kubernetes.io/")
}

func isExtendedResourceName(n string) bool {
	if isNativeResource(n) || strings.HasPrefix(n, "requests.") {
		return false
	}
	return len(names.IsQualifiedName("requests."+n)) == 0
}

func isOvercommitAllowed(n string) bool { return isNativeResource(n) && !isHugePageResourceName(n) }

func isIntegerResourceName(n string) bool {
	return contains(integerResources, n) || isExtendedResourceName(n)
}

// validateContainerResourceName mirrors ValidateContainerResourceName.
func validateContainerResourceName(rel kubeversion.Release, n string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range names.IsQualifiedNameAt(rel, n) {
		errs = append(errs, field.Invalid(p, n, msg))
	}
	if len(errs) == 0 && !strings.Contains(n, "/") && !contains(standardResources, n) && !strings.HasPrefix(n, "requests.hugepages-") {
		errs = append(errs, field.Invalid(p, n, "must be a standard resource type or fully qualified"))
	}
	if !strings.Contains(n, "/") {
		if !contains(standardContainerResources, n) && !isHugePageResourceName(n) {
			return append(errs, field.Invalid(p, n, "must be a standard resource for containers"))
		}
	} else if !isNativeResource(n) && !isExtendedResourceName(n) {
		return append(errs, field.Invalid(p, n, "doesn't follow extended resource name standard"))
	}
	return errs
}

// milliFractional is value.MilliValue()%1000 != 0: the quantity, rounded
// up to milli-units, is not a whole number.
func milliFractional(q v1.Quantity) bool {
	m := math.Ceil(q.Float64() * 1000)
	return math.Mod(m, 1000) != 0
}

func validateResourceQuantity(n string, q v1.Quantity, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if q.Sign() < 0 {
		errs = append(errs, field.Invalid(p, q.String(), objectmeta.IsNegativeErrorMsg))
	}
	if isIntegerResourceName(n) && milliFractional(q) {
		errs = append(errs, field.Invalid(p, q, isNotIntegerErrorMsg))
	}
	return errs
}

// validateResources mirrors validateResourceRequirements for a container
// (limits, then requests against the limits; keys sorted, where upstream
// ranges over the maps).
func validateResources(rel kubeversion.Release, r *v1.ResourceRequirements, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	limPath, reqPath := p.Child("limits"), p.Child("requests")
	for _, k := range sortedKeys(r.Limits) {
		fp := limPath.Key(k)
		errs = append(errs, validateContainerResourceName(rel, k, fp)...)
		errs = append(errs, validateResourceQuantity(k, r.Limits[v1.ResourceName(k)], fp)...)
	}
	for _, k := range sortedKeys(r.Requests) {
		q := r.Requests[v1.ResourceName(k)]
		fp := reqPath.Key(k)
		errs = append(errs, validateContainerResourceName(rel, k, fp)...)
		errs = append(errs, validateResourceQuantity(k, q, fp)...)
		if lim, ok := r.Limits[v1.ResourceName(k)]; ok {
			if q.Cmp(lim) != 0 && !isOvercommitAllowed(k) {
				errs = append(errs, field.Invalid(reqPath, q.String(), fmt.Sprintf("must be equal to %s limit of %s", k, lim.String())))
			} else if q.Cmp(lim) > 0 {
				errs = append(errs, field.Invalid(reqPath, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", k, lim.String())))
			}
		} else if !isOvercommitAllowed(k) {
			errs = append(errs, field.Required(limPath, "Limit must be set for non overcommitable resources"))
		}
	}
	return errs
}

// validateDownwardAPIVolume mirrors validateDownwardAPIVolumeSource for
// items with a fieldRef (a resourceFieldRef is not modelled:
// podUnmodelled reports it). Upstream names the items' errors under the
// source's path, without their index.
func validateDownwardAPIVolume(d *v1.DownwardAPIVolumeSource, p *field.Path) field.ErrorList {
	errs := validateFileMode(d.DefaultMode, p.Child("defaultMode"))
	for _, f := range d.Items {
		errs = append(errs, validateItemPath(f.Path, p.Child("path"))...)
		switch {
		case f.FieldRef != nil:
			errs = append(errs, validateObjectFieldSelector(f.FieldRef, validVolumeFieldPaths, p.Child("fieldRef"))...)
			if f.ResourceFieldRef != nil {
				errs = append(errs, field.Invalid(p, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
			}
		case f.ResourceFieldRef == nil:
			errs = append(errs, field.Required(p, "one of fieldRef and resourceFieldRef is required"))
		}
		errs = append(errs, validateFileMode(f.Mode, p.Child("mode"))...)
	}
	return errs
}

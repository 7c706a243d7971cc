package builtin

// The scheme defaults of a pod spec (pkg/apis/core/v1/defaults.go and the
// generated zz_generated.defaults.go walks of the kinds embedding a pod
// template), in upstream's order: SetDefaults_PodSpec, then each volume,
// init container, container and ephemeral container, then the overhead and
// pod-level resources.

import (
	"regexp"
	"strings"

	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
)

// defaultPodSpec mirrors the generated defaulting of a pod spec embedded
// in a template (SetObjectDefaults_Deployment and its siblings).
func defaultPodSpec(s *v1.PodSpec) {
	setDefaultsPodSpec(s)
	for i := range s.Volumes {
		defaultVolume(&s.Volumes[i])
	}
	for i := range s.InitContainers {
		defaultContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		defaultContainer(&s.Containers[i])
	}
	for i := range s.EphemeralContainers {
		c := v1.Container(s.EphemeralContainers[i].EphemeralContainerCommon)
		defaultContainer(&c)
		s.EphemeralContainers[i].EphemeralContainerCommon = v1.EphemeralContainerCommon(c)
	}
}

// setDefaultsPodSpec mirrors SetDefaults_PodSpec.
func setDefaultsPodSpec(s *v1.PodSpec) {
	if s.ServiceAccountName == "" {
		s.ServiceAccountName = s.DeprecatedServiceAccount
	}
	s.DeprecatedServiceAccount = s.ServiceAccountName
	if s.DNSPolicy == "" {
		s.DNSPolicy = v1.DNSClusterFirst
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = v1.RestartPolicyAlways
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &v1.PodSecurityContext{}
	}
	if s.TerminationGracePeriodSeconds == nil {
		p := int64(v1.DefaultTerminationGracePeriodSeconds)
		s.TerminationGracePeriodSeconds = &p
	}
	if s.SchedulerName == "" {
		s.SchedulerName = v1.DefaultSchedulerName
	}
}

func defaultMode(m **int32) {
	if *m == nil {
		v := v1.DefaultVolumeMode
		*m = &v
	}
}

func defaultFieldRef(f *v1.ObjectFieldSelector) {
	if f != nil && f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}

// defaultVolume mirrors SetDefaults_Volume and the defaults of the volume
// sources (modes, a hostPath's type, the downward API's field references,
// a service account token's expiration, the legacy plugins' constants).
func defaultVolume(v *v1.Volume) {
	if volumeSourceEmpty(&v.VolumeSource) {
		v.VolumeSource = v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}
	}
	if img := v.Image; img != nil && img.PullPolicy == "" {
		img.PullPolicy = pullPolicyFor(img.Reference)
	}
	src := &v.VolumeSource
	if src.HostPath != nil && src.HostPath.Type == nil {
		t := v1.HostPathUnset
		src.HostPath.Type = &t
	}
	if src.Secret != nil {
		defaultMode(&src.Secret.DefaultMode)
	}
	if src.ISCSI != nil && src.ISCSI.ISCSIInterface == "" {
		src.ISCSI.ISCSIInterface = "default"
	}
	if r := src.RBD; r != nil {
		if r.RBDPool == "" {
			r.RBDPool = "rbd"
		}
		if r.RadosUser == "" {
			r.RadosUser = "admin"
		}
		if r.Keyring == "" {
			r.Keyring = "/etc/ceph/keyring"
		}
	}
	if d := src.DownwardAPI; d != nil {
		defaultMode(&d.DefaultMode)
		for i := range d.Items {
			defaultFieldRef(d.Items[i].FieldRef)
		}
	}
	if src.ConfigMap != nil {
		defaultMode(&src.ConfigMap.DefaultMode)
	}
	if a := src.AzureDisk; a != nil {
		if a.CachingMode == nil {
			m := v1.AzureDataDiskCachingMode("ReadWrite")
			a.CachingMode = &m
		}
		if a.FSType == nil {
			fs := "ext4"
			a.FSType = &fs
		}
		if a.ReadOnly == nil {
			ro := false
			a.ReadOnly = &ro
		}
		if a.Kind == nil {
			k := v1.AzureDataDiskKind("Shared")
			a.Kind = &k
		}
	}
	if p := src.Projected; p != nil {
		defaultMode(&p.DefaultMode)
		for i := range p.Sources {
			s := &p.Sources[i]
			if s.DownwardAPI != nil {
				for j := range s.DownwardAPI.Items {
					defaultFieldRef(s.DownwardAPI.Items[j].FieldRef)
				}
			}
			if t := s.ServiceAccountToken; t != nil && t.ExpirationSeconds == nil {
				hour := int64(3600)
				t.ExpirationSeconds = &hour
			}
		}
	}
	if s := src.ScaleIO; s != nil {
		if s.StorageMode == "" {
			s.StorageMode = "ThinProvisioned"
		}
		if s.FSType == "" {
			s.FSType = "xfs"
		}
	}
	if e := src.Ephemeral; e != nil && e.VolumeClaimTemplate != nil {
		spec := &e.VolumeClaimTemplate.Spec
		if spec.VolumeMode == nil {
			m := v1.PersistentVolumeMode("Filesystem")
			spec.VolumeMode = &m
		}
	}
}

// volumeSourceEmpty is ptr.AllPtrFieldsNil of a volume source.
func volumeSourceEmpty(s *v1.VolumeSource) bool {
	return *s == v1.VolumeSource{}
}

// defaultContainer mirrors SetDefaults_Container and the generated
// defaults of a container's ports, env, probes and lifecycle handlers.
func defaultContainer(c *v1.Container) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = pullPolicyFor(c.Image)
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = v1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = v1.TerminationMessageReadFile
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = v1.ProtocolTCP
		}
	}
	for i := range c.Env {
		if vf := c.Env[i].ValueFrom; vf != nil {
			defaultFieldRef(vf.FieldRef)
			if vf.FileKeyRef != nil && vf.FileKeyRef.Optional == nil {
				f := false
				vf.FileKeyRef.Optional = &f
			}
		}
	}
	for _, p := range []*v1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p == nil {
			continue
		}
		defaultProbe(p)
	}
	if l := c.Lifecycle; l != nil {
		for _, h := range []*v1.LifecycleHandler{l.PostStart, l.PreStop} {
			if h != nil && h.HTTPGet != nil {
				defaultHTTPGet(h.HTTPGet)
			}
		}
	}
}

// defaultProbe mirrors SetDefaults_Probe and its handlers' defaults.
func defaultProbe(p *v1.Probe) {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	if p.HTTPGet != nil {
		defaultHTTPGet(p.HTTPGet)
	}
	if p.GRPC != nil && p.GRPC.Service == nil {
		s := ""
		p.GRPC.Service = &s
	}
}

// defaultHTTPGet mirrors SetDefaults_HTTPGetAction.
func defaultHTTPGet(h *v1.HTTPGetAction) {
	if h.Path == "" {
		h.Path = "/"
	}
	if h.Scheme == "" {
		h.Scheme = v1.URISchemeHTTP
	}
}

// pullPolicyFor is SetDefaults_Container's choice: Always for an image
// whose tag is latest (or that has neither tag nor digest), IfNotPresent
// otherwise, and for an image name that does not parse.
func pullPolicyFor(image string) v1.PullPolicy {
	if tag, ok := imageTag(image); ok && tag == "latest" {
		return v1.PullAlways
	}
	return v1.PullIfNotPresent
}

// referenceRE is the grammar of a container image reference
// (github.com/distribution/reference): an optional domain, lowercase path
// components, an optional tag and an optional digest.
var referenceRE = regexp.MustCompile(`^` +
	`((?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[(?:[a-fA-F0-9:]+)\])(?::[0-9]+)?/)?` +
	`([a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*)*)` +
	`(?::([\w][\w.-]{0,127}))?` +
	`(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$`)

var anchoredIdentifierRE = regexp.MustCompile(`^[a-f0-9]{64}$`)

// digestHexLength is the hex length of the digest algorithms go-digest
// registers.
var digestHexLength = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}

// imageTag mirrors the kubelet's parsers.ParseImageName (over
// reference.ParseNormalizedNamed): the tag, "latest" when the reference
// has neither tag nor digest; ok is false when the name does not parse.
func imageTag(image string) (tag string, ok bool) {
	if anchoredIdentifierRE.MatchString(image) {
		return "", false
	}
	// splitDockerDomain: a first component without '.' or ':' that is not
	// localhost and is lowercase is a path, not a domain.
	remainder := image
	if i := strings.IndexRune(image, '/'); i >= 0 {
		first := image[:i]
		if strings.ContainsAny(first, ".:") || first == "localhost" || strings.ToLower(first) != first {
			remainder = image[i+1:]
		}
	}
	remote, _, _ := strings.Cut(remainder, ":")
	if strings.ToLower(remote) != remote {
		// "repository name must be lowercase"
		return "", false
	}
	m := referenceRE.FindStringSubmatch(image)
	if m == nil {
		return "", false
	}
	name := m[1] + m[2]
	if len(name) > 255 {
		return "", false
	}
	if d := m[4]; d != "" {
		alg, hex, _ := strings.Cut(d, ":")
		if n, known := digestHexLength[alg]; !known || len(hex) != n || strings.ToLower(hex) != hex {
			return "", false
		}
	}
	if m[3] == "" && m[4] == "" {
		return "latest", true
	}
	return m[3], true
}

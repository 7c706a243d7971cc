package v1

import "github.com/crdlab/crdlab/internal/objectmeta"

// Meta returns the object's metadata.
func (o *Deployment) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// Meta returns the object's metadata.
func (o *ReplicaSet) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// Meta returns the object's metadata.
func (o *DaemonSet) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// The enumerations and defaults of core/v1's pod spec and apps/v1's
// workloads that crdlab's defaulting and validation use.
const (
	PullAlways       PullPolicy = "Always"
	PullNever        PullPolicy = "Never"
	PullIfNotPresent PullPolicy = "IfNotPresent"

	TerminationMessagePathDefault                                    = "/dev/termination-log"
	TerminationMessageReadFile              TerminationMessagePolicy = "File"
	TerminationMessageFallbackToLogsOnError TerminationMessagePolicy = "FallbackToLogsOnError"

	RestartPolicyAlways    RestartPolicy = "Always"
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	RestartPolicyNever     RestartPolicy = "Never"

	DNSClusterFirstWithHostNet DNSPolicy = "ClusterFirstWithHostNet"
	DNSClusterFirst            DNSPolicy = "ClusterFirst"
	DNSDefault                 DNSPolicy = "Default"
	DNSNone                    DNSPolicy = "None"

	DefaultSchedulerName                 = "default-scheduler"
	DefaultTerminationGracePeriodSeconds = 30

	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"

	URISchemeHTTP  URIScheme = "HTTP"
	URISchemeHTTPS URIScheme = "HTTPS"

	HostPathUnset HostPathType = ""

	// The default modes of secret, configMap, downwardAPI and projected
	// volumes (0644).
	DefaultVolumeMode int32 = 0644

	RecreateDeploymentStrategyType      DeploymentStrategyType = "Recreate"
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate"
)

// Meta returns the object's metadata.
func (o *Job) Meta() *objectmeta.ObjectMeta { return &o.ObjectMeta }

// DeprecatedTemplateGeneration is the annotation apps/v1 DaemonSet carries
// its internal spec.templateGeneration in.
const DeprecatedTemplateGeneration = "deprecated.daemonset.template.generation"

// The DaemonSet update strategies.
const (
	RollingUpdateDaemonSetStrategyType DaemonSetUpdateStrategyType = "RollingUpdate"
	OnDeleteDaemonSetStrategyType      DaemonSetUpdateStrategyType = "OnDelete"
)

// The labels and modes of batch/v1 Jobs.
const (
	LegacyJobNameLabel       = "job-name"
	LegacyControllerUidLabel = "controller-uid"
	JobNameLabel             = "batch.kubernetes.io/job-name"
	ControllerUidLabel       = "batch.kubernetes.io/controller-uid"

	NonIndexedCompletion CompletionMode = "NonIndexed"
	IndexedCompletion    CompletionMode = "Indexed"

	TerminatingOrFailed PodReplacementPolicy = "TerminatingOrFailed"
	Failed              PodReplacementPolicy = "Failed"
)

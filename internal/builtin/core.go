package builtin

// The core/v1 kinds validated natively: their scheme defaults
// (pkg/apis/core/v1/defaults.go), conversion quirks (a Secret's
// stringData), registry strategies (pkg/registry/core/<kind>/strategy.go)
// and validation (pkg/apis/core/validation/validation.go), release by
// release where they differ.

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

var metadataPath = field.NewPath("metadata")

// validateObjectMeta mirrors core validation's ValidateObjectMeta: the
// generic ObjectMeta rules with the kind's name rule, then each finalizer
// is a standard name or qualified (validateKubeFinalizerName).
func validateObjectMeta(rel kubeversion.Release, m *objectmeta.ObjectMeta, namespaced bool, nameFn names.ValidateNameFunc) field.ErrorList {
	errs := objectmeta.ValidateObjectMetaAt(rel, m, namespaced, nameFn, metadataPath)
	for i, f := range m.Finalizers {
		errs = append(errs, validateKubeFinalizerName(f, metadataPath.Child("finalizers").Index(i))...)
	}
	return errs
}

// validateObjectMetaUpdate mirrors core validation's ValidateObjectMetaUpdate.
func validateObjectMetaUpdate(rel kubeversion.Release, m, old *objectmeta.ObjectMeta) field.ErrorList {
	errs := objectmeta.ValidateObjectMetaUpdateAt(rel, m, old, metadataPath)
	for i, f := range m.Finalizers {
		errs = append(errs, validateKubeFinalizerName(f, metadataPath.Child("finalizers").Index(i))...)
	}
	return errs
}

// validateKubeFinalizerName mirrors the function of the same name: an
// unqualified finalizer must be a standard one.
func validateKubeFinalizerName(name string, p *field.Path) field.ErrorList {
	if strings.Contains(name, "/") {
		return nil
	}
	switch name {
	case objectmeta.FinalizerKubernetes, objectmeta.FinalizerOrphanDependents, objectmeta.FinalizerDeleteDependents:
		return nil
	}
	return field.ErrorList{field.Invalid(p, name, "name is neither a standard finalizer name nor is it fully qualified")}
}

// validateFinalizerName mirrors core validation's validateFinalizerName (a
// namespace's spec.finalizers).
func validateFinalizerName(rel kubeversion.Release, name string, p *field.Path) field.ErrorList {
	errs := objectmeta.ValidateFinalizerName(rel, name, p)
	return append(errs, validateKubeFinalizerName(name, p)...)
}

// sortedKeys returns a map's keys in order. Upstream ranges over Go maps:
// errors of several keys come in a random order there; crdlab sorts them.
func sortedKeys[K ~string, V any](m map[K]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, string(k))
	}
	sort.Strings(out)
	return out
}

// validateDataKeys mirrors the key loop of ValidateConfigMap and
// ValidateSecret (IsConfigMapKey); it returns the total size of the values.
func validateDataKeys[V string | []byte](p *field.Path, data map[string]V, other map[string][]byte, otherMsg string) (field.ErrorList, int) {
	var errs field.ErrorList
	total := 0
	for _, k := range sortedKeys(data) {
		for _, msg := range names.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(p.Key(k), k, msg))
		}
		if _, dup := other[k]; dup {
			errs = append(errs, field.Invalid(p.Key(k), k, otherMsg))
		}
		total += len(data[k])
	}
	return errs, total
}

// immutableForbidden is the detail of a change to an immutable ConfigMap or
// Secret.
const immutableForbidden = "field is immutable when `immutable` is set"

// configMapStrategy is pkg/registry/core/configmap's strategy.
type configMapStrategy struct{}

func (configMapStrategy) NamespaceScoped() bool { return true }
func (configMapStrategy) New() Object           { return &v1.ConfigMap{} }

// Decoded mirrors SetDefaults_ConfigMap: an empty data map (which the
// encoding omits, but an immutable ConfigMap's update compares).
func (configMapStrategy) Decoded(o Object) {
	if cm := o.(*v1.ConfigMap); cm.Data == nil {
		cm.Data = map[string]string{}
	}
}
func (configMapStrategy) PrepareForCreate(Object)      {}
func (configMapStrategy) PrepareForUpdate(_, _ Object) {}
func (configMapStrategy) Canonicalize(Object)          {}
func (configMapStrategy) WarningsOnCreate(kubeversion.Release, Object) []string {
	return nil
}
func (configMapStrategy) WarningsOnUpdate(kubeversion.Release, Object, Object) []string {
	return nil
}

// Validate mirrors ValidateConfigMap.
func (configMapStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	cm := o.(*v1.ConfigMap)
	errs := validateObjectMeta(rel, &cm.ObjectMeta, true, names.NameIsDNSSubdomain)
	dataErrs, size := validateDataKeys(field.NewPath("data"), cm.Data, cm.BinaryData, "duplicate of key present in binaryData")
	errs = append(errs, dataErrs...)
	binErrs, binSize := validateDataKeys(field.NewPath("binaryData"), cm.BinaryData, nil, "")
	errs = append(errs, binErrs...)
	if size+binSize > v1.MaxSecretSize {
		errs = append(errs, field.TooLong(field.NewPath(""), "", v1.MaxSecretSize))
	}
	return errs
}

// ValidateUpdate mirrors ValidateConfigMapUpdate.
func (s configMapStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	cm, oldCM := o.(*v1.ConfigMap), old.(*v1.ConfigMap)
	errs := validateObjectMetaUpdate(rel, &cm.ObjectMeta, &oldCM.ObjectMeta)
	if oldCM.Immutable != nil && *oldCM.Immutable {
		if cm.Immutable == nil || !*cm.Immutable {
			errs = append(errs, field.Forbidden(field.NewPath("immutable"), immutableForbidden))
		}
		if !equalMaps(cm.Data, oldCM.Data) {
			errs = append(errs, field.Forbidden(field.NewPath("data"), immutableForbidden))
		}
		if !equalMaps(cm.BinaryData, oldCM.BinaryData) {
			errs = append(errs, field.Forbidden(field.NewPath("binaryData"), immutableForbidden))
		}
	}
	return append(errs, s.Validate(rel, o)...)
}

// equalMaps is reflect.DeepEqual of two maps, as upstream compares them
// (nil and empty differ).
func equalMaps[V any](a, b map[string]V) bool { return reflect.DeepEqual(a, b) }

// secretStrategy is pkg/registry/core/secret's strategy.
type secretStrategy struct{}

func (secretStrategy) NamespaceScoped() bool { return true }
func (secretStrategy) New() Object           { return &v1.Secret{} }

// Decoded mirrors SetDefaults_Secret (type Opaque) and the v1 → internal
// conversion, which writes stringData over data.
func (secretStrategy) Decoded(o Object) {
	s := o.(*v1.Secret)
	if s.Type == "" {
		s.Type = v1.SecretTypeOpaque
	}
	if len(s.StringData) > 0 {
		if s.Data == nil {
			s.Data = make(map[string][]byte, len(s.StringData))
		}
		for k, v := range s.StringData {
			s.Data[k] = []byte(v)
		}
	}
	s.StringData = nil
}
func (secretStrategy) PrepareForCreate(Object) {}

// PrepareForUpdate keeps the old type when the new object has none.
func (secretStrategy) PrepareForUpdate(o, old Object) {
	if s := o.(*v1.Secret); s.Type == "" {
		s.Type = old.(*v1.Secret).Type
	}
}
func (secretStrategy) Canonicalize(Object) {}

// WarningsOnCreate mirrors warningsForSecret: a kubernetes.io/tls Secret
// whose key pair does not load warns with crypto/tls's error.
func (secretStrategy) WarningsOnCreate(rel kubeversion.Release, o Object) []string {
	return warningsForSecret(o.(*v1.Secret))
}
func (secretStrategy) WarningsOnUpdate(_ kubeversion.Release, o, _ Object) []string {
	return warningsForSecret(o.(*v1.Secret))
}

func warningsForSecret(s *v1.Secret) []string {
	if s.Type != v1.SecretTypeTLS {
		return nil
	}
	if _, err := tls.X509KeyPair(s.Data[v1.TLSCertKey], s.Data[v1.TLSPrivateKeyKey]); err != nil {
		return []string{err.Error()}
	}
	return nil
}

// Validate mirrors ValidateSecret.
func (secretStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	s := o.(*v1.Secret)
	errs := validateObjectMeta(rel, &s.ObjectMeta, true, names.NameIsDNSSubdomain)
	dataPath := field.NewPath("data")
	keyErrs, size := validateDataKeys(dataPath, s.Data, nil, "")
	errs = append(errs, keyErrs...)
	if size > v1.MaxSecretSize {
		errs = append(errs, field.TooLong(dataPath, "", v1.MaxSecretSize))
	}
	switch s.Type {
	case v1.SecretTypeServiceAccountToken:
		if s.ObjectMeta.Annotations[v1.ServiceAccountNameKey] == "" {
			errs = append(errs, field.Required(metadataPath.Child("annotations").Key(v1.ServiceAccountNameKey), ""))
		}
	case v1.SecretTypeDockercfg, v1.SecretTypeDockerConfigJSON:
		key := v1.DockerConfigKey
		if s.Type == v1.SecretTypeDockerConfigJSON {
			key = v1.DockerConfigJSONKey
		}
		b, ok := s.Data[key]
		if !ok {
			errs = append(errs, field.Required(dataPath.Key(key), ""))
			break
		}
		if err := json.Unmarshal(b, &map[string]interface{}{}); err != nil {
			errs = append(errs, field.Invalid(dataPath.Key(key), "<secret contents redacted>", err.Error()))
		}
	case v1.SecretTypeBasicAuth:
		_, user := s.Data[v1.BasicAuthUsernameKey]
		_, pass := s.Data[v1.BasicAuthPasswordKey]
		if !user && !pass {
			errs = append(errs, field.Required(dataPath.Key(v1.BasicAuthUsernameKey), ""),
				field.Required(dataPath.Key(v1.BasicAuthPasswordKey), ""))
		}
	case v1.SecretTypeSSHAuth:
		if len(s.Data[v1.SSHAuthPrivateKey]) == 0 {
			errs = append(errs, field.Required(dataPath.Key(v1.SSHAuthPrivateKey), ""))
		}
	case v1.SecretTypeTLS:
		if _, ok := s.Data[v1.TLSCertKey]; !ok {
			errs = append(errs, field.Required(dataPath.Key(v1.TLSCertKey), ""))
		}
		if _, ok := s.Data[v1.TLSPrivateKeyKey]; !ok {
			errs = append(errs, field.Required(dataPath.Key(v1.TLSPrivateKeyKey), ""))
		}
	}
	return errs
}

// ValidateUpdate mirrors ValidateSecretUpdate.
func (st secretStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	s, oldS := o.(*v1.Secret), old.(*v1.Secret)
	errs := validateObjectMetaUpdate(rel, &s.ObjectMeta, &oldS.ObjectMeta)
	if s.Type != oldS.Type {
		errs = append(errs, field.Invalid(field.NewPath("type"), s.Type, "field is immutable"))
	}
	if oldS.Immutable != nil && *oldS.Immutable {
		if s.Immutable == nil || !*s.Immutable {
			errs = append(errs, field.Forbidden(field.NewPath("immutable"), immutableForbidden))
		}
		if !equalMaps(s.Data, oldS.Data) {
			errs = append(errs, field.Forbidden(field.NewPath("data"), immutableForbidden))
		}
	}
	return append(errs, st.Validate(rel, o)...)
}

// namespaceStrategy is pkg/registry/core/namespace's strategy.
type namespaceStrategy struct{}

func (namespaceStrategy) NamespaceScoped() bool { return false }
func (namespaceStrategy) New() Object           { return &v1.Namespace{} }

// Decoded mirrors SetDefaults_Namespace (the kubernetes.io/metadata.name
// label, for a named namespace) and SetDefaults_NamespaceStatus (phase
// Active).
func (namespaceStrategy) Decoded(o Object) {
	ns := o.(*v1.Namespace)
	if ns.ObjectMeta.Name != "" {
		setNameLabel(ns)
	}
	if ns.Status.Phase == "" {
		ns.Status.Phase = v1.NamespaceActive
	}
}

func setNameLabel(ns *v1.Namespace) {
	if ns.ObjectMeta.Labels == nil {
		ns.ObjectMeta.Labels = map[string]string{}
	}
	ns.ObjectMeta.Labels[v1.LabelMetadataName] = ns.ObjectMeta.Name
}

// PrepareForCreate: the status is phase Active, and the kubernetes
// finalizer is added when missing.
func (namespaceStrategy) PrepareForCreate(o Object) {
	ns := o.(*v1.Namespace)
	ns.Status = v1.NamespaceStatus{Phase: v1.NamespaceActive}
	for _, f := range ns.Spec.Finalizers {
		if f == v1.FinalizerKubernetes {
			return
		}
	}
	ns.Spec.Finalizers = append(ns.Spec.Finalizers, v1.FinalizerKubernetes)
}

// PrepareForUpdate keeps the old finalizers and status.
func (namespaceStrategy) PrepareForUpdate(o, old Object) {
	ns, oldNS := o.(*v1.Namespace), old.(*v1.Namespace)
	ns.Spec.Finalizers = oldNS.Spec.Finalizers
	ns.Status = oldNS.Status
}

// Canonicalize sets the kubernetes.io/metadata.name label (a generated
// name has one now).
func (namespaceStrategy) Canonicalize(o Object) { setNameLabel(o.(*v1.Namespace)) }

func (namespaceStrategy) WarningsOnCreate(kubeversion.Release, Object) []string { return nil }
func (namespaceStrategy) WarningsOnUpdate(kubeversion.Release, Object, Object) []string {
	return nil
}

// Validate mirrors ValidateNamespace.
func (namespaceStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	ns := o.(*v1.Namespace)
	errs := validateObjectMeta(rel, &ns.ObjectMeta, false, names.ValidateNamespaceName)
	for _, f := range ns.Spec.Finalizers {
		errs = append(errs, validateFinalizerName(rel, string(f), field.NewPath("spec", "finalizers"))...)
	}
	return errs
}

// ValidateUpdate mirrors the strategy's ValidateUpdate: ValidateNamespace
// then ValidateNamespaceUpdate.
func (s namespaceStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	errs := s.Validate(rel, o)
	return append(errs, validateObjectMetaUpdate(rel, o.Meta(), old.Meta())...)
}

// serviceAccountStrategy is pkg/registry/core/serviceaccount's strategy.
type serviceAccountStrategy struct{}

func (serviceAccountStrategy) NamespaceScoped() bool { return true }
func (serviceAccountStrategy) New() Object           { return &v1.ServiceAccount{} }
func (serviceAccountStrategy) Decoded(Object)        {}

// PrepareForCreate mirrors cleanSecretReferences: each secret reference
// keeps only its name.
func (serviceAccountStrategy) PrepareForCreate(o Object) {
	cleanSecretReferences(o.(*v1.ServiceAccount))
}
func (serviceAccountStrategy) PrepareForUpdate(o, _ Object) {
	cleanSecretReferences(o.(*v1.ServiceAccount))
}
func (serviceAccountStrategy) Canonicalize(Object) {}

func cleanSecretReferences(sa *v1.ServiceAccount) {
	for i, s := range sa.Secrets {
		sa.Secrets[i] = v1.ObjectReference{Name: s.Name}
	}
}

// enforceMountableSecrets is the deprecated annotation of the
// ServiceAccount admission plugin.
const enforceMountableSecrets = "kubernetes.io/enforce-mountable-secrets"

// WarningsOnCreate mirrors warnIfHasEnforceMountableSecretsAnnotation (1.32+).
func (serviceAccountStrategy) WarningsOnCreate(rel kubeversion.Release, o Object) []string {
	return mountableSecretsWarning(rel, o.(*v1.ServiceAccount), nil)
}
func (serviceAccountStrategy) WarningsOnUpdate(rel kubeversion.Release, o, old Object) []string {
	return mountableSecretsWarning(rel, o.(*v1.ServiceAccount), old.(*v1.ServiceAccount))
}

func mountableSecretsWarning(rel kubeversion.Release, sa, old *v1.ServiceAccount) []string {
	if !rel.Has(kubeversion.MountableSecretsWarning) {
		return nil
	}
	if old != nil {
		if _, ok := old.ObjectMeta.Annotations[enforceMountableSecrets]; ok {
			return nil
		}
	}
	if _, ok := sa.ObjectMeta.Annotations[enforceMountableSecrets]; ok {
		return []string{fmt.Sprintf("metadata.annotations[%s]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets", enforceMountableSecrets)}
	}
	return nil
}

// Validate mirrors ValidateServiceAccount.
func (serviceAccountStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	return validateObjectMeta(rel, o.Meta(), true, names.NameIsDNSSubdomain)
}

// ValidateUpdate mirrors ValidateServiceAccountUpdate.
func (s serviceAccountStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	errs := validateObjectMetaUpdate(rel, o.Meta(), old.Meta())
	return append(errs, s.Validate(rel, o)...)
}

package builtin

// storage.k8s.io/v1 StorageClass: its scheme defaults
// (pkg/apis/storage/v1/defaults.go), registry strategy
// (pkg/registry/storage/storageclass), validation
// (pkg/apis/storage/validation), warnings (pkg/api/storage
// GetWarningsForStorageClass) and declarative validation (storage/v1's
// tags, enforced from 1.37).

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// The bounds on a StorageClass's parameters.
const (
	maxProvisionerParameterSize = 256 * (1 << 10)
	maxProvisionerParameterLen  = 512
)

// storageClassStrategy is pkg/registry/storage/storageclass's strategy.
type storageClassStrategy struct{}

func (storageClassStrategy) NamespaceScoped() bool { return false }
func (storageClassStrategy) New() Object           { return &v1.StorageClass{} }

// Decoded mirrors SetDefaults_StorageClass: reclaimPolicy Delete,
// volumeBindingMode Immediate.
func (storageClassStrategy) Decoded(o Object) {
	sc := o.(*v1.StorageClass)
	if sc.ReclaimPolicy == nil {
		p := v1.PersistentVolumeReclaimDelete
		sc.ReclaimPolicy = &p
	}
	if sc.VolumeBindingMode == nil {
		m := v1.VolumeBindingImmediate
		sc.VolumeBindingMode = &m
	}
}

func (storageClassStrategy) PrepareForCreate(Object)      {}
func (storageClassStrategy) PrepareForUpdate(_, _ Object) {}
func (storageClassStrategy) Canonicalize(Object)          {}

// WarningsOnCreate mirrors GetWarningsForStorageClass: a deprecated node
// label as an allowed topology's key.
func (storageClassStrategy) WarningsOnCreate(_ kubeversion.Release, o Object) []string {
	return storageClassWarnings(o.(*v1.StorageClass))
}

// WarningsOnUpdate is WarningsOnCreate's.
func (storageClassStrategy) WarningsOnUpdate(_ kubeversion.Release, o, _ Object) []string {
	return storageClassWarnings(o.(*v1.StorageClass))
}

func storageClassWarnings(sc *v1.StorageClass) []string {
	var ws []string
	for i, t := range sc.AllowedTopologies {
		for j, e := range t.MatchLabelExpressions {
			if msg, ok := deprecatedNodeLabels[e.Key]; ok {
				p := field.NewPath("allowedTopologies").Index(i).Child("matchLabelExpressions").Index(j).Child("key")
				ws = append(ws, fmt.Sprintf("%s: %s", p, msg))
			}
		}
	}
	return ws
}

// Validate mirrors ValidateStorageClass.
func (storageClassStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	sc := o.(*v1.StorageClass)
	errs := validateObjectMeta(rel, &sc.ObjectMeta, false, names.NameIsDNSSubdomain)
	p := field.NewPath("provisioner")
	if sc.Provisioner == "" {
		errs = append(errs, field.Required(p, ""))
	} else {
		lower := strings.ToLower(sc.Provisioner)
		for _, msg := range names.IsQualifiedNameAt(rel, lower) {
			errs = append(errs, field.Invalid(p, lower, msg))
		}
	}
	errs = append(errs, validateProvisionerParameters(sc.Parameters)...)
	if rp := sc.ReclaimPolicy; rp != nil && *rp != "" && *rp != v1.PersistentVolumeReclaimDelete && *rp != v1.PersistentVolumeReclaimRetain {
		errs = append(errs, field.NotSupported(field.NewPath("reclaimPolicy"), rp, []string{"Delete", "Retain"}))
	}
	if m := sc.VolumeBindingMode; m == nil {
		errs = append(errs, field.Required(field.NewPath("volumeBindingMode"), ""))
	} else if *m != v1.VolumeBindingImmediate && *m != v1.VolumeBindingWaitForFirstConsumer {
		errs = append(errs, field.NotSupported(field.NewPath("volumeBindingMode"), m, []string{"Immediate", "WaitForFirstConsumer"}))
	}
	return append(errs, validateAllowedTopologies(rel, sc.AllowedTopologies)...)
}

// validateProvisionerParameters mirrors validateParameters (empty allowed).
func validateProvisionerParameters(params map[string]string) field.ErrorList {
	p := field.NewPath("parameters")
	errs := field.ErrorList{}
	if len(params) > maxProvisionerParameterLen {
		return append(errs, field.TooLong(p, "", maxProvisionerParameterLen))
	}
	var total int64
	for _, k := range sortedKeys(params) {
		if k == "" {
			errs = append(errs, field.Invalid(p, k, "field can not be empty."))
		}
		total += int64(len(k)) + int64(len(params[k]))
	}
	if total > maxProvisionerParameterSize {
		errs = append(errs, field.TooLong(p, "", maxProvisionerParameterSize))
	}
	return errs
}

// topologyTerm is a term in raw form: each key's set of values.
type topologyTerm map[string]map[string]bool

// key is a canonical text of the term: equal terms (Semantic.DeepEqual)
// have equal keys.
func (t topologyTerm) key() string {
	var b strings.Builder
	for _, k := range sortedKeys(t) {
		b.WriteString(strconv.Quote(k))
		b.WriteByte(':')
		for _, v := range sortedKeys(t[k]) {
			b.WriteString(strconv.Quote(v))
			b.WriteByte(',')
		}
		b.WriteByte(';')
	}
	return b.String()
}

// maxTopologyDuplicates bounds the Duplicate errors of allowedTopologies.
// Upstream compares each term with every earlier one and with one nil
// placeholder per term, which an empty term equals: n empty terms give
// about 1.5·n² errors (a 3 MiB body of them holds a million), and the API
// server runs out of time or memory. Past the bound crdlab stops with one
// internal error naming the field.
const maxTopologyDuplicates = 100000

// validateAllowedTopologies mirrors validateAllowedTopologies: each term,
// then a Duplicate for each earlier term it equals. Upstream starts its
// list of earlier terms with one nil entry per term, which a term without
// expressions equals (Semantic.DeepEqual equates nil and empty maps).
// Equal terms are counted by their key rather than compared pairwise.
func validateAllowedTopologies(rel kubeversion.Release, terms []v1.TopologySelectorTerm) field.ErrorList {
	errs := field.ErrorList{}
	if len(terms) == 0 {
		return errs
	}
	p := field.NewPath("allowedTopologies")
	seen := map[string]int{"": len(terms)}
	dups := 0
	for i, term := range terms {
		m, termErrs := validateTopologySelectorTerm(rel, term, p.Index(i))
		errs = append(errs, termErrs...)
		k := m.key()
		n := seen[k]
		if dups+n > maxTopologyDuplicates {
			return append(errs, field.InternalError(p, fmt.Errorf("more than %d duplicate terms: crdlab stops where kube-apiserver runs out of time or memory", maxTopologyDuplicates)))
		}
		dups += n
		for j := 0; j < n; j++ {
			errs = append(errs, field.Duplicate(p.Index(i).Child("matchLabelExpressions"), ""))
		}
		seen[k] = n + 1
	}
	return errs
}

// validateTopologySelectorTerm mirrors core validation's
// ValidateTopologySelectorTerm and validateTopologySelectorLabelRequirement.
func validateTopologySelectorTerm(rel kubeversion.Release, term v1.TopologySelectorTerm, p *field.Path) (topologyTerm, field.ErrorList) {
	var errs field.ErrorList
	m := topologyTerm{}
	for i, req := range term.MatchLabelExpressions {
		at := p.Child("matchLabelExpressions").Index(i)
		values := map[string]bool{}
		if len(req.Values) == 0 {
			errs = append(errs, field.Required(at.Child("values"), ""))
		}
		for j, v := range req.Values {
			if values[v] {
				errs = append(errs, field.Duplicate(at.Child("values").Index(j), v))
			}
			values[v] = true
		}
		errs = append(errs, objectmeta.ValidateLabelName(rel, req.Key, at.Child("key"))...)
		if _, dup := m[req.Key]; dup {
			errs = append(errs, field.Duplicate(at.Child("key"), req.Key))
		}
		m[req.Key] = values
	}
	return m, errs
}

// ValidateUpdate mirrors the strategy's: the new class, the metadata
// update, then the immutable fields.
func (s storageClassStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	sc, oldSC := o.(*v1.StorageClass), old.(*v1.StorageClass)
	errs := s.Validate(rel, o)
	errs = append(errs, validateObjectMetaUpdate(rel, &sc.ObjectMeta, &oldSC.ObjectMeta)...)
	if !equalStringMaps(sc.Parameters, oldSC.Parameters) {
		errs = append(errs, field.Invalid(field.NewPath("parameters"), sc.Parameters, "field is immutable"))
	}
	if sc.Provisioner != oldSC.Provisioner {
		errs = append(errs, field.Invalid(field.NewPath("provisioner"), sc.Provisioner, "field is immutable"))
	}
	if !equalPtr(sc.ReclaimPolicy, oldSC.ReclaimPolicy) {
		errs = append(errs, field.Invalid(field.NewPath("reclaimPolicy"), sc.ReclaimPolicy, "field is immutable"))
	}
	if !equalPtr(sc.VolumeBindingMode, oldSC.VolumeBindingMode) {
		errs = append(errs, field.Invalid(field.NewPath("volumeBindingMode"), sc.VolumeBindingMode, "field is immutable"))
	}
	return errs
}

// Declarative: from 1.37, provisioner required; on update, provisioner,
// parameters, reclaimPolicy and volumeBindingMode immutable — in the
// fields' order, each field skipped when unchanged.
func (storageClassStrategy) Declarative(rel kubeversion.Release, o, old Object) field.ErrorList {
	if !rel.Has(kubeversion.StorageClassDeclarative) {
		return nil
	}
	sc := o.(*v1.StorageClass)
	var oldSC *v1.StorageClass
	if old != nil {
		oldSC = old.(*v1.StorageClass)
	}
	var errs field.ErrorList
	immutable := func(name string) {
		errs = append(errs, field.Invalid(field.NewPath(name), nil, "field is immutable"))
	}
	if oldSC == nil || sc.Provisioner != oldSC.Provisioner {
		if sc.Provisioner == "" {
			errs = append(errs, field.Required(field.NewPath("provisioner"), ""))
		}
		if oldSC != nil {
			immutable("provisioner")
		}
	}
	if oldSC == nil {
		return errs
	}
	if !equalStringMaps(sc.Parameters, oldSC.Parameters) {
		immutable("parameters")
	}
	if !equalPtr(sc.ReclaimPolicy, oldSC.ReclaimPolicy) {
		immutable("reclaimPolicy")
	}
	if !equalPtr(sc.VolumeBindingMode, oldSC.VolumeBindingMode) {
		immutable("volumeBindingMode")
	}
	return errs
}

// equalStringMaps is Semantic.DeepEqual of two string maps (nil and empty
// alike).
func equalStringMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// equalPtr compares two pointers' targets (nil equal only to nil).
func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

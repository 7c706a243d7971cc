package builtin

// networking.k8s.io/v1 NetworkPolicy: its scheme defaults
// (pkg/apis/networking/v1/defaults.go), registry strategy
// (pkg/registry/networking/networkpolicy), validation
// (pkg/apis/networking/validation) and declarative validation (an
// ipBlock's cidr required, enforced from 1.37).

import (
	"reflect"
	"regexp"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
)

// networkPolicyStrategy is pkg/registry/networking/networkpolicy's strategy.
type networkPolicyStrategy struct{}

func (networkPolicyStrategy) NamespaceScoped() bool { return true }
func (networkPolicyStrategy) New() Object           { return &v1.NetworkPolicy{} }

// Decoded mirrors SetDefaults_NetworkPolicyPort (protocol TCP) and
// SetDefaults_NetworkPolicy (policyTypes Ingress, and Egress when there
// are egress rules).
func (networkPolicyStrategy) Decoded(o Object) {
	np := o.(*v1.NetworkPolicy)
	defaultPorts := func(ports []v1.NetworkPolicyPort) {
		for i := range ports {
			if ports[i].Protocol == nil {
				tcp := v1.ProtocolTCP
				ports[i].Protocol = &tcp
			}
		}
	}
	for i := range np.Spec.Ingress {
		defaultPorts(np.Spec.Ingress[i].Ports)
	}
	for i := range np.Spec.Egress {
		defaultPorts(np.Spec.Egress[i].Ports)
	}
	if len(np.Spec.PolicyTypes) == 0 {
		np.Spec.PolicyTypes = []v1.PolicyType{v1.PolicyTypeIngress}
		if len(np.Spec.Egress) != 0 {
			np.Spec.PolicyTypes = append(np.Spec.PolicyTypes, v1.PolicyTypeEgress)
		}
	}
}

// PrepareForCreate sets the generation to 1.
func (networkPolicyStrategy) PrepareForCreate(o Object) { o.Meta().Generation = 1 }

// PrepareForUpdate bumps the generation when the spec changes.
func (networkPolicyStrategy) PrepareForUpdate(o, old Object) {
	np, oldNP := o.(*v1.NetworkPolicy), old.(*v1.NetworkPolicy)
	if !reflect.DeepEqual(np.Spec, oldNP.Spec) {
		np.ObjectMeta.Generation = oldNP.ObjectMeta.Generation + 1
	}
}

func (networkPolicyStrategy) Canonicalize(Object) {}

// WarningsOnCreate mirrors networkPolicyWarnings (1.33+): CIDRs in a
// non-standard form.
func (networkPolicyStrategy) WarningsOnCreate(rel kubeversion.Release, o Object) []string {
	return networkPolicyWarnings(rel, o.(*v1.NetworkPolicy))
}

// WarningsOnUpdate is WarningsOnCreate's.
func (networkPolicyStrategy) WarningsOnUpdate(rel kubeversion.Release, o, _ Object) []string {
	return networkPolicyWarnings(rel, o.(*v1.NetworkPolicy))
}

func networkPolicyWarnings(rel kubeversion.Release, np *v1.NetworkPolicy) []string {
	if !rel.Has(kubeversion.CIDRWarnings) {
		return nil
	}
	var ws []string
	peers := func(dir, peer string, i int, list []v1.NetworkPolicyPeer) {
		for j, pe := range list {
			if pe.IPBlock == nil {
				continue
			}
			p := field.NewPath("spec").Child(dir).Index(i).Child(peer).Index(j).Child("ipBlock")
			ws = append(ws, warningsForCIDR(p.Child("cidr"), pe.IPBlock.CIDR)...)
			for k, e := range pe.IPBlock.Except {
				ws = append(ws, warningsForCIDR(p.Child("except").Index(k), e)...)
			}
		}
	}
	for i, r := range np.Spec.Ingress {
		peers("ingress", "from", i, r.From)
	}
	for i, r := range np.Spec.Egress {
		peers("egress", "to", i, r.To)
	}
	return ws
}

// networkPolicyOptions mirrors NetworkPolicyValidationOptions.
type networkPolicyOptions struct {
	selector LabelSelectorValidationOptions
	oldCIDRs []string
}

// Validate mirrors ValidateNetworkPolicy.
func (networkPolicyStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	np := o.(*v1.NetworkPolicy)
	errs := validateObjectMeta(rel, &np.ObjectMeta, true, names.NameIsDNSSubdomain)
	return append(errs, validateNetworkPolicySpec(rel, &np.Spec, networkPolicyOptions{})...)
}

// ValidateUpdate mirrors ValidateNetworkPolicyUpdate with
// ValidationOptionsForNetworking: label values allowed when the old pod
// selector had any selector error, the old CIDRs accepted as they are.
func (networkPolicyStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	np, oldNP := o.(*v1.NetworkPolicy), old.(*v1.NetworkPolicy)
	var opts networkPolicyOptions
	if len(ValidateLabelSelector(rel, &oldNP.Spec.PodSelector, LabelSelectorValidationOptions{}, nil)) > 0 {
		opts.selector.AllowInvalidLabelValueInSelector = true
	}
	collect := func(list []v1.NetworkPolicyPeer) {
		for _, pe := range list {
			if pe.IPBlock != nil {
				opts.oldCIDRs = append(opts.oldCIDRs, pe.IPBlock.CIDR)
				opts.oldCIDRs = append(opts.oldCIDRs, pe.IPBlock.Except...)
			}
		}
	}
	for _, r := range oldNP.Spec.Ingress {
		collect(r.From)
	}
	for _, r := range oldNP.Spec.Egress {
		collect(r.To)
	}
	errs := validateObjectMetaUpdate(rel, &np.ObjectMeta, &oldNP.ObjectMeta)
	return append(errs, validateNetworkPolicySpec(rel, &np.Spec, opts)...)
}

// validateNetworkPolicySpec mirrors ValidateNetworkPolicySpec.
func validateNetworkPolicySpec(rel kubeversion.Release, spec *v1.NetworkPolicySpec, opts networkPolicyOptions) field.ErrorList {
	p := field.NewPath("spec")
	errs := ValidateLabelSelector(rel, &spec.PodSelector, opts.selector, p.Child("podSelector"))
	for i, r := range spec.Ingress {
		at := p.Child("ingress").Index(i)
		for j := range r.Ports {
			errs = append(errs, validateNetworkPolicyPort(&r.Ports[j], at.Child("ports").Index(j))...)
		}
		for j := range r.From {
			errs = append(errs, validateNetworkPolicyPeer(rel, &r.From[j], opts, at.Child("from").Index(j))...)
		}
	}
	for i, r := range spec.Egress {
		at := p.Child("egress").Index(i)
		for j := range r.Ports {
			errs = append(errs, validateNetworkPolicyPort(&r.Ports[j], at.Child("ports").Index(j))...)
		}
		for j := range r.To {
			errs = append(errs, validateNetworkPolicyPeer(rel, &r.To[j], opts, at.Child("to").Index(j))...)
		}
	}
	if len(spec.PolicyTypes) > 2 {
		return append(errs, field.Invalid(p.Child("policyTypes"), spec.PolicyTypes, "may not specify more than two policyTypes"))
	}
	for i, t := range spec.PolicyTypes {
		if t != v1.PolicyTypeIngress && t != v1.PolicyTypeEgress {
			errs = append(errs, field.NotSupported(p.Child("policyTypes").Index(i), t, []string{"Ingress", "Egress"}))
		}
	}
	return errs
}

var (
	portNameCharset   = regexp.MustCompile("^[-a-z0-9]+$")
	portNameOneLetter = regexp.MustCompile("[a-z]")
)

// isValidPortNum mirrors util/validation's IsValidPortNum.
func isValidPortNum(port int) []string {
	if 1 <= port && port <= 65535 {
		return nil
	}
	return []string{"must be between 1 and 65535, inclusive"}
}

// isValidPortName mirrors util/validation's IsValidPortName.
func isValidPortName(port string) []string {
	var errs []string
	if len(port) > 15 {
		errs = append(errs, names.MaxLenError(15))
	}
	if !portNameCharset.MatchString(port) {
		errs = append(errs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !portNameOneLetter.MatchString(port) {
		errs = append(errs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(port, "--") {
		errs = append(errs, "must not contain consecutive hyphens")
	}
	if len(port) > 0 && (port[0] == '-' || port[len(port)-1] == '-') {
		errs = append(errs, "must not begin or end with a hyphen")
	}
	return errs
}

// validateNetworkPolicyPort mirrors ValidateNetworkPolicyPort.
func validateNetworkPolicyPort(port *v1.NetworkPolicyPort, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if pr := port.Protocol; pr != nil && *pr != v1.ProtocolTCP && *pr != v1.ProtocolUDP && *pr != v1.ProtocolSCTP {
		errs = append(errs, field.NotSupported(p.Child("protocol"), *pr, []string{"TCP", "UDP", "SCTP"}))
	}
	switch {
	case port.Port != nil && port.Port.Type == v1.Int:
		for _, msg := range isValidPortNum(int(port.Port.IntVal)) {
			errs = append(errs, field.Invalid(p.Child("port"), port.Port.IntVal, msg))
		}
		if port.EndPort != nil {
			if *port.EndPort < port.Port.IntVal {
				errs = append(errs, field.Invalid(p.Child("endPort"), *port.EndPort, "must be greater than or equal to `port`"))
			}
			for _, msg := range isValidPortNum(int(*port.EndPort)) {
				errs = append(errs, field.Invalid(p.Child("endPort"), *port.EndPort, msg))
			}
		}
	case port.Port != nil:
		if port.EndPort != nil {
			errs = append(errs, field.Invalid(p.Child("endPort"), *port.EndPort, "may not be specified when `port` is non-numeric"))
		}
		for _, msg := range isValidPortName(port.Port.StrVal) {
			errs = append(errs, field.Invalid(p.Child("port"), port.Port.StrVal, msg))
		}
	case port.EndPort != nil:
		errs = append(errs, field.Invalid(p.Child("endPort"), *port.EndPort, "may not be specified when `port` is not specified"))
	}
	return errs
}

// validateNetworkPolicyPeer mirrors ValidateNetworkPolicyPeer.
func validateNetworkPolicyPeer(rel kubeversion.Release, peer *v1.NetworkPolicyPeer, opts networkPolicyOptions, p *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	n := 0
	if peer.PodSelector != nil {
		n++
		errs = append(errs, ValidateLabelSelector(rel, peer.PodSelector, opts.selector, p.Child("podSelector"))...)
	}
	if peer.NamespaceSelector != nil {
		n++
		errs = append(errs, ValidateLabelSelector(rel, peer.NamespaceSelector, opts.selector, p.Child("namespaceSelector"))...)
	}
	if peer.IPBlock != nil {
		n++
		errs = append(errs, validateIPBlock(rel, peer.IPBlock, p.Child("ipBlock"), opts.oldCIDRs)...)
	}
	if n == 0 {
		errs = append(errs, field.Required(p, "must specify a peer"))
	} else if n > 1 && peer.IPBlock != nil {
		errs = append(errs, field.Forbidden(p, "may not specify both ipBlock and another peer"))
	}
	return errs
}

// validateIPBlock mirrors ValidateIPBlock.
func validateIPBlock(rel kubeversion.Release, ipb *v1.IPBlock, p *field.Path, oldCIDRs []string) field.ErrorList {
	if ipb.CIDR == "" {
		return field.ErrorList{field.Required(p.Child("cidr"), "")}
	}
	errs := isValidCIDRForLegacyField(rel, p.Child("cidr"), ipb.CIDR, oldCIDRs)
	cidr, err := parseCIDRSloppy(ipb.CIDR)
	if err != nil {
		return errs
	}
	for i, e := range ipb.Except {
		at := p.Child("except").Index(i)
		errs = append(errs, isValidCIDRForLegacyField(rel, at, e, oldCIDRs)...)
		except, err := parseCIDRSloppy(e)
		if err != nil {
			continue
		}
		if !cidr.contains(except.network()) || cidr.ones >= except.ones {
			errs = append(errs, field.Invalid(at, e, "must be a strict subset of `cidr`"))
		}
	}
	return errs
}

// Declarative: an ipBlock's cidr is required (1.37+); on update, an
// ingress or egress list equal to the old one is not validated again.
func (networkPolicyStrategy) Declarative(rel kubeversion.Release, o, old Object) field.ErrorList {
	if !rel.Has(kubeversion.NetworkPolicyDeclarative) {
		return nil
	}
	np := o.(*v1.NetworkPolicy)
	var oldSpec *v1.NetworkPolicySpec
	if old != nil {
		oldSpec = &old.(*v1.NetworkPolicy).Spec
	}
	var errs field.ErrorList
	cidrs := func(dir, peer string, i int, list []v1.NetworkPolicyPeer) {
		for j, pe := range list {
			if pe.IPBlock != nil && pe.IPBlock.CIDR == "" {
				errs = append(errs, field.Required(field.NewPath("spec").Child(dir).Index(i).Child(peer).Index(j).Child("ipBlock", "cidr"), ""))
			}
		}
	}
	if oldSpec == nil || !semanticDeepEqual(np.Spec.Ingress, oldSpec.Ingress) {
		for i, r := range np.Spec.Ingress {
			cidrs("ingress", "from", i, r.From)
		}
	}
	if oldSpec == nil || !semanticDeepEqual(np.Spec.Egress, oldSpec.Egress) {
		for i, r := range np.Spec.Egress {
			cidrs("egress", "to", i, r.To)
		}
	}
	return errs
}

// semanticDeepEqual is equality.Semantic.DeepEqual for values without
// quantities or times: reflect.DeepEqual with nil and empty slices and
// maps alike.
func semanticDeepEqual(a, b interface{}) bool {
	return semanticEqualValues(reflect.ValueOf(a), reflect.ValueOf(b))
}

func semanticEqualValues(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !semanticEqualValues(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !semanticEqualValues(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return semanticEqualValues(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !semanticEqualValues(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return a.Interface() == b.Interface()
}

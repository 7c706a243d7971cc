package builtin

// The legacy CIDR checks of k8s.io/apimachinery's util/validation
// (IsValidCIDRForLegacyField, GetWarningsForCIDR), over
// k8s.io/utils/net's ParseCIDRSloppy: the parser of Go before 1.17, which
// reads an IPv4 octet or a prefix length with leading zeros as decimal and
// an IPv6 group of any length up to 0xffff. The value is rewritten without
// those zeros and parsed with package net, which then gives the same
// address and network.

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/strfmt"
)

// parseCIDRSloppy mirrors netutils.ParseCIDRSloppy.
func parseCIDRSloppy(s string) (net.IP, *net.IPNet, error) {
	if !strfmt.IsCIDR(s) {
		return nil, nil, fmt.Errorf("invalid CIDR address: %s", s)
	}
	addr, mask, _ := strings.Cut(s, "/")
	var b strings.Builder
	if strings.Contains(addr, ":") {
		for i, g := range strings.Split(addr, ":") {
			if i > 0 {
				b.WriteByte(':')
			}
			if strings.Contains(g, ".") {
				b.WriteString(trimOctets(g))
			} else {
				b.WriteString(trimZeros(g))
			}
		}
	} else {
		b.WriteString(trimOctets(addr))
	}
	b.WriteByte('/')
	b.WriteString(trimZeros(mask))
	return net.ParseCIDR(b.String())
}

// trimOctets trims the leading zeros of each dotted part.
func trimOctets(s string) string {
	parts := strings.Split(s, ".")
	for i, p := range parts {
		parts[i] = trimZeros(p)
	}
	return strings.Join(parts, ".")
}

// trimZeros trims leading zeros, keeping one digit.
func trimZeros(s string) string {
	t := strings.TrimLeft(s, "0")
	if t == "" && s != "" {
		return "0"
	}
	return t
}

// isValidCIDRForLegacyField mirrors the function of the same name: a CIDR
// the sloppy parser reads, and from 1.36 (StrictIPCIDRValidation on by
// default) one without leading zeros, an IPv4-mapped IPv6 address or host
// bits. A value the old object already had is accepted as it is (1.33+;
// before, IsValidCIDR without old values).
func isValidCIDRForLegacyField(rel kubeversion.Release, p *field.Path, value string, old []string) field.ErrorList {
	if slices.Contains(old, value) && rel.Has(kubeversion.CIDRWarnings) {
		return nil
	}
	if _, _, err := parseCIDRSloppy(value); err != nil {
		return field.ErrorList{field.Invalid(p, value, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")}
	}
	if !rel.Has(kubeversion.StrictCIDRValidation) {
		return nil
	}
	prefix, err := netip.ParsePrefix(value)
	switch {
	case err != nil:
		return field.ErrorList{field.Invalid(p, value, "must not have leading 0s in IP or prefix length")}
	case prefix.Addr().Is4In6():
		return field.ErrorList{field.Invalid(p, value, "must not have an IPv4-mapped IPv6 address")}
	case prefix.Addr() != prefix.Masked().Addr():
		return field.ErrorList{field.Invalid(p, value, "must not have bits set beyond the prefix length")}
	}
	return nil
}

// warningsForCIDR mirrors GetWarningsForCIDR (1.33+).
func warningsForCIDR(p *field.Path, value string) []string {
	ip, ipnet, err := parseCIDRSloppy(value)
	if err != nil {
		return nil
	}
	var ws []string
	if !ip.Equal(ipnet.IP) {
		_, bits := ipnet.Mask.Size()
		ws = append(ws, fmt.Sprintf("%s: CIDR value %q is ambiguous in this context (should be %q or %q?)", p, value, ipnet.String(), fmt.Sprintf("%s/%d", ip.String(), bits)))
	}
	prefix, _ := netip.ParsePrefix(value)
	addr := prefix.Addr()
	if !prefix.IsValid() || addr.Is4In6() {
		ws = append(ws, fmt.Sprintf("%s: non-standard CIDR value %q is invalid: use %q", p, value, ipnet.String()))
	}
	if len(ws) == 0 && addr.Is6() && prefix.String() != value {
		ws = append(ws, fmt.Sprintf("%s: IPv6 CIDR value %q should be in RFC 5952 canonical format (%q)", p, value, prefix.String()))
	}
	return ws
}

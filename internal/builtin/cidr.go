package builtin

// The legacy CIDR checks of k8s.io/apimachinery's util/validation
// (IsValidCIDRForLegacyField, GetWarningsForCIDR), over
// k8s.io/utils/net's ParseCIDRSloppy: the parser of Go before 1.17, which
// reads an IPv4 octet or a prefix length with leading zeros as decimal and
// an IPv6 group of any length up to 0xffff. The value is rewritten without
// those zeros and parsed with net/netip; the network, its text and
// containment follow net.IPNet's rules.

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/strfmt"
)

// sloppyCIDR is what netutils.ParseCIDRSloppy returns, without package
// net (which the algorithm layer does not import): the address as a
// 16-byte IP (an IPv4 one in its IPv4-in-IPv6 form, as net.IP holds it),
// whether it was written as IPv4 (the network and mask are then 4 bytes
// long), and the prefix length.
type sloppyCIDR struct {
	ip   [16]byte
	v4   bool
	ones int
}

// bits is the mask's length in bits (net.IPMask.Size's second value).
func (c sloppyCIDR) bits() int {
	if c.v4 {
		return 32
	}
	return 128
}

// network is the masked address (net.IPNet.IP, as 16 bytes).
func (c sloppyCIDR) network() [16]byte {
	n := c.ip
	ones := c.ones
	if c.v4 {
		ones += 96
	}
	for i := range n {
		switch {
		case ones >= 8*(i+1):
		case ones <= 8*i:
			n[i] = 0
		default:
			n[i] &= byte(0xff << (8 - (ones - 8*i)))
		}
	}
	if c.v4 {
		n[10], n[11] = 0xff, 0xff
	}
	return n
}

// is4in6 reports whether a 16-byte IP holds an IPv4 address (net.IP.To4
// is not nil).
func is4in6(ip [16]byte) bool {
	for _, b := range ip[:10] {
		if b != 0 {
			return false
		}
	}
	return ip[10] == 0xff && ip[11] == 0xff
}

// ipString mirrors net.IP.String: an IPv4 address (or one mapped in IPv6)
// dotted, another IPv6 one in RFC 5952 form.
func ipString(ip [16]byte) string {
	if is4in6(ip) {
		return netip.AddrFrom4([4]byte{ip[12], ip[13], ip[14], ip[15]}).String()
	}
	return netip.AddrFrom16(ip).String()
}

// networkString mirrors net.IPNet.String: a network holding an IPv4
// address prints in IPv4 with the mask's last 32 bits.
func (c sloppyCIDR) networkString() string {
	n := c.network()
	ones := c.ones
	if is4in6(n) && !c.v4 {
		ones -= 96
	}
	if ones < 0 {
		// net prints a non-canonical mask in hex; a 4-in-6 network has
		// ffff in bits 80-95, so its prefix is at least 96.
		ones = 0
	}
	return fmt.Sprintf("%s/%d", ipString(n), ones)
}

// contains mirrors net.IPNet.Contains(other.ip) for two parsed CIDRs.
func (c sloppyCIDR) contains(ip [16]byte) bool {
	n := c.network()
	nIs4 := is4in6(n)
	// networkNumberAndMask: a 4-byte network with a 16-byte mask uses the
	// mask's last 4 bytes; an IPv4 mask with an IPv6 network is no network.
	mask := c.maskBytes()
	var nn, m []byte
	switch {
	case nIs4 && c.v4:
		nn, m = n[12:], mask
	case nIs4:
		nn, m = n[12:], mask[12:]
	case c.v4:
		return false
	default:
		nn, m = n[:], mask
	}
	x := ip[:]
	if is4in6(ip) {
		x = ip[12:]
	}
	if len(x) != len(nn) {
		return false
	}
	for i := range x {
		if nn[i]&m[i] != x[i]&m[i] {
			return false
		}
	}
	return true
}

// maskBytes is net.CIDRMask(ones, bits).
func (c sloppyCIDR) maskBytes() []byte {
	m := make([]byte, c.bits()/8)
	ones := c.ones
	for i := range m {
		switch {
		case ones >= 8:
			m[i] = 0xff
			ones -= 8
		case ones > 0:
			m[i] = byte(0xff << (8 - ones))
			ones = 0
		}
	}
	return m
}

// parseCIDRSloppy mirrors netutils.ParseCIDRSloppy: strfmt.IsCIDR is its
// acceptance; the value rewritten without leading zeros is then read by
// net/netip.
func parseCIDRSloppy(s string) (sloppyCIDR, error) {
	if !strfmt.IsCIDR(s) {
		return sloppyCIDR{}, fmt.Errorf("invalid CIDR address: %s", s)
	}
	addr, mask, _ := strings.Cut(s, "/")
	var b strings.Builder
	v4 := !strings.Contains(addr, ":")
	if v4 {
		b.WriteString(trimOctets(addr))
	} else {
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
	}
	a, err := netip.ParseAddr(b.String())
	if err != nil {
		return sloppyCIDR{}, err
	}
	ones, err := strconv.Atoi(trimZeros(mask))
	if err != nil {
		return sloppyCIDR{}, err
	}
	return sloppyCIDR{ip: a.As16(), v4: v4, ones: ones}, nil
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
	if _, err := parseCIDRSloppy(value); err != nil {
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
	c, err := parseCIDRSloppy(value)
	if err != nil {
		return nil
	}
	var ws []string
	if n := c.network(); !sameIP(c.ip, n) {
		ws = append(ws, fmt.Sprintf("%s: CIDR value %q is ambiguous in this context (should be %q or %q?)", p, value, c.networkString(), fmt.Sprintf("%s/%d", ipString(c.ip), c.bits())))
	}
	prefix, _ := netip.ParsePrefix(value)
	addr := prefix.Addr()
	if !prefix.IsValid() || addr.Is4In6() {
		ws = append(ws, fmt.Sprintf("%s: non-standard CIDR value %q is invalid: use %q", p, value, c.networkString()))
	}
	if len(ws) == 0 && addr.Is6() && prefix.String() != value {
		ws = append(ws, fmt.Sprintf("%s: IPv6 CIDR value %q should be in RFC 5952 canonical format (%q)", p, value, prefix.String()))
	}
	return ws
}

// sameIP is net.IP.Equal of the parsed address and its network (16-byte
// forms of both).
func sameIP(a, b [16]byte) bool { return a == b }

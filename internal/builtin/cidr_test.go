package builtin

import (
	"net"
	"testing"
)

// TestSloppyCIDRFollowsPackageNet: the network, its text, the mask length
// and containment of parseCIDRSloppy are package net's for the values Go's
// parser reads (ParseCIDRSloppy only adds leading zeros, which the
// rewritten value drops).
func TestSloppyCIDRFollowsPackageNet(t *testing.T) {
	values := []string{"10.0.0.0/8", "10.0.0.1/8", "192.168.1.77/24", "0.0.0.0/0", "255.255.255.255/32",
		"2001:db8::/32", "2001:db8::1/32", "::/0", "::1/128", "fe80::1%/64",
		"::ffff:10.0.0.0/104", "::ffff:10.1.2.3/120", "::ffff:10.0.0.0/80", "::ffff:0:0/96", "1.2.3.4/33"}
	for _, v := range values {
		ip, want, werr := net.ParseCIDR(v)
		got, gerr := parseCIDRSloppy(v)
		if (werr != nil) != (gerr != nil) {
			t.Errorf("%s: error %v, net's %v", v, gerr, werr)
			continue
		}
		if werr != nil {
			continue
		}
		if got.networkString() != want.String() {
			t.Errorf("%s: network %s, net's %s", v, got.networkString(), want.String())
		}
		if ipString(got.ip) != ip.String() {
			t.Errorf("%s: ip %s, net's %s", v, ipString(got.ip), ip.String())
		}
		ones, bits := want.Mask.Size()
		if got.ones != ones || got.bits() != bits {
			t.Errorf("%s: mask %d/%d, net's %d/%d", v, got.ones, got.bits(), ones, bits)
		}
		if sameIP(got.ip, got.network()) != ip.Equal(want.IP) {
			t.Errorf("%s: address equals network %v, net's %v", v, !ip.Equal(want.IP), ip.Equal(want.IP))
		}
		for _, o := range values {
			_, other, err := net.ParseCIDR(o)
			if err != nil {
				continue
			}
			og, _ := parseCIDRSloppy(o)
			if got.contains(og.network()) != want.Contains(other.IP) {
				t.Errorf("%s contains %s: %v, net's %v", v, o, got.contains(og.network()), want.Contains(other.IP))
			}
		}
	}
	for v, want := range map[string]string{"010.000.0.0/08": "10.0.0.0/8", "0001:0db8::/032": "1:db8::/32", "::ffff:010.1.2.3/128": "10.1.2.3/32"} {
		got, err := parseCIDRSloppy(v)
		if err != nil || got.networkString() != want {
			t.Errorf("%s: %v %v, want %s", v, got.networkString(), err, want)
		}
	}
}

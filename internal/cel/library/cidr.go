package library

import (
	"fmt"
	"net/netip"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// CIDRLib returns the kubernetes.net.cidr library at the given version:
// version 1 (Kubernetes 1.38's environment table) adds cidr.isMask().
func CIDRLib(version uint32) cel.EnvOption {
	decls := cidrDecls
	if version >= 1 {
		decls = cidrDeclsV1
	}
	l := newLib("kubernetes.net.cidr", []*cel.Type{CIDRType, IPType}, decls)
	l.preOpts = []cel.EnvOption{cel.Types(CIDRType)}
	return cel.Lib(l)
}

// cidrDeclsV1 is version 1: version 0 and isMask (true when every bit after
// the prefix length is 0).
func cidrDeclsV1() map[string][]cel.FunctionOpt {
	d := cidrDecls()
	d["isMask"] = []cel.FunctionOpt{cel.MemberOverload("cidr_is_mask", []*cel.Type{CIDRType}, cel.BoolType, cel.UnaryBinding(cidrIsMask))}
	return d
}

func cidrIsMask(arg ref.Val) ref.Val {
	c, ok := arg.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	return types.Bool(c.Prefix == c.Prefix.Masked())
}

func cidrDecls() map[string][]cel.FunctionOpt {
	return map[string][]cel.FunctionOpt{
		"cidr": {cel.Overload("string_to_cidr", []*cel.Type{cel.StringType}, CIDRType, cel.UnaryBinding(stringToCIDR))},
		"containsIP": {
			cel.MemberOverload("cidr_contains_ip_string", []*cel.Type{CIDRType, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(a, b ref.Val) ref.Val { return cidrContainsIP(a, stringToIP(b)) })),
			cel.MemberOverload("cidr_contains_ip_ip", []*cel.Type{CIDRType, IPType}, cel.BoolType, cel.BinaryBinding(cidrContainsIP)),
		},
		"containsCIDR": {
			cel.MemberOverload("cidr_contains_cidr_string", []*cel.Type{CIDRType, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(a, b ref.Val) ref.Val { return cidrContainsCIDR(a, stringToCIDR(b)) })),
			cel.MemberOverload("cidr_contains_cidr", []*cel.Type{CIDRType, CIDRType}, cel.BoolType, cel.BinaryBinding(cidrContainsCIDR)),
		},
		"ip":           {cel.MemberOverload("cidr_ip", []*cel.Type{CIDRType}, IPType, cel.UnaryBinding(cidrToIP))},
		"prefixLength": {cel.MemberOverload("cidr_prefix_length", []*cel.Type{CIDRType}, cel.IntType, cel.UnaryBinding(cidrPrefixLength))},
		"masked":       {cel.MemberOverload("cidr_masked", []*cel.Type{CIDRType}, CIDRType, cel.UnaryBinding(cidrMasked))},
		"isCIDR":       {cel.Overload("is_cidr", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(isCIDR))},
		"string":       {cel.Overload("cidr_to_string", []*cel.Type{CIDRType}, cel.StringType, cel.UnaryBinding(cidrToString))},
	}
}

func parseCIDR(raw string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(raw)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("network address parse error during conversion from string: %v", err)
	}
	if p.Addr().Is4In6() {
		return netip.Prefix{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", raw)
	}
	return p, nil
}

func stringToCIDR(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	p, err := parseCIDR(s)
	if err != nil {
		// upstream wraps the already-prefixed parse error a second time
		return types.NewErr("network address parse error during conversion from string: %v", err)
	}
	return CIDR{Prefix: p}
}

func cidrToString(arg ref.Val) ref.Val {
	c, ok := arg.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	return types.String(c.Prefix.String())
}

// cidrContainsIP mirrors upstream, including which argument an error reports.
func cidrContainsIP(arg, other ref.Val) ref.Val {
	c, ok := arg.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	ip, ok := other.(IP)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	return types.Bool(c.Contains(ip.Addr))
}

func cidrContainsCIDR(arg, other ref.Val) ref.Val {
	c, ok := arg.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	o, ok := other.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(c.Overlaps(o.Prefix) && c.Prefix.Bits() <= o.Prefix.Bits())
}

func cidrPrefixLength(arg ref.Val) ref.Val {
	c, ok := arg.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	return types.Int(c.Prefix.Bits())
}

func isCIDR(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	_, err := parseCIDR(s)
	return types.Bool(err == nil)
}

func cidrToIP(arg ref.Val) ref.Val {
	c, ok := arg.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	return IP{Addr: c.Prefix.Addr()}
}

func cidrMasked(arg ref.Val) ref.Val {
	c, ok := arg.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	return CIDR{Prefix: c.Prefix.Masked()}
}

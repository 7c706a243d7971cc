package library

import (
	"fmt"
	"net/netip"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// IPLib returns the kubernetes.net.ip library.
func IPLib() cel.EnvOption {
	l := newLib("kubernetes.net.ip", []*cel.Type{IPType}, ipDecls)
	l.preOpts = []cel.EnvOption{cel.Types(IPType)}
	return cel.Lib(l)
}

func ipDecls() map[string][]cel.FunctionOpt {
	pred := func(id string, f func(netip.Addr) bool) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{IPType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			ip, ok := arg.(IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			return types.Bool(f(ip.Addr))
		}))
	}
	return map[string][]cel.FunctionOpt{
		"ip":                   {cel.Overload("string_to_ip", []*cel.Type{cel.StringType}, IPType, cel.UnaryBinding(stringToIP))},
		"family":               {cel.MemberOverload("ip_family", []*cel.Type{IPType}, cel.IntType, cel.UnaryBinding(ipFamily))},
		"ip.isCanonical":       {cel.Overload("ip_is_canonical", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(ipIsCanonical))},
		"isUnspecified":        {pred("ip_is_unspecified", netip.Addr.IsUnspecified)},
		"isLoopback":           {pred("ip_is_loopback", netip.Addr.IsLoopback)},
		"isLinkLocalMulticast": {pred("ip_is_link_local_multicast", netip.Addr.IsLinkLocalMulticast)},
		"isLinkLocalUnicast":   {pred("ip_is_link_local_unicast", netip.Addr.IsLinkLocalUnicast)},
		"isGlobalUnicast":      {pred("ip_is_global_unicast", netip.Addr.IsGlobalUnicast)},
		"isIP":                 {cel.Overload("is_ip", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(isIP))},
		"string":               {cel.Overload("ip_to_string", []*cel.Type{IPType}, cel.StringType, cel.UnaryBinding(ipToString))},
	}
}

func parseIPAddr(raw string) (netip.Addr, error) {
	addr, err := netip.ParseAddr(raw)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("IP Address %q parse error during conversion from string: %v", raw, err)
	}
	if addr.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("IP address %q with zone value is not allowed", raw)
	}
	if addr.Is4In6() {
		return netip.Addr{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", raw)
	}
	return addr, nil
}

func stringToIP(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	addr, err := parseIPAddr(s)
	if err != nil {
		return types.NewErr("%v", err)
	}
	return IP{Addr: addr}
}

func ipToString(arg ref.Val) ref.Val {
	ip, ok := arg.(IP)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	return types.String(ip.Addr.String())
}

func ipFamily(arg ref.Val) ref.Val {
	ip, ok := arg.(IP)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	switch {
	case ip.Addr.Is4():
		return types.Int(4)
	case ip.Addr.Is6():
		return types.Int(6)
	default:
		return types.NewErr("IP address %q is not an IPv4 or IPv6 address", ip.Addr.String())
	}
}

func ipIsCanonical(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	addr, err := parseIPAddr(s)
	if err != nil {
		return types.NewErr("%v", err)
	}
	return types.Bool(addr.String() == s)
}

func isIP(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	_, err := parseIPAddr(s)
	return types.Bool(err == nil)
}

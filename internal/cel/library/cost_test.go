package library

import (
	"net/netip"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

func TestCallCostRuntimeNumbers(t *testing.T) {
	q, _ := ParseQuantity("1")
	ip := IP{Addr: netip.MustParseAddr("2001:db8::1")}
	c := CIDR{Prefix: netip.MustParsePrefix("10.0.0.0/8")}
	tests := []struct {
		name     string
		function string
		overload string
		args     []ref.Val
		result   ref.Val
		want     *uint64
	}{
		{"authz check is a fixed 350000", "check", "", nil, nil, u64(350000)},
		{"lists traverse their argument", "sum", "", []ref.Val{types.NewStringList(types.DefaultTypeAdapter, []string{"aaaaaaaaaa", "bbbbbbbbbb"})}, nil, u64(2)},
		{"find multiplies string and regex cost", "find", "", []ref.Val{types.String("0123456789"), types.String("a+")}, nil, u64(2 * 1)},
		{"ip from a cidr costs 1", "ip", "cidr_ip", []ref.Val{c}, nil, u64(1)},
		{"ip from a string costs its length / 10", "ip", "string_to_ip", []ref.Val{types.String("2001:db8::1")}, nil, u64(2)},
		{"containsIP uses the cidr byte size", "containsIP", "cidr_contains_ip_ip", []ref.Val{c, ip}, nil, u64(1)},
		{"containsCIDR string adds the string length", "containsCIDR", "cidr_contains_cidr_string", []ref.Val{c, types.String("10.1.0.0/16")}, nil, u64(1 + 1 + 1 + 2)},
		{"validate uses the format's regex size", "validate", "", []ref.Val{ConstantFormats["uri"], types.String("x")}, nil, u64(1 * 276)}, // ceil(2*0.1) * ceil(1103*0.25)
		{"equality of quantities is 1", "_==_", "", []ref.Val{Quantity{&q}, Quantity{&q}}, nil, u64(1)},
		{"equality of pointer quantities is 1", "_==_", "", []ref.Val{&Quantity{&q}, Quantity{&q}}, nil, u64(1)},
		{"join costs twice the result", "join", "", []ref.Val{types.String("")}, types.String("0123456789"), u64(2)},
		{"unknown functions are left to cel-go", "size", "", []ref.Val{types.String("x")}, nil, nil},
		{"equality of strings is left to cel-go", "_==_", "", []ref.Val{types.String("a"), types.String("a")}, nil, nil},
	}
	est := &CostEstimator{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := est.CallCost(tt.function, tt.overload, tt.args, tt.result)
			switch {
			case got == nil && tt.want == nil:
			case got == nil || tt.want == nil:
				t.Fatalf("got %v, want %v", got, tt.want)
			case *got != *tt.want:
				t.Errorf("got %d, want %d", *got, *tt.want)
			}
		})
	}
}

func TestTraversalCostWalksNestedValues(t *testing.T) {
	m := types.NewStringStringMap(types.DefaultTypeAdapter, map[string]string{"0123456789": "01234567890123456789"})
	if got := traversalCost(m); got != 1+2 {
		t.Errorf("got %d, want 3", got)
	}
	if got := traversalCost(types.Int(5)); got != 1 {
		t.Errorf("got %d, want 1", got)
	}
}

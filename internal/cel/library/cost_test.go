package library

import (
	"math"
	"net/netip"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/overloads"
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

// Before Kubernetes 1.37 (cel-go before v0.29) the global matches(s, re)
// has no estimate and costs as an O(1) call; the member form is priced as
// string size × regex size at every release.
func TestGlobalMatchesCostBefore137(t *testing.T) {
	env, err := cel.NewEnv(cel.Variable("s", cel.StringType))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		expr     string
		noGlobal bool
		wantMax  uint64 // 0: the unbounded string's size × the regex's (over 2^61)
	}{
		{"global form priced from 1.37", "matches(s, '^[a-z]+$')", false, 0},
		{"global form is O(1) before 1.37", "matches(s, '^[a-z]+$')", true, 2},
		{"member form priced before 1.37", "s.matches('^[a-z]+$')", true, 0},
		{"member form priced from 1.37", "s.matches('^[a-z]+$')", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ast, iss := env.Compile(tt.expr)
			if iss.Err() != nil {
				t.Fatal(iss.Err())
			}
			est, err := env.EstimateCost(ast, &CostEstimator{NoGlobalMatchesCost: tt.noGlobal})
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantMax == 0 && est.Max < math.MaxUint64/8 {
				t.Errorf("%s: estimated max %d, want the unbounded string's (over 2^61)", tt.expr, est.Max)
			}
			if tt.wantMax != 0 && est.Max != tt.wantMax {
				t.Errorf("%s: estimated max %d, want %d", tt.expr, est.Max, tt.wantMax)
			}
		})
	}
	args := []ref.Val{types.String("abcdefghij"), types.String("^[a-z]+$")}
	if got := (&CostEstimator{NoGlobalMatchesCost: true}).CallCost("matches", overloads.Matches, args, types.True); got == nil || *got != 1 {
		t.Errorf("runtime charge of the global matches before 1.37: %v, want 1", got)
	}
	if got := (&CostEstimator{NoGlobalMatchesCost: true}).CallCost("matches", overloads.MatchesString, args, types.True); got != nil {
		t.Errorf("runtime charge of the member matches before 1.37: %d, want cel-go's (nil)", *got)
	}
	if got := (&CostEstimator{}).CallCost("matches", overloads.Matches, args, types.True); got != nil {
		t.Errorf("runtime charge of the global matches from 1.37: %d, want cel-go's (nil)", *got)
	}
}

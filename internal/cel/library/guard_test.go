package library

import (
	"fmt"
	"math/big"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/testsupport/cputime"
)

// evalWith compiles expr with s (a string variable) in env options opts and
// evaluates it with the base program options.
func evalWith(t *testing.T, opts []cel.EnvOption, prog []cel.ProgramOption, expr, s string) (string, uint64, error) {
	t.Helper()
	env, err := cel.NewEnv(append(opts, cel.Variable("s", cel.StringType))...)
	if err != nil {
		t.Fatal(err)
	}
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	prg, err := env.Program(ast, prog...)
	if err != nil {
		t.Fatal(err)
	}
	val, det, err := prg.Eval(map[string]interface{}{"s": s})
	var cost uint64
	if det != nil && det.ActualCost() != nil {
		cost = *det.ActualCost()
	}
	if err != nil {
		return "", cost, err
	}
	return fmt.Sprintf("%s:%v", val.Type().TypeName(), val.Value()), cost, nil
}

func TestCostGuardsCancelBeforeRunning(t *testing.T) {
	big3 := strings.Repeat("x", 3000000)
	const pattern = `^([\p{L}\p{N}]{0,1000})*$`
	tests := []struct {
		name, expr, s string
		// wantCost is the actual cost reported with the cancellation: what
		// the cost observer charges for the call (upstream's number), or,
		// for result-size bounds, the cost before the call.
		wantCost uint64
	}{
		{"replace with an empty pattern (result bound)", `s.replace('', s).size() > 0`, strings.Repeat("a", 100000), 2},
		{"matches, literal pattern", `s.matches('` + strings.ReplaceAll(pattern, `\`, `\\`) + `')`, big3, 1 + regexCharge(stringVal(big3), stringVal(pattern))},
		{"matches, variable pattern", `s.matches(s.substring(0, 1) + '` + strings.ReplaceAll(pattern, `\`, `\\`) + `')`, big3, 0},
		{"find", `s.find('[a-z]{1,1000}') != ''`, big3, 1 + regexCharge(stringVal(big3), stringVal("[a-z]{1,1000}"))},
		{"findAll", `s.findAll('[a-z]{1,1000}').size() > 0`, big3, 1 + regexCharge(stringVal(big3), stringVal("[a-z]{1,1000}"))},
		{"join", `[s, s, s, s].join('').size() > 0`, big3, 0},
		{"string +", `(s + s + s + s).size() > 0`, big3, 0},
		{"lowerAscii over 10M", `(s + s + s + s).lowerAscii() == ''`, big3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cpu := cputime.Start()
			_, cost, err := evalWith(t, []cel.EnvOption{BaseLib()}, nil, tt.expr, tt.s)
			if err == nil || err.Error() != "operation cancelled: actual cost limit exceeded" {
				t.Fatalf("err = %v, want the cost limit error", err)
			}
			if _, ok := err.(interpreter.EvalCancelledError); !ok {
				t.Errorf("err is %T, want interpreter.EvalCancelledError", err)
			}
			if tt.wantCost != 0 && cost != tt.wantCost {
				t.Errorf("actual cost %d, want %d", cost, tt.wantCost)
			}
			// The cost checks above are the deterministic guard; this one
			// catches work done before the cost is charged. The slowest
			// case uses 0.06 s of CPU time alone: ten times that, rounded
			// up to a second.
			cpu.Check(t, time.Second, tt.name)
		})
	}
}

// Under the limit, the guarded environment gives the results and costs of
// the same libraries without guards.
func TestCostGuardsDoNotChangeResultsOrCosts(t *testing.T) {
	unguarded := []cel.EnvOption{ext.Strings(ext.StringsVersion(2)), Regex(), QuantityLib(), SemverLib(1)}
	prog := []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost), cel.CostLimit(limits.PerCallLimit),
		cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)), cel.CostTracking(&CostEstimator{})}
	exprs := []string{
		`s.replace('a', 'bb')`, `s.replace('', '-')`, `s.replace('a', 'b', 2)`, `s.split('a')`, `s.split('', 3)`,
		`[s, s].join(',')`, `[s, s].join()`, `s.lowerAscii() + s.upperAscii()`, `'%s-%d'.format([s, 3])`,
		`s + s`, `s.matches('^[a-z]+$')`, `s.matches(s)`, `s.find('[0-9]+')`, `s.findAll('a', 2)`,
		`isQuantity(s)`, `isSemver(s)`, `s.matches(s + '(')`, `[1, 2] + [3]`,
	}
	for _, s := range []string{"", "abcabc", "a1b22c333", strings.Repeat("ab", 5000)} {
		for _, e := range exprs {
			want, wantCost, wantErr := evalWith(t, unguarded, prog, e, s)
			got, gotCost, gotErr := evalWith(t, []cel.EnvOption{BaseLib()}, nil, e, s)
			if got != want || gotCost != wantCost || (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
				t.Errorf("%q on %d chars: got %.60q cost %d err %v, want %.60q cost %d err %v", e, len(s), got, gotCost, gotErr, want, wantCost, wantErr)
			}
		}
	}
}

func TestSetDecimalDigitsMatchesSetString(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 4096, 4097, 9000, 20001, 100000} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.Intn(10))
		}
		for _, s := range []string{string(b), "-" + string(b), "+" + string(b), string(b) + "x"} {
			var x, y big.Int
			_, okx := x.SetString(s, 10)
			oky := setDecimalDigits(&y, s)
			if okx != oky || okx && x.Cmp(&y) != 0 {
				t.Fatalf("%d digits: SetString %v, setDecimalDigits %v", n, okx, oky)
			}
		}
	}
	// A guard against quadratic parsing (big.Int.SetString is quadratic
	// in the digits): 3,000,000 digits use 0.69 s of CPU time alone;
	// ten times that, in CPU time, which other processes' load does not
	// inflate (a wall-clock bound failed at load 35).
	cpu := cputime.Start()
	if _, err := ParseQuantity(strings.Repeat("9", 3000000)); err != nil {
		t.Fatal(err)
	}
	cpu.Check(t, 7*time.Second, "3,000,000 digits")
}

func stringVal(s string) ref.Val { return types.String(s) }

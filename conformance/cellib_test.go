package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"

	crdlablibrary "github.com/crdlab/crdlab/internal/cel/library"
	k8sversion "k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"
	k8slibrary "k8s.io/apiserver/pkg/cel/library"

	"github.com/crdlab/crdlab/internal/testsupport/celrender"
)

// celLibGoldenRow is a row of internal/cel/library/testdata/costs.golden.
type celLibGoldenRow = celrender.Row

// TestCelLibGoldenAgainstUpstream replays every row of
// internal/cel/library/testdata/costs.golden (produced by crdlab's library
// package) in upstream's base environment
// (environment.MustBaseEnvSet(DefaultCompatibilityVersion())) with upstream's
// library.CostEstimator, and requires the same compile error, result, static
// estimate and runtime cost.
func TestCelLibGoldenAgainstUpstream(t *testing.T) {
	data, err := os.ReadFile("../internal/cel/library/testdata/costs.golden")
	if err != nil {
		t.Fatal(err)
	}
	var rows []celLibGoldenRow
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	ver := environment.DefaultCompatibilityVersion()
	if ver.String() != "1.36" {
		t.Fatalf("DefaultCompatibilityVersion = %s, the golden table assumes 1.36", ver)
	}
	envSet := environment.MustBaseEnvSet(ver)
	for _, want := range rows {
		got := celLibUpstreamRow(t, envSet, want.Expr)
		if got != want {
			t.Errorf("%s:\n upstream %+v\n   crdlab %+v", want.Expr, got, want)
		}
	}
}

func celLibUpstreamRow(t *testing.T, envSet *environment.EnvSet, expr string) celLibGoldenRow {
	row := celLibGoldenRow{Expr: expr}
	src := expr
	env := envSet.NewExpressionsEnv()
	if strings.HasPrefix(src, "stored:") {
		src = strings.TrimPrefix(src, "stored:")
		row.Stored = true
		env = envSet.StoredExpressionsEnv()
	}
	var vars any = cel.NoVars()
	var sizes checker.CostEstimator
	if strings.HasPrefix(src, "vars:") {
		src = strings.TrimPrefix(src, "vars:")
		var err error
		env, err = env.Extend(celrender.VarDecls()...)
		if err != nil {
			t.Fatal(err)
		}
		vars = celrender.Vars()
		sizes = celrender.VarSizes{}
	}
	if err := celrender.Eval(&row, env, src, vars, &k8slibrary.CostEstimator{SizeEstimator: sizes}); err != nil {
		t.Fatalf("%s: estimate: %v", expr, err)
	}
	return row
}

// celLibEvalBoth evaluates expr in upstream's base environment and in
// crdlab's (library.BaseLib) and returns both rendered rows.
func celLibEvalBoth(t *testing.T, upEnv, ourEnv *cel.Env, expr string) (string, string) {
	run := func(env *cel.Env, est checker.CostEstimator) string {
		ast, iss := env.Compile(expr)
		if iss.Err() != nil {
			return "compile: " + iss.Err().Error()
		}
		ce, err := env.EstimateCost(ast, est)
		if err != nil {
			return "estimate: " + err.Error()
		}
		prg, err := env.Program(ast)
		if err != nil {
			return "program: " + err.Error()
		}
		val, det, err := prg.Eval(cel.NoVars())
		res := ""
		if err != nil {
			res = "error(" + err.Error() + ")"
		} else {
			res = celrender.Render(val)
		}
		return fmt.Sprintf("%s static=[%d,%d] runtime=%d", res, ce.Min, ce.Max, *det.ActualCost())
	}
	return run(upEnv, &k8slibrary.CostEstimator{}), run(ourEnv, &crdlablibrary.CostEstimator{})
}

// TestCelLibRandomDifferential feeds generated strings (fixed seed) to the
// parsers and validators that crdlab reimplements (quantity, semver, named
// formats, IP/CIDR) and compares every result and cost with upstream.
func TestCelLibRandomDifferential(t *testing.T) {
	upEnv := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).NewExpressionsEnv()
	ourEnv, err := cel.NewEnv(crdlablibrary.BaseLib())
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(1))
	gen := func(alphabet string, maxLen int) string {
		n := rnd.Intn(maxLen + 1)
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rnd.Intn(len(alphabet))]
		}
		return string(b)
	}
	quantities := []string{"0", "1", "-1", "1.5", "0.001", "123456789012345678", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "1e3", "1E-3", "100m", "1.25Ki", "1Mi", "1023Ki", "1024Ki", "5Gi", "0.5Gi", "1.000", "-0.0", "+.5",
		"5.", "1e100", "1e-100", "12345678901234567890Ei", "1n", "1u", "0.1n", "1P", "1E", "2e-9", "1Ti", "1e+3", "8Ei", "7Ei",
		"0.0000000001", "1000000000000000000000000000m", "999999999999999999", "1000000000000000000", "1.5Ei", "3Pi", "1023",
		"1024", "-1024", "-1025Ki", "1e18", "1e19", "1e-9", "1e-10", "0.5", "2.5e3", "12e1", "1k", "1001m", ".", "-", "+", "e3", "1i"}
	for i := 0; i < 300; i++ {
		quantities = append(quantities, gen("0123456789.", 6)+gen("eEinumkKMGTP+-0123456789", 3))
	}
	suffixes := []string{"", "m", "n", "k", "Ki", "Mi", "Ei", "e-5", "e20", "E3", "G"}
	for i := 0; i < 150; i++ {
		quantities = append(quantities, gen("-+", 1)+gen("0123456789", 25)+gen(".", 1)+gen("0123456789", 12)+suffixes[i%len(suffixes)])
	}
	var exprs []string
	for i, q := range quantities {
		qq := strconvQuote(q)
		other := strconvQuote(quantities[(i*7+3)%len(quantities)])
		exprs = append(exprs,
			"quantity("+qq+")", "isQuantity("+qq+")", "quantity("+qq+").isInteger()", "quantity("+qq+").asInteger()",
			"quantity("+qq+").asApproximateFloat()", "sign(quantity("+qq+"))",
			"quantity("+qq+").add(quantity("+other+"))", "quantity("+qq+").sub(quantity("+other+"))",
			"quantity("+qq+").add(7)", "quantity("+qq+").sub(-3)", "quantity("+qq+").compareTo(quantity("+other+"))",
			"quantity("+qq+").add(quantity("+other+")).isInteger()", "quantity("+qq+").sub(quantity("+other+")).asApproximateFloat()",
		)
	}
	for i := 0; i < 300; i++ {
		s := strconvQuote(gen("0123456789.v-+a", 9))
		o := strconvQuote(gen("0123456789.-a", 9))
		exprs = append(exprs, "semver("+s+")", "semver("+s+", true)", "isSemver("+s+")", "isSemver("+s+", true)",
			"semver("+s+", true).compareTo(semver("+o+", true))")
	}
	formats := []string{"dns1123Label", "dns1123Subdomain", "dns1035Label", "qualifiedName", "dns1123LabelPrefix",
		"dns1123SubdomainPrefix", "dns1035LabelPrefix", "labelValue", "uri", "uuid", "byte", "date", "datetime"}
	for i := 0; i < 400; i++ {
		s := strconvQuote(gen("aZ0-._/:= +T", 12))
		exprs = append(exprs, "format."+formats[i%len(formats)]+"().validate("+s+")")
	}
	exprs = append(exprs, `format.qualifiedName().validate("`+strings.Repeat("a", 254)+`/`+strings.Repeat("b", 64)+`")`,
		`format.labelValue().validate("`+strings.Repeat("a", 64)+`")`, `format.dns1123Subdomain().validate("`+strings.Repeat("a", 254)+`")`,
		`format.uuid().validate("123E4567e89b12d3a456426614174000")`, `format.datetime().validate("2020-01-01t10:00:00.5+01:00")`)
	for i := 0; i < 200; i++ {
		s := strconvQuote(gen("0123456789.:abcdef/%", 14))
		exprs = append(exprs, "isIP("+s+")", "isCIDR("+s+")", "ip("+s+")", "cidr("+s+")", "ip.isCanonical("+s+")")
	}
	for _, e := range exprs {
		up, ours := celLibEvalBoth(t, upEnv, ourEnv, e)
		if up != ours {
			t.Errorf("%s:\n upstream %s\n   crdlab %s", e, up, ours)
		}
	}
	t.Logf("%d expressions compared", len(exprs))
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

// TestCelLibVersionedEnvironments compiles probe expressions at every
// compatibility version from 1.27 to 1.36 in upstream's base environment and
// in crdlab's EnvOptionsAt, and requires the same compile verdicts and errors.
func TestCelLibVersionedEnvironments(t *testing.T) {
	probes := []string{
		`[1].isSorted()`, `[1].includes(1)`, `"a".find("a")`, `url("https://a").getHost()`, `quantity("1").isInteger()`,
		`optional.of(1).hasValue()`, `1 == 1.0`, `duration("1x")`, `"a".matches("(")`, `[1, "a"]`, `"abc".charAt(1)`,
		`strings.quote("a")`, `sets.contains([1], [1])`, `isIP("1.2.3.4")`, `cidr("1.0.0.0/8").prefixLength()`,
		`format.dns1123Label().validate("a")`, `[1].all(i, v, v > i)`, `semver("1.0.0").major()`, `semver("v1", true).major()`,
		`[1].sortBy(x, x)`, `lists.range(2)`, `x.name()`, `"a".lowerAscii()`, `"%d".format([1])`, `"a".reverse()`,
	}
	for minor := uint(27); minor <= 36; minor++ {
		upEnv := environment.MustBaseEnvSet(k8sversion.MajorMinor(1, minor)).NewExpressionsEnv()
		ourEnv, err := cel.NewEnv(crdlablibrary.EnvOptionsAt(minor)...)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range probes {
			_, upIss := upEnv.Compile(p)
			_, ourIss := ourEnv.Compile(p)
			up, ours := fmt.Sprint(upIss.Err()), fmt.Sprint(ourIss.Err())
			if up != ours {
				t.Errorf("1.%d %s:\n upstream %s\n   crdlab %s", minor, p, up, ours)
			}
		}
	}
}

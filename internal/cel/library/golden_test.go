package library

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"

	"github.com/crdlab/crdlab/internal/testsupport/celrender"
)

var update = flag.Bool("update", false, "rewrite testdata/costs.golden")

// goldenRow is one line of testdata/costs.golden (see celrender.Row).
type goldenRow = celrender.Row

// goldenExprs covers every function of every library, their error cases and
// the equality costs of the library types. Rows prefixed with "stored:" are
// evaluated in the StoredExpressions environment.
var goldenExprs = []string{
	// lists
	`[1, 2, 3].isSorted()`, `[3, 1].isSorted()`, `["a", "b"].isSorted()`, `[1u, 2u].isSorted()`, `[1.0, 0.5].isSorted()`,
	`[true, false].isSorted()`, `[b"a", b"b"].isSorted()`, `[duration("1s"), duration("2s")].isSorted()`,
	`[timestamp("2020-01-01T00:00:00Z"), timestamp("2019-01-01T00:00:00Z")].isSorted()`, `[].isSorted()`,
	`[1, 2, 3].sum()`, `[1u, 2u].sum()`, `[1.5, 2.25].sum()`, `[duration("1s"), duration("1m")].sum()`, `[].sum()`,
	`[9223372036854775807, 1].sum()`,
	`[3, 1, 2].min()`, `[3, 1, 2].max()`, `["b", "a", "c"].min()`, `["b", "a", "c"].max()`, `[].min()`, `[].max()`,
	`[1.0, 2.0].max()`, `[b"x", b"ab"].min()`, `[false, true].max()`,
	`[1, 2, 3, 2].indexOf(2)`, `[1, 2, 3, 2].lastIndexOf(2)`, `[1, 2].indexOf(5)`, `["a", "bc"].lastIndexOf("bc")`,
	`["abc", "defgh"].indexOf("x")`, `[[1], [2]].indexOf([2])`,
	`[1, 2].includes(1)`, `stored:[1, 2].includes(1)`, `stored:[1, 2].includes(3)`, `stored:["a", "bb"].includes("bb")`,
	`["aaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"].isSorted()`, `{"a": 1}.sum()`,
	// regex
	`"abc 123".find("[0-9]+")`, `"abc".find("[0-9]+")`, `"abc 123 456".findAll("[0-9]+")`,
	`"abc 123 456".findAll("[0-9]+", 1)`, `"abc 123 456".findAll("[0-9]+", 0)`, `"abc".findAll("x")`,
	`"abc".find("(")`, `"abc".findAll("(")`, `"abc".find("[" + "a]")`, `"abc".findAll("a" + "(")`,
	`"` + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + `".find("a+b?c*d*e*f*")`,
	// urls
	`url("https://example.com:8080/path?query=value#frag")`, `url("not a url")`, `url("/relative/path")`,
	`url("https://[::1]:80/x").getHostname()`, `url("https://[::1]:80/x").getHost()`, `url("https://[::1]:80/x").getPort()`,
	`url("https://example.com/a%20b").getEscapedPath()`, `url("https://example.com").getScheme()`,
	`url("https://example.com/?a=1&a=2&b=x").getQuery()`, `url("https://example.com/?a=1").getQuery()["a"][0]`,
	`isURL("https://example.com")`, `isURL("example.com")`, `isURL("")`, `url("")`, `url("http://a b")`,
	`url("https://example.com") == url("https://example.com")`, `url("https://a.com") == url("https://b.com")`,
	`url("mailto:a@b.c").getScheme()`, `url("https://user:pw@host/").getHost()`,
	// quantity
	`quantity("1Gi")`, `quantity("1.5")`, `quantity("100m")`, `quantity("1e3")`, `quantity("0")`, `quantity("-0.0001")`,
	`quantity("abc")`, `quantity("")`, `quantity("1.2.3")`, `quantity("1Qi")`, `quantity("12E")`, `quantity("1e")`,
	`quantity("100000000000000000000000")`, `quantity("0.0000000001")`, `quantity("10Ei")`, `quantity("0.5Ki")`, `quantity("+1k")`,
	`isQuantity("1Gi")`, `isQuantity("1G1")`, `isQuantity("-")`, `isQuantity(".")`,
	`sign(quantity("-1"))`, `sign(quantity("0"))`, `sign(quantity("5m"))`,
	`quantity("1").isInteger()`, `quantity("1.5").isInteger()`, `quantity("1k").isInteger()`, `quantity("1000m").isInteger()`,
	`quantity("100000000000000000000000").isInteger()`, `quantity("9223372036854775807").isInteger()`,
	`quantity("10Ei").isInteger()`,
	`quantity("1k").asInteger()`, `quantity("1.5").asInteger()`, `quantity("50Mi").asInteger()`,
	`quantity("1.5").asApproximateFloat()`, `quantity("1Mi").asApproximateFloat()`, `quantity("100000000000000000000000").asApproximateFloat()`,
	`quantity("0.1").asApproximateFloat()`, `quantity("1e-3").asApproximateFloat()`,
	`quantity("1").add(quantity("1"))`, `quantity("1").add(quantity("1.5"))`, `quantity("1Gi").add(quantity("1G"))`,
	`quantity("1").add(2)`, `quantity("1.5").sub(1)`, `quantity("1").sub(quantity("2"))`, `quantity("0").add(quantity("1Ki"))`,
	`quantity("9223372036854775807").add(1)`, `quantity("9223372036854775807").add(1).isInteger()`,
	`quantity("1m").add(quantity("1k"))`, `quantity("1Ki").sub(quantity("1Ki"))`,
	`quantity("1").compareTo(quantity("2"))`, `quantity("2").compareTo(quantity("1"))`, `quantity("1000m").compareTo(quantity("1"))`,
	`quantity("1").isLessThan(quantity("2"))`, `quantity("1").isGreaterThan(quantity("2"))`,
	`quantity("1Gi") == quantity("1073741824")`, `quantity("1") == quantity("2")`,
	`quantity("1").add(quantity("1")) == quantity("2")`, `quantity("2") == quantity("1").add(quantity("1"))`,
	`quantity("100000000000000000000000").compareTo(quantity("1"))`,
	`quantity("1234567890123456789e-40")`, `quantity("-1234567890123456789e-40")`, `quantity("1234567890123456789e-28")`,
	`quantity("1234567890123456789e-27")`, `quantity("-1234567890123456789e-28")`, `quantity("0.00000000000000000000000000001")`,
	`quantity("1e30").compareTo(quantity("1m"))`, `quantity("-1e30").compareTo(quantity("-1m"))`, `quantity("-5").compareTo(quantity("3"))`,
	`quantity("0").compareTo(quantity("-1e30"))`, `quantity("-1e30").compareTo(quantity("0"))`,
	`quantity("1234567890123456789012").compareTo(quantity("1234567890123456789013"))`,
	`quantity("-1234567890123456789012").compareTo(quantity("-1234567890123456789013"))`,
	`quantity("-99999999999999999999").compareTo(quantity("-100000000000000000000"))`,
	`quantity("99999999999999999999").compareTo(quantity("100000000000000000000"))`,
	`quantity("100000000000000000000").compareTo(quantity("1e20"))`, `quantity("0.5").compareTo(quantity("0.49999999999999999999"))`,
	// upstream hangs on quantity("1e2000000000").compareTo(quantity("1m")) (see TestQuantityHugeExponentsDoNotHang)
	`quantity("0").add(quantity("1e200"))`, `quantity("1e200").compareTo(quantity("1m"))`,
	`[quantity("1")].all(x, x.compareTo(quantity("100000000000000000000000")) == -1 && x.isInteger())`,
	`[quantity("1")].all(x, x.isLessThan(quantity("100000000000000000000000")) && x.add(1).isInteger())`,
	`[quantity("1")].all(x, quantity("100000000000000000000000").isGreaterThan(x) && x.isInteger())`,
	// ip
	`ip("192.168.0.1")`, `ip("::1")`, `ip("192.168.0.1.0")`, `ip("fe80::1%eth0")`, `ip("::ffff:1.2.3.4")`, `ip("")`,
	`isIP("1.2.3.4")`, `isIP("1.2.3")`, `isIP("::ffff:1.2.3.4")`, `ip.isCanonical("2001:db8::1")`, `ip.isCanonical("2001:DB8::1")`,
	`ip.isCanonical("bad")`, `ip("1.2.3.4").family()`, `ip("::1").family()`,
	`ip("0.0.0.0").isUnspecified()`, `ip("127.0.0.1").isLoopback()`, `ip("224.0.0.1").isLinkLocalMulticast()`,
	`ip("fe80::1").isLinkLocalUnicast()`, `ip("8.8.8.8").isGlobalUnicast()`, `ip("10.0.0.1").isGlobalUnicast()`,
	`string(ip("2001:db8:0:0::1"))`, `ip("1.2.3.4") == ip("1.2.3.4")`, `ip("1.2.3.4") == ip("::1")`,
	`type(ip("1.2.3.4")) == net.IP`,
	// cidr
	`cidr("10.0.0.0/8")`, `cidr("10.0.0.1/8")`, `cidr("10.0.0.0")`, `cidr("::ffff:1.2.3.4/96")`, `cidr("2001:db8::/32")`,
	`isCIDR("10.0.0.0/8")`, `isCIDR("10.0.0.0/33")`, `cidr("10.0.0.0/8").containsIP("10.1.2.3")`,
	`cidr("10.0.0.0/8").containsIP(ip("11.1.2.3"))`, `cidr("10.0.0.0/8").containsIP("bad")`,
	`cidr("2001:db8::/32").containsIP("2001:db8::1")`,
	`cidr("10.0.0.0/8").containsCIDR("10.1.0.0/16")`, `cidr("10.1.0.0/16").containsCIDR(cidr("10.0.0.0/8"))`,
	`cidr("2001:db8::/32").containsCIDR("2001:db8:1::/48")`, `cidr("10.0.0.0/8").containsCIDR("bad")`,
	`cidr("10.1.2.3/8").ip()`, `cidr("10.1.2.3/8").masked()`, `cidr("10.0.0.0/8").prefixLength()`,
	`string(cidr("2001:db8::/32"))`, `cidr("10.0.0.0/8") == cidr("10.0.0.0/8")`, `cidr("10.0.0.0/8") == cidr("10.0.0.0/9")`,
	`type(cidr("10.0.0.0/8")) == net.CIDR`,
	// format
	`format.dns1123Label().validate("my-name")`, `format.dns1123Label().validate("My_Name")`, `format.dns1123Label().validate("a.b")`,
	`format.dns1123Label().validate("` + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + `")`,
	`format.dns1123Subdomain().validate("a.b")`, `format.dns1123Subdomain().validate("A.b")`,
	`format.dns1035Label().validate("1abc")`, `format.qualifiedName().validate("example.com/MyName")`,
	`format.qualifiedName().validate("/a")`, `format.qualifiedName().validate("a/b/c")`, `format.qualifiedName().validate("Example.com/-a")`,
	`format.dns1123LabelPrefix().validate("abc-")`, `format.dns1123SubdomainPrefix().validate("abc.-")`,
	`format.dns1035LabelPrefix().validate("a-")`, `format.labelValue().validate("")`, `format.labelValue().validate("-bad")`,
	`format.uri().validate("https://example.com")`, `format.uri().validate("example")`,
	`format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")`, `format.uuid().validate("nope")`,
	`format.byte().validate("aGVsbG8=")`, `format.byte().validate("!!")`, `format.date().validate("2020-02-30")`,
	`format.date().validate("2020-02-28")`, `format.datetime().validate("2020-01-01T10:00:00Z")`,
	`format.datetime().validate("2020-01-01T25:00:00Z")`, `format.named("dns1123Label").hasValue()`,
	`format.named("nope").hasValue()`, `format.named("uuid").value().validate("x")`,
	`format.named("labelValue")`, `format.dns1123Label() == format.dns1123Label()`,
	`format.dns1123Label() == format.labelValue()`,
	// semver
	`semver("1.2.3")`, `semver("1.2.3-alpha.1+build.5")`, `semver("v1.2.3")`, `semver("01.2.3")`, `semver("1.2")`,
	`semver("")`, `semver("1.2.3-")`, `semver("1.2.3+")`, `semver("1.2.3-01")`, `semver("1.2.x")`, `semver("1.2.3-a$")`,
	`semver("1..3")`, `semver("99999999999999999999.0.0")`,
	`semver("v1.2", true)`, `semver("v01.02.03", true)`, `semver("1-alpha", true)`, `semver("1.2.3", false)`,
	`isSemver("1.2.3")`, `isSemver("v1.2.3")`, `isSemver("v1.2.3", true)`, `isSemver("1", true)`, `isSemver("1.0", false)`,
	`semver("1.2.3").major()`, `semver("1.2.3").minor()`, `semver("1.2.3").patch()`,
	`semver("1.2.3").isLessThan(semver("1.2.4"))`, `semver("1.2.3").isGreaterThan(semver("1.2.3-rc.1"))`,
	`semver("1.2.3-alpha").compareTo(semver("1.2.3-alpha.1"))`, `semver("1.2.3-2").compareTo(semver("1.2.3-a"))`,
	`semver("1.2.3-b").compareTo(semver("1.2.3-a"))`, `semver("1.2.3+x") == semver("1.2.3+y")`,
	`semver("1.2.3") == semver("1.2.4")`,
	// strings ext (re-priced by the Kubernetes estimator), sets, lists ext, two-variable comprehensions
	`"Hello".lowerAscii()`, `"Hello".upperAscii()`, `"hello".substring(1, 3)`, `"  x  ".trim()`,
	`"a,b,c".split(",")`, `"a,b,c".split(",", 2)`, `"aaa".replace("a", "bb")`, `"aaa".replace("", "x")`,
	`["a", "b"].join("-")`, `["a", "b"].join()`, `"abc".charAt(1)`, `"abc".indexOf("c")`, `"%s-%d".format(["a", 1])`,
	`strings.quote("a\"b")`, `"abc".reverse()`, `sets.contains([1, 2], [1])`, `sets.intersects([1], [2])`,
	`sets.equivalent([1, 2], [2, 1])`, `[[1], [2, 3]].flatten()`, `lists.range(3)`, `[3, 1, 2].sort()`,
	`[1, 2, 2].distinct()`, `[1, 2, 3].slice(1, 2)`, `[1, 2].reverse()`, `[1, 2].first()`, `[1, 2].last()`,
	`[{"a": 2}, {"a": 1}].sortBy(e, e.a)`, `[1, 2].all(i, v, i < v)`, `{"a": 1}.exists(k, v, v == 1)`,
	`[1, 2].transformList(i, v, v * 2)`, `[1, 2].transformMap(i, v, v)`, `{"a": 1}.transformMapEntry(k, v, {v: k})`,
	`optional.of(1).orValue(2)`, `1 == 1.0`, `1 < 2u`, `has({"a": 1}.a)`,
	// base environment checks: undeclared and mistyped calls, literal validators
	`duration("1x")`, `timestamp("bad")`, `"a".matches("(")`, `[1, "a"]`, `x.name()`, `"a".name("b")`,
	`type(url("https://a"))`, `type(quantity("1"))`, `type(semver("1.0.0"))`, `type(format.uuid())`, `type(ip("::1"))`,
	`type(url("https://a")) == type(url("https://b"))`, `type(quantity("1")) == type(semver("1.0.0"))`,
	`dyn(quantity("1")) == dyn(1)`, `dyn(ip("::1")) == dyn("::1")`, `dyn(semver("1.0.0")) == dyn(url("https://a"))`,
	`[quantity("1"), quantity("2")].exists(q, q.isInteger())`, `{"a": ip("::1")}["a"].family()`,
	`"x".check("y")`, `1.validate("x")`, `quantity(1)`, `url("https://a").getQuery().size()`,
	// variables sized by a schema-like size estimator (every variable and its items: 0..20)
	`vars:strs.isSorted()`, `vars:ints.sum()`, `vars:strs.indexOf("bb")`, `vars:strs.max()`, `vars:ints.min()`,
	`vars:str.find("o+")`, `vars:str.findAll("[a-z]+", 1)`, `vars:url(str)`, `vars:isURL(str)`, `vars:quantity(str)`,
	`vars:isQuantity(str)`, `vars:ip(str)`, `vars:isIP(str)`, `vars:ip.isCanonical(str)`, `vars:cidr(str)`, `vars:isCIDR(str)`,
	`vars:cidr("10.0.0.0/8").containsIP(str)`, `vars:cidr("10.0.0.0/8").containsCIDR(str)`, `vars:semver(str)`,
	`vars:isSemver(str, true)`, `vars:format.dns1123Label().validate(str)`, `vars:format.named(str)`,
	`vars:str.lowerAscii()`, `vars:str.upperAscii()`, `vars:str.substring(1)`, `vars:str.trim()`,
	`vars:str.replace("o", "00")`, `vars:str.replace(str, "")`, `vars:str.split(" ")`, `vars:str.split(" ", 1)`,
	`vars:strs.join(", ")`, `vars:strs.join()`, `vars:strs.all(s, s.find("b") == "")`,
	`vars:strs.exists(s, s == str)`, `vars:ints.indexOf(2)`, `vars:strs.lastIndexOf(str)`,
	`vars:objs.indexOf({"a": 1})`, `vars:objs.lastIndexOf({"a": 2})`, `vars:m.all(k, k.find("z") == "")`,
	`vars:[m, m].indexOf(m)`, `vars:url(m["u"]).getHost()`,
}

func evalRow(t *testing.T, expr string) goldenRow {
	t.Helper()
	row := goldenRow{Expr: expr}
	src := expr
	opt := BaseLib()
	if len(src) > 7 && src[:7] == "stored:" {
		src = src[7:]
		row.Stored = true
		opt = StoredBaseLib()
	}
	var vars any = cel.NoVars()
	var sizes checker.CostEstimator
	opts := []cel.EnvOption{opt}
	if strings.HasPrefix(src, "vars:") {
		src = strings.TrimPrefix(src, "vars:")
		opts = append(opts, celrender.VarDecls()...)
		vars = celrender.Vars()
		sizes = celrender.VarSizes{}
	}
	env, err := cel.NewEnv(opts...)
	if err != nil {
		t.Fatalf("env: %v", err)
	}
	if err := celrender.Eval(&row, env, src, vars, &CostEstimator{SizeEstimator: sizes}); err != nil {
		t.Fatalf("%s: estimate: %v", expr, err)
	}
	return row
}

func marshalRows(rows []goldenRow) []byte {
	var buf bytes.Buffer
	buf.WriteString("[\n")
	for i, r := range rows {
		b, _ := json.Marshal(r)
		buf.Write(b)
		if i < len(rows)-1 {
			buf.WriteString(",")
		}
		buf.WriteString("\n")
	}
	buf.WriteString("]\n")
	return buf.Bytes()
}

// TestGoldenCosts pins, for every expression, the compile error or the
// rendered result, the static cost estimate (min, max) and the runtime cost,
// in one assertion per row.
func TestGoldenCosts(t *testing.T) {
	var rows []goldenRow
	for _, e := range goldenExprs {
		rows = append(rows, evalRow(t, e))
	}
	got := marshalRows(rows)
	const path = "testdata/costs.golden"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	var wantRows []goldenRow
	if err := json.Unmarshal(want, &wantRows); err != nil {
		t.Fatal(err)
	}
	if len(wantRows) != len(rows) {
		t.Fatalf("golden has %d rows, want %d (run with -update)", len(wantRows), len(rows))
	}
	for i := range rows {
		if rows[i] != wantRows[i] {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, rows[i], wantRows[i])
		}
	}
}

package names

import (
	"regexp"
	"testing"
)

// The hand-written matchers against the regexps they replace: every string
// of up to 5 characters over an alphabet of each class's edge cases, then
// the fuzzer's.
var matcherFormats = []struct {
	name  string
	fmt   string
	match func(string) bool
}{
	{"dns1123Label", dns1123LabelFmt, matchDNS1123Label},
	{"dns1123Subdomain", dns1123SubdomainFmt, matchDNS1123Subdomain},
	{"dns1035Label", dns1035LabelFmt, matchDNS1035Label},
	{"labelKey", labelKeyFmt, matchLabelKey},
	{"labelValue", labelValueFmt, matchLabelValue},
}

func checkMatchers(t *testing.T, res []*regexp.Regexp, s string) {
	t.Helper()
	for i, m := range matcherFormats {
		if want, got := res[i].MatchString(s), m.match(s); got != want {
			t.Errorf("%s(%q) = %v, the regexp %q says %v", m.name, s, got, res[i], want)
		}
	}
}

func compiledFormats() []*regexp.Regexp {
	res := make([]*regexp.Regexp, len(matcherFormats))
	for i, m := range matcherFormats {
		res[i] = regexp.MustCompile("^" + m.fmt + "$")
	}
	return res
}

func TestMatchersAgreeWithFormats(t *testing.T) {
	res := compiledFormats()
	alphabet := []string{"a", "z", "A", "Z", "0", "9", "-", "_", ".", "/", "\n", " ", "é", "\xff"}
	var walk func(prefix string, n int)
	count := 0
	walk = func(prefix string, n int) {
		checkMatchers(t, res, prefix)
		count++
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			walk(prefix+c, n-1)
		}
	}
	walk("", 5)
	for _, s := range []string{"my-name", "123-abc", "example.com", "a.b-c.d", "a..b", ".a", "a.", "MyName", "my.name", "my_value", "_x", "x_1", "a\n", "\na"} {
		checkMatchers(t, res, s)
	}
	if count < 500000 {
		t.Fatalf("checked only %d strings", count)
	}
}

func FuzzMatchersAgreeWithFormats(f *testing.F) {
	res := compiledFormats()
	for _, s := range []string{"", "my-name", "a.b", "A_b.c-9", "1a", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkMatchers(t, res, s) })
}

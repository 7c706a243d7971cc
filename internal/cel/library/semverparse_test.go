package library

import "testing"

func TestParseSemverErrorsUseBlangMessages(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "Version string empty"},
		{"1.2", "No Major.Minor.Patch elements found"},
		{"01.2.3", `Major number must not contain leading zeroes "01"`},
		{"1.x.3", `Invalid character(s) found in minor number "x"`},
		{"1.2.3-", "Prerelease is empty"},
		{"1.2.3+", "Build meta data is empty"},
		{"1.2.3-01", `Numeric PreRelease version must not contain leading zeroes "01"`},
		{"1..3", `strconv.ParseUint: parsing "": invalid syntax`},
	}
	for _, tt := range tests {
		_, err := ParseSemver(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseSemver(%q) error = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestNormalizeSemverFillsAndStrips(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"v1.2", "1.2.0", ""},
		{"v01.02.03", "1.2.3", ""},
		{"1", "1.0.0", ""},
		{"1-alpha", "", "short version cannot contain PreRelease/Build meta data"},
	}
	for _, tt := range tests {
		v, err := normalizeAndParseSemver(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || v.String() != tt.want {
			t.Errorf("%q: got %q, %v; want %q", tt.in, v.String(), err, tt.want)
		}
	}
}

func TestSemverPrecedence(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1.2.3", "1.2.4", -1},
		{"1.2.3", "1.2.3-rc.1", 1},
		{"1.2.3-alpha", "1.2.3-alpha.1", -1},
		{"1.2.3-2", "1.2.3-a", -1},
		{"1.2.3+x", "1.2.3+y", 0},
	}
	for _, tt := range tests {
		a, _ := ParseSemver(tt.a)
		b, _ := ParseSemver(tt.b)
		if got := a.Compare(b); got != tt.want {
			t.Errorf("%s vs %s = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

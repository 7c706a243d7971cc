package library

import (
	"testing"
)

func TestParseQuantityCanonicalFormAndRepresentation(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		canonical string
		asInt     int64
		isInt     bool
		float     float64
	}{
		{"plain integer keeps its text", "5", "5", 5, true, 5},
		{"decimal fraction becomes milli", "1.5", "1500m", 0, false, 1.5},
		{"milli is not an integer even when whole", "1000m", "1", 0, false, 1},
		{"binary suffix stays binary", "1Gi", "1Gi", 1 << 30, true, 1 << 30},
		{"binary fraction below 1024 becomes decimal", "0.5Ki", "512", 0, false, 512},
		{"exponent form is kept", "1e3", "1e3", 1000, true, 1000},
		{"tiny values round up to nano", "0.0000000001", "1n", 0, false, 1e-9},
		{"huge values use the decimal representation", "100000000000000000000000", "100", 0, false, 1.0000000000000001e+23},
		{"binary values clamp at max int64", "10Ei", "9223372036854775807", 0, false, 9223372036854775807},
		{"negative micro", "-0.0001", "-100u", 0, false, -0.0001},
		{"explicit plus sign is kept in the cached text", "+1k", "+1k", 1000, true, 1000},
		{"zero", "0", "0", 0, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := ParseQuantity(tt.in)
			if err != nil {
				t.Fatalf("ParseQuantity(%q): %v", tt.in, err)
			}
			if got := q.String(); got != tt.canonical {
				t.Errorf("String() = %q, want %q", got, tt.canonical)
			}
			v, ok := q.AsInt64()
			if ok != tt.isInt || (ok && v != tt.asInt) {
				t.Errorf("AsInt64() = %d, %v; want %d, %v", v, ok, tt.asInt, tt.isInt)
			}
			if got := q.AsApproximateFloat64(); got != tt.float {
				t.Errorf("AsApproximateFloat64() = %v, want %v", got, tt.float)
			}
		})
	}
}

func TestParseQuantityErrorsUseUpstreamMessages(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ErrFormatWrong.Error()},
		{"abc", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
		{"1e", "unable to parse quantity's suffix"},
		{"1Qi", ErrFormatWrong.Error()},
		{"1.2.3", ErrFormatWrong.Error()},
	}
	for _, tt := range tests {
		_, err := ParseQuantity(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseQuantity(%q) error = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestQuantityArithmeticSwitchesToDecimalOnOverflow(t *testing.T) {
	q, _ := ParseQuantity("9223372036854775807")
	one := NewResourceQuantity(1, DecimalExponent)
	c := q.DeepCopy()
	c.Add(*one)
	if got := c.String(); got != "9223372036854775808" {
		t.Errorf("sum = %q", got)
	}
	if _, ok := c.AsInt64(); ok {
		t.Errorf("overflowed sum must not be an int64")
	}
	if q.String() != "9223372036854775807" {
		t.Errorf("DeepCopy did not protect the original: %q", q.String())
	}
	m, _ := ParseQuantity("1m")
	k, _ := ParseQuantity("1k")
	m.Add(k)
	if got := m.String(); got != "1000001m" {
		t.Errorf("1m+1k = %q", got)
	}
	if m.Cmp(k) != 1 || k.Cmp(m) != -1 || m.Cmp(m) != 0 {
		t.Errorf("Cmp inconsistent")
	}
}

func TestParseQuantityAcceptsBareSignAsZero(t *testing.T) {
	// upstream quirk: "-", "+" and "." parse as zero
	for _, in := range []string{"-", "+", "."} {
		q, err := ParseQuantity(in)
		if err != nil || !q.IsZero() {
			t.Errorf("ParseQuantity(%q) = %v, %v; want zero", in, q.String(), err)
		}
	}
}

func TestQuantityHugeExponentsDoNotHang(t *testing.T) {
	huge, err := ParseQuantity("1e2000000000")
	if err != nil {
		t.Fatal(err)
	}
	milli, _ := ParseQuantity("1m")
	if huge.Cmp(milli) != 1 || milli.Cmp(huge) != -1 {
		t.Errorf("ordering of 1e2000000000 and 1m is wrong")
	}
	if huge.arithmeticInRange(&milli) {
		t.Errorf("adding 1e2000000000 and 1m must be refused")
	}
	zero, _ := ParseQuantity("0")
	if !huge.arithmeticInRange(&zero) {
		t.Errorf("adding zero never aligns scales and must be allowed")
	}
	tiny, err := ParseQuantity("1234567890123456789e-2000000000")
	if err != nil || tiny.String() != "1e-9" {
		t.Errorf("tiny = %q, %v; want 1e-9 (rounded up to nano)", tiny.String(), err)
	}
	if _, err := ParseQuantity("1234567890123456789e2000000000"); err != errQuantityRange {
		t.Errorf("err = %v, want %v", err, errQuantityRange)
	}
}

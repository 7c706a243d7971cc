package strfmt

import (
	"math/rand"
	"strings"
	"testing"
	"time"
)

func TestFormatCheckers(t *testing.T) {
	cases := []struct {
		format string
		valid  []string
		bad    []string
	}{
		{"date", []string{"2020-01-02"}, []string{"2020-1-2", "2020-02-30", "x"}},
		{"date-time", []string{"2020-01-02T03:04:05Z", "2020-01-02t03:04:05.123+01:00", "2020-01-02T23:59:59-07:00"},
			[]string{"2020-01-02T24:00:00Z", "2020-01-02 03:04:05Z", "2020-01-02T03:04:05", "2020-01-02"}},
		{"duration", []string{"1h30m", "3 days", "2 hours", "10sec", "1ns"}, []string{"2 hrs", "soon", "1 fortnight", "99999999999999999999 s", ""}},
		{"uuid", []string{"550e8400-e29b-41d4-a716-446655440000", "550E8400E29B41D4A716446655440000"}, []string{"550e8400"}},
		{"uuid4", []string{"550e8400-e29b-41d4-a716-446655440000"}, []string{"550e8400-e29b-31d4-a716-446655440000"}},
		{"hostname", []string{"foo.example.com", "localhost", "münchen.de"}, []string{"-a", "a..b", strings.Repeat("a", 64) + ".com"}},
		{"email", []string{"a@b.c", "A <a@b.c>"}, []string{"a@", "@b"}},
		{"ipv4", []string{"1.2.3.4", "01.02.03.004"}, []string{"256.1.1.1", "::1", "1.2.3"}},
		{"ipv6", []string{"::1", "::ffff:1.2.3.4"}, []string{"1.2.3.4", "fe80::1%eth0", "1::2::3"}},
		{"cidr", []string{"10.0.0.0/8", "010.0.0.0/8", "2001:db8::/32"}, []string{"10.0.0.0/33", "1.2.3.4", "1.2.3.4/"}},
		{"mac", []string{"01:23:45:67:89:ab", "01-23-45-67-89-AB", "0123.4567.89ab", "0123456789ab"}, []string{"01:23:45:67:89", "01:23-45:67:89:ab"}},
		{"uri", []string{"http://x/y", "/relative/path", "mailto:a@b"}, []string{"relative", ""}},
		{"byte", []string{"aGVsbG8=", "aGVsbA==", "a+/="}, []string{"aGVsbG8", "a="}},
		{"bsonobjectid", []string{"507f1f77bcf86cd799439011"}, []string{"507f1f77bcf86cd79943901"}},
		{"hexcolor", []string{"#fff", "fff", "#A0B1C2"}, []string{"#ffff", "#GGG"}},
		{"rgbcolor", []string{"rgb(1,2,3)", "rgb( 255 , 0 , 10 )"}, []string{"rgb(256,0,0)"}},
		{"ssn", []string{"123-45-6789", "123 45 6789"}, []string{"123456789"}},
		{"creditcard", []string{"4111111111111111", "4111-1111-1111-1111"}, []string{"4111111111111112"}},
		{"isbn", []string{"0321751043", "978-0321751041"}, []string{"9780321751042", "032175104X"}},
		{"isbn10", []string{"0321751043"}, []string{"978-0321751041"}},
		{"isbn13", []string{"978 0 321 75104 1"}, []string{"0321751043"}},
		{"password", []string{"", "anything"}, nil},
		{"k8s-short-name", []string{"a", "abc-def", strings.Repeat("a", 63)}, []string{"Abc", "-a", "a.b", strings.Repeat("a", 64)}},
		{"k8s-long-name", []string{"a.b.c", "abc-def.ghi"}, []string{"a..b", "A.b", strings.Repeat("a.", 126) + "aa"}},
	}
	for _, tc := range cases {
		check := Lookup(tc.format)
		if check == nil {
			t.Errorf("format %q is not registered", tc.format)
			continue
		}
		for _, s := range tc.valid {
			if !check(s) {
				t.Errorf("%s: %q should be valid", tc.format, s)
			}
		}
		for _, s := range tc.bad {
			if check(s) {
				t.Errorf("%s: %q should be invalid", tc.format, s)
			}
		}
	}
}

func TestIsDateTimeFastPathMatchesPattern(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	alphabet := "0123456789:-+.tTzZ x\n"
	parts := []string{"2020-01-02", "T", "t", "03:04:05", "23:59:59", "24:00:00", ".123", "Z", "z", "+01:00", "-0700", "x", "T"}
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		if r.Intn(2) == 0 {
			for j := r.Intn(6); j >= 0; j-- {
				b.WriteString(parts[r.Intn(len(parts))])
			}
		} else {
			for j := r.Intn(25); j >= 0; j-- {
				b.WriteByte(alphabet[r.Intn(len(alphabet))])
			}
		}
		s := b.String()
		if IsDateTime(s) != isDateTimeSlow(s) {
			t.Fatalf("IsDateTime(%q) = %v, pattern says %v", s, IsDateTime(s), isDateTimeSlow(s))
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"1h30m":     90 * time.Minute,
		"3 days":    72 * time.Hour,
		"2 hours":   2 * time.Hour,
		"10sec":     10 * time.Second,
		"1w 2d":     9 * 24 * time.Hour,
		"5 micro":   5 * time.Microsecond,
		"7µs":       7 * time.Microsecond,
		"1 hr 1 ms": time.Hour + time.Millisecond,
	} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "soon", "2 hrs", "99999999999999999999 s"} {
		if _, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) succeeded", in)
		}
		if IsDuration(in) {
			t.Errorf("IsDuration(%q) = true", in)
		}
	}
}

func TestParseDateTime(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "1970-01-01T00:00:00Z",
		"2020-01-02T03:04:05Z":      "2020-01-02T03:04:05Z",
		"2020-01-02T03:04:05.123Z":  "2020-01-02T03:04:05.123Z",
		"2020-01-02T03:04:05+01:00": "2020-01-02T03:04:05+01:00",
		"2020-01-02T03:04:05":       "2020-01-02T03:04:05Z",
	} {
		got, err := ParseDateTime(in)
		if err != nil || got.Format(time.RFC3339Nano) != want {
			t.Errorf("ParseDateTime(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"2020-01-02", "2020-01-02 03:04:05Z", "x"} {
		if _, err := ParseDateTime(in); err == nil {
			t.Errorf("ParseDateTime(%q) succeeded", in)
		}
	}
}

func TestParseBase64UsesTheURLAlphabet(t *testing.T) {
	if b, err := ParseBase64("_-8="); err != nil || string(b) != "\xff\xef" {
		t.Errorf("ParseBase64(_-8=) = %q, %v", b, err)
	}
	if _, err := ParseBase64("+/8="); err == nil {
		t.Error("ParseBase64(+/8=) succeeded: the standard alphabet is not upstream's")
	}
	if _, err := ParseBase64("aGVsbG8"); err == nil {
		t.Error("unpadded input must fail")
	}
}

func TestPatternsMatchTheirCheckers(t *testing.T) {
	// The CEL format library's MaxRegexSize values are these lengths
	// (upstream: len(strfmt.UUIDPattern), len(strfmt.DateTimePattern)).
	if len(UUIDPattern) != 70 || len(DateTimePattern) != 71 {
		t.Errorf("pattern lengths %d, %d", len(UUIDPattern), len(DateTimePattern))
	}
	if !IsUUID("550e8400-e29b-41d4-a716-446655440000") || !IsBase64("aGVsbG8=") || IsBase64("aGVsbG8") {
		t.Error("checkers disagree with their patterns")
	}
}

func TestSupportedStringFormatIsTheListAtCompatibilityVersion137(t *testing.T) {
	for format, want := range map[string]bool{
		"date-time": true, "datetime": true, "k8s-short-name": true, "uuid4": true, "byte": true,
		"int32": false, "": false, "iso-8601": false, "DateTime": false,
	} {
		if got := SupportedStringFormat(format); got != want {
			t.Errorf("SupportedStringFormat(%q) = %v, want %v", format, got, want)
		}
	}
}

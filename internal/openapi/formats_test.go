package openapi

import (
	"math/rand"
	"strings"
	"testing"
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
		check := lookupFormat(tc.format)
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

func TestStripUnsupportedFormat(t *testing.T) {
	cases := []struct {
		types  []string
		format string
		want   string
	}{
		{[]string{"string"}, "date-time", "date-time"},
		{nil, "uuid", "uuid"},
		{[]string{"string"}, "semver", ""},
		{[]string{"integer"}, "int32", "int32"},
		{[]string{"integer"}, "uint64", ""},
		{[]string{"number"}, "double", "double"},
		{[]string{"number"}, "int32", ""},
		{[]string{"boolean"}, "date", ""},
		{[]string{"integer", "string"}, "k8s-short-name", "k8s-short-name"},
		{[]string{"integer", "string"}, "int32", ""},
	}
	for _, tc := range cases {
		if got := stripUnsupportedFormat(tc.types, tc.format); got != tc.want {
			t.Errorf("strip(%v, %q) = %q, want %q", tc.types, tc.format, got, tc.want)
		}
	}
}

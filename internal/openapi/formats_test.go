package openapi

import "testing"

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

package openapi

import (
	"testing"

	"github.com/crdlab/crdlab/internal/kubeversion"
)

func TestStripUnsupportedFormat(t *testing.T) {
	cases := []struct {
		types  []string
		format string
		want   string
		want35 string // Kubernetes 1.35: string formats kept whatever the type
	}{
		{[]string{"string"}, "date-time", "date-time", "date-time"},
		{nil, "uuid", "uuid", "uuid"},
		{[]string{"string"}, "semver", "", ""},
		{[]string{"integer"}, "int32", "int32", ""},
		{[]string{"integer"}, "uint64", "", ""},
		{[]string{"number"}, "double", "double", ""},
		{[]string{"number"}, "int32", "", ""},
		{[]string{"boolean"}, "date", "", "date"},
		{[]string{"integer", "string"}, "k8s-short-name", "k8s-short-name", "k8s-short-name"},
		{[]string{"integer", "string"}, "int32", "", ""},
	}
	for _, tc := range cases {
		if got := stripUnsupportedFormat(tc.types, tc.format, kubeversion.Release{}); got != tc.want {
			t.Errorf("strip(%v, %q) = %q, want %q", tc.types, tc.format, got, tc.want)
		}
		if got := stripUnsupportedFormat(tc.types, tc.format, kubeversion.Of(35)); got != tc.want35 {
			t.Errorf("1.35: strip(%v, %q) = %q, want %q", tc.types, tc.format, got, tc.want35)
		}
	}
}

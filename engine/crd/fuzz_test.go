package crd

import "testing"

// FuzzDecode checks that Decode never panics, whatever the input.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(validCRD))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- {}\n"))
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":[{"schema":{"openAPIV3Schema":{"items":[{}],"additionalProperties":false}}}]}}`))
	f.Add([]byte("a: &x [*x]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Decode(data, "f.yaml")
	})
}

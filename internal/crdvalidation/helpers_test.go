package crdvalidation

import (
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/schema"
)

func mustStructural(t *testing.T, s *crd.JSONSchemaProps) *schema.Structural {
	t.Helper()
	ss, err := schema.NewStructural(s)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

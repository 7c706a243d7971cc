package schemadiff

import (
	"testing"

	upschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	upcr "k8s.io/apimachinery/pkg/api/validation"
	upfield "k8s.io/apimachinery/pkg/util/validation/field"
)

func TestNonVacuous(t *testing.T) {
	n := 0
	for _, js := range metas {
		n += len(upcr.ValidateObjectMeta(upMeta(t, js), true, upcr.NameIsDNSSubdomain, upfield.NewPath("metadata")))
	}
	m := 0
	for _, js := range schemas {
		if s, err := upStructural(t, js); err == nil {
			m += len(upschema.ValidateStructural(nil, s))
		}
	}
	t.Logf("objectmeta upstream errors: %d, structural upstream errors: %d", n, m)
}

package builtin

// Declarative validation (rest.DeclarativeValidationStrategy): from 1.36
// the API server runs the validation tags of a kind's versioned Go type
// after the handwritten validation; the tags it enforces at the release
// (standard ones, and beta ones with the DeclarativeValidationBeta gate,
// on by default) replace the handwritten errors they cover, and their
// errors come last, with their own texts (`Required value` without a
// detail, `Invalid value: null: field is immutable`). A strategy whose
// kind has enforced tags implements declarativeStrategy.

import (
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// declarativeStrategy is a Strategy whose kind has declarative validation
// enforced at some release: Declarative returns the enforced errors of a
// create (old nil) or update, in the generated validation's order (the
// fields in the Go type's order).
type declarativeStrategy interface {
	Declarative(rel kubeversion.Release, obj, old Object) field.ErrorList
}

// withDeclarative mirrors ValidateDeclarativelyWithMigrationChecks: the
// handwritten errors an enforced declarative error covers are dropped
// (FilterCoveredHandwrittenErrors matches them by type and field; the
// handwritten errors crdlab drops are the ones upstream marks
// MarkCoveredByDeclarative), then the declarative errors are appended.
func withDeclarative(rel kubeversion.Release, s Strategy, obj, old Object, errs field.ErrorList) field.ErrorList {
	dv, ok := s.(declarativeStrategy)
	if !ok {
		return errs
	}
	enforced := dv.Declarative(rel, obj, old)
	if len(enforced) == 0 {
		return errs
	}
	type at struct {
		typ   field.ErrorType
		field string
	}
	covers := make(map[at]bool, len(enforced))
	for _, d := range enforced {
		covers[at{d.Type, d.Field}] = true
	}
	kept := make(field.ErrorList, 0, len(errs))
	for _, e := range errs {
		if !covers[at{e.Type, e.Field}] {
			kept = append(kept, e)
		}
	}
	return append(kept, enforced...)
}

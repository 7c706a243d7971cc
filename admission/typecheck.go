package admission

import (
	"github.com/crdlab/crdlab/engine/crd"
	iadm "github.com/crdlab/crdlab/internal/admission"
)

// ExpressionWarning is admissionregistration/v1 ExpressionWarning: the
// type-checking warning of one expression (FieldRef) over every kind
// checked (Warning, the API server's text).
type ExpressionWarning = iadm.ExpressionWarning

// TypeCheck returns what the API server writes to a ValidatingAdmissionPolicy's
// status.typeChecking.expressionWarnings when crds are the cluster's CRDs:
// its validations and messageExpressions type-checked against the schema,
// as published in OpenAPI v3, of every served kind its matchConstraints
// match (built-in kinds have no schema here and are skipped), with params
// typed by paramKind's CRD. nil when nothing fails. See
// docs/policy-type-checking.md.
func TypeCheck(p *Policy, crds []*crd.CustomResourceDefinition) ([]ExpressionWarning, error) {
	return iadm.TypeCheck(p, crds)
}

package cel

import (
	"fmt"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/crdvalidation"
	"github.com/crdlab/crdlab/internal/schema"
)

// CRDChecker compiles the rules of a CRD schema node at CRD create/update
// time. It implements crdvalidation.CELChecker with upstream's type derivation
// (CELSchemaContext.TypeInfo in apiextensions' cel_validation.go).
type CRDChecker struct {
	perCallLimit uint64
}

// NewCRDChecker returns the CEL checker used by CRD validation.
func NewCRDChecker() *CRDChecker { return &CRDChecker{perCallLimit: PerCallLimit} }

var _ crdvalidation.CELChecker = (*CRDChecker)(nil)

// typeInfo is a structural schema node with its DeclType.
type typeInfo struct {
	schema   *schema.Structural
	declType *DeclType
}

func convertTypeInfo(s *crd.JSONSchemaProps, isRoot bool) (*typeInfo, error) {
	st, err := schema.NewStructural(s)
	if err != nil {
		return nil, err
	}
	dt := SchemaDeclType(st, isRoot)
	if dt == nil {
		return nil, fmt.Errorf("unable to convert structural schema to CEL declarations")
	}
	return &typeInfo{schema: st, declType: dt}, nil
}

func accessTypeInfo(parent *typeInfo, step crdvalidation.CELStep) *typeInfo {
	switch step.Kind {
	case crdvalidation.CELStepProperty:
		if parent.schema.Properties != nil {
			ps := parent.schema.Properties[step.Property]
			if esc, ok := Escape(step.Property); ok {
				if f, ok := parent.declType.Fields[esc]; ok {
					return &typeInfo{schema: &ps, declType: f.Type}
				}
			}
		}
	case crdvalidation.CELStepItems:
		if parent.schema.Items != nil {
			return &typeInfo{schema: parent.schema.Items, declType: parent.declType.ElemType}
		}
	case crdvalidation.CELStepAdditionalProperties:
		if parent.schema.AdditionalProperties != nil {
			return &typeInfo{schema: parent.schema.AdditionalProperties.Structural, declType: parent.declType.ElemType}
		}
	}
	return nil
}

func childSchema(s *crd.JSONSchemaProps, step crdvalidation.CELStep) *crd.JSONSchemaProps {
	if s == nil {
		return nil
	}
	switch step.Kind {
	case crdvalidation.CELStepProperty:
		if p, ok := s.Properties[step.Property]; ok {
			return &p
		}
	case crdvalidation.CELStepItems:
		if s.Items != nil {
			return s.Items.Schema
		}
	case crdvalidation.CELStepAdditionalProperties:
		if s.AdditionalProperties != nil {
			return s.AdditionalProperties.Schema
		}
	}
	return nil
}

// nodeTypeInfo derives the type of the node at the end of steps: from the
// topmost ancestor within validation rule scope down along the steps, falling
// back to converting a node on its own where the parent's type has no entry.
func nodeTypeInfo(node crdvalidation.CELNode) (*typeInfo, error) {
	nodes := []*crd.JSONSchemaProps{node.Root}
	for i, st := range node.Steps {
		if i == len(node.Steps)-1 && node.Schema != nil {
			nodes = append(nodes, node.Schema)
			continue
		}
		nodes = append(nodes, childSchema(nodes[len(nodes)-1], st))
	}
	if len(node.Steps) == 0 && node.Schema != nil {
		nodes[0] = node.Schema
	}
	start := -1
	for i, n := range nodes {
		if n != nil && len(n.XValidations) > 0 {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, nil
	}
	var ti *typeInfo
	for i := start; i < len(nodes); i++ {
		var acc *typeInfo
		if i > start && ti != nil {
			acc = accessTypeInfo(ti, node.Steps[i-1])
		}
		if acc != nil {
			ti = acc
			continue
		}
		if nodes[i] == nil {
			return nil, nil
		}
		var err error
		ti, err = convertTypeInfo(nodes[i], i == 0 || nodes[i].XEmbeddedResource)
		if err != nil {
			return nil, err
		}
	}
	return ti, nil
}

// CompileRules implements crdvalidation.CELChecker.
func (c *CRDChecker) CompileRules(node crdvalidation.CELNode) ([]crdvalidation.CELRuleResult, error) {
	ti, err := nodeTypeInfo(node)
	if err != nil {
		return nil, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err)
	}
	if ti == nil {
		return nil, fmt.Errorf("internal error: failed to retrieve type information for x-kubernetes-validations")
	}
	results, err := CompileWith(ti.schema, ti.declType, c.perCallLimit, NewExpressions)
	if err != nil {
		return nil, err
	}
	out := make([]crdvalidation.CELRuleResult, len(results))
	for i, r := range results {
		out[i] = crdvalidation.CELRuleResult{
			MaxCost:                  r.MaxCost,
			MaxCardinality:           r.MaxCardinality,
			UsesOldSelf:              r.UsesOldSelf,
			HasMessageExpression:     r.MessageExpression != nil,
			MessageExpressionMaxCost: r.MessageExpressionMaxCost,
		}
		if r.Error != nil {
			out[i].Error = &crdvalidation.CELRuleError{Required: r.Error.Type == ErrorTypeRequired, Detail: r.Error.Detail}
		}
		if r.MessageExpressionError != nil {
			out[i].MessageExpressionError = r.MessageExpressionError.Detail
		}
	}
	return out, nil
}

//go:build !versions_oracle

package upstream

import (
	"encoding/json"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/cel/environment"
)

// PolicyCompileErrors compiles the expressions of a ValidatingAdmissionPolicy
// (JSON of admissionregistration/v1) as the validating plugin does
// (compileValidatingPolicy above: the composited compiler, variables
// stored in order, StoredExpressions) and renders each compilation error
// as field.Invalid(path, expression, detail), as the API server renders a
// CEL error of type Invalid (admissionregistration validation's
// convertCELErrorToValidationError). Order: variables, matchConditions,
// validations, auditAnnotations, messageExpressions.
func PolicyCompileErrors(policyJSON []byte) ([]string, error) {
	policy := &admissionregistrationv1.ValidatingAdmissionPolicy{}
	if err := json.Unmarshal(policyJSON, policy); err != nil {
		return nil, err
	}
	hasParam := policy.Spec.ParamKind != nil
	optionalVars := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: true}
	messageVars := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: false}
	c, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return nil, err
	}
	var out []string
	check := func(path *field.Path, expr string, r plugincel.CompilationResult) {
		if r.Error != nil {
			out = append(out, field.Invalid(path, expr, r.Error.Detail).Error())
		}
	}
	spec := field.NewPath("spec")
	for i, v := range policy.Spec.Variables {
		r := c.CompileAndStoreVariable(&validating.Variable{Name: v.Name, Expression: v.Expression}, optionalVars, environment.StoredExpressions)
		check(spec.Child("variables").Index(i).Child("expression"), v.Expression, r)
	}
	for i := range policy.Spec.MatchConditions {
		m := policy.Spec.MatchConditions[i]
		r := c.CompileCELExpression((*matchconditions.MatchCondition)(&m), optionalVars, environment.StoredExpressions)
		check(spec.Child("matchConditions").Index(i).Child("expression"), m.Expression, r)
	}
	for i, v := range policy.Spec.Validations {
		r := c.CompileCELExpression(&validating.ValidationCondition{Expression: v.Expression}, optionalVars, environment.StoredExpressions)
		check(spec.Child("validations").Index(i).Child("expression"), v.Expression, r)
	}
	for i, a := range policy.Spec.AuditAnnotations {
		r := c.CompileCELExpression(&validating.AuditAnnotationCondition{Key: a.Key, ValueExpression: a.ValueExpression}, optionalVars, environment.StoredExpressions)
		check(spec.Child("auditAnnotations").Index(i).Child("valueExpression"), a.ValueExpression, r)
	}
	for i, v := range policy.Spec.Validations {
		if v.MessageExpression == "" {
			continue
		}
		r := c.CompileCELExpression(&validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}, messageVars, environment.StoredExpressions)
		check(spec.Child("validations").Index(i).Child("messageExpression"), v.MessageExpression, r)
	}
	return out, nil
}

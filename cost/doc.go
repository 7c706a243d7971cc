// Package cost reports the CEL cost of the x-kubernetes-validations rules of
// a CustomResourceDefinition, as kube-apiserver 1.37 computes and limits it.
//
// It mirrors, without importing them, the CRD-time cost accounting of
// k8s.io/apiextensions-apiserver v0.37.2: pkg/apis/apiextensions/validation
// (validation.go: getExpressionCost, StaticEstimatedCostLimit,
// StaticEstimatedCRDCostLimit; cel_validation.go: CELSchemaContext's
// MaxCardinality from maxItems/maxProperties, unboundedCardinality, TotalCost
// and its most expensive rules) and pkg/apiserver/schema/cel/compilation.go
// (the static estimate of each rule and its MaxCardinality fallback). The
// numbers themselves come from crdvalidation.CompileRules (the same
// compilation CRD validation runs, through internal/cel); the verdict and the error list come from
// internal/crdvalidation, so they are those of a create.
//
// For every rule and messageExpression, a Report gives the schema path (as
// the CRD validation errors name it), the static estimate (min, max), the
// cardinality, the cost upstream adds to the total (max × cardinality for a
// rule, max alone for a messageExpression) and its share of the limits. For
// each expression over its limit, or contributing to a schema total over the
// per-CRD limit, it lists bounds (maxItems, maxProperties, maxLength) that
// would bring it under: each is found by re-estimating the expression with a
// modified schema, binary-searching the largest bound that fits, on the
// enclosing arrays and maps and on the nodes below the rule. With objects, it
// evaluates the rules on each object (the runtime cost upstream charges to
// the per-object budget of 10,000,000).
//
// Entry points:
//
//	rep, err := cost.AnalyzeBytes(crdYAML, objectYAML...)
//	rep, err := cost.Analyze(def, objectYAML...) // def from crd.Decode
//	text := rep.Text()                          // human-readable table
//	data, _ := json.Marshal(rep)                // the stable JSON document
//
// The JSON document (json.Marshal of Report; keys are stable) is:
//
//	{
//	  "crd": "<metadata.name>",
//	  "limits": {"perExpression": 10000000, "perCRD": 100000000,
//	             "perCall": 1000000, "perObject": 10000000},
//	  "accepted": true|false,            // the CRD create verdict
//	  "errors": [{"type","field","detail","message"}],  // all CRD errors
//	  "costErrors": [...],               // the static cost subset
//	  "rules": [{                        // one per rule and messageExpression
//	    "schema": "spec.validation.openAPIV3Schema", // or spec.versions[i].schema.openAPIV3Schema
//	    "path": "<the node, e.g. spec.validation.openAPIV3Schema.properties[spec]>",
//	    "dataPath": "<where it applies in objects, e.g. spec.items[*]; <root>>",
//	    "index": i, "field": "rule"|"messageExpression",
//	    "errorPath": "<path>.x-kubernetes-validations[i].rule",
//	    "expression": "...",
//	    "cardinality": N, "cardinalityBounded": bool,
//	    "estimate": {"min": a, "max": b}, // no min for a messageExpression
//	    "estimatedCost": c,              // as upstream sums it
//	    "limitShare": c/10000000, "overBudget": bool,
//	    "contributesToTotalOverLimit": bool,  // named by upstream's errors
//	    "compileError": "...",
//	    "suggestions": [{"keyword": "maxItems"|"maxProperties"|"maxLength",
//	        "path", "dataPath", "max", "current", "target", "estimatedCost"}],
//	    "suggestionNote": "...",         // why there is none
//	    "advice": [{"kind", "subExpression", "estimatedCostWithout",
//	        "move": {suggestion}, "message"}], // over the limit: why
//	    "runtimeCost": [per object], "evaluations": [per object]
//	  }],
//	  "schemas": [{"schema", "totalEstimatedCost", "limitShare", "overLimit",
//	               "suggestions", "suggestionNote"}],
//	  "totalEstimatedCost": T,           // the largest schema total
//	  "totalLimitShare": T/100000000,
//	  "objects": [{"index", "source", "kind", "name", "version", "totalCost", "budgetShare",
//	               "overBudget", "note", "errors", "error"}],
//	  "suggestionsTruncated": bool
//	}
//
// A suggestion's target is "perExpression" (the expression alone under
// 10,000,000), "perCRD" (the expression's share of the schema total, the
// other expressions unchanged) or "schemaTotal" (on a schema: the total
// under 100,000,000, every affected expression re-estimated). Max is the
// largest value that fits; one more does not. The search re-estimates at
// most 2,000 times per report (suggestionsTruncated says it stopped).
//
// Advice (Rule.Advice, for an expression over its limit) names what makes
// the estimate large: a string() conversion, a concatenation inside a macro,
// a macro nested in another, matches() on a string without maxLength (each
// reported when replacing it by a constant of its type brings the expression
// under the limit, or divides its cost by 100), or a bound written only
// inside allOf/anyOf/oneOf, which the estimator ignores (kubernetes#139523),
// with the cost once it is written on the node. Every figure is a
// re-estimation.
//
// Benchmark times what Analyze counts: every rule and messageExpression on
// every object (median wall time with the 10th and 90th percentiles,
// allocations, nanoseconds per cost unit), and each phase of the object's
// validation (decode, prune, default, openapi, cel, and the whole request).
// Objects of another group or kind than the CRD's are skipped with an error
// ("skipped: ...") by Analyze and Benchmark alike. The measurement is in
// this package (measure.go) so that the wasm ABI and the JS binding can
// expose it later; they do not yet.
//
// Runtime costs are those of a create: the object goes through the engine's
// request pipeline (pruning, defaulting) when the CRD can serve it, then
// every rule runs with upstream's per-call limit and per-object budget. The
// API server skips the rules when the object has blocking errors (required,
// too long, ...); the object's note says so, and the costs are still given.
//
// Known differences from upstream: upstream keeps neither the minimum of
// an estimate nor a per-rule runtime breakdown (only the remaining budget),
// so those are crdlab's own (the sums equal upstream's). "perCRD"
// suggestions assume the other expressions keep their cost.
package cost

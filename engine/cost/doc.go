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
// numbers themselves come from engine/cel (the same CRD checker that
// engine/crd/validation runs); the verdict and the error list come from
// engine/crd/validation, so they are those of a create.
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
// The JSON document (schema version 1) is:
//
//	{
//	  "crd": "<metadata.name>",
//	  "limits": {"perExpression": 10000000, "perCRD": 100000000,
//	             "perCall": 1000000, "perObject": 10000000},
//	  "accepted": true|false,          // the CRD create verdict
//	  "errors": [{"type","field","detail","message"}],  // all CRD errors
//	  "costErrors": [...],             // the cost-related subset
//	  "rules": [{
//	    "schema": "spec.validation.openAPIV3Schema",  // or spec.versions[i].schema.openAPIV3Schema
//	    "path": "<schema path of the node>",
//	    "dataPath": "<where it applies in objects, e.g. spec.items[*]>",
//	    "index": i, "field": "rule"|"messageExpression",
//	    "errorPath": "<path>.x-kubernetes-validations[i].rule",
//	    "expression": "...",
//	    "cardinality": N, "cardinalityBounded": true|false,
//	    "estimate": {"min": a, "max": b},  // min omitted for messageExpression
//	    "estimatedCost": c, "limitShare": c/10000000,
//	    "overBudget": bool, "contributesToTotalOverLimit": bool,
//	    "compileError": "...",
//	    "suggestions": [{"keyword","path","dataPath","max","current","target"}],
//	    "runtimeCost": [<per object>], "evaluations": [<per object>]
//	  }],
//	  "schemas": [{"schema", "totalEstimatedCost", "limitShare", "overLimit"}],
//	  "totalEstimatedCost": T,          // the largest schema total
//	  "totalLimitShare": T/100000000,
//	  "objects": [{"index","name","version","totalCost","budgetShare",
//	               "overBudget","errors"}]
//	}
//
// Known differences from upstream: upstream does not keep the minimum of a
// messageExpression's estimate, nor a per-rule runtime breakdown (only the
// remaining budget); the suggestions for a schema total over the limit
// assume the other rules keep their cost (a bound that also lowers other
// rules may be larger than suggested).
package cost

// Package openapi validates custom resource values against a CRD's OpenAPI v3
// schema exactly as kube-apiserver 1.37 does.
//
// It mirrors k8s.io/apiextensions-apiserver/pkg/apiserver/validation
// (NewSchemaValidator with unsupported formats stripped, ValidateCustomResource,
// ValidateCustomResourceUpdate with CRDValidationRatcheting, the mapping of
// kube-openapi results to field errors) on top of a reimplementation of
// k8s.io/kube-openapi/pkg/validation/validate: the same keywords checked in
// the same order (type, allOf/anyOf/oneOf/not/dependencies, string, format,
// number, array, enum, object), the same message templates, the same
// de-duplication of identical messages, the same "match count" used to pick
// the reported branch of anyOf/oneOf, and the format checkers of
// kube-openapi's strfmt.Default registry (including k8s-short-name and
// k8s-long-name; they live in internal/strfmt, shared with CEL).
//
// Instead of kube-openapi's reflective validator tree, a Validator compiles
// the schema once (regular expressions, enums, formats, number ranges) into
// an immutable tree and validates decoded JSON values (map[string]interface{},
// []interface{}, string, int64, float64, bool, nil) with a direct walk. A
// Validator is safe for concurrent use.
//
// Ordering: kube-openapi iterates Go maps (properties, patternProperties,
// dependencies and the keys of the validated object) in Go's randomised map
// order, so upstream's error order between sibling map entries is not
// deterministic. This package visits them in sorted key order; everything
// else (keyword order, list order, required order) is upstream's.
//
// Ratcheting (ValidateUpdate) follows upstream's ratchetingValueValidator and
// k8s.io/apiserver/pkg/cel/common.CorrelatedObject: old and new values are
// correlated by property name (properties and additionalProperties schemas)
// and by map key for x-kubernetes-list-type=map lists; errors found in a
// correlated subtree whose new value deep-equals its old value are dropped.
// Subschemas of allOf/anyOf/oneOf/not are validated without ratcheting, and
// apiVersion/kind at the root are never ratcheted, as upstream.
package openapi

package jsonschema

import (
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/strfmt"
)

// formatChecked reports whether the API server checks the format of s's
// string values (int32, int64, float and double only take part in type
// checks, which the type keyword expresses).
func formatChecked(s *crd.JSONSchemaProps) bool {
	if s.Type != "" && s.Type != "string" {
		return false
	}
	return strfmt.SupportedStringFormat(s.Format)
}

const hex = "[0-9a-fA-F]"

// formatConstraints are the formats kube-openapi checks with a regular
// expression (and a length), written as JSON Schema keywords: the same
// language under santhosh-tekuri/jsonschema (Go regexp) and, for these
// ASCII patterns, under ECMA-262 regular expressions. nil: the format checks nothing.
var formatConstraints = map[string]map[string]interface{}{
	"password":     nil,
	"uuid":         {"pattern": "^" + hex + "{8}-?" + hex + "{4}-?" + hex + "{4}-?" + hex + "{4}-?" + hex + "{12}$"},
	"uuid3":        {"pattern": "^" + hex + "{8}-?" + hex + "{4}-?3" + hex + "{3}-?" + hex + "{4}-?" + hex + "{12}$"},
	"uuid4":        {"pattern": "^" + hex + "{8}-?" + hex + "{4}-?4" + hex + "{3}-?[89abAB]" + hex + "{3}-?" + hex + "{12}$"},
	"uuid5":        {"pattern": "^" + hex + "{8}-?" + hex + "{4}-?5" + hex + "{3}-?[89abAB]" + hex + "{3}-?" + hex + "{12}$"},
	"hexcolor":     {"pattern": "^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"},
	"rgbcolor":     {"pattern": `^rgb\([ \t\n\f\r]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[ \t\n\f\r]*,[ \t\n\f\r]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[ \t\n\f\r]*,[ \t\n\f\r]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[ \t\n\f\r]*\)$`},
	"byte":         {"pattern": `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$`},
	"ssn":          {"pattern": `^[0-9]{3}[- ][0-9]{2}[- ][0-9]{4}$`},
	"k8sshortname": {"pattern": "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$"},
	"k8slongname":  {"pattern": `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`, "maxLength": 253},
}

// formatConstraint returns the JSON Schema form of a format check, and
// false when JSON Schema cannot express it exactly.
func formatConstraint(format string) (map[string]interface{}, bool) {
	fc, ok := formatConstraints[strfmt.Normalize(format)]
	if !ok {
		return nil, false
	}
	if fc == nil {
		return nil, true
	}
	cp := make(map[string]interface{}, len(fc))
	for k, v := range fc {
		cp[k] = v
	}
	return cp, true
}

// FormatExpressed reports whether the check kube-apiserver makes for a
// string format is expressed exactly by the exported schemas (as a
// pattern). Formats the API server does not check are expressed trivially.
func FormatExpressed(format string) bool {
	if !strfmt.SupportedStringFormat(format) {
		return true
	}
	_, ok := formatConstraint(format)
	return ok
}

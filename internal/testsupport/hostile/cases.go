package hostile

import (
	"bytes"
	"fmt"
	"strings"
)

const callLimit = "call cost exceeds limit"

// tooLarge is the API server's 413 for a request body over 3 MiB.
const tooLarge = "Request entity too large: limit is 3145728"

// upstreamByName and upstreamByClass are the API server's behaviour on the
// inputs, as the audit of issue 16 measured it through upstream's own code
// (k8s.io/apiextensions-apiserver v0.37.2 called as kube-apiserver calls
// it); cases it did not measure have none.
var upstreamByName = map[string]string{
	"cel-replace-empty-100k":       "**crashes**: `fatal error: out of memory` (a 10 GB allocation, before any cost is charged)",
	"cel-matches-3mb":              "87 s, then the cost error",
	"cel-matches-variable-pattern": "the same regex as cel-matches-3mb: 87 s class",
	"cel-isQuantity-3m-digits":     "16–19 s (the audit, crdlab and upstream alike)",
	"cel-quantity-3m-digits":       "16–19 s (the audit, crdlab and upstream alike)",
	"enum-100k-on-1000-items":      "3.8 GB peak RSS",
	"enum-1m-one-value":            "413: the 16 MB CRD body is over 3 MiB",
	"object-6mb":                   "413: Request entity too large: limit is 3145728",
	"array-1m-nulls":               "413: the 5 MB body is over 3 MiB",
}

var upstreamByClass = map[string]string{
	"YAML alias bomb": "clear error within milliseconds",
	"deep nesting":    "clear error within milliseconds",
	"duplicate keys":  "clear error within milliseconds",
}

// Cases returns the hostile set, in report order.
func Cases() []Case {
	var cs []Case
	add := func(c Case) {
		if u, ok := upstreamByName[c.Name]; ok {
			c.Upstream = u
		} else {
			c.Upstream = upstreamByClass[c.Class]
		}
		cs = append(cs, c)
	}

	// ---- CEL: calls whose cost or result size depends on the data ----
	add(Case{Name: "cel-replace-empty-100k", Class: "CEL result-size bomb",
		CRD:    func() []byte { return crdWith(stringSpec(0, rule("self.s.replace('', self.s).size() > 0"))) },
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("a", 100000)}) },
		Expect: callLimit})
	add(Case{Name: "cel-replace-empty-small", Class: "CEL result-size bomb (control)", Fast: true,
		CRD:    func() []byte { return crdWith(stringSpec(0, rule("self.s.replace('', self.s).size() == 120"))) },
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("a", 10)}) },
		Expect: Valid})
	add(Case{Name: "cel-join-8x340k", Class: "CEL result-size bomb", Fast: true,
		CRD: func() []byte {
			// the separator is the joined list: 7 × 2,720,000 characters
			return crdWith(map[string]interface{}{"type": "object", "properties": map[string]interface{}{
				"l": map[string]interface{}{"type": "array", "maxItems": 8, "items": map[string]interface{}{"type": "string", "maxLength": 340000}}},
				"x-kubernetes-validations": []interface{}{rule("self.l.join(self.l.join('')).size() > 0")}})
		},
		Object: func() []byte {
			s := strings.Repeat("j", 340000)
			return object(map[string]interface{}{"l": []interface{}{s, s, s, s, s, s, s, s}})
		},
		Expect: callLimit})
	add(Case{Name: "object-6mb", Class: "request body limit", Fast: true,
		CRD:    func() []byte { return crdWith(stringSpec(0)) },
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("b", 6000000)}) },
		Expect: tooLarge})
	add(Case{Name: "cel-concat-2mb", Class: "CEL result-size bomb", Fast: true,
		CRD: func() []byte {
			return crdWith(stringSpec(0, rule("(self.s + self.s + self.s + self.s + self.s + self.s).size() > 0")))
		},
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("c", 2<<20)}) },
		Expect: callLimit})
	add(Case{Name: "cel-format-bomb", Class: "CEL result-size bomb", Fast: true,
		CRD: func() []byte {
			return crdWith(stringSpec(0, rule("'%s%s%s%s%s%s%s%s%s%s%s%s'.format([self.s, self.s, self.s, self.s, self.s, self.s, self.s, self.s, self.s, self.s, self.s, self.s]).size() > 0")))
		},
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("f", 1<<20)}) },
		Expect: callLimit})
	add(Case{Name: "cel-matches-3mb", Class: "CEL regex on a huge input", Fast: true,
		CRD:    func() []byte { return crdWith(stringSpec(0, rule(`self.s.matches('^([\\p{L}\\p{N}]{0,1000})*$')`))) },
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("x", 3000000)}) },
		Expect: callLimit})
	add(Case{Name: "cel-matches-variable-pattern", Class: "CEL regex on a huge input", Fast: true,
		CRD: func() []byte {
			spec := stringSpec(0, rule(`self.s.matches(self.p)`))
			spec["properties"].(map[string]interface{})["p"] = map[string]interface{}{"type": "string", "maxLength": 28}
			return crdWith(spec)
		},
		Object: func() []byte {
			return object(map[string]interface{}{"s": strings.Repeat("x", 3000000), "p": `^([\p{L}\p{N}]{0,1000})*$`})
		},
		Expect: callLimit})
	add(Case{Name: "cel-findAll-3mb", Class: "CEL regex on a huge input", Fast: true,
		CRD:    func() []byte { return crdWith(stringSpec(0, rule(`self.s.findAll('[a-z]{1,1000}').size() >= 0`))) },
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("x", 3000000)}) },
		Expect: callLimit})
	add(Case{Name: "cel-isQuantity-3m-digits", Class: "CEL parse of a huge input",
		CRD:    func() []byte { return crdWith(stringSpec(0, rule(`isQuantity(self.s)`))) },
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("9", 3000000)}) },
		Expect: Valid})
	add(Case{Name: "cel-quantity-3m-digits", Class: "CEL parse of a huge input",
		CRD:    func() []byte { return crdWith(stringSpec(0, rule(`quantity(self.s).isInteger()`))) },
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("7", 3000000)}) },
		Expect: "failed rule: quantity(self.s).isInteger()"})
	add(Case{Name: "cel-semver-3m-digits", Class: "CEL parse of a huge input", Fast: true,
		CRD:    func() []byte { return crdWith(stringSpec(0, rule(`!isSemver(self.s)`))) },
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("1", 3000000)}) },
		Expect: Valid})
	add(Case{Name: "cel-lowerAscii-3mb", Class: "CEL under the limit (control)", Fast: true,
		CRD:    func() []byte { return crdWith(stringSpec(0, rule(`self.s.lowerAscii() == self.s`))) },
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("l", 3000000)}) },
		Expect: Valid})
	add(Case{Name: "cel-messageExpression-bomb", Class: "CEL messageExpression cost bomb", Fast: true,
		CRD: func() []byte {
			return crdWith(stringSpec(0, map[string]interface{}{"rule": "self.s == 'x'", "messageExpression": "self.s.replace('', self.s)"}))
		},
		Object: func() []byte { return object(map[string]interface{}{"s": strings.Repeat("m", 100000)}) },
		Expect: "call cost exceeds limit for messageExpression"})
	add(Case{Name: "cel-10000-rules", Class: "many rules",
		CRD: func() []byte {
			rs := make([]map[string]interface{}, 10000)
			for i := range rs {
				rs[i] = rule(fmt.Sprintf("self.s.size() != %d", i+1000))
			}
			return crdWith(stringSpec(64, rs...))
		},
		Object: func() []byte { return object(map[string]interface{}{"s": "ok"}) },
		Expect: Valid})

	// ---- schema checks that copy per item ----
	add(Case{Name: "enum-100k-on-1000-items", Class: "huge enum", Fast: true,
		CRD: func() []byte {
			return crdWith(map[string]interface{}{"type": "object", "properties": map[string]interface{}{
				"l": map[string]interface{}{"type": "array", "items": map[string]interface{}{"type": "string", "enum": enumValues(100000)}}}})
		},
		Object: func() []byte {
			l := make([]interface{}, 1000)
			for i := range l {
				l[i] = "nope"
			}
			return object(map[string]interface{}{"l": l})
		},
		Expect:     `spec.l[0]: Unsupported value: "nope": supported values: "value-0000000", "value-0000001"`,
		ExpectWasm: "ResponseTooLarge: the result's 1000 errors and 0 warnings render to about"})
	add(Case{Name: "enum-1m-one-value", Class: "huge enum",
		CRD: func() []byte {
			return crdWith(map[string]interface{}{"type": "object", "properties": map[string]interface{}{
				"s": map[string]interface{}{"type": "string", "enum": enumValues(1000000)}}})
		},
		Object: func() []byte { return object(map[string]interface{}{"s": "value-0999999"}) },
		Expect: tooLarge}) // a 16 MB CRD
	add(Case{Name: "enum-150k-one-value", Class: "huge enum",
		CRD: func() []byte {
			return crdWith(map[string]interface{}{"type": "object", "properties": map[string]interface{}{
				"s": map[string]interface{}{"type": "string", "enum": enumValues(150000)}}})
		},
		Object: func() []byte { return object(map[string]interface{}{"s": "value-0149999"}) },
		Expect: Valid})
	add(Case{Name: "default-1mb", Class: "huge default", Fast: true,
		CRD: func() []byte {
			return crdWith(map[string]interface{}{"type": "object", "properties": map[string]interface{}{
				"s": map[string]interface{}{"type": "string", "default": strings.Repeat("d", 1<<20)}}})
		},
		Object: func() []byte { return object(map[string]interface{}{}) },
		Expect: Valid})
	add(Case{Name: "set-100k-duplicates", Class: "list-type set/map uniqueness", Fast: true,
		CRD: func() []byte {
			return crdWith(map[string]interface{}{"type": "object", "properties": map[string]interface{}{
				"l": map[string]interface{}{"type": "array", "x-kubernetes-list-type": "set", "items": map[string]interface{}{"type": "integer"}}}})
		},
		Object: func() []byte {
			l := make([]interface{}, 100000)
			for i := range l {
				l[i] = i % 50000
			}
			return object(map[string]interface{}{"l": l})
		},
		Expect: "spec.l[50000]: Duplicate value: 0"})
	add(Case{Name: "map-list-100k", Class: "list-type set/map uniqueness",
		CRD: func() []byte {
			return crdWith(map[string]interface{}{"type": "object", "properties": map[string]interface{}{
				"l": map[string]interface{}{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []interface{}{"a", "b"},
					"items": map[string]interface{}{"type": "object", "required": []interface{}{"a", "b"}, "properties": map[string]interface{}{
						"a": map[string]interface{}{"type": "string"}, "b": map[string]interface{}{"type": "integer"}}}}}})
		},
		Object: func() []byte {
			l := make([]interface{}, 100000)
			for i := range l {
				l[i] = map[string]interface{}{"a": "k", "b": i}
			}
			return object(map[string]interface{}{"l": l})
		},
		Expect: Valid})

	// ---- decoding ----
	add(Case{Name: "yaml-alias-bomb-object", Class: "YAML alias bomb", Fast: true,
		CRD: plainCRD, Object: func() []byte { return aliasBomb(objectHeader()) },
		Expect: "alias"})
	add(Case{Name: "yaml-alias-bomb-crd", Class: "YAML alias bomb", Fast: true,
		CRD: func() []byte {
			return aliasBomb("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: " + plural + "." + group + "\n")
		},
		Expect: "alias"})
	for _, depth := range []int{10000, 100000} {
		depth := depth
		add(Case{Name: fmt.Sprintf("json-nesting-%d", depth), Class: "deep nesting", Fast: depth == 10000,
			CRD: plainCRD, Object: func() []byte {
				return []byte(`{"apiVersion":"` + group + "/" + version + `","kind":"` + kind + `","metadata":{"name":"h"},"spec":{"x":` +
					strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}}")
			},
			Expect: nestingExpect(depth)})
		add(Case{Name: fmt.Sprintf("yaml-nesting-%d", depth), Class: "deep nesting", Fast: depth == 10000,
			CRD: plainCRD, Object: func() []byte {
				return []byte(objectHeader() + "spec:\n  x: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n")
			},
			Expect:     nestingExpect(depth),
			ExpectNode: "Maximum call stack size exceeded (the input nests deeper than this JavaScript engine's call stack allows"})
		add(Case{Name: fmt.Sprintf("json-object-nesting-%d", depth), Class: "deep nesting", Fast: depth == 10000,
			CRD: plainCRD, Object: func() []byte {
				return []byte(`{"apiVersion":"` + group + "/" + version + `","kind":"` + kind + `","metadata":{"name":"h"},"spec":{"x":` +
					strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth) + "}}")
			},
			Expect: nestingExpect(depth)})
	}
	add(Case{Name: "array-1m-ints", Class: "huge arrays",
		CRD: plainCRD, Object: func() []byte {
			return []byte(objectJSONPrefix() + `"spec":{"a":[` + strings.TrimSuffix(strings.Repeat("1,", 1000000), ",") + "]}}")
		},
		Expect: Valid})
	add(Case{Name: "array-1m-nulls", Class: "huge arrays",
		CRD: plainCRD, Object: func() []byte {
			return []byte(objectJSONPrefix() + `"spec":{"a":[` + strings.TrimSuffix(strings.Repeat("null,", 1000000), ",") + "]}}")
		},
		Expect: tooLarge}) // 5 MB
	add(Case{Name: "array-600k-nulls", Class: "huge arrays",
		CRD: plainCRD, Object: func() []byte {
			return []byte(objectJSONPrefix() + `"spec":{"a":[` + strings.TrimSuffix(strings.Repeat("null,", 600000), ",") + "]}}")
		},
		Expect: Valid})
	add(Case{Name: "key-1mb", Class: "huge keys", Fast: true,
		CRD: plainCRD, Object: func() []byte {
			return []byte(objectJSONPrefix() + `"spec":{"` + strings.Repeat("k", 1<<20) + `":1}}`)
		},
		Expect: Valid})
	add(Case{Name: "number-1e400", Class: "huge numbers", Fast: true,
		CRD: plainCRD, Object: func() []byte { return []byte(objectJSONPrefix() + `"spec":{"n":1e400}}`) },
		Expect: "1e400"})
	add(Case{Name: "number-1m-digits", Class: "huge numbers", Fast: true,
		CRD: plainCRD, Object: func() []byte {
			return []byte(objectJSONPrefix() + `"spec":{"n":` + strings.Repeat("9", 1000000) + "}}")
		},
		Expect: "cannot unmarshal number"})
	add(Case{Name: "invalid-utf8", Class: "encoding", Fast: true,
		CRD: plainCRD, Object: func() []byte { return []byte(objectJSONPrefix() + "\"spec\":{\"s\":\"\xff\xfe\xc3\"}}") },
		Expect: Valid})
	add(Case{Name: "bom-yaml", Class: "encoding", Fast: true,
		CRD: plainCRD, Object: func() []byte { return append([]byte("\xef\xbb\xbf"), objectHeader()+"spec:\n  a: 1\n"...) },
		Expect: Valid})
	add(Case{Name: "crlf-yaml", Class: "encoding", Fast: true,
		CRD: plainCRD, Object: func() []byte {
			return []byte(strings.ReplaceAll(objectHeader()+"spec:\n  a: 1\n  b:\n  - x\n", "\n", "\r\n"))
		},
		Expect: Valid})
	add(Case{Name: "duplicate-keys-every-level", Class: "duplicate keys", Fast: true,
		CRD: plainCRD, Object: func() []byte {
			return []byte(`{"apiVersion":"` + group + "/" + version + `","kind":"` + kind + `","kind":"` + kind +
				`","metadata":{"name":"h","name":"h"},"spec":{"a":{"b":{"c":1,"c":2},"b":{"c":3}},"a":1}}`)
		},
		Expect: "duplicate field"})
	add(Case{Name: "empty-documents-100k", Class: "many documents",
		CRD: plainCRD, Object: func() []byte {
			return []byte(strings.Repeat("---\n", 100000) + objectHeader() + "spec: {}\n")
		},
		Expect: Valid})
	return cs
}

// nestingExpect: upstream's JSON decoder stops at depth 10,000 (the
// object, spec and x levels come on top of the generated depth).
func nestingExpect(depth int) string {
	return "exceeded max depth"
}

func objectHeader() string {
	return "apiVersion: " + group + "/" + version + "\nkind: " + kind + "\nmetadata:\n  name: h\n"
}

func objectJSONPrefix() string {
	return `{"apiVersion":"` + group + "/" + version + `","kind":"` + kind + `","metadata":{"name":"h"},`
}

// aliasBomb appends a "billion laughs" spec to a YAML header: nine levels
// of anchors, each referring to the previous one nine times.
func aliasBomb(header string) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("spec:\n")
	b.WriteString("  a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "  a%d: &a%d [", i, i)
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.Bytes()
}

// Package yamljson reads a YAML document into the value that
// sigs.k8s.io/yaml.YAMLToJSON followed by decoding its JSON output would
// give — what kubectl sends and the API server decodes — without producing
// and re-parsing the JSON, for the documents where that value is certain.
package yamljson

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	yamlv2 "sigs.k8s.io/yaml/goyaml.v2"
)

// MaxDepth bounds the nesting the shortcut follows; deeper documents take
// the caller's YAMLToJSON path (and its errors).
const MaxDepth = 10000

// Number turns a JSON number literal, as encoding/json writes it, into the
// value the caller's JSON decoding would give (e.g. json.Number, or int64
// when the literal is an integer and float64 otherwise).
type Number func(literal string) (interface{}, bool)

// Value parses data with goyaml.v2 (YAMLToJSON's parser) and converts the
// result as YAMLToJSON and a JSON decoder would: string-keyed mappings to
// map[string]interface{}, sequences to []interface{}, strings, booleans and
// nulls as they are, and numbers through number, given the literal
// json.Marshal writes for them. It returns ok false, leaving the caller to
// take the YAMLToJSON path, for everything where the shortcut could differ:
// parse errors, non-string keys, invalid UTF-8, integers beyond int64,
// NaN and infinities, binary and time values, nesting beyond MaxDepth.
func Value(data []byte, number Number) (v interface{}, ok bool) {
	var y interface{}
	if err := yamlv2.Unmarshal(data, &y); err != nil {
		return nil, false
	}
	return convert(y, number, 0)
}

func convert(y interface{}, number Number, depth int) (interface{}, bool) {
	if depth > MaxDepth {
		return nil, false
	}
	switch t := y.(type) {
	case nil:
		return nil, true
	case bool:
		return t, true
	case string:
		return t, utf8.ValidString(t)
	case int:
		return number(strconv.Itoa(t))
	case int64:
		return number(strconv.FormatInt(t, 10))
	case float64:
		lit, err := json.Marshal(t) // json.Marshal's float syntax; fails on NaN, ±Inf
		if err != nil {
			return nil, false
		}
		return number(string(lit))
	case map[interface{}]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, e := range t {
			ks, ok := k.(string)
			if !ok || !utf8.ValidString(ks) {
				return nil, false
			}
			ev, ok := convert(e, number, depth+1)
			if !ok {
				return nil, false
			}
			m[ks] = ev
		}
		return m, true
	case []interface{}:
		a := make([]interface{}, len(t))
		for i, e := range t {
			ev, ok := convert(e, number, depth+1)
			if !ok {
				return nil, false
			}
			a[i] = ev
		}
		return a, true
	}
	return nil, false
}

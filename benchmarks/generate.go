package benchmarks

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// GenerateOptions bound the generated object.
type GenerateOptions struct {
	// OptionalDepth is the depth (below the root) down to which optional
	// properties are filled in; required ones are always filled.
	OptionalDepth int
	// MaxNodes bounds the number of values generated.
	MaxNodes int
}

// DefaultGenerateOptions give objects of a few hundred to a few thousand
// bytes for the corpus CRDs.
var DefaultGenerateOptions = GenerateOptions{OptionalDepth: 4, MaxNodes: 400}

// Generate builds a deterministic object for the storage version of a CRD
// (YAML or JSON) from its OpenAPI schema: required properties, optional
// ones down to OptionalDepth, the first enum value, strings matching the
// pattern, minLength and format, numbers within bounds, one array item
// (minItems of them, with distinct map keys). Properties with a default
// are left out so that defaulting has work to do. Rules the generator does
// not understand (CEL, oneOf) can make the object invalid: Repair fixes
// that against a validator.
func Generate(crdDoc []byte, opts GenerateOptions) (map[string]interface{}, error) {
	var c struct {
		Spec struct {
			Group string `json:"group"`
			Scope string `json:"scope"`
			Names struct {
				Kind string `json:"kind"`
			} `json:"names"`
			Versions []struct {
				Name    string `json:"name"`
				Storage bool   `json:"storage"`
				Schema  *struct {
					OpenAPIV3Schema map[string]interface{} `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(crdDoc, &c); err != nil {
		return nil, err
	}
	for _, v := range c.Spec.Versions {
		if !v.Storage {
			continue
		}
		g := &generator{opts: opts}
		obj := map[string]interface{}{}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			if o, ok := g.value(v.Schema.OpenAPIV3Schema, 0, 0, true).(map[string]interface{}); ok {
				obj = o
			}
		}
		delete(obj, "status") // a create drops status when it is a subresource
		obj["apiVersion"] = c.Spec.Group + "/" + v.Name
		obj["kind"] = c.Spec.Names.Kind
		meta := map[string]interface{}{"name": "bench-object"}
		if c.Spec.Scope == "Namespaced" {
			meta["namespace"] = "default"
		}
		obj["metadata"] = meta
		return obj, nil
	}
	return nil, fmt.Errorf("no storage version")
}

type generator struct {
	opts  GenerateOptions
	nodes int
}

// value generates a value for schema s at depth; variant makes strings and
// numbers of sibling array items distinct.
func (g *generator) value(s map[string]interface{}, depth, variant int, root bool) interface{} {
	g.nodes++
	if enum, ok := s["enum"].([]interface{}); ok && len(enum) > 0 {
		return enum[variant%len(enum)]
	}
	if b, _ := s["x-kubernetes-int-or-string"].(bool); b {
		return g.intOrString(s, variant)
	}
	typ, _ := s["type"].(string)
	if typ == "" {
		if _, ok := s["properties"]; ok {
			typ = "object"
		} else if b, _ := s["x-kubernetes-embedded-resource"].(bool); b {
			typ = "object"
		}
	}
	switch typ {
	case "object":
		return g.object(s, depth, variant, root)
	case "array":
		return g.array(s, depth)
	case "string":
		v, _ := g.str(s, variant)
		return v
	case "integer":
		return int64(g.number(s, variant, true))
	case "number":
		n := g.number(s, variant, false)
		if n == math.Trunc(n) {
			return int64(n)
		}
		return n
	case "boolean":
		return true
	}
	return map[string]interface{}{}
}

func (g *generator) object(s map[string]interface{}, depth, variant int, root bool) map[string]interface{} {
	out := map[string]interface{}{}
	if b, _ := s["x-kubernetes-embedded-resource"].(bool); b {
		out["apiVersion"] = "v1"
		out["kind"] = "ConfigMap"
		out["metadata"] = map[string]interface{}{"name": "embedded"}
	}
	props, _ := s["properties"].(map[string]interface{})
	required := map[string]bool{}
	if r, ok := s["required"].([]interface{}); ok {
		for _, n := range r {
			if name, ok := n.(string); ok {
				required[name] = true
			}
		}
	}
	maxProps := math.MaxInt
	if m, ok := s["maxProperties"]; ok {
		maxProps = int(toFloat(m))
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { // required first, then by name
		if required[names[i]] != required[names[j]] {
			return required[names[i]]
		}
		return names[i] < names[j]
	})
	for _, name := range names {
		if root && (name == "metadata" || name == "apiVersion" || name == "kind") {
			continue
		}
		if len(out) >= maxProps {
			break
		}
		ps, _ := props[name].(map[string]interface{})
		if ps == nil {
			continue
		}
		if !required[name] {
			if depth >= g.opts.OptionalDepth || g.nodes >= g.opts.MaxNodes {
				continue
			}
			if _, hasDefault := ps["default"]; hasDefault {
				continue
			}
			if ps["type"] == "string" {
				if _, ok := g.str(ps, variant); !ok {
					continue // no value matching the pattern: leave it out
				}
			}
		}
		out[name] = g.value(ps, depth+1, variant, false)
	}
	if ap, ok := s["additionalProperties"].(map[string]interface{}); ok && len(props) == 0 && len(out) < maxProps && depth < g.opts.OptionalDepth && g.nodes < g.opts.MaxNodes {
		out["key"+strconv.Itoa(variant)] = g.value(ap, depth+1, variant, false)
	}
	return out
}

func (g *generator) array(s map[string]interface{}, depth int) []interface{} {
	items, _ := s["items"].(map[string]interface{})
	if items == nil {
		return []interface{}{}
	}
	n := 1
	if m, ok := s["minItems"]; ok && int(toFloat(m)) > n {
		n = int(toFloat(m))
	}
	if m, ok := s["maxItems"]; ok && int(toFloat(m)) < n {
		n = int(toFloat(m))
	}
	if n > 3 {
		n = 3
	}
	out := make([]interface{}, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, g.value(items, depth+1, i, false))
	}
	return out
}

// patternCandidates are tried, in order, against a string's pattern.
var patternCandidates = []string{
	"example", "a", "abc", "example.com", "a.example.com", "foo-bar", "Example", "A", "v1", "1", "10", "80",
	"1s", "10s", "30s", "1m", "5m", "1h", "1Gi", "100m", "1.0.0", "v1.0.0", "10.0.0.1", "10.0.0.0/8", "::1",
	"/", "/path", "http://example.com", "https://example.com", "https://example.com/path", "example.com/foo",
	"foo=bar", "*", "*.example.com", "GET", "HTTP", "TCP", "Exact", "true", "0", "a_b", "a:b", "key", "foo/bar",
	"2024-01-01T00:00:00Z", "AES256", "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	"1d", "1w", "100", "1000", "0.5", "RSA", "@every 1h", "0 * * * *",
}

var formatValues = map[string]string{
	"date-time": "2024-01-01T00:00:00Z", "date": "2024-01-01", "uri": "https://example.com", "email": "a@example.com",
	"ipv4": "10.0.0.1", "ipv6": "::1", "hostname": "example.com", "uuid": "01234567-89ab-cdef-0123-456789abcdef",
	"duration": "1h", "byte": "YWJj", "cidr": "10.0.0.0/8", "int-or-string": "1",
}

var regexCache = map[string]*regexp.Regexp{}

func compiled(p string) *regexp.Regexp {
	if re, ok := regexCache[p]; ok {
		return re
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil
	}
	regexCache[p] = re
	return re
}

// str returns a string for s and whether it satisfies s's pattern.
func (g *generator) str(s map[string]interface{}, variant int) (string, bool) {
	minLen, maxLen := 0, math.MaxInt
	if m, ok := s["minLength"]; ok {
		minLen = int(toFloat(m))
	}
	if m, ok := s["maxLength"]; ok {
		maxLen = int(toFloat(m))
	}
	fits := func(v string) bool { return len(v) >= minLen && len(v) <= maxLen }
	suffix := ""
	if variant > 0 {
		suffix = strconv.Itoa(variant)
	}
	format, _ := s["format"].(string)
	pattern, _ := s["pattern"].(string)
	var re *regexp.Regexp
	if pattern != "" {
		if re = compiled(pattern); re == nil {
			return "example", false
		}
	}
	var cands []string
	if v, ok := formatValues[format]; ok && variant == 0 {
		cands = append(cands, v)
	}
	for _, c := range patternCandidates {
		if suffix != "" {
			cands = append(cands, c+suffix, suffix+c)
		}
		cands = append(cands, c)
	}
	for _, c := range cands {
		if len(c) < minLen {
			c += strings.Repeat("a", minLen-len(c))
		}
		if fits(c) && (re == nil || re.MatchString(c)) {
			return c, true
		}
	}
	return strings.Repeat("a", max(minLen, 1)), re == nil
}

func (g *generator) intOrString(s map[string]interface{}, variant int) interface{} {
	if p, _ := s["pattern"].(string); p != "" {
		if v, ok := g.str(s, variant); ok {
			return v
		}
	}
	return int64(1 + variant)
}

func (g *generator) number(s map[string]interface{}, variant int, integer bool) float64 {
	v := float64(1 + variant)
	if m, ok := s["minimum"]; ok {
		lo := toFloat(m)
		if ex, _ := s["exclusiveMinimum"].(bool); ex {
			lo++
		}
		if v < lo {
			v = lo
		}
	}
	if m, ok := s["maximum"]; ok {
		hi := toFloat(m)
		if ex, _ := s["exclusiveMaximum"].(bool); ex {
			hi--
		}
		if v > hi {
			v = hi
		}
	}
	if m, ok := s["multipleOf"]; ok {
		if step := toFloat(m); step > 0 {
			v = math.Ceil(v/step) * step
		}
	}
	if integer {
		v = math.Ceil(v)
	}
	return v
}

func toFloat(v interface{}) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int64:
		return float64(n)
	case json.Number:
		f, _ := n.Float64()
		return f
	}
	return 0
}

// Repair validates obj with validate and, while it reports errors, removes
// the values the errors point at (or, for an error on an object, its
// optional children one by one), up to maxRounds. It returns the repaired
// object and the errors left.
func Repair(obj map[string]interface{}, validate func([]byte) ([]string, error), maxRounds int) (map[string]interface{}, []string, error) {
	var errs []string
	for round := 0; round < maxRounds; round++ {
		b, err := json.Marshal(obj)
		if err != nil {
			return nil, nil, err
		}
		paths, err := validate(b)
		if err != nil {
			return nil, nil, err
		}
		errs = paths
		if len(paths) == 0 {
			return obj, nil, nil
		}
		changed := false
		for _, p := range paths {
			if removeAt(obj, parseFieldPath(p)) {
				changed = true
			}
		}
		if !changed {
			return obj, errs, nil
		}
	}
	return obj, errs, nil
}

// parseFieldPath splits "spec.a[0].b[key]" into ["spec","a","0","b","key"].
func parseFieldPath(p string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '.':
			flush()
		case '[':
			flush()
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				cur.WriteString(p[i+1:])
				i = len(p)
				continue
			}
			out = append(out, p[i+1:i+j])
			i += j
		default:
			cur.WriteByte(p[i])
		}
	}
	flush()
	return out
}

// removeAt changes obj where path points: an existing non-empty object
// loses its last child (by name); any other existing value, or the deepest
// existing ancestor of a missing one, is removed. Top-level fields and
// metadata are never removed. It returns whether it changed obj.
func removeAt(obj map[string]interface{}, path []string) bool {
	if len(path) == 0 || path[0] == "metadata" || path[0] == "apiVersion" || path[0] == "kind" {
		return false
	}
	type step struct {
		container interface{}
		key       string
	}
	var chain []step
	var cur interface{} = obj
	for _, seg := range path {
		var next interface{}
		found := false
		switch c := cur.(type) {
		case map[string]interface{}:
			next, found = c[seg]
		case []interface{}:
			if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < len(c) {
				next, found = c[i], true
			}
		}
		if !found {
			break
		}
		chain = append(chain, step{cur, seg})
		cur = next
	}
	if m, ok := cur.(map[string]interface{}); ok && len(chain) == len(path) && len(m) > 0 {
		return dropLastKey(m)
	}
	// remove the deepest existing value below the top-level field; an array
	// item is removed from its array, which is replaced in its parent.
	for d := len(chain) - 1; d >= 1; d-- {
		switch c := chain[d].container.(type) {
		case map[string]interface{}:
			delete(c, chain[d].key)
			return true
		case []interface{}:
			i, _ := strconv.Atoi(chain[d].key)
			shorter := append(append([]interface{}{}, c[:i]...), c[i+1:]...)
			switch p := chain[d-1].container.(type) {
			case map[string]interface{}:
				p[chain[d-1].key] = shorter
				return true
			case []interface{}:
				j, _ := strconv.Atoi(chain[d-1].key)
				p[j] = shorter
				return true
			}
		}
	}
	return false
}

func dropLastKey(m map[string]interface{}) bool {
	if len(m) == 0 {
		return false
	}
	keys := slices.Sorted(maps.Keys(m))
	delete(m, keys[len(keys)-1])
	return true
}

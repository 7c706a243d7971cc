package conformance

// Differential tests of internal/openapi against upstream's
// k8s.io/apiextensions-apiserver/pkg/apiserver/validation on random
// schema/value pairs: create validation (ValidateCustomResource), update
// validation with ratcheting (ValidateCustomResourceUpdate), defaults-path
// validation from the structural schema, and GetUnrecognizedFormats.
// Upstream iterates Go maps, so the order of errors between sibling map
// entries is random there: lists are compared as sorted multisets, and in
// exact order when every object in schema and value has at most one key.
// Run: cd conformance && go test -run OpenAPI ./...

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	upschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	upvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	kjson "k8s.io/apimachinery/pkg/util/json"
	upfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/openapi"
	"github.com/crdlab/crdlab/internal/schema"
	crdlabstrfmt "github.com/crdlab/crdlab/internal/strfmt"
)

type upField = upfield.Error

var oaPropNames = []string{"a", "b", "c", "spec", "kind", "apiVersion"}

var oaPatterns = []string{"^a", "^[a-z]+$", "b", "(", "^x.*y$", "^\\d+$"}

var oaFormats = []string{"", "", "", "date", "date-time", "duration", "uuid", "uuid4", "hostname", "email", "ipv4", "ipv6", "cidr",
	"mac", "uri", "byte", "int32", "int64", "float", "double", "k8s-short-name", "k8s-long-name", "bsonobjectid", "isbn",
	"creditcard", "ssn", "hexcolor", "rgbcolor", "password", "bogus", "uint32", "datetime"}

type oaGen struct {
	r *rand.Rand
	// singleKey restricts schemas and values to at most one key per object,
	// making upstream's order deterministic.
	singleKey bool
}

func (g *oaGen) chance(p float64) bool { return g.r.Float64() < p }

func (g *oaGen) pick(l []string) string { return l[g.r.Intn(len(l))] }

func (g *oaGen) num() float64 {
	switch g.r.Intn(6) {
	case 0:
		return float64(g.r.Intn(10))
	case 1:
		return float64(g.r.Intn(10)) + 0.5
	case 2:
		return -float64(g.r.Intn(5))
	case 3:
		return 3e9
	case 4:
		return 0.25
	default:
		return float64(g.r.Intn(100))
	}
}

func (g *oaGen) scalarEnumValue(typ string) interface{} {
	switch typ {
	case "string":
		return g.pick([]string{"x", "y", "A", "2"})
	case "integer", "number":
		return float64(g.r.Intn(4))
	case "boolean":
		return g.chance(0.5)
	}
	return g.pick([]string{"x", "y"})
}

func (g *oaGen) schema(depth int, nested bool) map[string]interface{} {
	s := map[string]interface{}{}
	types := []string{"object", "array", "string", "integer", "number", "boolean", ""}
	if depth <= 0 {
		types = []string{"string", "integer", "number", "boolean", ""}
	}
	typ := g.pick(types)
	if nested && g.chance(0.5) {
		typ = ""
	}
	if typ != "" {
		s["type"] = typ
	}
	if !nested && g.chance(0.1) {
		s["nullable"] = true
	}
	if !nested && typ == "" && g.chance(0.1) {
		s["x-kubernetes-int-or-string"] = true
	}
	if g.chance(0.25) {
		s["format"] = g.pick(oaFormats)
	}
	if typ == "string" || typ == "" {
		if g.chance(0.2) {
			s["maxLength"] = g.r.Intn(5)
		}
		if g.chance(0.2) {
			s["minLength"] = g.r.Intn(3)
		}
		if g.chance(0.2) {
			s["pattern"] = g.pick(oaPatterns)
		}
	}
	if typ == "integer" || typ == "number" || typ == "" {
		if g.chance(0.2) {
			s["maximum"] = g.num()
			s["exclusiveMaximum"] = g.chance(0.3)
		}
		if g.chance(0.2) {
			s["minimum"] = g.num()
			s["exclusiveMinimum"] = g.chance(0.3)
		}
		if g.chance(0.15) {
			s["multipleOf"] = g.num()
		}
	}
	if g.chance(0.03) {
		s["enum"] = []interface{}{map[string]interface{}{"a": 1}, []interface{}{"x"}, "x"}
	} else if g.chance(0.1) && typ != "object" && typ != "array" {
		n := 1 + g.r.Intn(3)
		var e []interface{}
		for i := 0; i < n; i++ {
			e = append(e, g.scalarEnumValue(typ))
		}
		s["enum"] = e
	}
	if (typ == "array" || (typ == "" && g.chance(0.1))) && depth > 0 {
		if g.chance(0.8) {
			s["items"] = g.schema(depth-1, nested)
		} else if g.chance(0.3) {
			s["items"] = []interface{}{g.schema(depth-1, nested), g.schema(depth-1, nested)}
			if g.chance(0.5) {
				s["additionalItems"] = g.chance(0.5)
			} else {
				s["additionalItems"] = g.schema(depth-1, nested)
			}
		}
		if g.chance(0.2) {
			s["minItems"] = g.r.Intn(3)
		}
		if g.chance(0.2) {
			s["maxItems"] = g.r.Intn(3)
		}
		if g.chance(0.15) {
			s["uniqueItems"] = true
		}
		if !nested && g.chance(0.3) {
			s["x-kubernetes-list-type"] = "map"
			s["x-kubernetes-list-map-keys"] = []string{"a"}
			s["items"] = map[string]interface{}{"type": "object", "properties": map[string]interface{}{
				"a": map[string]interface{}{"type": "string"},
				"b": g.schema(depth-1, false),
			}}
			if g.chance(0.3) {
				s["x-kubernetes-list-map-keys"] = []string{"a", "b"}
			}
		}
	}
	if (typ == "object" || (typ == "" && g.chance(0.1))) && depth > 0 {
		nprops := g.r.Intn(4)
		if g.singleKey && nprops > 1 {
			nprops = 1
		}
		props := map[string]interface{}{}
		for i := 0; i < nprops; i++ {
			props[g.pick(oaPropNames)] = g.schema(depth-1, nested)
		}
		if len(props) > 0 {
			s["properties"] = props
		}
		if g.chance(0.3) {
			var req []string
			for i := 0; i < 1+g.r.Intn(2); i++ {
				req = append(req, g.pick(oaPropNames))
			}
			s["required"] = req
		}
		if g.chance(0.15) {
			s["minProperties"] = g.r.Intn(3)
		}
		if g.chance(0.15) {
			s["maxProperties"] = g.r.Intn(3)
		}
		if len(props) == 0 && g.chance(0.4) {
			s["additionalProperties"] = g.schema(depth-1, nested)
		} else if g.chance(0.1) {
			s["additionalProperties"] = false
		}
		if !nested && g.chance(0.1) {
			s["x-kubernetes-preserve-unknown-fields"] = true
		}
		// keywords v1 CRDs forbid, kept for kube-openapi fidelity
		if g.chance(0.08) {
			pp := map[string]interface{}{}
			for i := 0; i < 1+g.r.Intn(2); i++ {
				pp[g.pick([]string{"^a", "^[a-z]+$", "b", "(", "^x"})] = g.schema(depth-1, nested)
				if g.singleKey {
					break
				}
			}
			s["patternProperties"] = pp
		}
		if g.chance(0.05) {
			deps := map[string]interface{}{}
			if g.chance(0.5) {
				deps[g.pick(oaPropNames)] = []string{g.pick(oaPropNames), g.pick(oaPropNames)}
			} else {
				deps[g.pick(oaPropNames)] = g.schema(depth-1, true)
			}
			s["dependencies"] = deps
		}
	}
	if depth > 0 && g.chance(0.15) {
		kw := g.pick([]string{"allOf", "anyOf", "oneOf"})
		var l []interface{}
		for i := 0; i < 1+g.r.Intn(3); i++ {
			l = append(l, g.schema(depth-1, true))
		}
		s[kw] = l
	}
	if depth > 0 && g.chance(0.05) {
		s["not"] = g.schema(depth-1, true)
	}
	return s
}

func (g *oaGen) value(s map[string]interface{}, depth int) interface{} {
	typ, _ := s["type"].(string)
	if g.chance(0.15) || typ == "" {
		typ = g.pick([]string{"object", "array", "string", "integer", "number", "boolean", "null"})
	}
	if depth <= 0 && (typ == "object" || typ == "array") {
		typ = "string"
	}
	if e, ok := s["enum"].([]interface{}); ok && g.chance(0.5) {
		v := e[g.r.Intn(len(e))]
		if f, ok := v.(float64); ok {
			return int64(f)
		}
		return v
	}
	switch typ {
	case "object":
		m := map[string]interface{}{}
		props, _ := s["properties"].(map[string]interface{})
		n := g.r.Intn(4)
		if g.singleKey && n > 1 {
			n = 1
		}
		for i := 0; i < n; i++ {
			k := g.pick(oaPropNames)
			if g.chance(0.2) {
				k = g.pick([]string{"x", "xy", "123", "b1"})
			}
			ps, _ := props[k].(map[string]interface{})
			if ps == nil {
				ps, _ = s["additionalProperties"].(map[string]interface{})
			}
			if ps == nil {
				ps = map[string]interface{}{}
			}
			m[k] = g.value(ps, depth-1)
		}
		return m
	case "array":
		items, _ := s["items"].(map[string]interface{})
		if items == nil {
			items = map[string]interface{}{}
		}
		var l []interface{}
		for i := 0; i < g.r.Intn(4); i++ {
			l = append(l, g.value(items, depth-1))
		}
		if l == nil {
			l = []interface{}{}
		}
		return l
	case "string":
		return g.pick([]string{"", "a", "abc", "ab1", "x-y", "2020-01-02", "2020-01-02T03:04:05Z", "1h", "3 days",
			"550e8400-e29b-41d4-a716-446655440000", "foo.example.com", "a@b.c", "1.2.3.4", "::1", "10.0.0.0/8",
			"01:23:45:67:89:ab", "http://x/y", "aGVsbG8=", "507f1f77bcf86cd799439011", "#fff", "rgb(1,2,3)",
			"123-45-6789", "4111111111111111", "0321751043", "ÄÖü", "xy", "123", "Abc", "1e3"})
	case "integer":
		return int64(g.pick([]string{"0", "1", "2", "3", "5", "7", "100", "-3", "3000000000"})[0]-'0') + int64(g.r.Intn(3))*int64(g.r.Intn(2)*2999999999)
	case "number":
		return g.pick2f()
	case "boolean":
		return g.chance(0.5)
	}
	return nil
}

func (g *oaGen) pick2f() interface{} {
	fs := []float64{0.5, 1.5, 2.25, -0.5, 3.4e38 * 10, 1e-7, 2.0, 3e9}
	return fs[g.r.Intn(len(fs))]
}

// mutate returns a modified deep copy of v (for update tests).
func (g *oaGen) mutate(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		out := map[string]interface{}{}
		for k, e := range t {
			if g.chance(0.15) {
				continue
			}
			out[k] = g.mutate(e)
		}
		if g.chance(0.1) && (!g.singleKey || len(out) == 0) {
			out[g.pick(oaPropNames)] = g.pick([]string{"z", "1h"})
		}
		return out
	case []interface{}:
		out := []interface{}{}
		for _, e := range t {
			if g.chance(0.1) {
				continue
			}
			out = append(out, g.mutate(e))
		}
		if g.chance(0.2) && len(out) > 1 {
			out[0], out[1] = out[1], out[0]
		}
		return out
	case string:
		if g.chance(0.2) {
			return t + "q"
		}
	case int64:
		if g.chance(0.2) {
			return t + 1
		}
	}
	return v
}

func oaUpstreamValidator(t *testing.T, js []byte) (upvalidation.SchemaValidator, *apiextensions.JSONSchemaProps) {
	t.Helper()
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(js, &v1); err != nil {
		t.Fatalf("upstream schema: %v", err)
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	v, _, err := upvalidation.NewSchemaValidator(&internal)
	if err != nil {
		t.Fatalf("upstream validator: %v", err)
	}
	return v, &internal
}

func oaOurValidator(t *testing.T, js []byte) (*openapi.Validator, *crd.JSONSchemaProps) {
	t.Helper()
	var p crd.JSONSchemaProps
	if err := json.Unmarshal(js, &p); err != nil {
		t.Fatalf("our schema: %v", err)
	}
	v, err := openapi.NewSchemaValidator(&p, nil)
	if err != nil {
		t.Fatalf("our validator: %v", err)
	}
	return v, &p
}

func oaRender[E interface{ Error() string }](list []E, typ func(E) string) []string {
	out := make([]string, 0, len(list))
	for _, e := range list {
		out = append(out, typ(e)+"|"+e.Error())
	}
	return out
}

func oaOurs(l field.ErrorList) []string {
	return oaRender(l, func(e *field.Error) string { return string(e.Type) })
}

func oaSorted(l []string) []string {
	c := append([]string(nil), l...)
	sort.Strings(c)
	return c
}

// oaSameOrder reports identical error lists, order included.
func oaSameOrder(a, b []string) bool {
	return strings.Join(a, "\n") == strings.Join(b, "\n")
}

// oaStats counts compared cases with a non-empty upstream error list.
var oaStats = map[string][2]int{}

func oaCompare(t *testing.T, what string, js []byte, obj, old interface{}, up, ours []string, exact bool) bool {
	t.Helper()
	st := oaStats[what]
	st[0]++
	if len(up) > 0 {
		st[1]++
	}
	oaStats[what] = st
	a, b := up, ours
	if !exact {
		a, b = oaSorted(up), oaSorted(ours)
	}
	if strings.Join(a, "\n") == strings.Join(b, "\n") {
		return true
	}
	ob, _ := json.Marshal(obj)
	oldb, _ := json.Marshal(old)
	t.Errorf("%s differs (exact order: %v)\nschema: %s\nobject: %s\nold: %s\nupstream:\n  %s\nours:\n  %s", what, exact, js, ob, oldb,
		strings.Join(up, "\n  "), strings.Join(ours, "\n  "))
	return false
}

func oaCases(t *testing.T, seed int64, n int, singleKey bool, run func(g *oaGen, js []byte, s map[string]interface{}) bool) {
	if s := os.Getenv("OPENAPI_SEED"); s != "" {
		v, _ := strconv.ParseInt(s, 10, 64)
		seed += v
	}
	if s := os.Getenv("OPENAPI_CASES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	defer func() { t.Logf("compared (total, with errors): %v", oaStats) }()
	g := &oaGen{r: rand.New(rand.NewSource(seed)), singleKey: singleKey}
	failures := 0
	for i := 0; i < n && failures < 5; i++ {
		s := g.schema(3, false)
		js, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if !run(g, js, s) {
			failures++
		}
	}
}

func oaPanicSafe(f func()) (panicked interface{}) {
	defer func() { panicked = recover() }()
	f()
	return nil
}

func TestOpenAPIDifferentialCreate(t *testing.T) {
	for _, single := range []bool{true, false} {
		single := single
		t.Run(fmt.Sprintf("singleKey=%v", single), func(t *testing.T) {
			oaCases(t, 1, 4000, single, func(g *oaGen, js []byte, s map[string]interface{}) bool {
				upV, _ := oaUpstreamValidator(t, js)
				ourV, _ := oaOurValidator(t, js)
				for j := 0; j < 4; j++ {
					obj := g.value(s, 3)
					var up []string
					if p := oaPanicSafe(func() {
						up = oaRender(upvalidation.ValidateCustomResource(nil, obj, upV), func(e *upField) string { return string(e.Type) })
					}); p != nil {
						continue // upstream panics (e.g. additionalItems bug): nothing to compare
					}
					ours := oaOurs(ourV.Validate(nil, obj))
					if !oaCompare(t, "create", js, obj, nil, up, ours, single) {
						return false
					}
				}
				return true
			})
		})
	}
}

func TestOpenAPIDifferentialUpdate(t *testing.T) {
	for _, single := range []bool{true, false} {
		single := single
		t.Run(fmt.Sprintf("singleKey=%v", single), func(t *testing.T) {
			oaCases(t, 2, 3000, single, func(g *oaGen, js []byte, s map[string]interface{}) bool {
				upV, internal := oaUpstreamValidator(t, js)
				ourV, _ := oaOurValidator(t, js)
				// the CR strategy correlates over the structural schema when
				// there is one
				upSS, ssErr := upschema.NewStructural(internal)
				for j := 0; j < 4; j++ {
					old := g.value(s, 3)
					obj := g.mutate(old)
					if g.chance(0.3) {
						obj = g.value(s, 3)
					}
					var up []string
					if p := oaPanicSafe(func() {
						var correlation *common.CorrelatedObject
						if ssErr == nil {
							correlation = common.NewCorrelatedObject(obj, old, &model.Structural{Structural: upSS})
						}
						up = oaRender(upvalidation.ValidateCustomResourceUpdate(nil, obj, old, upV, upvalidation.WithRatcheting(correlation)), func(e *upField) string { return string(e.Type) })
					}); p != nil {
						continue
					}
					ours := oaOurs(ourV.ValidateUpdate(nil, obj, old))
					if len(ours) < len(ourV.Validate(nil, obj)) {
						st := oaStats["ratcheted"]
						st[0]++
						oaStats["ratcheted"] = st
					}
					if !oaCompare(t, "update", js, obj, old, up, ours, single) {
						return false
					}
				}
				return true
			})
		})
	}
}

func TestOpenAPIDifferentialStructural(t *testing.T) {
	oaCases(t, 3, 3000, true, func(g *oaGen, js []byte, s map[string]interface{}) bool {
		_, internal := oaUpstreamValidator(t, js)
		upSS, err := upschema.NewStructural(internal)
		if err != nil {
			return true // not structural: the defaults path never sees it
		}
		var p crd.JSONSchemaProps
		if err := json.Unmarshal(js, &p); err != nil {
			t.Fatal(err)
		}
		ourSS, err := schema.NewStructural(&p)
		if err != nil {
			t.Errorf("our structural conversion failed for %s: %v", js, err)
			return false
		}
		upV := upvalidation.NewSchemaValidatorFromOpenAPI(upSS.ToKubeOpenAPI())
		ourV := openapi.NewValidatorFromStructural(ourSS, nil)
		for j := 0; j < 4; j++ {
			obj := g.value(s, 3)
			var up []string
			if p := oaPanicSafe(func() {
				up = oaRender(upvalidation.ValidateCustomResource(nil, obj, upV), func(e *upField) string { return string(e.Type) })
			}); p != nil {
				continue
			}
			ours := oaOurs(ourV.Validate(nil, obj))
			if !oaCompare(t, "structural", js, obj, nil, up, ours, true) {
				return false
			}
		}
		return true
	})
}

func TestOpenAPIDifferentialUnrecognizedFormats(t *testing.T) {
	ver := environment.DefaultCompatibilityVersion()
	for _, typ := range []string{"", "string", "integer", "number", "boolean", "object", "array"} {
		for _, f := range oaFormats {
			if f == "" {
				continue
			}
			up := upvalidation.GetUnrecognizedFormats(&spec.Schema{SchemaProps: spec.SchemaProps{Format: f, Type: []string{typ}}}, ver)
			ours := openapi.GetUnrecognizedFormats(&crd.JSONSchemaProps{Type: typ, Format: f})
			if fmt.Sprint(up) != fmt.Sprint(ours) {
				t.Errorf("type %q format %q: upstream %v, ours %v", typ, f, up, ours)
			}
		}
	}
}

var oaFormatCorpus = []string{
	"", "a", "abc", "A", "-a", "a-", "a.b", "a..b", "foo.example.com", "xn--bcher-kva.example", "ex_ample.com", "localhost",
	"1.2.3.4", "01.02.03.004", "256.1.1.1", "1.2.3", "::1", "::", "1::2::3", "fe80::1%eth0", "::ffff:1.2.3.4", "2001:db8::/32",
	"10.0.0.0/8", "10.0.0.0/33", "010.0.0.0/8", "1.2.3.4/", "01:23:45:67:89:ab", "01-23-45-67-89-AB", "0123.4567.89ab",
	"0123456789ab", "01:23:45:67:89", "01:23:45:67:89:ab:cd:ef", "01:23-45:67:89:ab",
	"2020-01-02", "2020-13-02", "2020-02-30", "2020-01-02T03:04:05Z", "2020-01-02t03:04:05.123+01:00", "2020-01-02T24:00:00Z",
	"2020-01-02 03:04:05Z", "2020-01-02T03:04:05", "1h", "1h30m", "3 days", "5 weeks", "10 sec", "2 hrs", "1 fortnight", "99999999999999999999 s", "-1h", "1.5h",
	"550e8400-e29b-41d4-a716-446655440000", "550E8400E29B41D4A716446655440000", "550e8400-e29b-31d4-a716-446655440000",
	"550e8400-e29b-51d4-a716-446655440000", "550e8400-e29b-41d4-c716-446655440000", "a@b.c", "A <a@b.c>", "a@", "@b",
	"http://x/y", "/relative/path", "x:y", "mailto:a@b", "http://[::1]:80/", "://bad", "aGVsbG8=", "aGVsbG8", "aGVsbA==", "a+/=",
	"507f1f77bcf86cd799439011", "507f1f77bcf86cd79943901", "zz7f1f77bcf86cd799439011", "#fff", "fff", "#ffff", "#GGG",
	"rgb(1,2,3)", "rgb( 255 , 0 , 10 )", "rgb(256,0,0)", "123-45-6789", "123 45 6789", "123456789", "4111111111111111",
	"4111-1111-1111-1111", "4111111111111112", "0321751043", "978-0321751041", "978 0 321 75104 1", "032175104X", "9780321751042",
	"Ü", "münchen.de", "a.b.c.d.e.f", strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a.", 126) + "a", "abc-def.ghi",
}

func TestOpenAPIDifferentialFormatCheckers(t *testing.T) {
	for _, name := range crdlabstrfmt.Names() {
		check := crdlabstrfmt.Lookup(name)
		if !strfmt.Default.ContainsName(name) {
			t.Errorf("format %q is not in upstream's registry", name)
			continue
		}
		for _, s := range oaFormatCorpus {
			if up, ours := strfmt.Default.Validates(name, s), check(s); up != ours {
				t.Errorf("format %q on %q: upstream %v, ours %v", name, s, up, ours)
			}
		}
	}
	for _, name := range []string{"int32", "int64", "float", "double", "date-time", "k8s-short-name", "ulid", "uint32", "binary"} {
		ours := crdlabstrfmt.Lookup(name) != nil
		if up := strfmt.Default.ContainsName(name); up != ours {
			t.Errorf("registry membership of %q: upstream %v, ours %v", name, up, ours)
		}
	}
}

func oaBenchInputs(b *testing.B) ([]byte, interface{}) {
	js, err := os.ReadFile("../internal/openapi/testdata/bench_schema.json")
	if err != nil {
		b.Fatal(err)
	}
	ob, err := os.ReadFile("../internal/openapi/testdata/bench_object.json")
	if err != nil {
		b.Fatal(err)
	}
	var obj interface{}
	if err := kjson.Unmarshal(ob, &obj); err != nil {
		b.Fatal(err)
	}
	return js, obj
}

func BenchmarkOpenAPIValidateUpstream(b *testing.B) {
	js, obj := oaBenchInputs(b)
	t := &testing.T{}
	v, _ := oaUpstreamValidator(t, js)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		upvalidation.ValidateCustomResource(nil, obj, v)
	}
}

func BenchmarkOpenAPIValidateOurs(b *testing.B) {
	js, obj := oaBenchInputs(b)
	t := &testing.T{}
	v, _ := oaOurValidator(t, js)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Validate(nil, obj)
	}
}

func TestOpenAPIDifferentialFixed(t *testing.T) {
	cases := []struct{ schema, obj, old string }{
		{`{"type":"object","properties":{"IMPORTANT!x":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`, `{"IMPORTANT!x":true}`, ``},
		{`{"type":"object","properties":{"IMPORTANT!x":{"oneOf":[{"type":"object","properties":{"a":{"type":"string"}}}]}}}`, `{"IMPORTANT!x":{"a":1}}`, ``},
		{`{"type":"object","properties":{"IMPORTANT!x":{"allOf":[{"type":"string"}]}}}`, `{"IMPORTANT!x":1}`, ``},
		{`{"type":"integer","format":"int32","maximum":5}`, `3000000000.5`, ``},
		{`{"type":"integer","format":"int32","multipleOf":0}`, `6`, ``},
		{`{"multipleOf":-2}`, `6.5`, ``},
		{`{"multipleOf":0.1}`, `0.3`, ``},
		{`{"x-kubernetes-int-or-string":true,"maximum":1e20,"minimum":-1e20}`, `5`, ``},
		{`{"type":"number","format":"float","maximum":1e39}`, `1e38`, ``},
		{`{"enum":["A","B"]}`, `65`, ``},
		{`{"enum":[{"a":1},[1,2]]}`, `{"a":1}`, ``},
		{`{"enum":[{"a":1.5}]}`, `{"a":1.5}`, ``},
		{`{"type":"array","uniqueItems":true}`, `[{"a":[1,2]},{"a":[1,2]}]`, ``},
		{`{"type":"array","items":[{"type":"string"}],"additionalItems":false}`, `["a",1,2]`, ``},
		{`{"type":"array","items":[{"type":"string"},{"type":"string"}],"additionalItems":{"type":"string"}}`, `["a","b",1,2,3]`, ``},
		{`{"type":"null"}`, `null`, ``},
		{`{"type":"string","nullable":true,"enum":["a"]}`, `null`, ``},
		{`{"type":"object","properties":{"a":{"type":"string","nullable":true,"enum":["a"]}}}`, `{"a":null}`, ``},
		{`{"type":"object","dependencies":{"a":["b","c"],"b":{"required":["z"]}}}`, `{"a":1,"b":2}`, ``},
		{`{"type":"object","patternProperties":{"^a":{"type":"string"}},"additionalProperties":false}`, `{"ab":1,"b":2}`, ``},
		{`{"type":"object","properties":{"ab":{"type":"string"}},"patternProperties":{"^a":{"maxLength":1}}}`, `{"ab":"xyz","ac":"xyz"}`, ``},
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"string","format":"date"}}}`, `{"a":"2020-13-01"}`, ``},
		// ratcheting
		{`{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k","n"],"items":{"type":"object","properties":{"k":{"type":"string"},"n":{"type":"number"},"v":{"type":"string","maxLength":1}}}}}}`,
			`{"l":[{"k":"a","n":1.5,"v":"xx"},{"k":"a","n":2,"v":"yy"}]}`, `{"l":[{"k":"a","n":2,"v":"yy"},{"k":"a","n":1.5,"v":"xx"}]}`},
		{`{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"string","maxLength":1}}}}}}`,
			`{"l":[{"k":"a","v":"xx"},{"k":"a","v":"yy"}]}`, `{"l":[{"k":"a","v":"yy"},{"k":"a","v":"xx"}]}`},
		{`{"type":"object","properties":{"m":{"type":"object","maxProperties":1,"additionalProperties":{"type":"string","maxLength":1}}}}`,
			`{"m":{"a":"xx","b":"yy"}}`, `{"m":{"a":"xx","b":"yy"}}`},
		{`{"type":"object","properties":{"m":{"type":"object","maxProperties":1,"additionalProperties":{"type":"string","maxLength":1}}}}`,
			`{"m":{"a":"xx","b":"yy","c":"z"}}`, `{"m":{"a":"xx","b":"yy"}}`},
		{`{"type":"object","properties":{"kind":{"type":"string","maxLength":1},"spec":{"type":"object","properties":{"kind":{"type":"string","maxLength":1}}}}}`,
			`{"kind":"xx","spec":{"kind":"xx"},"x":1}`, `{"kind":"xx","spec":{"kind":"xx"}}`},
		{`{"type":"array","items":{"type":"string","maxLength":1}}`, `["xx"]`, `["xx"]`},
		{`{"type":"string","maxLength":1}`, `"xx"`, `"xx"`},
		{`{"nullable":true,"type":"object","properties":{"a":{"type":"string","maxLength":1}},"required":["b"]}`, `{"a":"xx"}`, `{"a":"xx","c":null}`},
	}
	for i, tc := range cases {
		js := []byte(tc.schema)
		upV, _ := oaUpstreamValidator(t, js)
		ourV, _ := oaOurValidator(t, js)
		var obj, old interface{}
		if err := kjson.Unmarshal([]byte(tc.obj), &obj); err != nil {
			t.Fatal(err)
		}
		var up []string
		if tc.old == "" {
			ours := oaOurs(ourV.Validate(nil, obj))
			panicked := false
			// Upstream iterates Go maps (properties, dependencies): rerun
			// it until it produces our order, or 20 times.
			for try := 0; try < 20 && !panicked && (try == 0 || !oaSameOrder(up, ours)); try++ {
				if p := oaPanicSafe(func() {
					up = oaRender(upvalidation.ValidateCustomResource(nil, obj, upV), func(e *upField) string { return string(e.Type) })
				}); p != nil {
					t.Logf("case %d: upstream panics: %v", i, p)
					panicked = true
				}
			}
			if !panicked {
				oaCompare(t, fmt.Sprintf("fixed create %d", i), js, obj, nil, up, ours, true)
			}
			continue
		}
		if err := kjson.Unmarshal([]byte(tc.old), &old); err != nil {
			t.Fatal(err)
		}
		ours := oaOurs(ourV.ValidateUpdate(nil, obj, old))
		for try := 0; try < 20 && (try == 0 || !oaSameOrder(up, ours)); try++ {
			up = oaRender(upvalidation.ValidateCustomResourceUpdate(nil, obj, old, upV, upvalidation.WithRatcheting(nil)), func(e *upField) string { return string(e.Type) })
		}
		oaCompare(t, fmt.Sprintf("fixed update %d", i), js, obj, old, up, ours, true)
	}
}

package celcomplete

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
)

// The cases of playground/src/celcomplete.test.js, the JavaScript
// implementation this package replaces.
const testSchema = `{"type":"object","properties":{"spec":{"type":"object","properties":{
 "replicas":{"type":"integer"},"image":{"type":"string"},
 "max-surge":{"x-kubernetes-int-or-string":true},"namespace":{"type":"string"},
 "timeout":{"type":"string","format":"duration"},"created":{"type":"string","format":"date-time"},
 "items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},
   "ports":{"type":"array","items":{"type":"object","properties":{"port":{"type":"integer"},"protocol":{"type":"string"}}}}}}},
 "tags":{"type":"array","items":{"type":"string"}},
 "labels":{"type":"object","additionalProperties":{"type":"string"}},
 "backends":{"type":"object","additionalProperties":{"type":"object","properties":{"host":{"type":"string"},"weight":{"type":"integer"}}}},
 "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
 "raw":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}`

func schemas(t *testing.T) (root, spec *crd.JSONSchemaProps) {
	t.Helper()
	var s crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(testSchema), &s); err != nil {
		t.Fatal(err)
	}
	sp := s.Properties["spec"]
	return &s, &sp
}

func labels(r *Result) []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, o := range r.Options {
		out = append(out, o.Label)
	}
	slices.Sort(out)
	return out
}

func TestCompleteOffersWhatFollowsTheReceiver(t *testing.T) {
	root, spec := schemas(t)
	tmpl := spec.Properties["template"]
	for _, c := range []struct {
		name   string
		schema *crd.JSONSchemaProps
		root   bool
		before string
		has    []string
		lacks  []string
		exact  []string
	}{
		{"escaped properties", spec, false, "self.", []string{"replicas", "image", "max__dash__surge", "__namespace__", "items", "labels", "template"}, nil, nil},
		{"nested select", root, false, "self.spec.", []string{"replicas", "items"}, nil, nil},
		{"resource root", root, true, "self.", []string{"apiVersion", "kind", "metadata", "spec"}, nil, nil},
		{"metadata of the root", root, true, "self.metadata.", nil, nil, []string{"generateName", "name"}},
		{"not the root: no kind", root, false, "self.", nil, []string{"kind"}, nil},
		{"embedded resource", spec, false, "self.template.", nil, nil, []string{"apiVersion", "kind", "metadata"}},
		{"rule on the embedded resource", &tmpl, false, "self.", []string{"apiVersion", "kind", "metadata"}, nil, nil},
		{"index", spec, false, "self.items[0].", []string{"name", "ports"}, nil, nil},
		{"nested index", spec, false, "self.items[size(self.items) - 1].ports[0].", []string{"port", "protocol"}, nil, nil},
		{"macro variable", spec, false, "self.items.all(x, x.", nil, nil, []string{"name", "ports"}},
		{"macro variable with prefix", spec, false, "self.items.exists(item, item.na", nil, nil, []string{"name", "ports"}},
		{"nested macros", spec, false, "self.items.all(i, i.ports.all(p, p.", nil, nil, []string{"port", "protocol"}},
		{"two-variable", spec, false, "self.items.all(i, v, v.", []string{"name"}, nil, nil},
		{"chained macros", spec, false, `self.items.filter(x, x.name != "").map(y, y.`, []string{"name"}, nil, nil},
		{"string variable", spec, false, "self.tags.all(t, t.", []string{"startsWith", "matches"}, nil, nil},
		{"map index", spec, false, "self.labels['app'].", []string{"startsWith", "size"}, nil, nil},
		{"map of objects", spec, false, "self.backends['a'].", []string{"host", "weight"}, nil, nil},
		{"map select", spec, false, "self.backends.primary.", []string{"host", "weight"}, nil, nil},
		{"map macro binds the key", spec, false, "self.backends.all(k, k.", []string{"startsWith"}, nil, nil},
		{"map two-variable", spec, false, "self.backends.all(k, v, v.", []string{"host"}, nil, nil},
		{"map functions", spec, false, "self.labels.", []string{"all", "exists", "size", "filter", "map"}, []string{"startsWith", "sum"}, nil},
		{"string functions", spec, false, "self.image.", []string{"startsWith", "endsWith", "matches", "contains", "size", "find", "findAll", "lowerAscii", "split", "substring", "format"}, []string{"all", "replicas", "reverse"}, nil},
		{"list functions", spec, false, "self.items.", []string{"size", "all", "exists", "exists_one", "map", "filter", "isSorted", "sum", "min", "max", "indexOf", "includes", "sortBy", "distinct", "slice"}, []string{"join", "startsWith"}, nil},
		{"list of strings", spec, false, "self.tags.", []string{"join"}, nil, nil},
		{"duration", spec, false, "self.timeout.", []string{"getSeconds"}, nil, nil},
		{"timestamp", spec, false, "self.created.", []string{"getFullYear", "getDayOfWeek"}, nil, nil},
		{"quantity", spec, false, "quantity('1Gi').", []string{"isLessThan", "add", "asInteger"}, nil, nil},
		{"quantity add", spec, false, "quantity(self.image).add(1).", []string{"isGreaterThan"}, nil, nil},
		{"url", spec, false, "url(self.image).", []string{"getHost", "getScheme", "getQuery"}, nil, nil},
		{"ip", spec, false, "ip(self.image).", []string{"family", "isLoopback"}, nil, nil},
		{"cidr", spec, false, "cidr('10.0.0.0/8').", []string{"containsIP", "prefixLength", "masked"}, nil, nil},
		{"cidr ip", spec, false, "cidr('10.0.0.0/8').ip().", []string{"family"}, nil, nil},
		{"semver", spec, false, "semver('1.2.3').", []string{"major", "isLessThan"}, nil, nil},
		{"format", spec, false, "format.dns1123Label().", []string{"validate"}, nil, nil},
		{"split", spec, false, "self.image.split('/').", []string{"join", "size"}, nil, nil},
		{"filter result", spec, false, "self.items.filter(x, true).", []string{"map", "size"}, nil, nil},
		{"optional", spec, false, "self.?image.", []string{"hasValue", "orValue", "value"}, nil, nil},
		{"optional value", spec, false, "self.?image.value().", []string{"startsWith"}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := labels(Complete(c.schema, c.before, c.root))
			if got == nil {
				t.Fatalf("Complete(%q) = nil", c.before)
			}
			for _, n := range c.has {
				if !slices.Contains(got, n) {
					t.Errorf("%q not offered: %v", n, got)
				}
			}
			for _, n := range c.lacks {
				if slices.Contains(got, n) {
					t.Errorf("%q offered: %v", n, got)
				}
			}
			if c.exact != nil && !reflect.DeepEqual(got, c.exact) {
				t.Errorf("got %v, want %v", got, c.exact)
			}
		})
	}
}

func TestCompleteNothingToComplete(t *testing.T) {
	_, spec := schemas(t)
	for _, before := range []string{
		"self", "self.nope.", "self.image == 'a.'", "self.image == 'a.", "unknown.", "1.",
		"self.raw.", "self.replicas.", "self.max__dash__surge.", "self.items.all(x, true) && x.", "",
	} {
		if r := Complete(spec, before, false); r != nil {
			t.Errorf("Complete(%q) = %v, want nil", before, labels(r))
		}
	}
}

func TestCompleteFromAndType(t *testing.T) {
	_, spec := schemas(t)
	if r := Complete(spec, "self.rep", false); r == nil || r.From != 5 || r.Type != "object" {
		t.Errorf("self.rep: %+v", r)
	}
	if r := Complete(spec, "self.tags.", false); r == nil || r.Type != "list(string)" {
		t.Errorf("self.tags.: %+v", r)
	}
	// .? offers the fields only
	opt, plain := labels(Complete(spec, "self.?", false)), labels(Complete(spec, "self.", false))
	for _, l := range opt {
		if !slices.Contains(plain, l) {
			t.Errorf(".? offers %q, . does not", l)
		}
	}
	if slices.Contains(opt, "all") {
		t.Errorf(".? offers functions: %v", opt)
	}
}

func TestEscapeName(t *testing.T) {
	for in, want := range map[string]string{"a.b/c__d": "a__dot__b__slash__c__underscores__d", "in": "__in__", "x-y": "x__dash__y", "1x": ""} {
		if got, _ := EscapeName(in); got != want {
			t.Errorf("EscapeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTokenize(t *testing.T) {
	var got []string
	for _, k := range tokenize("self.a[\"x.y\"] // c\n r'\\d'") {
		got = append(got, string(k.t)+k.v)
	}
	want := []string{"iself", "p.", "ia", "p[", "s", "p]", "s"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func FuzzComplete(f *testing.F) {
	for _, s := range []string{"self.", "self.items.all(x, x.", "a((((.", "'''.", "self.?x[?0]."} {
		f.Add(s)
	}
	var s crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(testSchema), &s); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, before string) {
		Complete(&s, before, true) // never panics
	})
}

// Past the CEL parser's limits (100,000 code points, nesting 250) the
// expression cannot compile: nothing is offered, and long inputs stay
// linear (a run of closed macros before the open one is walked once).
func TestCompleteWithinTheParsersLimits(t *testing.T) {
	_, spec := schemas(t)
	for _, c := range []struct {
		name   string
		before string
		want   []string // nil: no completion
	}{
		{"nesting at the limit", strings.Repeat("(", 249) + "self.items.all(x, x.", []string{"name", "ports"}},
		{"nesting over the limit", strings.Repeat("(", 250) + "self.items.all(x, x.", nil},
		{"over 100,000 code points", strings.Repeat(" ", 100000) + "self.", nil},
		{"2,000 closed macros, then an open one", strings.Repeat("self.items.all(x, x.name == '') && ", 2000) + "self.items.all(y, y.", []string{"name", "ports"}},
	} {
		r := Complete(spec, c.before, false)
		var got []string
		if r != nil {
			for _, o := range r.Options {
				if o.Kind == Property {
					got = append(got, o.Label)
				}
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

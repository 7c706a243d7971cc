package pruning

import (
	"github.com/crdlab/crdlab/internal/schema"
	"reflect"
	"strings"
	"testing"
)

func TestPrune(t *testing.T) {
	tests := []struct {
		name       string
		obj        string
		schema     string // "" means a nil schema
		root       bool
		wantObj    string
		wantPruned []string
	}{
		{name: "null object stays null", obj: `null`, wantObj: `null`},
		{name: "scalar is kept", obj: `4`, schema: `{}`, wantObj: `4`},
		{name: "scalar array is kept", obj: `[1,2]`, schema: `{"items":{}}`, wantObj: `[1,2]`},
		{
			name:       "unknown keys in array items are pruned with indexed paths",
			obj:        `[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]`,
			schema:     `{"items":{"properties":{"a":{},"c":{}}}}`,
			wantObj:    `[{"a":1},{},{"a":1,"c":3}]`,
			wantPruned: []string{"[1].b", "[2].b"},
		},
		{
			name:       "nil schema prunes every key of every item",
			obj:        `[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]`,
			wantObj:    `[{},{},{}]`,
			wantPruned: []string{"[0].a", "[1].b", "[2].a", "[2].b", "[2].c"},
		},
		{
			name:       "nil schema at the top of an object reports apiVersion kind and metadata too",
			obj:        `{"apiVersion":"v1","kind":"K","metadata":{},"x":1}`,
			wantObj:    `{}`,
			wantPruned: []string{"apiVersion", "kind", "metadata", "x"},
		},
		{
			name:       "unknown apiVersion kind metadata at the top of a non-root are dropped silently",
			obj:        `{"apiVersion":"v1","kind":"K","metadata":{},"x":1,"a":2}`,
			schema:     `{"properties":{"a":{}}}`,
			wantObj:    `{"a":2}`,
			wantPruned: []string{"x"},
		},
		{
			name:       "nested unknown fields sorted with dotted paths",
			obj:        `{"array":[{"a":1},{"b":1},{"a":1,"b":2,"c":3}],"unspecified":{"a":1},"specified":{"a":1,"b":2,"c":3}}`,
			schema:     `{"properties":{"array":{"items":{"properties":{"a":{},"c":{}}}},"specified":{"properties":{"a":{},"c":{}}}}}`,
			wantObj:    `{"array":[{"a":1},{},{"a":1,"c":3}],"specified":{"a":1,"c":3}}`,
			wantPruned: []string{"array[1].b", "array[2].b", "specified.b", "unspecified"},
		},
		{
			name: "preserve-unknown-fields keeps unknown but prunes below specified properties",
			obj: `{
  "unspecified":"bar", "alpha":"abc", "beta":42.0,
  "unspecifiedObject":{"unspecified":"bar"},
  "pruning":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{"unspecified":"bar"},"apiVersion":"unknown","preserving":{"unspecified":"bar"}},
  "preserving":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{"unspecified":"bar"},"preserving":{"unspecified":"bar"},"preservingUnknownType":[{"foo":true},{"bar":true}]},
  "apNotInheriting":{"foo":{"specified":{"unspecified":"bar"},"unspecified":"bar"}},
  "apPruneValues":{"foo":{"specified":{"unspecified":"bar"},"unspecified":"bar"}}
}`,
			schema: `{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{
  "alpha":{"type":"string"},
  "beta":{"type":"number"},
  "pruning":{"type":"object","properties":{
    "preserving":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
    "pruning":{"type":"object"}}},
  "preserving":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{
    "preserving":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
    "preservingUnknownType":{"x-kubernetes-preserve-unknown-fields":true},
    "pruning":{"type":"object"}}},
  "apNotInheriting":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
    "additionalProperties":{"type":"object","properties":{"specified":{"type":"object"}}}},
  "apPruneValues":{"type":"object",
    "additionalProperties":{"type":"object","properties":{"specified":{"type":"object"}}}}
}}`,
			wantObj: `{
  "unspecified":"bar", "alpha":"abc", "beta":42.0,
  "unspecifiedObject":{"unspecified":"bar"},
  "pruning":{"pruning":{},"preserving":{"unspecified":"bar"}},
  "preserving":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{},"preserving":{"unspecified":"bar"},"preservingUnknownType":[{"foo":true},{"bar":true}]},
  "apNotInheriting":{"foo":{"specified":{}}},
  "apPruneValues":{"foo":{"specified":{}}}
}`,
			wantPruned: []string{
				"apNotInheriting.foo.specified.unspecified",
				"apNotInheriting.foo.unspecified",
				"apPruneValues.foo.specified.unspecified",
				"apPruneValues.foo.unspecified",
				"preserving.pruning.unspecified",
				"pruning.apiVersion",
				"pruning.pruning.unspecified",
				"pruning.unspecified",
				"pruning.unspecifiedObject",
			},
		},
		{
			name:       "preserve-unknown-fields on array items keeps unknown in items",
			obj:        `{"l":[{"x":1,"s":{"y":2}}]}`,
			schema:     `{"properties":{"l":{"x-kubernetes-preserve-unknown-fields":true,"items":{"x-kubernetes-preserve-unknown-fields":true,"properties":{"s":{"type":"object"}}}}}}`,
			wantObj:    `{"l":[{"x":1,"s":{}}]}`,
			wantPruned: []string{"l[0].s.y"},
		},
		{
			name:       "preserve-unknown-fields array without items schema keeps everything",
			obj:        `{"l":[{"x":1}]}`,
			schema:     `{"properties":{"l":{"x-kubernetes-preserve-unknown-fields":true}}}`,
			wantObj:    `{"l":[{"x":1}]}`,
			wantPruned: nil,
		},
		{
			name:       "additionalProperties schema prunes inside values",
			obj:        `{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1}}}`,
			schema:     `{"properties":{"a":{},"c":{"additionalProperties":{"type":"integer"}}}}`,
			wantObj:    `{"a":1,"c":{"a":1,"b":2,"c":{}}}`,
			wantPruned: []string{"b", "c.c.a"},
		},
		{
			name:       "additionalProperties bool keeps keys and prunes everything inside values",
			obj:        `{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1,"apiVersion":"unknown"}}}`,
			schema:     `{"properties":{"a":{},"c":{"additionalProperties":false}}}`,
			wantObj:    `{"a":1,"c":{"a":1,"b":2,"c":{}}}`,
			wantPruned: []string{"b", "c.c.a", "c.c.apiVersion"},
		},
		{
			name:       "list of lists indexes append to the same segment",
			obj:        `{"m":[[{"a":1,"b":2}]]}`,
			schema:     `{"properties":{"m":{"items":{"items":{"properties":{"a":{}}}}}}}`,
			wantObj:    `{"m":[[{"a":1}]]}`,
			wantPruned: []string{"m[0][0].b"},
		},
		{
			name:       "keys with dots are not escaped",
			obj:        `{"a.b":{"c.d":1}}`,
			schema:     `{"additionalProperties":{"properties":{}}}`,
			wantObj:    `{"a.b":{}}`,
			wantPruned: []string{"a.b.c.d"},
		},
		{
			name:       "scalar where an object is specified is left alone",
			obj:        `{"spec":"str","list":{"x":1}}`,
			schema:     `{"properties":{"spec":{"properties":{"a":{}}},"list":{"items":{}}}}`,
			wantObj:    `{"spec":"str","list":{}}`,
			wantPruned: []string{"list.x"},
		},
		{
			name: "embedded resources keep apiVersion kind metadata",
			obj: `{
  "apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance","unspecified":"bar"},"unspecified":"bar",
  "pruned":{"apiVersion":"foo/v1","kind":"Foo","unspecified":"bar","metadata":{"name":"instance","unspecified":"bar"},"spec":{"unspecified":"bar"}},
  "preserving":{"apiVersion":"foo/v1","kind":"Foo","unspecified":"bar","metadata":{"name":"instance","unspecified":"bar"},"spec":{"unspecified":"bar"}},
  "nested":{"apiVersion":"foo/v1","kind":"Foo","unspecified":"bar","metadata":{"name":"instance","unspecified":"bar"},
    "spec":{"unspecified":"bar","embedded":{"apiVersion":"foo/v1","kind":"Foo","unspecified":"bar","metadata":{"name":"instance","unspecified":"bar"},"spec":{"unspecified":"bar"}}}}
}`,
			schema: `{"type":"object","properties":{
  "pruned":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}},
  "preserving":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
  "nested":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object","properties":{
    "embedded":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}}}}}}
}}`,
			wantObj: `{
  "pruned":{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance","unspecified":"bar"},"spec":{}},
  "preserving":{"apiVersion":"foo/v1","kind":"Foo","unspecified":"bar","metadata":{"name":"instance","unspecified":"bar"},"spec":{"unspecified":"bar"}},
  "nested":{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance","unspecified":"bar"},
    "spec":{"embedded":{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance","unspecified":"bar"},"spec":{}}}}
}`,
			wantPruned: []string{"nested.spec.embedded.spec.unspecified", "nested.spec.embedded.unspecified", "nested.spec.unspecified", "nested.unspecified", "pruned.spec.unspecified", "pruned.unspecified", "unspecified"},
		},
		{
			name: "resource root keeps apiVersion kind and metadata untouched",
			obj: `{
  "apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance","namespace":"myns","labels":{"foo":"bar"},"unspecified":"bar"},
  "unspecified":"bar",
  "pruned":{"apiVersion":"foo/v1","kind":"Foo","unspecified":"bar","metadata":{"name":"instance","unspecified":"bar"},"spec":{"unspecified":"bar"}}
}`,
			schema: `{"type":"object","properties":{
  "metadata":{"type":"object"},
  "pruned":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object"},"spec":{"type":"object"}}}
}}`,
			root: true,
			wantObj: `{
  "apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance","namespace":"myns","labels":{"foo":"bar"},"unspecified":"bar"},
  "pruned":{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"instance","unspecified":"bar"},"spec":{}}
}`,
			wantPruned: []string{"pruned.spec.unspecified", "pruned.unspecified", "unspecified"},
		},
		{
			name:       "resource root with nil schema keeps only type and object meta",
			obj:        `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"x"},"spec":{"a":1}}`,
			root:       true,
			wantObj:    `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"x"}}`,
			wantPruned: []string{"spec"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s = nilOr(t, tt.schema)
			obj := decode(t, tt.obj)
			got := Prune(obj, s, tt.root)
			if want := decode(t, tt.wantObj); !reflect.DeepEqual(obj, want) {
				t.Errorf("object:\n%s\nwant:\n%s", encode(t, obj), encode(t, want))
			}
			if !reflect.DeepEqual(got, tt.wantPruned) {
				t.Errorf("pruned paths:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.wantPruned, "\n\t"))
			}

			// Without tracking: the same object, no paths.
			obj2 := decode(t, tt.obj)
			if paths := PruneWithOptions(obj2, nilOr(t, tt.schema), tt.root, Options{}); paths != nil {
				t.Errorf("untracked prune returned paths %v", paths)
			}
			if !reflect.DeepEqual(obj2, obj) {
				t.Errorf("untracked prune gave\n%s\nwant\n%s", encode(t, obj2), encode(t, obj))
			}
		})
	}
}

func nilOr(t *testing.T, js string) *schema.Structural {
	if js == "" {
		return nil
	}
	return sch(t, js)
}

func TestPruneDoesNotMutateSchemaForResourceRoot(t *testing.T) {
	s := sch(t, `{"type":"object","properties":{"spec":{"type":"object"}}}`)
	Prune(decode(t, `{"kind":"K","x":1}`), s, true)
	if s.XEmbeddedResource {
		t.Fatal("Prune set x-kubernetes-embedded-resource on the caller's schema")
	}
}

package defaulting

import (
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/internal/schema"
)

func TestPruneDefaults(t *testing.T) {
	tests := []struct {
		name    string
		schema  string
		want    string // the schema's defaults after pruning, by path
		wantErr string
	}{
		{
			name:   "unknown fields are pruned from an object default",
			schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{}},"default":{"a":1,"b":2}}}}`,
			want:   `{"spec":{"a":1}}`,
		},
		{
			name:   "defaults below a default are pruned by their own schema position",
			schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{"o":{"type":"object","properties":{"x":{}},"default":{"x":1,"y":2}}}}}}`,
			want:   `{"spec.o":{"x":1}}`,
		},
		{
			name:   "items defaults are pruned as a list item",
			schema: `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"a":{}},"default":{"a":1,"z":0}}}}}`,
			want:   `{"l[]":{"a":1}}`,
		},
		{
			name:   "list defaults are pruned item by item",
			schema: `{"type":"object","properties":{"l":{"type":"array","default":[{"a":1,"z":0},{"z":1}],"items":{"type":"object","properties":{"a":{}}}}}}`,
			want:   `{"l":[{"a":1},{}]}`,
		},
		{
			name:   "additionalProperties defaults are pruned as a map value",
			schema: `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"object","properties":{"a":{}},"default":{"a":1,"z":0}}}}}`,
			want:   `{"m[*]":{"a":1}}`,
		},
		{
			name:   "preserve-unknown-fields keeps unknown fields of defaults",
			schema: `{"type":"object","properties":{"p":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"default":{"anything":{"goes":1}}}}}`,
			want:   `{"p":{"anything":{"goes":1}}}`,
		},
		{
			name:   "embedded resource defaults keep apiVersion kind and metadata",
			schema: `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}},"default":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{},"status":{}}}}}`,
			want:   `{"e":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{}}}`,
		},
		{
			name:   "scalar defaults are untouched",
			schema: `{"type":"object","properties":{"s":{"type":"string","default":"x"},"i":{"type":"integer","default":3}}}`,
			want:   `{"s":"x","i":3}`,
		},
		{
			name:    "a non-object default at the root is an error",
			schema:  `{"type":"object","default":"x"}`,
			wantErr: "failed to prune default value: object root default value must be of object type",
		},
		{
			name:   "an object default at the root is pruned as the resource",
			schema: `{"type":"object","properties":{"spec":{}},"default":{"apiVersion":"v1","kind":"K","spec":1,"extra":2}}`,
			want:   `{"":{"apiVersion":"v1","kind":"K","spec":1}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sch(t, tt.schema)
			err := PruneDefaults(s)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			got := map[string]interface{}{}
			collectDefaults(s, "", got)
			if want := decode(t, tt.want); !reflect.DeepEqual(interface{}(got), want) {
				t.Errorf("defaults\n%s\nwant\n%s", encode(t, got), encode(t, want))
			}
		})
	}
}

func TestPruneDefaultsCopiesDefaultValues(t *testing.T) {
	s := sch(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{}},"default":{"a":1,"b":2}}}}`)
	def := s.Properties["spec"].Default.Object.(map[string]interface{})
	if err := PruneDefaults(s); err != nil {
		t.Fatal(err)
	}
	if _, ok := def["b"]; !ok {
		t.Error("PruneDefaults changed the original default value in place")
	}
	if got := s.Properties["spec"].Default.Object; !reflect.DeepEqual(got, map[string]interface{}{"a": int64(1)}) {
		t.Errorf("pruned default %v", got)
	}
}

// collectDefaults lists the defaults of s by a dotted path ("" for the root,
// "[]" for items, "[*]" for additionalProperties).
func collectDefaults(s *schema.Structural, p string, out map[string]interface{}) {
	if s == nil {
		return
	}
	if s.Default.Object != nil {
		out[p] = s.Default.Object
	}
	if s.Items != nil {
		collectDefaults(s.Items, p+"[]", out)
	}
	if s.AdditionalProperties != nil {
		collectDefaults(s.AdditionalProperties.Structural, p+"[*]", out)
	}
	for k, sub := range s.Properties {
		q := k
		if p != "" {
			q = p + "." + k
		}
		collectDefaults(&sub, q, out)
	}
}

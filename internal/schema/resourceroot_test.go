package schema

import "testing"

func TestResourceRootMarksACopyOfTheRootOnly(t *testing.T) {
	plain := &Structural{Generic: Generic{Type: "object"}}
	embedded := &Structural{Generic: Generic{Type: "object"}, Extensions: Extensions{XEmbeddedResource: true}}
	for _, tc := range []struct {
		name     string
		in       *Structural
		root     bool
		wantSame bool // the result is in itself
	}{
		{"not the root: unchanged", plain, false, true},
		{"not the root, nil: nil", nil, false, true},
		{"root, nil: an empty embedded schema", nil, true, false},
		{"root, already embedded: unchanged", embedded, true, true},
		{"root, not embedded: an embedded copy", plain, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ResourceRoot(tc.in, tc.root)
			if (got == tc.in) != tc.wantSame {
				t.Fatalf("ResourceRoot returned its input: %v, want %v", got == tc.in, tc.wantSame)
			}
			if tc.root && !got.XEmbeddedResource {
				t.Error("the root is not marked x-kubernetes-embedded-resource")
			}
			if tc.in != nil && tc.in.Type != "" && got.Type != tc.in.Type {
				t.Errorf("type %q, want %q", got.Type, tc.in.Type)
			}
		})
	}
	if plain.XEmbeddedResource {
		t.Error("ResourceRoot marked its input")
	}
}

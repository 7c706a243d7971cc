package engine

import (
	"testing"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

func TestErrorsAtRendersAsTheRelease(t *testing.T) {
	p := field.NewPath("metadata", "annotations")
	errs := func() field.ErrorList {
		return field.ErrorList{
			field.TooLong(p, "", 262144),
			field.TooLong(p, "", 1),
			field.TooMany(p, 2, 1),
			field.Invalid(p, []string{"a"}, "bad"),
		}
	}
	tests := []struct {
		minor int
		want  []string
	}{
		{37, []string{"metadata.annotations: Too long: may not be more than 262144 bytes", "metadata.annotations: Too long: may not be more than 1 byte", "metadata.annotations: Too many: 2: must have at most 1 item", `metadata.annotations: Invalid value: ["a"]: bad`}},
		{34, []string{"metadata.annotations: Too long: may not be more than 262144 bytes", "metadata.annotations: Too long: may not be more than 1 byte", "metadata.annotations: Too many: 2: must have at most 1 item", `metadata.annotations: Invalid value: ["a"]: bad`}},
		{33, []string{"metadata.annotations: Too long: may not be more than 262144 bytes", "metadata.annotations: Too long: may not be more than 1 bytes", "metadata.annotations: Too many: 2: must have at most 1 items", `metadata.annotations: Invalid value: []string{"a"}: bad`}},
		{31, []string{"metadata.annotations: Too long: must have at most 262144 bytes", "metadata.annotations: Too long: must have at most 1 bytes", "metadata.annotations: Too many: 2: must have at most 1 items", `metadata.annotations: Invalid value: []string{"a"}: bad`}},
	}
	for _, tt := range tests {
		in := errs()
		got := errorsAt(kubeversion.Of(tt.minor), in)
		for i, e := range got {
			if e.Error() != tt.want[i] {
				t.Errorf("1.%d: got %q, want %q", tt.minor, e.Error(), tt.want[i])
			}
		}
		if in[0].Detail != "may not be more than 262144 bytes" {
			t.Errorf("1.%d: the given errors changed: %q", tt.minor, in[0].Detail)
		}
	}
}

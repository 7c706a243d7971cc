package engine

import (
	"encoding/json"
	"testing"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/wire"
)

func TestInvalidMessage(t *testing.T) {
	one := field.Invalid(field.NewPath("spec", "replicas"), int64(15), "too many")
	two := field.Required(field.NewPath("spec", "image"), "")
	tests := []struct {
		name string
		errs field.ErrorList
		want string
	}{
		{"no causes", nil, "The CronTab \"x\" is invalid\n"},
		{"one cause on the same line", field.ErrorList{one}, "The CronTab \"x\" is invalid: spec.replicas: Invalid value: 15: too many\n"},
		{"several causes as bullets after a trailing space", field.ErrorList{one, two},
			"The CronTab \"x\" is invalid: \n* spec.replicas: Invalid value: 15: too many\n* spec.image: Required value\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InvalidMessage("CronTab", "x", tt.errs); got != tt.want {
				t.Fatalf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestNewReportSlicesAreNeverNull(t *testing.T) {
	c := compileT(t, widgetCRD)
	for _, r := range []*Result{nil, {}} {
		b, err := json.Marshal(NewReport(c, r))
		if err != nil {
			t.Fatal(err)
		}
		want := `{"crd":{"errors":[],"warnings":[]},"object":null}`
		if r != nil {
			want = `{"crd":{"errors":[],"warnings":[]},"object":{"result":null,"pruned":[],"errors":[],"warnings":[]}}`
		}
		if string(b) != want {
			t.Errorf("got  %s\nwant %s", b, want)
		}
	}
}

func TestNewReportCarriesErrorFields(t *testing.T) {
	c := compileT(t, widgetCRD)
	r := &Result{Errors: field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), int64(-1), "bad")}, DecodeError: "x"}
	got := NewReport(c, r).Object
	want := wire.ErrorReport{Type: "FieldValueInvalid", Field: "spec.replicas", Detail: "bad", Message: "spec.replicas: Invalid value: -1: bad"}
	if len(got.Errors) != 1 || got.Errors[0] != want || got.DecodeError != "x" {
		t.Fatalf("got %+v, want one %+v and decodeError x", got, want)
	}
}

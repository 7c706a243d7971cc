package field

import (
	"fmt"
	"regexp"
	"testing"
)

// fmtPointers canonicalizes fmt's pointer addresses as the printer writes
// them (0xPTR), as the differential suite does with upstream's messages.
var fmtPointers = regexp.MustCompile(`\)\(0x[0-9a-f]+\)`)

type upstreamRule struct {
	Rule            string
	Reason          *string
	OptionalOldSelf *bool
}

func (upstreamRule) GoTypeName() string { return "apiextensions.ValidationRule" }

// wrapped stands for an upstream value of another shape (GoSyntaxer).
type wrapped struct{ rule string }

func (w wrapped) GoSyntax() interface{} { return upstreamRule{Rule: w.rule} }

type stringer struct{}

func (stringer) String() string { return "as String" }

type nilJSON struct{}

func (nilJSON) GoTypeName() string    { return "apiextensions.JSON" }
func (nilJSON) GoSyntax() interface{} { return nil }

func TestGoSyntaxValuesMatchFmtForBuiltinTypes(t *testing.T) {
	s := "x"
	tr := true
	values := []interface{}{
		[]string{"a", "b"},
		[]string(nil),
		[]string{},
		map[string]interface{}{"b": 1.5, "a": "x", "c": nil, "d": []interface{}{int64(1), true, "q\"uote"}},
		map[string]interface{}(nil),
		[]interface{}{nil, float64(1), float64(1e21), float64(-0.25), map[string]interface{}{}},
		[]byte("foo"),
		struct {
			A []byte
			B *bool
			C *string
			D interface{}
			E uint8
		}{A: []byte("x"), B: &tr},
		int(5),
		uint(5),
		[2]int{1, 2},
		&s, // a pointer: its target is printed, as upstream dereferences it
	}
	for _, v := range values {
		want := fmt.Sprintf("%#v", v)
		if p, ok := v.(*string); ok {
			want = fmt.Sprintf("%q", *p)
		}
		want = fmtPointers.ReplaceAllString(want, ")(0xPTR)")
		if got := renderValueGoSyntax(v); got != want {
			t.Errorf("%T:\n got %s\nwant %s", v, got, want)
		}
	}
}

func TestGoSyntaxValuesRenderAsKubernetes133(t *testing.T) {
	tr := true
	tests := []struct {
		name  string
		value interface{}
		want  string
	}{
		{"nil is the quoted string null", nil, `"null"`},
		{"a nil pointer too", (*int64)(nil), `"null"`},
		{"a pointer is dereferenced", &tr, `true`},
		{"numbers as %v", int64(3), `3`},
		{"strings quoted", "a\nb", `"a\nb"`},
		{"a Stringer by its String", stringer{}, `as String`},
		{"a pointer's target is what must be a Stringer", NewPath("spec"), `field.Path{name:"spec", index:"", parent:(*field.Path)(nil)}`},
		{"upstream's type name", upstreamRule{Rule: "self > 0", OptionalOldSelf: &tr},
			`apiextensions.ValidationRule{Rule:"self > 0", Reason:(*string)(nil), OptionalOldSelf:(*bool)(0xPTR)}`},
		{"a mirror in place of the value", wrapped{"r"},
			`apiextensions.ValidationRule{Rule:"r", Reason:(*string)(nil), OptionalOldSelf:(*bool)(nil)}`},
		{"named slices of mirrors", []wrapped{{"a"}},
			`[]field.wrapped{apiextensions.ValidationRule{Rule:"a", Reason:(*string)(nil), OptionalOldSelf:(*bool)(nil)}}`},
		{"a nil mirror prints its type's nil", []nilJSON{{}}, `[]apiextensions.JSON{apiextensions.JSON(nil)}`},
		{"a pointer below the top level shows no target", []*upstreamRule{{}, nil},
			`[]*apiextensions.ValidationRule{(*apiextensions.ValidationRule)(0xPTR), (*apiextensions.ValidationRule)(nil)}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderValueGoSyntax(tt.value); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestWithGoSyntaxValuesCopiesTheErrors(t *testing.T) {
	orig := ErrorList{Invalid(NewPath("spec"), []string{"a"}, "bad"), Required(NewPath("x"), "")}
	old := orig.WithGoSyntaxValues()
	if got, want := old[0].Error(), `spec: Invalid value: []string{"a"}: bad`; got != want {
		t.Errorf("Go syntax: got %q, want %q", got, want)
	}
	if got, want := orig[0].Error(), `spec: Invalid value: ["a"]: bad`; got != want {
		t.Errorf("the original changed: got %q, want %q", got, want)
	}
	if got := old[1].Error(); got != "x: Required value" {
		t.Errorf("a Required error: got %q", got)
	}
}

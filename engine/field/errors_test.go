package field

import (
	"errors"
	"testing"
)

func TestPathStringRendersNamesAndSubscripts(t *testing.T) {
	tests := []struct {
		path *Path
		want string
	}{
		{NewPath("spec"), "spec"},
		{NewPath("spec", "replicas"), "spec.replicas"},
		{NewPath("spec").Child("containers").Index(0).Child("env").Key("FOO"), "spec.containers[0].env[FOO]"},
		{NewPath("spec").Child("a", "b"), "spec.a.b"},
		{NewPath("").Index(2), "[][2]"}, // upstream renders an empty root as "[]"
		{nil, "<nil>"},
	}
	for _, tt := range tests {
		if got := tt.path.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestPathRootAndSharing(t *testing.T) {
	base := NewPath("spec", "template")
	a, b := base.Child("a"), base.Child("b")
	if a.String() != "spec.template.a" || b.String() != "spec.template.b" {
		t.Fatalf("children share a parent wrongly: %s %s", a, b)
	}
	if a.Root().String() != "spec" {
		t.Fatalf("root = %s", a.Root())
	}
}

func TestErrorRendersLikeUpstream(t *testing.T) {
	p := NewPath("spec", "replicas")
	tests := []struct {
		err  *Error
		want string
	}{
		{Invalid(p, int64(15), "spec.replicas in body should be less than or equal to 10"), "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"},
		{Invalid(p, "x", "bad"), `spec.replicas: Invalid value: "x": bad`},
		{Invalid(p, 1.5, ""), "spec.replicas: Invalid value: 1.5"},
		{Invalid(p, true, "d"), "spec.replicas: Invalid value: true: d"},
		{Invalid(p, map[string]interface{}{"a": int64(1)}, "d"), `spec.replicas: Invalid value: {"a":1}: d`},
		{Invalid(p, nil, "d"), "spec.replicas: Invalid value: null: d"},
		{Required(p, ""), "spec.replicas: Required value"},
		{Required(p, "must be set"), "spec.replicas: Required value: must be set"},
		{Forbidden(p, "not allowed"), "spec.replicas: Forbidden: not allowed"},
		{Duplicate(p, "a"), `spec.replicas: Duplicate value: "a"`},
		{&Error{Type: ErrorTypeNotFound, Field: "spec.replicas", BadValue: "a"}, `spec.replicas: Not found: "a"`},
		{NotSupported(p, "c", []string{"a", "b"}), `spec.replicas: Unsupported value: "c": supported values: "a", "b"`},
		{TooLong(p, "xxx", 2), "spec.replicas: Too long: may not be more than 2 bytes"},
		{TooLong(p, "xxx", 1), "spec.replicas: Too long: may not be more than 1 byte"},
		{TooLong(p, "xxx", -1), "spec.replicas: Too long: value is too long"},
		{&Error{Type: ErrorTypeTooLong, Field: "spec.replicas", BadValue: "<value omitted>", Detail: "may not be more than 2 characters"}, "spec.replicas: Too long: may not be more than 2 characters"},
		{TooMany(p, 3, 2), "spec.replicas: Too many: 3: must have at most 2 items"},
		{TooMany(p, -1, 1), "spec.replicas: Too many: must have at most 1 item"},
		{&Error{Type: ErrorTypeTooFew, Field: "spec.replicas", BadValue: 1, Detail: "must have at least 2 items"}, "spec.replicas: Too few: 1: must have at least 2 items"},
		{&Error{Type: ErrorTypeTooShort, Field: "spec.replicas", BadValue: "a", Detail: "must be at least 2 characters"}, "spec.replicas: Too short: must be at least 2 characters"},
		{TypeInvalid(p, "a", "must be integer"), `spec.replicas: Invalid value: "a": must be integer`},
		{InternalError(p, errors.New("boom")), "spec.replicas: Internal error: boom"},
		{&Error{Type: "Weird", Field: "f"}, `f: Internal error: unhandled error code: <unknown error "Weird">: please report this`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}

func TestToAggregateDeduplicatesAndBrackets(t *testing.T) {
	p := NewPath("spec")
	if ErrorList(nil).ToAggregate() != nil {
		t.Fatal("empty list must aggregate to nil")
	}
	one := ErrorList{Required(p, "")}
	if got := one.ToAggregate().Error(); got != "spec: Required value" {
		t.Fatalf("single: %q", got)
	}
	two := ErrorList{Required(p, ""), Forbidden(p, "x"), Required(p, "")}
	if got := two.ToAggregate().Error(); got != "[spec: Required value, spec: Forbidden: x]" {
		t.Fatalf("several: %q", got)
	}
	if n := len(two.Deduplicated()); n != 2 {
		t.Fatalf("deduplicated length %d", n)
	}
	same := ErrorList{Required(p, ""), Required(p, "")}
	if got := same.ToAggregate().Error(); got != "spec: Required value" {
		t.Fatalf("duplicates only: %q", got)
	}
}

package schema

import (
	"regexp"
	"strings"
	"testing"
)

// checkPattern must accept and reject exactly what regexp.Compile does, with
// the same message (the CRD error quotes it).
func TestCheckPatternIsRegexpCompile(t *testing.T) {
	patterns := []string{
		`^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$`, `^[a-z]+$`, `a{1000}`, `a{1001}`, `(a{500}){3}`,
		`(`, `)`, `[z-a]`, `\8`, `(?P<n>a)(?P<n>b)`, `(?<x>y)`, `*a`, `a**`, `\p{Nope}`, `\pL`,
		`(?i)abc`, `(?z)`, "\xff", `x{2,1}`, `[[:alpha:]]`, `[[:nope:]]`, `\Q.*\E`, `a|*`,
		strings.Repeat("(", 1001) + strings.Repeat(")", 1001), strings.Repeat("a*", 2000),
		`((((((((((a{100}){100}){100})))))))))`, `\z`, `\C`,
	}
	errors := 0
	for _, p := range patterns {
		_, want := regexp.Compile(p)
		got := checkPattern(p)
		if (want == nil) != (got == nil) || (want != nil && want.Error() != got.Error()) {
			t.Errorf("checkPattern(%q) = %v, regexp.Compile: %v", p, got, want)
		}
		if want != nil {
			errors++
		}
	}
	if errors < 10 {
		t.Fatalf("only %d of the patterns are invalid", errors)
	}
}

func FuzzCheckPatternIsRegexpCompile(f *testing.F) {
	for _, p := range []string{`^[a-z]+$`, `(`, `a{1001}`, `\pL`} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		_, want := regexp.Compile(p)
		got := checkPattern(p)
		if (want == nil) != (got == nil) || (want != nil && want.Error() != got.Error()) {
			t.Errorf("checkPattern(%q) = %v, regexp.Compile: %v", p, got, want)
		}
	})
}

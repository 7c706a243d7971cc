package openapi

import "testing"

func TestPatternsCompileEachPatternOncePerCache(t *testing.T) {
	p := NewPatterns()
	a, err := p.compile("^a+$")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := p.compile("^a+$")
	if a != b {
		t.Errorf("the same pattern was compiled twice in one cache")
	}
	other, _ := NewPatterns().compile("^a+$")
	if other == a {
		t.Errorf("two caches share a compiled pattern: the cache is not per compile")
	}
	if _, err := p.compile("("); err == nil {
		t.Errorf("an invalid pattern compiled")
	}
}

func TestNilPatternsCompileWithoutCaching(t *testing.T) {
	var p *Patterns
	a, err := p.compile("^b$")
	if err != nil || !a.MatchString("b") {
		t.Fatalf("nil cache: %v", err)
	}
	if b, _ := p.compile("^b$"); a == b {
		t.Errorf("a nil cache returned a cached pattern")
	}
}

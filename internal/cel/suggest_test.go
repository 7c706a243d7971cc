package cel

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/kubeversion"
)

// An undeclared reference's compile error at 1.38 names what the
// environment's symbol catalog has near it (cel.dev/cel-go v0.33), and at
// 1.37 names nothing, with the empty container.
func TestUndeclaredReferenceSuggestsFromTheCatalogFrom138(t *testing.T) {
	for _, tc := range []struct {
		rule, name string
		want138    string // the text after `undeclared reference to 'name'`
	}{
		{"math.greatest([1]) == 1", "math", " (did you mean 'path'?)"},
		{"selff.n == 1", "selff", " (did you mean 'self'?)"},
		{"oldself.n == self.n", "oldself", " (did you mean 'oldSelf'?)"},
		{"siz(self.u) == 1", "siz", " (did you mean 'size'?)"},
		{"[1].exist(x, x > 1)", "exist", " (did you mean 'exists'?)"},
		{"zqxwvj == 1", "zqxwvj", ""},
		{"self.u.lstIndxOf('a') == 1", "lstIndxOf", " (did you mean 'lastIndexOf'?)"},
		{"self.u.lstIndxO('a') == 1", "lstIndxO", ""},
		// a dotted name, at 1.37 reported by its first part
		{"strings.quot(self.u) == 'a'", "strings.quot", " (did you mean 'strings.quote'?)"},
		{"strings.quot.x == 1", "strings.quot.x", " (did you mean 'strings.quote'?)"},
	} {
		for _, at := range []struct {
			minor int
			tail  string
		}{{37, " (in container '')"}, {38, tc.want138}} {
			r := compileAt(t, at.minor, NewExpressions, tc.rule)
			if r.Error == nil {
				t.Fatalf("%s at 1.%d compiles", tc.rule, at.minor)
			}
			name := tc.name
			if at.minor == 37 {
				name, _, _ = strings.Cut(name, ".")
			}
			want := "undeclared reference to '" + name + "'" + at.tail + "\n"
			if !strings.Contains(r.Error.Detail, want) {
				t.Errorf("%s at 1.%d:\n%s\nwant it to contain %q", tc.rule, at.minor, r.Error.Detail, want)
			}
		}
	}
}

// The catalog's search: exact names, the distance bound by length, the
// nearest first, shortest then alphabetical, dotted names among dotted
// ones, and the prefix fallback.
func TestSymbolCatalogSuggest(t *testing.T) {
	cat := symbolCatalog{}
	for _, s := range []string{"self", "size", "sizes", "map", "max", "path", "lastIndexOf",
		"strings.quote", "base64.encode", "quantity", "quantityOf", "exists", "exists_one"} {
		cat[s] = true
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"size", []string{"size"}},
		{"math", []string{"path"}},
		{"mat", []string{"map", "max"}},
		{"siz", []string{"size"}},
		{"sz", nil},
		{"qu", []string{"quantity", "quantityOf"}},
		{"q", nil},
		{"strings.quot", []string{"strings.quote"}},
		{"strings", nil},
		{"lstIndxOf", []string{"lastIndexOf"}},
		{"lstIndxO", nil},
		{"exist", []string{"exists"}},
		{"", nil},
	} {
		got := cat.suggest(tc.name)
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("suggest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Damerau-Levenshtein with adjacent transpositions and cel.dev/cel-go's
// shortcuts for long and far strings.
func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "abc", 3},
		{"abc", "", 3},
		{"math", "path", 1},
		{"sefl", "self", 1},
		{"kitten", "sitting", 3},
		{"lowerAsciiAsciiAscii", "lowerAscii", 10},
		{"abcdefghijkl", "zyxwvutsrqpo", tooFar},
		{strings.Repeat("a", 70), strings.Repeat("b", 40), 30},
		{strings.Repeat("a", 65), strings.Repeat("b", 64) + "c", tooFar},
	} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// The price of the suggestion on a failed compile: the catalog is built
// from the environment each time (compile errors are not the fast path).
func BenchmarkIssuesTextUndeclared(b *testing.B) {
	env, err := BaseEnvAt(NewExpressions, kubeversion.Of(38))
	if err != nil {
		b.Fatal(err)
	}
	const expr = "selff == 1 && strings.quot(sefl) == 'a'"
	_, issues := env.Compile(expr)
	if issues == nil {
		b.Fatal("compiles")
	}
	for _, minor := range []int{37, 38} {
		b.Run(kubeversion.Of(minor).String(), func(b *testing.B) {
			for b.Loop() {
				issuesText(expr, issues, env, kubeversion.Of(minor))
			}
		})
	}
}

// Odd inputs at 1.38: more errors than cel-go reports (its truncation note
// stays), a dotted miss among them, long names and chains, a dotted miss
// inside a comprehension and a struct of an unknown type: errors, never a
// panic.
func TestUndeclaredSuggestionsOddInputs(t *testing.T) {
	many := make([]string, 120)
	for i := range many {
		many[i] = "selff"
	}
	for _, tc := range []struct {
		rule, want string
	}{
		{strings.Join(many, " + ") + " == 1", "more errors were truncated"},
		{"strings.quot(self.u) == 'a' && " + strings.Join(many, " + ") + " == 1", "undeclared reference to 'strings.quot' (did you mean 'strings.quote'?)"},
		{"[1].all(x, strings.quot(x) == 'a')", "undeclared reference to 'strings.quot' (did you mean 'strings.quote'?)"},
		{"Foo{a: strings.quot(1)} == 1", "undeclared reference to 'Foo'\n"},
		{strings.Repeat("q", 70) + " == 1", "undeclared reference to '" + strings.Repeat("q", 70) + "'\n"},
		// the longest chain within the length shortcut's bound is named
		{strings.Repeat("a.", 200) + "b == 1", "undeclared reference to 'a.a.a.a.a.a.a.a.a.a.a' (did you mean 'cel.@mapInsert' or 'ip.isCanonical'?)\n"},
	} {
		r := compileAt(t, 38, NewExpressions, tc.rule)
		if r.Error == nil {
			t.Fatalf("%.40s… compiles", tc.rule)
		}
		if !strings.Contains(r.Error.Detail, tc.want) {
			t.Errorf("%.60s…:\n%.600s\nwant it to contain %q", tc.rule, r.Error.Detail, tc.want)
		}
	}
}

// Any rule at 1.38 compiles or fails with a non-empty error; the
// suggestions (catalog, dotted misses, rebuilt issues) never panic or hang.
func FuzzUndeclaredSuggestions(f *testing.F) {
	for _, s := range []string{
		"math.greatest([1]) == 1", "strings.quot(self.u) == 'a'", "strings.quot.x == 1",
		"[1].all(x, strings.quot(x) == 'a')", "Foo{a: strings.quot(1)} == 1",
		"selff == 1 && strings.quot(sefl.u) == 'a'", strings.Repeat("a.", 100) + "b == 1",
		"has(strings.quot.x)", "self.u.lstIndxOf('a') == 1", "[1].exists(strings, strings.quot)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rule string) {
		if strings.TrimSpace(rule) == "" {
			return
		}
		var r CompilationResult
		withDeadline(t, "Compile", func() { r = compileAt(t, 38, NewExpressions, rule) })
		if (r.Program == nil) == (r.Error == nil) || r.Error != nil && r.Error.Detail == "" {
			t.Fatalf("rule %q: program=%v error=%v", rule, r.Program != nil, r.Error)
		}
	})
}

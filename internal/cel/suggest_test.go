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

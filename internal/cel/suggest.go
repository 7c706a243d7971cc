package cel

import (
	"slices"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/stdlib"

	"github.com/crdlab/crdlab/internal/kubeversion"
)

// From Kubernetes 1.38 (cel.dev/cel-go v0.33), an undeclared reference is
// reported with a suggestion taken from the environment's symbol catalog:
// `undeclared reference to 'math' (did you mean 'path'?)`. crdlab links
// github.com/google/cel-go v0.29.2, which has no catalog; this file builds
// the same catalog from the environment crdlab compiled in and applies the
// same search (kubeversion.UndeclaredSuggestions).
//
// The catalog holds every name the environment declares: its variables,
// its functions (operators included), the standard types and its macros.
// cel.dev/cel-go also lists the optional library's symbols when that
// library is absent; Kubernetes' base environment always has it, so they
// never enter.

// symbolCatalog is the set of names an environment declares.
type symbolCatalog map[string]bool

// catalogOf is env's symbol catalog.
func catalogOf(env *cel.Env) symbolCatalog {
	c := symbolCatalog{}
	for _, v := range env.Variables() {
		c[v.Name()] = true
	}
	for name := range env.Functions() {
		c[name] = true
	}
	for _, t := range stdlib.Types() {
		c[t.Name()] = true
	}
	for _, m := range env.Macros() {
		c[m.Function()] = true
	}
	return c
}

// suggest is the catalog's answer for name: name itself when declared;
// otherwise up to two of the nearest names (Damerau-Levenshtein distance at
// most 1 for names of up to 3 characters, a third of the length beyond 8,
// else 2), shortest first, then alphabetical; failing that, up to two names
// that name starts (at least 2 characters), in the same order. A dotted
// name is compared only with dotted names, an undotted one only with
// undotted ones.
func (c symbolCatalog) suggest(name string) []string {
	if name == "" || len(c) == 0 {
		return nil
	}
	if c[name] {
		return []string{name}
	}
	dotted := strings.Contains(name, ".")
	bound := 2
	switch {
	case len(name) <= 3:
		bound = 1
	case len(name) > 8:
		bound = len(name) / 3
	}
	var near, prefixed []string
	best := bound + 1
	for sym := range c {
		if strings.Contains(sym, ".") != dotted {
			continue
		}
		if strings.HasPrefix(sym, name) {
			prefixed = append(prefixed, sym)
		}
		d := editDistance(name, sym)
		switch {
		case d > bound:
		case d < best:
			best, near = d, []string{sym}
		case d == best:
			near = append(near, sym)
		}
	}
	if len(near) == 0 {
		if len(name) < 2 {
			return nil
		}
		near = prefixed
	}
	slices.SortFunc(near, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return near[:min(len(near), 2)]
}

// tooFar stands for a distance beyond any bound.
const tooFar = 1 << 30

// editDistance is the Damerau-Levenshtein (optimal string alignment)
// distance of a and b in runes, with cel.dev/cel-go's shortcuts, which
// decide what is suggested: when the longer string has at least 16 runes
// and half again the shorter's length, the distance is the difference of
// the lengths; when the product of the lengths exceeds 4096, or a row's
// least value exceeds a third of the longer length, it is tooFar.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	la, lb := len(ra), len(rb)
	switch {
	case la == 0:
		return lb
	case lb == 0:
		return la
	case la >= 16 && 2*la >= 3*lb:
		return la - lb
	case lb >= 16 && 2*lb >= 3*la:
		return lb - la
	case la*lb > 64*64:
		return tooFar
	}
	limit := max(la, lb) / 3
	// rows[i][j] is the distance of ra[:i] and rb[:j].
	rows := make([][]int, la+1)
	for i := range rows {
		rows[i] = make([]int, lb+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= la; i++ {
		least := rows[i][0]
		for j := 1; j <= lb; j++ {
			sub := rows[i-1][j-1]
			if ra[i-1] != rb[j-1] {
				sub++
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, sub)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
			least = min(least, d)
		}
		if least > limit {
			return tooFar
		}
	}
	return rows[la][lb]
}

// suggestionSuffix is what follows `undeclared reference to 'name'` for the
// catalog's answer found: nothing when it is empty or name itself, else
// ` (did you mean 'a'?)` or ` (did you mean 'a' or 'b'?)`.
func suggestionSuffix(name string, found []string) string {
	switch {
	case len(found) == 0 || len(found) == 1 && found[0] == name:
		return ""
	case len(found) == 1:
		return " (did you mean '" + found[0] + "'?)"
	default:
		return " (did you mean '" + found[0] + "' or '" + found[1] + "'?)"
	}
}

const (
	undeclaredPrefix    = "undeclared reference to '"
	emptyContainerTail  = "' (in container '')"
	undeclaredContainer = "' (in container '"
)

// withSuggestions is text (issues' text as crdlab's cel-go writes it) with
// each undeclared reference's message extended by the suggestion env's
// catalog gives for it.
func withSuggestions(text string, issues *cel.Issues, env *cel.Env) string {
	var cat symbolCatalog
	done := map[string]bool{}
	for _, e := range issues.Errors() {
		msg := e.Message
		if !strings.HasPrefix(msg, undeclaredPrefix) || done[msg] {
			continue
		}
		done[msg] = true
		rest := msg[len(undeclaredPrefix):]
		end := strings.Index(rest, undeclaredContainer)
		if end < 0 {
			continue
		}
		name := rest[:end]
		if cat == nil {
			cat = catalogOf(env)
		}
		if suffix := suggestionSuffix(name, cat.suggest(name)); suffix != "" {
			text = strings.ReplaceAll(text, msg, msg+suffix)
		}
	}
	return text
}

// issuesText is the text of a compile's issues in env as release rel's
// cel-go writes it: from Kubernetes 1.38 (cel.dev/cel-go v0.33), an
// undeclared reference names its container only when there is one
// (kubeversion.UndeclaredWithoutContainer) and ends with the catalog's
// suggestion (kubeversion.UndeclaredSuggestions).
func issuesText(issues *cel.Issues, env *cel.Env, rel kubeversion.Release) string {
	s := issues.String()
	if rel.Has(kubeversion.UndeclaredSuggestions) {
		s = withSuggestions(s, issues, env)
	}
	if rel.Has(kubeversion.UndeclaredWithoutContainer) {
		s = strings.ReplaceAll(s, emptyContainerTail, "'")
	}
	return s
}

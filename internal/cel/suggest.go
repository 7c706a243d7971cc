package cel

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/containers"
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
		// the distance is at least the difference of the lengths: a
		// symbol too long or too short is never within the bound
		if abs(utf8.RuneCountInString(sym)-utf8.RuneCountInString(name)) > bound {
			continue
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

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
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

// dottedMiss is a qualified name cel.dev/cel-go's checker looks up in the
// catalog before checking its parts (checker/errors.go
// checkUndeclaredIdent, checkUndeclaredFunction): a select chain a.b.c
// none of whose prefixes is declared, or a call a.b.f(…) whose target is
// such a chain and a.b.f no function. When the catalog has something near
// the whole name, one error at node names it, and the parts (the select's
// operand, the call's target) are not checked.
type dottedMiss struct {
	node  ast.Expr
	name  string
	found []string
	// call: node is a call, whose arguments were checked.
	call bool
}

// dottedMisses walks the parsed expression as the checker does and lists
// its dotted misses the catalog has something near.
func dottedMisses(root ast.Expr, env *cel.Env, cat symbolCatalog) []dottedMiss {
	vars := map[string]bool{}
	for _, v := range env.Variables() {
		vars[v.Name()] = true
	}
	provider := env.CELTypeProvider()
	funcs := env.Functions()
	var out []dottedMiss
	var walk func(e ast.Expr, scope map[string]bool)
	declared := func(name string, scope map[string]bool) bool {
		if scope[name] || vars[name] {
			return true
		}
		_, ok := provider.FindIdent(name)
		return ok
	}
	// undeclaredPrefixes: no prefix of parts (1 to all of them) is declared.
	undeclaredPrefixes := func(parts []string, scope map[string]bool) bool {
		for i := 1; i <= len(parts); i++ {
			if declared(strings.Join(parts[:i], "."), scope) {
				return false
			}
		}
		return true
	}
	walk = func(e ast.Expr, scope map[string]bool) {
		switch e.Kind() {
		case ast.SelectKind:
			sel := e.AsSelect()
			if q, ok := containers.ToQualifiedName(e); ok && !sel.IsTestOnly() {
				if declared(q, scope) {
					return
				}
				parts := strings.Split(q, ".")
				if undeclaredPrefixes(parts[:len(parts)-1], scope) {
					if found := cat.suggest(q); len(found) > 0 {
						out = append(out, dottedMiss{node: e, name: q, found: found})
						return
					}
				}
			}
			walk(sel.Operand(), scope)
		case ast.CallKind:
			call := e.AsCall()
			for _, a := range call.Args() {
				walk(a, scope)
			}
			if !call.IsMemberFunction() {
				return
			}
			if prefix, ok := containers.ToQualifiedName(call.Target()); ok {
				name := prefix + "." + call.FunctionName()
				if _, fn := funcs[name]; fn {
					return
				}
				if undeclaredPrefixes(strings.Split(prefix, "."), scope) {
					if found := cat.suggest(name); len(found) > 0 {
						out = append(out, dottedMiss{node: e, name: name, found: found, call: true})
						return
					}
				}
			}
			walk(call.Target(), scope)
		case ast.ListKind:
			for _, el := range e.AsList().Elements() {
				walk(el, scope)
			}
		case ast.MapKind:
			for _, en := range e.AsMap().Entries() {
				me := en.AsMapEntry()
				walk(me.Key(), scope)
				walk(me.Value(), scope)
			}
		case ast.StructKind:
			// the fields of a struct of an unknown type are not checked
			st := e.AsStruct()
			if _, ok := provider.FindStructType(st.TypeName()); !ok && !declared(st.TypeName(), scope) {
				return
			}
			for _, f := range st.Fields() {
				walk(f.AsStructField().Value(), scope)
			}
		case ast.ComprehensionKind:
			c := e.AsComprehension()
			walk(c.IterRange(), scope)
			walk(c.AccuInit(), scope)
			accu := maps.Clone(scope)
			accu[c.AccuVar()] = true
			loop := maps.Clone(accu)
			loop[c.IterVar()] = true
			if c.HasIterVar2() {
				loop[c.IterVar2()] = true
			}
			walk(c.LoopCondition(), loop)
			walk(c.LoopStep(), loop)
			walk(c.Result(), accu)
		}
	}
	walk(root, map[string]bool{})
	return out
}

// subtreeIDs is the set of the ids of e and every expression under it.
func subtreeIDs(e ast.Expr) map[int64]bool {
	ids := map[int64]bool{}
	visit := ast.NewExprVisitor(func(e ast.Expr) { ids[e.ID()] = true })
	ast.PostOrderVisit(e, visit)
	return ids
}

// withSuggestions is issues (of compiling expr in env) with cel.dev/cel-go
// v0.33's catalog at work: each undeclared reference's message extended by
// the suggestion env's catalog gives for it, and each dotted miss
// (dottedMisses) reported in place of the errors crdlab's checker gave for
// its parts. The messages keep crdlab's empty-container suffix.
func withSuggestions(expr string, issues *cel.Issues, env *cel.Env) string {
	errs := issues.Errors()
	if !slices.ContainsFunc(errs, func(e *cel.Error) bool { return strings.HasPrefix(e.Message, undeclaredPrefix) }) {
		return issues.String()
	}
	cat := catalogOf(env)
	parsed, parseIssues := env.Parse(expr)
	if parseIssues.Err() != nil {
		return suffixed(issues.String(), errs, cat)
	}
	misses := dottedMisses(parsed.NativeRep().Expr(), env, cat)
	if len(misses) == 0 {
		// the text as cel-go wrote it (a truncation note included), each
		// undeclared reference suffixed
		return suffixed(issues.String(), errs, cat)
	}
	type entry struct {
		id  int64
		loc common.Location
		msg string
	}
	var out []entry
	placed := make([]bool, len(misses))
	replaced := make([]map[int64]bool, len(misses))
	for i, m := range misses {
		if m.call {
			replaced[i] = subtreeIDs(m.node.AsCall().Target())
			replaced[i][m.node.ID()] = true
		} else {
			replaced[i] = subtreeIDs(m.node)
		}
	}
	info := parsed.NativeRep().SourceInfo()
next:
	for _, e := range errs {
		for i, m := range misses {
			if !replaced[i][e.ExprID] {
				continue
			}
			if !placed[i] {
				placed[i] = true
				out = append(out, entry{m.node.ID(), info.GetStartLocation(m.node.ID()),
					undeclaredPrefix + m.name + emptyContainerTail + suggestionSuffix(m.name, m.found)})
			}
			continue next
		}
		out = append(out, entry{e.ExprID, e.Location, e.Message + cat.suffixFor(e.Message)})
	}
	for i, m := range misses {
		if !placed[i] {
			out = append(out, entry{m.node.ID(), info.GetStartLocation(m.node.ID()),
				undeclaredPrefix + m.name + emptyContainerTail + suggestionSuffix(m.name, m.found)})
		}
	}
	rebuilt := common.NewErrors(common.NewTextSource(expr))
	for _, e := range out {
		rebuilt.ReportErrorAtID(e.id, e.loc, "%s", e.msg)
	}
	return cel.NewIssues(rebuilt).String()
}

// suffixFor is the suggestion that follows msg when it is an undeclared
// reference's message, else "".
func (c symbolCatalog) suffixFor(msg string) string {
	rest, ok := strings.CutPrefix(msg, undeclaredPrefix)
	if !ok {
		return ""
	}
	end := strings.Index(rest, undeclaredContainer)
	if end < 0 {
		return ""
	}
	name := rest[:end]
	return suggestionSuffix(name, c.suggest(name))
}

// suffixed is text with the messages of errs that are undeclared
// references followed by their suggestions.
func suffixed(text string, errs []*cel.Error, cat symbolCatalog) string {
	done := map[string]bool{}
	for _, e := range errs {
		if done[e.Message] {
			continue
		}
		done[e.Message] = true
		if suffix := cat.suffixFor(e.Message); suffix != "" {
			// after the location, so that the quoted source is left alone
			text = strings.ReplaceAll(text, ": "+e.Message, ": "+e.Message+suffix)
		}
	}
	return text
}

// issuesText is the text of the issues of compiling expr in env as release
// rel's cel-go writes it: from Kubernetes 1.38 (cel.dev/cel-go v0.33), an
// undeclared reference names its container only when there is one
// (kubeversion.UndeclaredWithoutContainer) and ends with the catalog's
// suggestion (kubeversion.UndeclaredSuggestions).
func issuesText(expr string, issues *cel.Issues, env *cel.Env, rel kubeversion.Release) string {
	var s string
	if rel.Has(kubeversion.UndeclaredSuggestions) {
		s = withSuggestions(expr, issues, env)
	} else {
		s = issues.String()
	}
	if rel.Has(kubeversion.UndeclaredWithoutContainer) {
		s = strings.ReplaceAll(s, emptyContainerTail, "'")
	}
	return s
}

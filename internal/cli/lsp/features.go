package lsp

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/celcomplete"
	"github.com/crdlab/crdlab/internal/keys"
	yaml "sigs.k8s.io/yaml/goyaml.v3"
)

// ruleAt returns the rule or messageExpression scalar of a CRD document
// whose value holds the cursor, and the value before it.
func ruleAt(d *docInfo, line, col int) (*ruleRef, string) {
	var best *ruleRef
	var before string
	for i := range d.rules {
		r := &d.rules[i]
		if r.value.Line > line {
			break
		}
		if b, inside := scalarPrefix(d.lines, r.value, line, col); inside {
			best, before = r, b
		}
	}
	return best, before
}

var ruleLineRE = regexp.MustCompile(`^(\s*(?:-\s+)?)(rule|messageExpression):\s*(["']?)`)

// typedRule finds, in a CRD document that does not parse, the rule being
// typed on the cursor's line (rule: or messageExpression: and the text
// after it, without its opening quote), the schema node carrying it by
// indentation, and its schema in the CRD of the latest check (the first
// version's when the path crosses versions).
func typedRule(pf *parsedFile, d *docInfo, line, col int) (*crd.JSONSchemaProps, []string, string) {
	if line < 1 || line > len(d.lines) {
		return nil, nil, ""
	}
	rs := []rune(strings.TrimRight(d.lines[line-1], "\r"))
	if col-1 > len(rs) {
		return nil, nil, ""
	}
	head := string(rs[:col-1])
	m := ruleLineRE.FindStringSubmatchIndex(head)
	if m == nil {
		return nil, nil, ""
	}
	before := head[m[1]:]
	indent := utf8.RuneCountInString(head[m[2]:m[3]])
	dash := strings.Contains(head[m[2]:m[3]], "-")
	path := indentPath(d.lines, line, indent, dash)
	// ... x-kubernetes-validations [] : the schema node is before them
	if len(path) < 2 || path[len(path)-1] != "[]" || path[len(path)-2] != "x-kubernetes-validations" {
		return nil, nil, ""
	}
	path = path[:len(path)-2]
	for i := range path {
		if path[i] == "[]" && i > 0 && path[i-1] == "versions" {
			path[i] = "[0]"
		}
	}
	version, inside, ok := schemaSteps(path)
	if !ok {
		return nil, nil, ""
	}
	return schemaAt(versionSchema(pf.goodDefinition(d.fileLine(line)), version), inside), inside, before
}

// complete answers textDocument/completion.
func (s *Server) complete(pf *parsedFile, p Position) *CompletionList {
	out := &CompletionList{Items: []CompletionItem{}}
	d, line, col := pf.cursor(p)
	if d == nil {
		return out
	}
	if d.isCRD() {
		var schema *crd.JSONSchemaProps
		var inside []string
		r, before := ruleAt(d, line, col)
		if r != nil {
			version, in, ok := schemaSteps(r.schemaSteps)
			if !ok {
				return out
			}
			inside = in
			schema = schemaAt(versionSchema(d.definition(), version), inside)
		} else if d.root == nil {
			// the document does not parse (a quote not closed yet, say):
			// the rule from its line, the schema from the latest check
			schema, inside, before = typedRule(pf, d, line, col)
		}
		if schema == nil {
			return out
		}
		return completionItems(pf, d, line, col, before, celcomplete.Complete(schema, before, len(inside) == 0))
	}
	if isPolicy(d) || isMutatingPolicy(d) {
		return policyCompletion(pf, d, line, col)
	}
	if d.kind == "" || d.apiVersion == "" || pf.lookup == nil {
		return out
	}
	group, _, _ := strings.Cut(d.apiVersion, "/")
	c := pf.lookup(group, d.kind)
	if c == nil {
		return out
	}
	root := objectSchema(c.Definition(), d.apiVersion)
	if root == nil {
		return out
	}
	return objectCompletion(pf, d, root, line, col)
}

var (
	keyPrefixRE = regexp.MustCompile(`^(\s*(?:- +)*)([A-Za-z0-9_.\-/]*)$`)
	valueRE     = regexp.MustCompile(`^(\s*(?:- +)*)([A-Za-z0-9_.\-/]+):\s*(\S*)$`)
)

// objectCompletion proposes, in a custom resource, the field names of
// the mapping at the cursor or the enum values of the field whose value
// is being typed (the path found by indentation, which needs no parse of
// the document being typed).
func objectCompletion(pf *parsedFile, d *docInfo, root *crd.JSONSchemaProps, line, col int) *CompletionList {
	out := &CompletionList{Items: []CompletionItem{}}
	if line < 1 || line > len(d.lines) {
		return out
	}
	rs := []rune(strings.TrimRight(d.lines[line-1], "\r"))
	if col-1 > len(rs) {
		return out
	}
	head := string(rs[:col-1])
	if m := valueRE.FindStringSubmatch(head); m != nil {
		indent := utf8.RuneCountInString(m[1])
		path := indentPath(d.lines, line, indent, strings.Contains(m[1], "-"))
		s := objectSchemaAt(root, append(path, m[2]))
		if s == nil {
			return out
		}
		prefix := utf8.RuneCountInString(m[3])
		rng := pf.toRange(d, line, col-prefix, col)
		for _, e := range s.Enum {
			v := string(e.Raw)
			if str, err := strconv.Unquote(v); err == nil && len(v) > 0 && v[0] == '"' {
				v = str
			}
			out.Items = append(out.Items, CompletionItem{Label: v, Kind: CompletionKindEnum, Detail: "enum of " + m[2], TextEdit: &TextEdit{Range: rng, NewText: v}})
		}
		if s.Type == "boolean" && len(s.Enum) == 0 {
			for _, v := range []string{"true", "false"} {
				out.Items = append(out.Items, CompletionItem{Label: v, Kind: CompletionKindValue, TextEdit: &TextEdit{Range: rng, NewText: v}})
			}
		}
		return out
	}
	m := keyPrefixRE.FindStringSubmatch(head)
	if m == nil {
		return out
	}
	indent := utf8.RuneCountInString(m[1])
	path := indentPath(d.lines, line, indent, strings.Contains(m[1], "-"))
	s := objectSchemaAt(root, path)
	if s == nil {
		return out
	}
	names := keys.Sorted(s.Properties)
	prefix := utf8.RuneCountInString(m[2])
	rng := pf.toRange(d, line, col-prefix, col)
	for _, n := range names {
		ps := s.Properties[n]
		it := CompletionItem{Label: n, Kind: CompletionKindProperty, Detail: ps.Type, FilterText: n,
			TextEdit: &TextEdit{Range: rng, NewText: n + ": "}}
		if ps.Description != "" {
			it.Documentation = &MarkupContent{Kind: "markdown", Value: ps.Description}
		}
		out.Items = append(out.Items, it)
	}
	return out
}

// indentPath returns the object path of a key at rune column indent
// (0-based) on line (1-based): the keys of the lines above that are less
// indented, "[]" for a list item. dash says the key follows "- " on its
// own line (it starts a list item).
func indentPath(lines []string, line, indent int, dash bool) []string {
	var rev []string
	target := indent
	// after a list item, its key may sit at the dash's column
	// ("key:\n- a: 1")
	orEqual := false
	if dash {
		rev = append(rev, "[]")
		target = dashColumn(lines[line-1])
		orEqual = true
	}
	for l := line - 1; l >= 1 && target > 0; l-- {
		s := strings.TrimRight(lines[l-1], "\r")
		t := strings.TrimLeft(s, " ")
		if t == "" || t[0] == '#' {
			continue
		}
		ind := len(s) - len(t)
		if strings.HasPrefix(t, "- ") || t == "-" {
			// a list item: its content starts after the dash(es)
			content := ind
			rest := t
			for strings.HasPrefix(rest, "- ") {
				rest = strings.TrimLeft(rest[1:], " ")
				content = len(s) - len(rest)
			}
			if content == target && ind < target {
				// the cursor's key is in this item's mapping
				rev = append(rev, "[]")
				target = ind
				orEqual = true
			}
			continue
		}
		if ind < target || orEqual && ind == target {
			if k, ok := keyOf2(t); ok {
				rev = append(rev, k)
				target = ind
				orEqual = false
			}
		}
	}
	out := make([]string, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	// a key right under "key:" at the same column as the dash of a list
	// (key:\n- a: 1) is handled by the dash rule above.
	return out
}

func dashColumn(s string) int {
	t := strings.TrimLeft(s, " ")
	return len(s) - len(t)
}

var keyLineRE = regexp.MustCompile(`^([A-Za-z0-9_.\-/]+|"[^"]*"|'[^']*'):(\s|$)`)

func keyOf2(t string) (string, bool) {
	m := keyLineRE.FindStringSubmatch(t)
	if m == nil {
		return "", false
	}
	return strings.Trim(m[1], `"'`), true
}

// hover answers textDocument/hover.
func (s *Server) hover(pf *parsedFile, p Position) *Hover {
	d, line, col := pf.cursor(p)
	if d == nil || d.root == nil {
		return nil
	}
	if d.isCRD() {
		// on a rule (its key or its text): its cost
		for i := range d.rules {
			r := &d.rules[i]
			_, inside := scalarPrefix(d.lines, r.value, line, col)
			onKey := r.key.Line == line && col >= r.key.Column && col <= r.key.Column+len(r.field)
			if !inside && !onKey {
				continue
			}
			cr := costRuleOf(d.costReport(), *r)
			if cr == nil {
				return nil
			}
			return &Hover{Contents: MarkupContent{Kind: "markdown", Value: describeCost(cr, d.costReport())}}
		}
		steps, key := keyAt(d.root, line, col)
		if key == nil {
			return nil
		}
		version, inside, ok := schemaSteps(steps)
		if !ok || len(inside) < 2 || inside[len(inside)-2] != "properties" {
			return nil
		}
		sch := schemaAt(versionSchema(d.definition(), version), inside)
		if sch == nil {
			return nil
		}
		rng := pf.toRange(d, key.Line, key.Column, key.Column+utf8.RuneCountInString(key.Value))
		return &Hover{Contents: MarkupContent{Kind: "markdown", Value: describeSchema(key.Value, sch)}, Range: &rng}
	}
	if d.apiVersion == "" || d.kind == "" || pf.lookup == nil {
		return nil
	}
	group, _, _ := strings.Cut(d.apiVersion, "/")
	c := pf.lookup(group, d.kind)
	if c == nil {
		return nil
	}
	steps, key := keyAt(d.root, line, col)
	if key == nil {
		return nil
	}
	sch := objectSchemaAt(objectSchema(c.Definition(), d.apiVersion), steps)
	if sch == nil {
		return nil
	}
	rng := pf.toRange(d, key.Line, key.Column, key.Column+utf8.RuneCountInString(key.Value))
	return &Hover{Contents: MarkupContent{Kind: "markdown", Value: describeSchema(key.Value, sch)}, Range: &rng}
}

// describeCost renders a rule's static cost (markdown).
func describeCost(r *cost.Rule, rep *cost.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** on `%s`\n\n", r.Field, r.DataPath)
	if r.CompileError != "" {
		fmt.Fprintf(&b, "does not compile: %s\n", firstLine(r.CompileError))
		return b.String()
	}
	bounded := "estimated from the request size limit"
	if r.CardinalityBounded {
		bounded = "bounded by maxItems/maxProperties"
	}
	est := group(r.Estimate.Max)
	if r.Estimate.Min != nil {
		est = group(*r.Estimate.Min) + ".." + est
	}
	fmt.Fprintf(&b, "- estimated cost per call: %s\n", est)
	fmt.Fprintf(&b, "- cardinality: %s (%s)\n", group(r.Cardinality), bounded)
	fmt.Fprintf(&b, "- cost: %s = %s of the per-expression limit (%s)\n", group(r.EstimatedCost), share(r.LimitShare), group(rep.Limits.PerExpression))
	if rep.TotalEstimatedCost > 0 {
		fmt.Fprintf(&b, "- schema total: %s = %s of the per-CRD limit (%s)\n", group(rep.TotalEstimatedCost), share(rep.TotalLimitShare), group(rep.Limits.PerCRD))
	}
	if r.OverBudget {
		b.WriteString("\n**over budget**")
	}
	if r.ContributesToTotalOverLimit {
		b.WriteString("\n**contributes to the schema total over its limit**")
	}
	for _, sg := range r.Suggestions {
		fmt.Fprintf(&b, "\n- fix: %s (cost %s)", sg.String(), group(sg.EstimatedCost))
	}
	for _, a := range r.Advice {
		fmt.Fprintf(&b, "\n- why: %s", a.Message)
	}
	return b.String()
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// group renders 1234567 as 1,234,567.
func group(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func share(f float64) string {
	p := f * 100
	if p > 10000 {
		return ">10000%"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "%"
}

// completionItems are celcomplete's options as LSP items replacing the
// name typed before the cursor.
func completionItems(pf *parsedFile, d *docInfo, line, col int, before string, res *celcomplete.Result) *CompletionList {
	out := &CompletionList{Items: []CompletionItem{}}
	if res == nil {
		return out
	}
	prefix := utf8.RuneCountInString(before[res.From:])
	rng := pf.toRange(d, line, col-prefix, col)
	for _, o := range res.Options {
		it := CompletionItem{Label: o.Label, Detail: o.Detail, TextEdit: &TextEdit{Range: rng, NewText: o.Label}}
		switch o.Kind {
		case celcomplete.Property:
			it.Kind = CompletionKindField
		case celcomplete.Macro:
			it.Kind = CompletionKindKeyword
		case celcomplete.Variable:
			it.Kind = CompletionKindVariable
		default:
			it.Kind = CompletionKindMethod
		}
		if o.Info != "" {
			it.Documentation = &MarkupContent{Kind: "markdown", Value: o.Info}
		}
		out.Items = append(out.Items, it)
	}
	return out
}

// policyExpressionKeys are the keys whose values are CEL expressions in a
// policy's spec (validations, matchConditions, variables,
// auditAnnotations, mutations).
var policyExpressionKeys = map[string]bool{"expression": true, "messageExpression": true, "valueExpression": true}

// policyCompletion completes an expression of a ValidatingAdmissionPolicy
// or MutatingAdmissionPolicy (celcomplete.CompletePolicy, the playground's
// Policy tab's): object typed by the CRDs of the file (as decoded) at the
// version the policy matches. The document must parse.
func policyCompletion(pf *parsedFile, d *docInfo, line, col int) *CompletionList {
	out := &CompletionList{Items: []CompletionItem{}}
	root := d.ensureRoot()
	if root == nil {
		return out
	}
	_, spec := lookup(root, "spec")
	if spec == nil {
		return out
	}
	before, ok := expressionAt(d.lines, spec, line, col)
	if !ok {
		return out
	}
	var defs []*crd.CustomResourceDefinition
	for _, o := range pf.docs {
		if def := o.definition(); def != nil {
			defs = append(defs, def)
		}
	}
	p, err := celcomplete.PolicyFor(d.data, defs)
	if err != nil {
		return out
	}
	return completionItems(pf, d, line, col, before, celcomplete.CompletePolicy(p, before))
}

// expressionAt finds, under n, the expression scalar the cursor is in and
// its text before the cursor.
func expressionAt(lines []string, n *yaml.Node, line, col int) (string, bool) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.ScalarNode && policyExpressionKeys[k.Value] {
				if b, inside := scalarPrefix(lines, v, line, col); inside {
					return b, true
				}
				continue
			}
			if b, ok := expressionAt(lines, v, line, col); ok {
				return b, true
			}
		}
	case yaml.SequenceNode:
		for _, it := range n.Content {
			if b, ok := expressionAt(lines, it, line, col); ok {
				return b, true
			}
		}
	}
	return "", false
}

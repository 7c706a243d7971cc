package lsp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/cost"
	yaml "sigs.k8s.io/yaml/goyaml.v3"
)

// codeActions answers textDocument/codeAction: for each rule over its
// cost limit whose text meets the range, the cost advisor's bounds
// (cost.Suggestion: re-estimated, each alone brings the rule under the
// limit) as quick fixes that write the bound into the schema.
func codeActions(pf *parsedFile, rng Range) []CodeAction {
	out := []CodeAction{}
	for _, d := range pf.docs {
		if !d.isCRD() || d.root == nil || len(d.rules) == 0 {
			continue
		}
		first, last := d.line-1, d.line-1+len(d.lines)-1
		if rng.End.Line < first || rng.Start.Line > last {
			continue
		}
		var rep *cost.Report
		seen := map[string]bool{}
		for i := range d.rules {
			r := &d.rules[i]
			l0, l1 := d.fileLine(r.key.Line)-1, d.fileLine(ruleEndLine(d, r))-1
			if rng.End.Line < l0 || rng.Start.Line > l1 {
				continue
			}
			if rep == nil {
				if rep = d.costReport(); rep == nil {
					break
				}
			}
			cr := costRuleOf(rep, *r)
			if cr == nil {
				continue
			}
			var sgs []cost.Suggestion
			if cr.OverBudget {
				sgs = append(sgs, cr.Suggestions...)
			}
			if cr.ContributesToTotalOverLimit {
				for _, st := range rep.Schemas {
					if st.OverLimit {
						sgs = append(sgs, st.Suggestions...)
					}
				}
			}
			for _, sg := range sgs {
				edits := boundEdits(pf, d, sg)
				if len(edits) == 0 {
					continue
				}
				title := fmt.Sprintf("Set %s: %d on %s (%s)", sg.Keyword, sg.Max, sg.DataPath, targetText(sg))
				if seen[title] {
					continue
				}
				seen[title] = true
				out = append(out, CodeAction{Title: title, Kind: CodeActionKindQuickFix, IsPreferred: len(out) == 0,
					Edit: WorkspaceEdit{Changes: map[string][]TextEdit{pf.uri: edits}}})
			}
		}
	}
	return out
}

func targetText(sg cost.Suggestion) string {
	switch sg.Target {
	case "perExpression":
		return "brings the rule under the per-expression limit: cost " + group(sg.EstimatedCost)
	case "perCRD":
		return "brings the rule's share under the per-CRD limit: cost " + group(sg.EstimatedCost)
	default:
		return "brings the schema total under the per-CRD limit: total " + group(sg.EstimatedCost)
	}
}

// ruleEndLine is the last line (of the document) of a rule's value.
func ruleEndLine(d *docInfo, r *ruleRef) int {
	end := r.value.Line
	scalarWalk(d.lines, r.value, func(l, _ int, _ rune) bool {
		end = l
		return true
	})
	return end
}

// boundEdits writes a suggestion's bound into the schema node(s) it
// names: every version's schema when the versions share it, the one
// version's otherwise. An existing bound is replaced; a new one is
// inserted as the node's first key.
func boundEdits(pf *parsedFile, d *docInfo, sg cost.Suggestion) []TextEdit {
	version, suffix, ok := splitCostPath(sg.Path)
	if !ok {
		return nil
	}
	inside, ok := parseCostSuffix(suffix)
	if !ok {
		return nil
	}
	_, versions := lookup(d.root, "spec")
	_, versions = lookup(versions, "versions")
	versions = resolve(versions)
	if versions == nil || versions.Kind != yaml.SequenceNode {
		return nil
	}
	var edits []TextEdit
	for i := range versions.Content {
		if version >= 0 && i != version {
			continue
		}
		steps := append([]string{"[" + strconv.Itoa(i) + "]", "schema", "openAPIV3Schema"}, inside...)
		n := walkPath(versions, steps)
		if n == nil || n.Kind != yaml.MappingNode || n.Style&yaml.FlowStyle != 0 || len(n.Content) < 2 {
			continue
		}
		if _, v := lookup(n, sg.Keyword); v != nil {
			if v.Kind != yaml.ScalarNode {
				continue
			}
			r := pf.toRange(d, v.Line, v.Column, v.Column+len([]rune(v.Value)))
			edits = append(edits, TextEdit{Range: r, NewText: strconv.FormatInt(sg.Max, 10)})
			continue
		}
		k := n.Content[0]
		line := d.fileLine(k.Line) - 1
		text := strings.Repeat(" ", k.Column-1) + sg.Keyword + ": " + strconv.FormatInt(sg.Max, 10) + "\n"
		if lineStartsWithDash(d.lines[k.Line-1], k.Column) {
			continue // the node is a list item ("- type: ..."): no safe place
		}
		edits = append(edits, TextEdit{Range: Range{Start: Position{Line: line}, End: Position{Line: line}}, NewText: text})
	}
	return edits
}

// lineStartsWithDash reports whether the text before column col (1-based)
// holds anything but spaces.
func lineStartsWithDash(line string, col int) bool {
	rs := []rune(line)
	if col-1 > len(rs) {
		return true
	}
	return strings.TrimSpace(string(rs[:col-1])) != ""
}

package cost

import (
	"fmt"
	"strconv"
	"strings"
)

// Text renders the report for humans: one block per expression, the schema
// totals, the objects' runtime totals and the CRD verdict.
func (r *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "CustomResourceDefinition %s: %d expression(s)\n", r.CRD, len(r.Rules))
	for i := range r.Rules {
		x := &r.Rules[i]
		fmt.Fprintf(&b, "\n%s\n", x.ErrorPath)
		fmt.Fprintf(&b, "  on:          %s\n", x.DataPath)
		fmt.Fprintf(&b, "  %-12s %s\n", x.Field+":", oneLine(x.Expression))
		if x.CompileError != "" {
			fmt.Fprintf(&b, "  error:       %s\n", oneLine(x.CompileError))
		}
		est := group(x.Estimate.Max)
		if x.Estimate.Min != nil {
			est = group(*x.Estimate.Min) + ".." + est
		}
		card := group(x.Cardinality)
		if !x.CardinalityBounded {
			card += " (an enclosing list or map is unbounded: estimated from the request size)"
		}
		fmt.Fprintf(&b, "  estimate:    %s per call\n", est)
		fmt.Fprintf(&b, "  cardinality: %s\n", card)
		mult := "max × cardinality"
		if x.Field == FieldMessageExpression {
			mult = "max, not multiplied"
		}
		flag := ""
		if x.OverBudget {
			flag = "  OVER BUDGET"
		}
		if x.ContributesToTotalOverLimit {
			flag += "  CONTRIBUTES TO TOTAL OVER LIMIT"
		}
		fmt.Fprintf(&b, "  cost:        %s (%s) = %s of %s%s\n", group(x.EstimatedCost), mult, percent(x.LimitShare), group(PerExpressionLimit), flag)
		if len(x.Suggestions) > 0 {
			parts := make([]string, len(x.Suggestions))
			for j, s := range x.Suggestions {
				parts[j] = s.String()
			}
			what := "under the per-expression limit"
			if x.Suggestions[0].Target == "perCRD" {
				what = "the schema total under its limit"
			}
			fmt.Fprintf(&b, "  to bring %s, set: %s\n", what, strings.Join(parts, ", or "))
		} else if x.SuggestionNote != "" {
			fmt.Fprintf(&b, "  %s\n", x.SuggestionNote)
		}
		for _, ad := range x.Advice {
			fmt.Fprintf(&b, "  why: %s\n", ad.Message)
		}
		for oi, c := range x.RuntimeCost {
			fmt.Fprintf(&b, "  object %d:    runtime cost %s in %d evaluation(s)\n", oi, group(c), x.Evaluations[oi])
		}
	}
	b.WriteString("\n")
	for _, s := range r.Schemas {
		over := ""
		if s.OverLimit {
			over = "  OVER LIMIT"
		}
		fmt.Fprintf(&b, "total %s: %s = %s of %s%s\n", s.Schema, group(s.TotalEstimatedCost), percent(s.LimitShare), group(PerCRDLimit), over)
		if len(s.Suggestions) > 0 {
			parts := make([]string, len(s.Suggestions))
			for j, x := range s.Suggestions {
				parts[j] = x.String()
			}
			fmt.Fprintf(&b, "  to bring the total under its limit, set: %s\n", strings.Join(parts, ", or "))
		} else if s.SuggestionNote != "" {
			fmt.Fprintf(&b, "  %s\n", s.SuggestionNote)
		}
	}
	for _, o := range r.Objects {
		label := fmt.Sprintf("object %d", o.Index)
		if who := ObjectLabel(o.Index, o.Source, o.Kind, o.Name); who != label {
			label += " (" + strings.TrimPrefix(who, label+" (")
			if !strings.HasSuffix(label, ")") {
				label += ")"
			}
		}
		if o.Error != "" {
			fmt.Fprintf(&b, "%s: %s\n", label, o.Error)
			continue
		}
		over := ""
		if o.OverBudget {
			over = "  OVER BUDGET"
		}
		fmt.Fprintf(&b, "%s, version %s: runtime cost %s = %s of %s%s\n", label, o.Version, group(o.TotalCost), percent(o.BudgetShare), group(PerObjectBudget), over)
		if o.Note != "" {
			fmt.Fprintf(&b, "  note: %s\n", o.Note)
		}
		for _, e := range o.Errors {
			fmt.Fprintf(&b, "  %s\n", e)
		}
	}
	if r.SuggestionsTruncated {
		b.WriteString("note: the search for bounds stopped early; some expressions have fewer suggestions\n")
	}
	release := ""
	if r.KubeVersion != "" {
		release = " at Kubernetes " + r.KubeVersion
	}
	if r.Accepted {
		fmt.Fprintf(&b, "verdict: accepted%s\n", release)
	} else {
		fmt.Fprintf(&b, "verdict: rejected%s (%d error(s), %d about cost)\n", release, len(r.Errors), len(r.CostErrors))
		for _, e := range r.Errors {
			fmt.Fprintf(&b, "  %s\n", e.Message)
		}
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// group renders 1234567 as 1,234,567.
func group(v uint64) string {
	s := strconv.FormatUint(v, 10)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

func percent(f float64) string {
	switch {
	case f == 0:
		return "0%"
	case f < 0.0001:
		return "<0.01%"
	case f > 100:
		return ">10000%"
	}
	return strconv.FormatFloat(f*100, 'f', 2, 64) + "%"
}

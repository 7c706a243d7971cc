package cost

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// ObjectLabel names an object for humans: "file.yaml: Widget w1" (the
// parts that are known), or "object i".
func ObjectLabel(index int, source, kind, name string) string {
	var parts []string
	if kind != "" {
		parts = append(parts, kind)
	}
	if name != "" {
		parts = append(parts, name)
	}
	who := strings.Join(parts, " ")
	switch {
	case source != "" && who != "":
		return source + ": " + who
	case source != "":
		return source
	case who != "":
		return fmt.Sprintf("object %d (%s)", index, who)
	}
	return fmt.Sprintf("object %d", index)
}

// Text renders the benchmark for humans: the machine, each object's phases,
// then one line per rule and object.
func (r *BenchReport) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "CustomResourceDefinition %s: %d expression(s) on %d object(s)\n", r.CRD, len(r.Static.Rules), len(r.Objects))
	fmt.Fprintf(&b, "machine: %s/%s, %d CPU(s), %s; absolute times vary with the machine and its load, compare ratios\n", r.Machine.GOOS, r.Machine.GOARCH, r.Machine.CPUs, r.Machine.GoVersion)
	for _, o := range r.Objects {
		fmt.Fprintf(&b, "\n%s", ObjectLabel(o.Index, o.Source, o.Kind, o.Name))
		if o.Version != "" {
			fmt.Fprintf(&b, ", version %s", o.Version)
		}
		b.WriteString("\n")
		if o.Error != "" {
			fmt.Fprintf(&b, "  %s\n", o.Error)
			continue
		}
		if o.Note != "" {
			fmt.Fprintf(&b, "  note: %s\n", o.Note)
		}
		if r.RequestNote != "" {
			fmt.Fprintf(&b, "  note: %s\n", r.RequestNote)
		}
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  PHASE\tMEDIAN\tP10..P90\tALLOCS\tBYTES\tSHARE OF REQUEST")
		var request float64
		for _, p := range o.Phases {
			if p.Phase == PhaseRequest {
				request = p.Timing.MedianNs
			}
		}
		for _, p := range o.Phases {
			share := "-"
			if request > 0 {
				share = strconv.FormatFloat(100*p.Timing.MedianNs/request, 'f', 0, 64) + "%"
			}
			t := p.Timing
			fmt.Fprintf(tw, "  %s\t%s\t%s..%s\t%s\t%s\t%s\n", p.Phase, Duration(t.MedianNs), Duration(t.P10Ns), Duration(t.P90Ns), allocs(t.AllocsPerOp), bytesText(t.BytesPerOp), share)
		}
		tw.Flush()
	}
	if len(r.Rules) > 0 {
		b.WriteString("\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "OBJECT\tON\tEVALS\tCOST\tTIME/EVAL\tTIME (P10..P90)\tALLOCS\tNS/UNIT\tESTIMATE (SHARE)\tEXPRESSION")
		for _, x := range r.Rules {
			o := r.Objects[x.Object]
			label := ObjectLabel(o.Index, o.Source, o.Kind, o.Name)
			what := fmt.Sprintf("%s %s[%d]", x.DataPath, x.Field, r.Static.Rules[x.Rule].Index)
			expr := oneLine(x.Expression)
			if n := []rune(expr); len(n) > 60 {
				expr = string(n[:59]) + "…"
			}
			if x.Evaluations == 0 {
				fmt.Fprintf(tw, "%s\t%s\t0\t-\tnot evaluated\t-\t-\t-\t%s (%s)\t%s\n", label, what, group(x.EstimatedCost), percent(x.LimitShare), expr)
				continue
			}
			t := x.Timing
			perUnit := "-"
			if x.Cost > 0 {
				perUnit = strconv.FormatFloat(x.NsPerCostUnit, 'f', 1, 64) + " ns/u"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s (%s..%s)\t%s\t%s\t%s (%s)\t%s\n", label, what, x.Evaluations, group(x.Cost),
				Duration(x.PerEvaluationNs), Duration(t.MedianNs), Duration(t.P10Ns), Duration(t.P90Ns), allocs(t.AllocsPerOp), perUnit,
				group(x.EstimatedCost), percent(x.LimitShare), expr)
			if x.Error != "" {
				fmt.Fprintf(tw, "\t  error: %s\n", oneLine(x.Error))
			}
		}
		tw.Flush()
	}
	return b.String()
}

// CSVHeader is the header row of BenchReport.WriteCSV.
var CSVHeader = []string{"crd", "object", "source", "kind", "name", "version", "item", "field", "errorPath", "dataPath", "expression",
	"evaluations", "cost", "estimatedCost", "limitShare", "medianNs", "p10Ns", "p90Ns", "allocsPerOp", "bytesPerOp", "perEvaluationNs", "nsPerCostUnit"}

// WriteCSV writes one row per phase of each object (item "phase:<name>")
// and one per rule and object (item "rule"); header adds CSVHeader first.
func (r *BenchReport) WriteCSV(w io.Writer, header bool) error {
	cw := csv.NewWriter(w)
	if header {
		if err := cw.Write(CSVHeader); err != nil {
			return err
		}
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	for _, o := range r.Objects {
		for _, p := range o.Phases {
			t := p.Timing
			if err := cw.Write([]string{r.CRD, strconv.Itoa(o.Index), o.Source, o.Kind, o.Name, o.Version, "phase:" + p.Phase, "", "", "", "",
				"", "", "", "", f(t.MedianNs), f(t.P10Ns), f(t.P90Ns), f(t.AllocsPerOp), f(t.BytesPerOp), "", ""}); err != nil {
				return err
			}
		}
	}
	for _, x := range r.Rules {
		o := r.Objects[x.Object]
		row := []string{r.CRD, strconv.Itoa(o.Index), o.Source, o.Kind, o.Name, o.Version, "rule", x.Field, x.ErrorPath, x.DataPath, x.Expression,
			strconv.Itoa(x.Evaluations), strconv.FormatUint(x.Cost, 10), strconv.FormatUint(x.EstimatedCost, 10), strconv.FormatFloat(x.LimitShare, 'g', 6, 64)}
		if t := x.Timing; t != nil {
			row = append(row, f(t.MedianNs), f(t.P10Ns), f(t.P90Ns), f(t.AllocsPerOp), f(t.BytesPerOp), f(x.PerEvaluationNs), strconv.FormatFloat(x.NsPerCostUnit, 'f', 2, 64))
		} else {
			row = append(row, "", "", "", "", "", "", "")
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Duration renders nanoseconds as 850ns, 12.3µs, 4.56ms or 1.23s.
func Duration(ns float64) string {
	switch {
	case ns < 1000:
		return strconv.FormatFloat(ns, 'f', 0, 64) + "ns"
	case ns < 1e6:
		return strconv.FormatFloat(ns/1e3, 'f', 1, 64) + "µs"
	case ns < 1e9:
		return strconv.FormatFloat(ns/1e6, 'f', 2, 64) + "ms"
	}
	return strconv.FormatFloat(ns/1e9, 'f', 2, 64) + "s"
}

func allocs(a float64) string {
	return strconv.FormatFloat(a, 'f', 0, 64) + " allocs"
}

func bytesText(b float64) string {
	switch {
	case b < 1024:
		return strconv.FormatFloat(b, 'f', 0, 64) + " B"
	case b < 1<<20:
		return strconv.FormatFloat(b/1024, 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(b/(1<<20), 'f', 1, 64) + " MiB"
}

package report

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/wire"
)

// junitWriter writes JUnit XML: one testsuite per file, one testcase per
// entry (named "Kind ns/name", classname "file:line"), with a failure for
// an invalid entry, an error for an error entry and skipped for a skipped
// one; warnings go to system-out. It keeps the entries (without their stored objects, their
// messages unrendered): the counts come first. End writes what
// xml.Encoder.Encode of junitSuites writes, one message at a time.
type junitWriter struct {
	w       *bufio.Writer
	entries []inputs.Result
	opts    Options
}

func (j *junitWriter) Begin(total int) error {
	j.entries = make([]inputs.Result, 0, total)
	return nil
}

func (j *junitWriter) Entry(r *inputs.Result) error {
	e := *r
	e.Result, e.OldResult = nil, nil
	j.entries = append(j.entries, e)
	return nil
}

func (j *junitWriter) End(s wire.RunSummary) error {
	type suite struct {
		name                             string
		tests, failures, errors, skipped int
		cases                            []*inputs.Result
	}
	var suites []*suite
	index := map[string]*suite{}
	for i := range j.entries {
		e := &j.entries[i]
		su, ok := index[e.File]
		if !ok {
			su = &suite{name: e.File}
			index[e.File] = su
			suites = append(suites, su)
		}
		su.tests++
		switch e.Status {
		case wire.StatusInvalid:
			su.failures++
		case wire.StatusError:
			su.errors++
		case wire.StatusSkipped:
			su.skipped++
		case wire.StatusPartial:
			if j.opts.FailPartial {
				su.failures++
			} else {
				su.skipped++
			}
		}
		su.cases = append(su.cases, e)
	}
	w := j.w
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	attr := func(name, value string) xml.Attr { return xml.Attr{Name: xml.Name{Local: name}, Value: value} }
	itoa := strconv.Itoa
	start := func(name string, attrs ...xml.Attr) {
		enc.EncodeToken(xml.StartElement{Name: xml.Name{Local: name}, Attr: attrs})
	}
	end := func(name string) { enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: name}}) }
	// text writes character data as a ",chardata" field is marshalled.
	text := func(parts ...string) error {
		if err := enc.Flush(); err != nil {
			return err
		}
		for _, p := range parts {
			if err := xml.EscapeText(w, []byte(p)); err != nil {
				return err
			}
		}
		return nil
	}
	failures, skipped := s.Invalid, s.Skipped
	if j.opts.FailPartial {
		failures += s.Partial
	} else {
		skipped += s.Partial
	}
	start("testsuites", attr("name", "crdlab"), attr("tests", itoa(s.Total)), attr("failures", itoa(failures)), attr("errors", itoa(s.Errors)), attr("skipped", itoa(skipped)))
	for _, su := range suites {
		start("testsuite", attr("name", su.name), attr("tests", itoa(su.tests)), attr("failures", itoa(su.failures)), attr("errors", itoa(su.errors)), attr("skipped", itoa(su.skipped)))
		if j.opts.KubeVersion != "" {
			start("properties")
			start("property", attr("name", "kubeVersion"), attr("value", j.opts.KubeVersion))
			end("property")
			end("properties")
		}
		for _, e := range su.cases {
			start("testcase", attr("name", what(&e.RunEntry)), attr("classname", where(&e.RunEntry)))
			switch e.Status {
			case wire.StatusInvalid:
				typ := "Invalid"
				if e.DecodeError != "" {
					typ = "BadRequest"
				}
				n := 1
				if e.DecodeError == "" && len(e.Errors) > 0 {
					n = len(e.Errors)
				}
				msg := func(i int) string {
					if e.DecodeError == "" && len(e.Errors) > 0 {
						return e.Message(i)
					}
					return firstLine(messages(e))
				}
				first := msg(0)
				if n > 1 {
					first += fmt.Sprintf(" (and %d more)", n-1)
				}
				start("failure", attr("message", first), attr("type", typ))
				for i := 0; i < n; i++ {
					sep := "\n"
					if i == 0 {
						sep = ""
					}
					if err := text(sep, msg(i)); err != nil {
						return err
					}
				}
				end("failure")
			case wire.StatusError:
				start("error", attr("message", e.Reason))
				if err := text(e.Reason); err != nil {
					return err
				}
				end("error")
			case wire.StatusSkipped:
				start("skipped", attr("message", e.Reason))
				end("skipped")
			case wire.StatusPartial:
				msg := "checked against the API surface only: " + e.Reason
				if j.opts.FailPartial {
					start("failure", attr("message", msg), attr("type", "partial"))
					if err := text(msg); err != nil {
						return err
					}
					end("failure")
				} else {
					start("skipped", attr("message", msg))
					end("skipped")
				}
			}
			if out := strings.Join(prefixed("Warning: ", e.Warnings), "\n"); out != "" {
				start("system-out")
				if err := text(out); err != nil {
					return err
				}
				end("system-out")
			}
			end("testcase")
		}
		end("testsuite")
	}
	end("testsuites")
	if err := enc.Flush(); err != nil {
		return err
	}
	io.WriteString(w, "\n")
	return w.Flush()
}

func prefixed(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
}

func firstLine(msgs []string) string {
	if len(msgs) == 0 {
		return ""
	}
	m := msgs[0]
	if len(msgs) > 1 {
		m += fmt.Sprintf(" (and %d more)", len(msgs)-1)
	}
	return m
}

// tapWriter writes Test Anything Protocol version 13: one test point per entry
// ("ok N - file:line Kind name"), failures with a YAML diagnostic block
// listing the errors, skipped entries with a SKIP directive.
type tapWriter struct {
	w    *bufio.Writer
	opts Options
	n    int
}

func (t *tapWriter) Begin(total int) error {
	_, err := fmt.Fprintf(t.w, "TAP version 13\n1..%d\n", total)
	if err == nil && t.opts.KubeVersion != "" {
		_, err = fmt.Fprintf(t.w, "# Kubernetes %s\n", t.opts.KubeVersion)
	}
	return err
}

func (t *tapWriter) Entry(e *inputs.Result) error {
	w := t.w
	t.n++
	desc := tapEscape(where(&e.RunEntry) + " " + what(&e.RunEntry))
	switch e.Status {
	case wire.StatusValid:
		fmt.Fprintf(w, "ok %d - %s\n", t.n, desc)
	case wire.StatusSkipped:
		fmt.Fprintf(w, "ok %d - %s # SKIP %s\n", t.n, desc, tapEscape(e.Reason))
	case wire.StatusPartial:
		msg := "checked against the API surface only: " + e.Reason
		if t.opts.FailPartial {
			fmt.Fprintf(w, "not ok %d - %s\n  ---\n  status: %s\n  errors:\n  - %s\n  ...\n", t.n, desc, e.Status, yamlQuote(msg))
		} else {
			fmt.Fprintf(w, "ok %d - %s # SKIP %s\n", t.n, desc, tapEscape(msg))
		}
	default:
		fmt.Fprintf(w, "not ok %d - %s\n  ---\n  status: %s\n  errors:\n", t.n, desc, e.Status)
		if e.DecodeError == "" && len(e.Errors) > 0 {
			// One message at a time.
			for i := range e.Errors {
				fmt.Fprintf(w, "  - %s\n", yamlQuote(e.Message(i)))
			}
		} else {
			for _, m := range messages(e) {
				fmt.Fprintf(w, "  - %s\n", yamlQuote(m))
			}
		}
		fmt.Fprintf(w, "  ...\n")
	}
	return nil
}

func (t *tapWriter) End(s wire.RunSummary) error {
	if t.opts.Summary {
		fmt.Fprintf(t.w, "# %s\n", SummaryLine(s, t.opts.KubeVersion))
	}
	return t.w.Flush()
}

// tapEscape keeps a description on one line and away from directives.
func tapEscape(s string) string {
	s = strings.NewReplacer("\\", "\\\\", "#", "\\#", "\n", " ").Replace(s)
	return s
}

func yamlQuote(s string) string {
	b := strings.Builder{}
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// githubWriter writes GitHub Actions workflow commands: an ::error annotation at
// file, line (and col when known) per error of an invalid or error entry,
// a ::warning per warning. Valid and skipped entries print nothing; the
// summary (with Summary) is a ::notice.
type githubWriter struct {
	w    *bufio.Writer
	opts Options
}

func (g *githubWriter) Begin(int) error { return nil }

func (g *githubWriter) Entry(e *inputs.Result) error {
	w := g.w
	title := what(&e.RunEntry)
	for _, m := range e.Warnings {
		fmt.Fprintf(w, "::warning file=%s,line=%d,title=%s::%s\n", ghProperty(e.File), e.Line, ghProperty(title), ghData(m))
	}
	switch e.Status {
	case wire.StatusInvalid:
		if e.DecodeError != "" {
			fmt.Fprintf(w, "::error file=%s,line=%d,title=%s::%s\n", ghProperty(e.File), e.Line, ghProperty(title+" is invalid"), ghData(e.DecodeError))
		}
		for i, err := range e.Errors {
			pos := fmt.Sprintf("line=%d", err.Line)
			if err.Column > 0 {
				pos += fmt.Sprintf(",col=%d", err.Column)
			}
			fmt.Fprintf(w, "::error file=%s,%s,title=%s::%s\n", ghProperty(e.File), pos, ghProperty(title+" is invalid"), ghData(e.Message(i)))
		}
	case wire.StatusError:
		fmt.Fprintf(w, "::error file=%s,line=%d,title=%s::%s\n", ghProperty(e.File), e.Line, ghProperty(title), ghData(e.Reason))
	case wire.StatusPartial:
		cmd := "warning"
		if g.opts.FailPartial {
			cmd = "error"
		}
		fmt.Fprintf(w, "::%s file=%s,line=%d,title=%s::%s\n", cmd, ghProperty(e.File), e.Line, ghProperty(title+" checked against the API surface only"), ghData(e.Reason))
	}
	return nil
}

func (g *githubWriter) End(s wire.RunSummary) error {
	if g.opts.Summary {
		fmt.Fprintf(g.w, "::notice title=crdlab::%s\n", ghData(SummaryLine(s, g.opts.KubeVersion)))
	}
	return g.w.Flush()
}

// ghData escapes a workflow command's message (actions/toolkit's
// escapeData).
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value
// (actions/toolkit's escapeProperty).
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

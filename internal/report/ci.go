package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/crdlab/crdlab/wire"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnit writes JUnit XML: one testsuite per file, one testcase per entry
// (named "Kind ns/name", classname "file:line"), with a failure for an
// invalid entry, an error for an error entry and skipped for a skipped one;
// warnings go to system-out.
func JUnit(w io.Writer, rep *wire.RunReport) error {
	out := junitSuites{Name: "crdlab", Tests: rep.Summary.Total, Failures: rep.Summary.Invalid, Errors: rep.Summary.Errors, Skipped: rep.Summary.Skipped}
	index := map[string]int{}
	for i := range rep.Results {
		e := &rep.Results[i]
		si, ok := index[e.File]
		if !ok {
			si = len(out.Suites)
			index[e.File] = si
			out.Suites = append(out.Suites, junitSuite{Name: e.File})
		}
		s := &out.Suites[si]
		c := junitCase{Name: what(e), ClassName: where(e), SystemOut: strings.Join(prefixed("Warning: ", e.Warnings), "\n")}
		s.Tests++
		msgs := messages(e)
		switch e.Status {
		case wire.StatusInvalid:
			s.Failures++
			typ := "Invalid"
			if e.DecodeError != "" {
				typ = "BadRequest"
			}
			c.Failure = &junitMessage{Message: firstLine(msgs), Type: typ, Text: strings.Join(msgs, "\n")}
		case wire.StatusError:
			s.Errors++
			c.Error = &junitMessage{Message: e.Reason, Text: e.Reason}
		case wire.StatusSkipped:
			s.Skipped++
			c.Skipped = &junitMessage{Message: e.Reason}
		}
		s.Cases = append(s.Cases, c)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
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

// TAP writes Test Anything Protocol version 13: one test point per entry
// ("ok N - file:line Kind name"), failures with a YAML diagnostic block
// listing the errors, skipped entries with a SKIP directive.
func TAP(w io.Writer, rep *wire.RunReport, opts Options) error {
	fmt.Fprintf(w, "TAP version 13\n1..%d\n", len(rep.Results))
	for i := range rep.Results {
		e := &rep.Results[i]
		desc := tapEscape(where(e) + " " + what(e))
		switch e.Status {
		case wire.StatusValid:
			fmt.Fprintf(w, "ok %d - %s\n", i+1, desc)
		case wire.StatusSkipped:
			fmt.Fprintf(w, "ok %d - %s # SKIP %s\n", i+1, desc, tapEscape(e.Reason))
		default:
			fmt.Fprintf(w, "not ok %d - %s\n  ---\n  status: %s\n  errors:\n", i+1, desc, e.Status)
			for _, m := range messages(e) {
				fmt.Fprintf(w, "  - %s\n", yamlQuote(m))
			}
			fmt.Fprintf(w, "  ...\n")
		}
	}
	if opts.Summary {
		fmt.Fprintf(w, "# %s\n", SummaryLine(rep.Summary))
	}
	return nil
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

// GitHub writes GitHub Actions workflow commands: an ::error annotation at
// file, line (and col when known) per error of an invalid or error entry,
// a ::warning per warning. Valid and skipped entries print nothing; the
// summary (with Summary) is a ::notice.
func GitHub(w io.Writer, rep *wire.RunReport, opts Options) error {
	for i := range rep.Results {
		e := &rep.Results[i]
		title := what(e)
		for _, m := range e.Warnings {
			fmt.Fprintf(w, "::warning file=%s,line=%d,title=%s::%s\n", ghProperty(e.File), e.Line, ghProperty(title), ghData(m))
		}
		switch e.Status {
		case wire.StatusInvalid:
			if e.DecodeError != "" {
				fmt.Fprintf(w, "::error file=%s,line=%d,title=%s::%s\n", ghProperty(e.File), e.Line, ghProperty(title+" is invalid"), ghData(e.DecodeError))
			}
			for _, err := range e.Errors {
				pos := fmt.Sprintf("line=%d", err.Line)
				if err.Column > 0 {
					pos += fmt.Sprintf(",col=%d", err.Column)
				}
				fmt.Fprintf(w, "::error file=%s,%s,title=%s::%s\n", ghProperty(e.File), pos, ghProperty(title+" is invalid"), ghData(err.Message))
			}
		case wire.StatusError:
			fmt.Fprintf(w, "::error file=%s,line=%d,title=%s::%s\n", ghProperty(e.File), e.Line, ghProperty(title), ghData(e.Reason))
		}
	}
	if opts.Summary {
		fmt.Fprintf(w, "::notice title=crdlab::%s\n", ghData(SummaryLine(rep.Summary)))
	}
	return nil
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

// Package report writes the report of a run over files and directories of
// manifests (wire.RunReport, built by package internal/cli/inputs) in the
// formats CI systems read: text (kubectl's wording), json (one document),
// jsonl (one entry per line), junit (JUnit XML), tap (Test Anything
// Protocol 13), github (GitHub Actions workflow commands) and yaml.
//
// Every format names each entry's file and line; an error or warning the
// engine locates (engine.Result.Positions: the line and column of the field
// it is about) carries that position, the others the line of their
// document.
//
// # Adding a format
//
//  1. A writer type with Begin, Entry, End and Stop (the Writer interface,
//     writer.go) in its own file or beside its kin (ci.go); add it to
//     NewWriter, to Formats and to this comment's list. A format that is one
//     document (json, yaml, junit) closes it in Stop too, so that a run
//     stopped by an input error still prints a parseable document. Entries
//     arrive in order, one at a time: render each message only while
//     writing it (catalog.Result.Message) and keep nothing after Entry.
//  2. Golden files: go test ./internal/cli/report -update writes
//     testdata/<format>.golden and <format>-summary.golden (TestFormats;
//     TestStreamGoldens then checks the streamed output against them);
//     TestStreamLargeErrors compares the streamed output with the whole
//     report's.
//  3. cmd/crdlab: the -o help lists Formats (update the help goldens: go
//     test ./cmd/crdlab -update).
//  4. docs/cli.md's formats (docs/ci.md for a CI format).
package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/wire"
)

// Formats are the output formats, the values of -o.
var Formats = []string{"text", "json", "jsonl", "junit", "tap", "github", "yaml"}

// Options tune the writers.
type Options struct {
	// Summary appends the counts (text, jsonl, tap, github; json, yaml and
	// junit always carry them).
	Summary bool
	// Update words successes as kubectl does for an update ("configured").
	Update bool
	// FailPartial reports wire.StatusPartial entries (built-in kinds whose
	// native validation is not modelled) as failures (junit, tap, github):
	// `crdlab validate --unmodelled fail`.
	FailPartial bool
	// KubeVersion is the release the run judged by ("1.37"): every
	// format names it (json and yaml as the report's kubeVersion, junit
	// as a property of each suite, tap as a comment after the plan;
	// text, jsonl and github in the summary).
	KubeVersion string
}

// Write writes rep in format. Text writes failures and warnings to stderr
// (as kubectl does); every other format writes everything to stdout.
func Write(format string, rep *wire.RunReport, stdout, stderr io.Writer, opts Options) error {
	if opts.KubeVersion == "" {
		opts.KubeVersion = rep.KubeVersion
	}
	w, err := NewWriter(format, stdout, stderr, opts)
	if err != nil {
		return err
	}
	return writeAll(w, rep)
}

// writeAll writes a whole report through w.
func writeAll(w Writer, rep *wire.RunReport) error {
	if err := w.Begin(len(rep.Results)); err != nil {
		return err
	}
	for i := range rep.Results {
		if err := w.Entry(&inputs.Result{RunEntry: rep.Results[i]}); err != nil {
			return err
		}
	}
	return w.End(rep.Summary)
}

// location is "file:line" or "file:line:col".
func location(file string, line, col int) string {
	s := fmt.Sprintf("%s:%d", file, line)
	if col > 0 {
		s += fmt.Sprintf(":%d", col)
	}
	return s
}

// what is "Kind ns/name" (or "Kind name").
func what(e *wire.RunEntry) string {
	name := e.Name
	if e.Namespace != "" {
		name = e.Namespace + "/" + name
	}
	kind := e.Kind
	if kind == "" {
		kind = "object"
	}
	if name == "" {
		return kind
	}
	return kind + " " + name
}

// where is the entry's "file:line", with the List item when it is one.
func where(e *wire.RunEntry) string {
	s := location(e.File, e.Line, 0)
	if e.Item != nil {
		s += fmt.Sprintf(" (items[%d])", *e.Item)
	}
	return s
}

// messages returns the entry's failure messages: its decoding error, its
// field errors, or its reason.
func messages(e *inputs.Result) []string {
	if e.DecodeError != "" {
		return []string{e.DecodeError}
	}
	if len(e.Errors) > 0 {
		out := make([]string, len(e.Errors))
		for i := range e.Errors {
			out[i] = e.Message(i)
		}
		return out
	}
	if e.Reason != "" {
		return []string{e.Reason}
	}
	return nil
}

// textWriter writes kubectl's lines: "<kind>.<group>/<name> created (server dry
// run)" on stdout for a success, "Warning: ..." and "<file>:<line>: The
// <Kind> "<name>" is invalid: ..." on stderr for the rest; skipped entries
// on stdout with their reason.
type textWriter struct {
	stdout, stderr io.Writer
	opts           Options
}

func (t *textWriter) Begin(int) error { return nil }

func (t *textWriter) Entry(e *inputs.Result) error {
	stdout, stderr := t.stdout, t.stderr
	verb, errVerb := "created", "creating"
	if t.opts.Update {
		verb, errVerb = "configured", "updating"
	}
	for i, w := range e.Warnings {
		fmt.Fprintf(stderr, "Warning: %s%s\n", at(e.File, e.WarningPositions, i), w)
	}
	switch {
	case e.Status == wire.StatusValid && e.Unchanged:
		fmt.Fprintf(stdout, "%s unchanged (server dry run)\n", resourceName(&e.RunEntry))
	case e.Status == wire.StatusValid:
		fmt.Fprintf(stdout, "%s %s (server dry run)\n", resourceName(&e.RunEntry), verb)
	case e.Status == wire.StatusSkipped:
		fmt.Fprintf(stdout, "%s: skipped %s: %s\n", where(&e.RunEntry), what(&e.RunEntry), e.Reason)
	case e.Status == wire.StatusPartial:
		out := stdout
		if t.opts.FailPartial {
			out = stderr
		}
		fmt.Fprintf(out, "%s: %s %s\n", where(&e.RunEntry), resourceName(&e.RunEntry), partialMessage(e.Reason))
	case strings.HasPrefix(e.DecodeError, "resource mapping not found"):
		// kubectl's own error: the request is never sent.
		fmt.Fprintf(stderr, "%s: error: %s\n", where(&e.RunEntry), e.DecodeError)
	case e.Status == wire.StatusInvalid && e.Admission != nil && !e.Admission.Allowed && len(e.Errors) == 1:
		// Denied by a validating admission policy: kubectl prints the
		// status message with its reason.
		fmt.Fprintf(stderr, "%s: %s: error when %s %q: %s\n", where(&e.RunEntry), FromServer(e.Admission.Reason), errVerb, e.File, e.Admission.Message)
		if e.Reason != "" {
			// A built-in kind not validated natively: the policies saw
			// the object as written.
			fmt.Fprintf(stderr, "%s: note: %s was not validated natively: %s\n", where(&e.RunEntry), resourceName(&e.RunEntry), e.Reason)
		}
	case e.DecodeError != "":
		file := e.File
		if p := e.DecodeErrorPosition; p != nil {
			file = location(e.File, p.Line, p.Column)
		}
		fmt.Fprintf(stderr, "%s: Error from server (%s): error when %s %q: %s\n", where(&e.RunEntry), decodeReason(e.DecodeError), errVerb, file, e.DecodeError)
		for _, p := range e.FieldErrorPositions {
			fmt.Fprintf(stderr, "  %s\n", p)
		}
	case e.Status == wire.StatusInvalid:
		// One error at a time, each message rendered as it is written: the
		// whole message of many errors with large values can be far larger
		// than any one of them.
		w := bufio.NewWriterSize(stderr, 64<<10)
		fmt.Fprintf(w, "%s: ", where(&e.RunEntry))
		writeInvalid(w, e)
		return w.Flush()
	default:
		fmt.Fprintf(stderr, "%s: error: %s: %s\n", where(&e.RunEntry), what(&e.RunEntry), e.Reason)
	}
	if len(e.Webhooks) > 0 {
		fmt.Fprintln(stdout, WebhooksLine(&e.RunEntry))
	}
	return nil
}

// FromServer is kubectl's prefix of a status error: "Error from server
// (Reason)", or "Error from server" for a status without a reason (a
// webhook's denial may have none).
func FromServer(reason string) string {
	if reason == "" {
		return "Error from server"
	}
	return "Error from server (" + reason + ")"
}

// WebhooksLine is the text output's line on the admission webhooks of an
// entry: "<kind>/<name> webhooks: <configuration>/<webhook> called
// (<apiVersion> <resource>), <configuration>/<webhook> skipped: <reason>;
// ...", an error as "failed: <message>".
func WebhooksLine(e *wire.RunEntry) string {
	var b strings.Builder
	b.WriteString(resourceName(e))
	b.WriteString(" webhooks: ")
	for i, c := range e.Webhooks {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c.Configuration + "/" + c.Webhook)
		switch {
		case c.Called && c.CalledWith != nil:
			r := c.CalledWith.Resource
			if c.CalledWith.SubResource != "" {
				r += "/" + c.CalledWith.SubResource
			}
			gv := c.CalledWith.Version
			if c.CalledWith.Group != "" {
				gv = c.CalledWith.Group + "/" + gv
			}
			fmt.Fprintf(&b, " called (%s %s)", gv, r)
			if a := c.Answer; a != nil {
				b.WriteString(": " + a.Outcome)
				if a.Message != "" {
					b.WriteString(": " + a.Message)
				}
			}
		case c.Error != "":
			b.WriteString(" failed: " + c.Error)
		default:
			b.WriteString(" skipped: " + c.Skipped)
		}
	}
	return b.String()
}

func (t *textWriter) End(s wire.RunSummary) error {
	if t.opts.Summary {
		_, err := fmt.Fprintln(t.stdout, SummaryLine(s, t.opts.KubeVersion))
		return err
	}
	return nil
}

// SummaryLine is kubeconform's summary wording, with the partly checked
// built-in objects when there are some, then the release judged by
// (kube, when given).
func SummaryLine(s wire.RunSummary, kube string) string {
	line := fmt.Sprintf("Summary: %d resource%s found in %d file%s - Valid: %d, Invalid: %d, Errors: %d, Skipped: %d",
		s.Total, plural(s.Total), s.Files, plural(s.Files), s.Valid, s.Invalid, s.Errors, s.Skipped)
	if s.Partial > 0 {
		line += fmt.Sprintf(", Partial: %d", s.Partial)
	}
	if kube != "" {
		line += " - Kubernetes " + kube
	}
	return line
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// resourceName is kubectl's "<kind>.<group>/<name>" ("<kind>/<name>" for
// the core group).
func resourceName(e *wire.RunEntry) string {
	group, _, ok := strings.Cut(e.APIVersion, "/")
	if !ok {
		group = ""
	}
	r := strings.ToLower(e.Kind)
	if group != "" {
		r += "." + group
	}
	return r + "/" + e.Name
}

// at is "file:line:col: " for the i-th position of ps, or "".
func at(file string, ps []*wire.Position, i int) string {
	if i >= len(ps) || ps[i] == nil {
		return ""
	}
	return location(file, ps[i].Line, ps[i].Column) + ": "
}

// decodeReason is the status reason kubectl prints for a request that
// failed before validation: RequestEntityTooLarge for a body over the
// limit (a 413), else BadRequest.
func decodeReason(msg string) string {
	if strings.HasPrefix(msg, "Request entity too large: ") {
		return "RequestEntityTooLarge"
	}
	return "BadRequest"
}

// writeInvalid writes engine.InvalidMessageOf for the entry's errors, each
// preceded by the file:line:col of its field when known, rendering one
// message at a time.
func writeInvalid(w io.Writer, e *inputs.Result) {
	msg := func(i int) string {
		err := e.Errors[i]
		if err.Line != e.Line || err.Column > 0 {
			return location(e.File, err.Line, err.Column) + ": " + e.Message(i)
		}
		return e.Message(i)
	}
	if len(e.Errors) <= 1 {
		msgs := []string{}
		if len(e.Errors) == 1 {
			msgs = append(msgs, msg(0))
		}
		io.WriteString(w, engine.InvalidMessageOf(e.Kind, e.Name, msgs))
		return
	}
	// engine.InvalidMessageOf's form for several errors.
	fmt.Fprintf(w, "The %s %q is invalid: \n", e.Kind, e.Name)
	for i := range e.Errors {
		io.WriteString(w, "* ")
		io.WriteString(w, msg(i))
		io.WriteString(w, "\n")
	}
}

// partialMessage is what a partial entry's reports say: the reason, after
// "not validated natively: " unless the kind was validated
// natively in part.
func partialMessage(reason string) string {
	if strings.HasPrefix(reason, wire.NativePartialReason) {
		return reason
	}
	return "not validated natively: " + reason
}

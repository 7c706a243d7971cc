package engine

import (
	"fmt"
	"io"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/wire"
)

// NewReport builds the report of a CRD and, when r is not nil, of one
// object validated against it: the document `crdlab validate -o json`
// prints (package wire). Slices are never nil.
func NewReport(c *CRD, r *Result) *wire.Report {
	rep := &wire.Report{CRD: wire.CRDReport{Errors: errorReports(c.Errors()), Warnings: nonNil(c.Warnings())}}
	if r != nil {
		rep.Object = &wire.ObjectReport{
			Result:      r.Object,
			Pruned:      nonNil(r.Pruned),
			DecodeError: r.DecodeError,
			Errors:      errorReports(r.Errors),
			Warnings:    nonNil(r.Warnings),
		}
	}
	return rep
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// errorReports renders field errors as the reports' errors (never nil).
func errorReports(errs field.ErrorList) []wire.ErrorReport {
	out := make([]wire.ErrorReport, 0, len(errs))
	for _, e := range errs {
		out = append(out, wire.ErrorReport{Type: string(e.Type), Field: e.Field, Detail: e.Detail, Message: e.Error()})
	}
	return out
}

// InvalidMessage renders errors as kubectl prints an Invalid status error
// (the API server's errors.NewInvalid, then kubectl's MultilineError over
// the status causes "<field>: <ErrorBody>"):
//
//	The CronTab "x" is invalid: spec.replicas: Invalid value: ...
//
// or, for several errors, a "* " bullet per error on its own line. The result
// ends with a newline.
func InvalidMessage(kind, name string, errs field.ErrorList) string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = causeMessage(e)
	}
	return InvalidMessageOf(kind, name, msgs)
}

// InvalidMessageOf is InvalidMessage over already rendered errors (the
// "message" of each wire.ErrorReport): one error inline, several as "* " bullets.
func InvalidMessageOf(kind, name string, messages []string) string {
	prefix := fmt.Sprintf("The %s %q is invalid", kind, name)
	switch len(messages) {
	case 0:
		return prefix + "\n"
	case 1:
		return prefix + ": " + messages[0] + "\n"
	}
	var b strings.Builder
	b.WriteString(prefix + ": \n")
	for _, m := range messages {
		b.WriteString("* " + m + "\n")
	}
	return b.String()
}

// causeMessage mirrors kubectl's statusCausesToAggrError: "<field>: <message>".
func causeMessage(e *field.Error) string {
	return fmt.Sprintf("%s: %s", e.Field, e.ErrorBody())
}

// WriteInvalidMessage writes InvalidMessage(kind, name, errs) to w, one
// error at a time: the whole message of many errors with large values can
// be far larger than any one of them.
func WriteInvalidMessage(w io.Writer, kind, name string, errs field.ErrorList) error {
	prefix := fmt.Sprintf("The %s %q is invalid", kind, name)
	switch len(errs) {
	case 0:
		_, err := io.WriteString(w, prefix+"\n")
		return err
	case 1:
		_, err := io.WriteString(w, prefix+": "+causeMessage(errs[0])+"\n")
		return err
	}
	if _, err := io.WriteString(w, prefix+": \n"); err != nil {
		return err
	}
	for _, e := range errs {
		if _, err := io.WriteString(w, "* "+causeMessage(e)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

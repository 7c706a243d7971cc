package engine

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/wire"
)

// NewReport builds the report of a CRD and, when r is not nil, of one
// object validated against it: the document `crdlab validate -o json`
// prints (package wire). Slices are never nil.
//
// Each error carries the source position of its field, each warning that
// names a field its position (WarningPositions), when the CRD or object
// came as a document (Compile, Validate); see Positions.
func NewReport(c *CRD, r *Result) *wire.Report {
	cp := c.Positions()
	rep := &wire.Report{CRD: wire.CRDReport{
		DecodeError:      c.DecodeError(),
		Errors:           errorReports(c.Errors(), cp.Errors),
		Warnings:         nonNil(c.Warnings()),
		WarningPositions: warningPositions(cp.Warnings),
	}}
	for _, e := range c.FieldErrors() {
		rep.CRD.FieldErrorPositions = append(rep.CRD.FieldErrorPositions, e.Pos.Error())
	}
	if r != nil {
		rp := r.Positions()
		rep.Object = &wire.ObjectReport{
			Result:              r.Object,
			OldResult:           r.OldObject,
			Pruned:              nonNil(r.Pruned),
			DecodeError:         r.DecodeError,
			DecodeErrorPosition: wirePosition(rp.DecodeError),
			Errors:              errorReports(r.Errors, rp.Errors),
			Warnings:            nonNil(r.Warnings),
			WarningPositions:    warningPositions(rp.Warnings),
		}
	}
	return rep
}

func wirePosition(p Position) *wire.Position {
	if !p.Known() {
		return nil
	}
	return &wire.Position{Line: p.Line, Column: p.Column}
}

// warningPositions is nil unless some warning has a position.
func warningPositions(ps []Position) []*wire.Position {
	var out []*wire.Position
	for i, p := range ps {
		if p.Known() {
			if out == nil {
				out = make([]*wire.Position, len(ps))
			}
			out[i] = wirePosition(p)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// errorReports renders field errors as the reports' errors (never nil).
func errorReports(errs field.ErrorList, pos []Position) []wire.ErrorReport {
	out := make([]wire.ErrorReport, 0, len(errs))
	for i, e := range errs {
		er := wire.ErrorReport{Type: string(e.Type), Field: e.Field, Detail: e.Detail, Message: e.Error()}
		if i < len(pos) {
			er.Position = wirePosition(pos[i])
		}
		out = append(out, er)
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

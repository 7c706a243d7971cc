package main

import (
	"fmt"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
)

// origin is where the positions of a report part point: the file and the
// line its document starts on. The engine's positions count from the
// document; the CLI's count from the file.
type origin struct {
	file string
	line int  // 1-based line of the document's first byte in file
	none bool // positions do not point into file (kind: List items are re-encoded)
}

// crdOrigin is the origin of a CRD file compiled as a whole.
func crdOrigin(file string) origin { return origin{file: file, line: 1} }

// docOrigin is the origin of one document of an input.
func docOrigin(d document) origin {
	return origin{file: d.source, line: d.line, none: d.item >= 0}
}

// wirePos is an engine position as the report has it (nil: unknown).
func wirePos(p engine.Position) *wire.Position {
	if !p.Known() {
		return nil
	}
	return &wire.Position{Line: p.Line, Column: p.Column}
}

// shift returns p counted from the start of the file (nil when p is nil
// or does not point into it).
func (o origin) shift(p *wire.Position) *wire.Position {
	if p == nil || o.none {
		return nil
	}
	return &wire.Position{Line: p.Line + o.line - 1, Column: p.Column}
}

// at renders "file:line:col: " for p, or "" when there is no position.
func (o origin) at(p *wire.Position) string {
	if p = o.shift(p); p == nil {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d: ", o.file, p.Line, p.Column)
}

// locatedMessages returns the rendered errors of a report, each preceded
// by the file:line:col of its field when known.
func locatedMessages(errs []wire.ErrorReport, o origin) []string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = o.at(e.Position) + e.Message
	}
	return msgs
}

// locatedWarnings returns warnings, each preceded by the file:line:col of
// the field it names when known.
func locatedWarnings(ws []string, pos []*wire.Position, o origin) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		var p *wire.Position
		if i < len(pos) {
			p = pos[i]
		}
		out[i] = o.at(p) + w
	}
	return out
}

// shiftReport makes the positions of a report count from the start of
// the files (the CRD's, the object's) for the CLI's JSON output.
func shiftReport(rep *wire.Report, crd, obj origin) {
	shiftErrors(rep.CRD.Errors, rep.CRD.WarningPositions, crd)
	if o := rep.Object; o != nil {
		o.DecodeErrorPosition = obj.shift(o.DecodeErrorPosition)
		shiftErrors(o.Errors, o.WarningPositions, obj)
		if obj.none {
			o.WarningPositions = nil
		}
	}
	if crd.none {
		rep.CRD.WarningPositions = nil
	}
}

func shiftErrors(errs []wire.ErrorReport, warnings []*wire.Position, o origin) {
	for i := range errs {
		errs[i].Position = o.shift(errs[i].Position)
	}
	for i := range warnings {
		warnings[i] = o.shift(warnings[i])
	}
}

// decodeWhere is d.where() with the line and column of the first field a
// decoding error names, when known.
func decodeWhere(d document, rep *wire.ObjectReport) string {
	if p := docOrigin(d).shift(rep.DecodeErrorPosition); p != nil {
		return fmt.Sprintf("%s:%d:%d", d.source, p.Line, p.Column)
	}
	return d.where()
}

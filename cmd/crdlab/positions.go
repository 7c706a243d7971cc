package main

import (
	"fmt"

	"github.com/crdlab/crdlab/internal/cli/inputs"

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

// docOrigin is the origin of one document of an input (positions count
// from its Raw text).
func docOrigin(d inputs.Document) origin {
	return origin{file: d.File, line: d.RawLine, none: d.Item >= 0 || d.Raw == nil}
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

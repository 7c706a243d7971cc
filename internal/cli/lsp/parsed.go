package lsp

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
)

// parsedFile is the current text of an open document, split and parsed
// (no compilation): what completion, hover and code actions read.
type parsedFile struct {
	uri     string
	version int
	text    string
	lines   []string
	docs    []*docInfo
	lookup  func(group, kind string) *engine.CRD
	good    []goodCRD // the CRDs of the latest check that decoded some
}

// goodDefinition is the CRD of the latest check whose document starts at
// or before the 1-based file line.
func (pf *parsedFile) goodDefinition(line int) *crd.CustomResourceDefinition {
	var def *crd.CustomResourceDefinition
	for _, g := range pf.good {
		if g.line <= line || def == nil {
			def = g.def
		}
	}
	return def
}

func newParsedFile(uri string, version int, text string, lookup func(group, kind string) *engine.CRD) *parsedFile {
	pf := &parsedFile{uri: uri, version: version, text: text, lines: strings.Split(text, "\n"), lookup: lookup}
	if len(text) <= maxDocumentBytes {
		pf.docs, _ = splitDocs(text, true)
	}
	return pf
}

// docAt returns the document holding the 1-based file line.
func (pf *parsedFile) docAt(line int) *docInfo {
	var found *docInfo
	for _, d := range pf.docs {
		if d.line <= line {
			found = d
		}
	}
	if found != nil && line-found.line >= len(found.lines) {
		return nil
	}
	return found
}

// cursor converts a protocol position to the document's 1-based line and
// rune column.
func (pf *parsedFile) cursor(p Position) (d *docInfo, line, col int) {
	line = p.Line + 1
	d = pf.docAt(line)
	if d == nil {
		return nil, 0, 0
	}
	off := offset(pf.text, p)
	start := offset(pf.text, Position{Line: p.Line})
	col = len([]rune(pf.text[start:off])) + 1
	return d, line - d.line + 1, col
}

// toRange converts a document's 1-based line and rune column span on one
// line to a protocol range in the file.
func (pf *parsedFile) toRange(d *docInfo, line, col, endCol int) Range {
	l := d.fileLine(line)
	return Range{Start: lineCol(pf.text, l, col), End: lineCol(pf.text, l, endCol)}
}

// uriPath returns the file path of a file: URI.
func uriPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	return filepath.FromSlash(u.Path), true
}

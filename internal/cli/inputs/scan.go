package inputs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/yamldoc"
	"github.com/crdlab/crdlab/wire"
)

// Inputs are the documents of a run's inputs, scanned by Reader.Scan
// without parsing every object: each file is read and split into its
// documents (separator errors, unreadable files are found), and only the
// documents that may be a CustomResourceDefinition or a kind: List are
// parsed (the catalogue needs every CRD before any object is validated,
// and a List's items are counted). The other documents are read again,
// parsed once and validated by StreamInputs as the run goes, so that a
// large repository is neither parsed twice nor held in memory.
//
// The scan finds the same documents as Reader.Read, with the same file,
// index, item and line. An input error Read would report is reported by
// the scan when it is of a file (unreadable, a bad separator) or of a
// document the scan parses, and by StreamInputs, at the document, when it
// is a syntax error of another document: Check finds it before the run.
type Inputs struct {
	reader Reader // the reader as it was before the scan (Check reads again)
	args   []string
	role   string
	files  []scannedFile
	n      int
	crds   []Document
	stdin  []byte // stdin's bytes, when read
	marked bool   // some file holds Reader.Mark
}

type scannedFile struct {
	name  string
	data  []byte // stdin's bytes; nil for files (read again by StreamInputs)
	slots []slot
	// pending is the number of slots left for StreamInputs to parse.
	pending int
}

// slot is one non-empty document of a file: parsed by the scan (docs: a
// CRD, or a kind: List's items), or pending (parsed by StreamInputs).
type slot struct {
	chunk  int // index among the file's chunks, empty ones included
	parsed bool
	docs   []Document
	// A pending document's Index, Line and RawLine (its File is the
	// file's, its Item -1): not a whole Document, whose fields a
	// 50,000-object run would hold for the whole run (~200 bytes each).
	index, line, rawLine int
}

// Len is the number of documents, kind: List items counted one by one.
func (in *Inputs) Len() int { return in.n }

// Marked reports whether some input file holds the scanning Reader's Mark.
func (in *Inputs) Marked() bool { return in.marked }

// CRDs returns the CustomResourceDefinitions among the inputs, in order.
func (in *Inputs) CRDs() []Document { return in.crds }

// Scan scans inputs (files, directories, "-") as Read reads them; role
// names the inputs in messages. Its error is the one Read would report.
func (r *Reader) Scan(args []string, role string) (*Inputs, error) {
	in := &Inputs{reader: *r, args: args, role: role}
	if err := in.scan(r); err != nil {
		// The first error of the inputs in order may be a syntax error
		// of a document before it, which only a full read finds.
		if rerr := in.Check(); rerr != nil {
			return nil, rerr
		}
		return nil, err
	}
	return in, nil
}

func (in *Inputs) scan(r *Reader) error {
	for _, arg := range in.args {
		files, err := r.Files(arg)
		if err != nil {
			return err
		}
		for _, f := range files {
			data, err := r.ReadFile(f, in.role)
			if err != nil {
				return err
			}
			if len(r.Mark) > 0 && !in.marked && bytes.Contains(data, r.Mark) {
				in.marked = true
			}
			sf := scannedFile{name: f}
			if f == "-" {
				in.stdin, sf.data = data, data
			}
			chunks, err := chunksOf(f, data)
			if err != nil {
				return err
			}
			index := 0
			for k, c := range chunks {
				if yamldoc.Empty(c.Data) {
					continue
				}
				s := slot{chunk: k}
				if mayBeCRDOrList(c.Data) {
					ds, isList, err := parseChunk(f, index, c)
					if err != nil {
						return err
					}
					if isList || ds[0].IsCRD() {
						s.parsed, s.docs = true, ds
						for _, d := range ds {
							if d.IsCRD() {
								in.crds = append(in.crds, d)
							}
						}
					}
				}
				if !s.parsed {
					s.index, s.line, s.rawLine = index, c.Line+leadingBlankLines(c.Data), c.Line
					sf.pending++
					in.n++
				} else {
					in.n += len(s.docs)
				}
				sf.slots = append(sf.slots, s)
				index++
			}
			in.files = append(in.files, sf)
		}
	}
	return nil
}

// Check reads the inputs again as Read does and returns its error: the
// first input error in order, a document's syntax error included, which
// StreamInputs would only meet at that document. A run that stops before
// validating (a usage or catalogue error) reports it first, as a run
// reading everything first does.
func (in *Inputs) Check() error {
	r := in.reader
	if in.stdin != nil {
		r.Stdin = bytes.NewReader(in.stdin)
	}
	_, err := r.Read(in.args, in.role)
	return err
}

// HasBuiltinObjects reports whether some input document is an object of a
// built-in group (a ConfigMap, a Deployment, an Ingress of a removed
// version): a run without CRDs has something to validate then. It reads
// the inputs again, as Check does (only a run without CRDs asks).
func (in *Inputs) HasBuiltinObjects() (bool, error) {
	r := in.reader
	if in.stdin != nil {
		r.Stdin = bytes.NewReader(in.stdin)
	}
	docs, err := r.Read(in.args, in.role)
	if err != nil {
		return false, err
	}
	for _, d := range docs {
		if !d.IsCRD() && IsObject(d.APIVersion, d.Kind) && isBuiltinGroup(d.APIVersion) {
			return true, nil
		}
	}
	return false, nil
}

// mayBeCRDOrList reports whether a document may hold kind
// CustomResourceDefinition or List: the name written out, or an escape
// sequence that could spell it (JSON's \u, YAML's \x, \u, \U and escaped
// line breaks). A document that is neither is always written without it:
// its kind is a scalar of exactly those letters (a plain scalar folds a
// line break into a space, so only an escape can split it).
func mayBeCRDOrList(doc []byte) bool {
	if bytes.Contains(doc, []byte("CustomResourceDefinition")) {
		return true
	}
	// "List" as a whole word: with a letter, digit or _ before or after
	// it, the scalar is another one ("allowList", "Listeners").
	for at := 0; ; {
		i := bytes.Index(doc[at:], []byte("List"))
		if i < 0 {
			break
		}
		i += at
		at = i + 4
		if (i == 0 || !isWordByte(doc[i-1])) && (at == len(doc) || !isWordByte(doc[at])) {
			return true
		}
	}
	for rest := doc; ; {
		i := bytes.IndexByte(rest, '\\')
		if i < 0 || i+1 >= len(rest) {
			return false
		}
		switch rest[i+1] {
		case 'u', 'U', 'x', '\n', '\r':
			return true
		}
		rest = rest[i+2:]
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// parsePending parses a document the scan left (d.Raw is its text): the
// syntax errors and identity Split gives it, parsed once for the engine
// too (engine.ParseDocument) when native (the catalogue compiles with the
// engine: another engine takes the bytes).
func parsePending(d *Document, native bool) error {
	var pd *engine.Document
	var obj map[string]interface{}
	ok := false
	if native {
		pd = engine.ParseDocument(d.Raw)
		obj, ok = pd.Object()
	}
	if ok {
		// The value YAMLToJSON's text decodes to: the identity is read
		// from the top-level fields encoding/json could match (it matches
		// names as strings.EqualFold does), as written by it.
		small := map[string]interface{}{}
		for k, v := range obj {
			if strings.EqualFold(k, "apiVersion") || strings.EqualFold(k, "kind") || strings.EqualFold(k, "metadata") || strings.EqualFold(k, "items") {
				small[k] = v
			}
		}
		js, err := json.Marshal(small)
		if err != nil {
			return &InputError{File: d.File, Line: d.Line, Err: err}
		}
		d.Data = js
	} else {
		js, err := toJSON(d.Raw)
		if err != nil {
			return syntaxError(d.File, d.Line, d.RawLine, err)
		}
		d.Data = js
	}
	_, isList, err := header(d)
	if err != nil {
		return &InputError{File: d.File, Line: d.Line, Err: err}
	}
	d.Data = nil
	if isList || d.IsCRD() {
		// mayBeCRDOrList's guarantee broken: a bug.
		return &InputError{File: d.File, Line: d.Line, Err: errors.New("crdlab: internal error: a CustomResourceDefinition or kind: List was not found by the scan")}
	}
	d.parsed = pd
	return nil
}

// StreamInputs validates (stream) first (documents already read)
// followed by the documents of in, read again and parsed as the run goes: at most a
// window of documents is held. An input error of a document (a syntax
// error the scan did not parse for) stops the run at that document and is
// returned, the entries before it having been emitted; emit gets each
// document with its entry.
func (c *Catalog) StreamInputs(first []Document, in *Inputs, opts Options, emit func(i int, d *Document, r *Result) error) (wire.RunSummary, error) {
	g := &inputsGen{in: in}
	return c.stream(len(first)+in.n, func(i int) (*Document, error) {
		if i < len(first) {
			d := first[i]
			return &d, nil
		}
		return g.next()
	}, opts, emit)
}

// inputsGen gives the documents of Inputs in order, reading each file
// with pending documents again (on one goroutine).
type inputsGen struct {
	in     *Inputs
	file   int // current file
	slot   int // next slot of it
	item   int // next document of a parsed slot
	chunks []yamldoc.Document
}

func (g *inputsGen) next() (*Document, error) {
	for g.file < len(g.in.files) {
		f := &g.in.files[g.file]
		if g.slot >= len(f.slots) {
			f.slots = nil // given: the run holds no file's slots after it
			g.file, g.slot, g.item, g.chunks = g.file+1, 0, 0, nil
			continue
		}
		s := &f.slots[g.slot]
		if s.parsed {
			if g.item >= len(s.docs) {
				g.slot, g.item = g.slot+1, 0
				continue
			}
			d := s.docs[g.item]
			// Dropped from the inputs once given (CRDs stay: the
			// catalogue holds them).
			s.docs[g.item] = Document{}
			g.item++
			return &d, nil
		}
		if g.chunks == nil {
			data := f.data
			if data == nil {
				var err error
				if data, err = (&Reader{}).ReadFile(f.name, g.in.role); err != nil {
					return nil, err
				}
			}
			chunks, err := chunksOf(f.name, data)
			if err != nil {
				return nil, err
			}
			g.chunks = chunks
		}
		if s.chunk >= len(g.chunks) || yamldoc.Empty(g.chunks[s.chunk].Data) || g.chunks[s.chunk].Line != s.rawLine {
			return nil, &InputError{File: f.name, Err: errors.New("the file changed while it was read")}
		}
		d := Document{File: f.name, Index: s.index, Item: -1, Line: s.line, RawLine: s.rawLine, Raw: g.chunks[s.chunk].Data, pending: true}
		g.slot++
		return &d, nil
	}
	return nil, fmt.Errorf("crdlab: internal error: no document left")
}

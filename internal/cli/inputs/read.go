// Package inputs validates files and directories of mixed manifests, as a
// CI job or a GitOps repository holds them: CustomResourceDefinitions and
// objects of any kind, in multi-document YAML streams and kind: List
// documents.
//
// Read expands the inputs into documents, each with its file, index and
// first line. A Catalog (the one meaning of "catalog" in the code: the
// compiled CRDs a run validates against) holds the CRDs (given with --crd
// and found among the inputs), compiled once (AddAll) and indexed by group,
// version and kind. StreamInputs validates every object against its own CRD in
// parallel and gives one entry per document, in input order; objects whose
// kind has no CRD in the catalogue (built-in kinds, unknown CRDs) are
// skipped with a reason, and CRDs among the inputs are linted.
//
// The inputs are not read whole first: Scan reads and splits them,
// parsing only the documents that may be CRDs or kind: List, and
// StreamInputs reads the other documents again as the workers validate
// them, each parsed once (engine.ParseDocument), a window of them held at
// a time.
//
// Input problems — an unreadable file, a bad document separator, a
// document that is not YAML or JSON, a CRD that does not decode — are
// *InputError values naming file:line, whatever the role of the input.
package inputs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/yamldoc"
)

// Document is one object of an input: a document of a YAML stream, a JSON
// file, or an item of a kind: List.
type Document struct {
	File  string // file name; "-" is stdin
	Index int    // 0-based index of the document in File, empty ones not counted
	Item  int    // index in a kind: List's items, -1 otherwise
	Line  int    // 1-based line where the document starts

	// Data is the document as JSON (YAML converted as kubectl does,
	// sigs.k8s.io/yaml.YAMLToJSON; JSON as written, so that duplicate
	// fields reach the validation).
	Data []byte
	// Raw is the document as written (YAML or JSON), starting at line
	// RawLine of File: CRD decoding errors are located in it.
	Raw     []byte
	RawLine int

	APIVersion string
	Kind       string
	Namespace  string
	Name       string

	// FromDir is set for a document of a file found in a directory input
	// (not named on the command line).
	FromDir bool

	// parsed is the document parsed for the engine (StreamInputs), used
	// once.
	parsed *engine.Document
	// pending: Raw is to be parsed (StreamInputs' worker does it).
	pending bool
}

// Where renders "file:line", with " (items[i])" for a List item.
func (d *Document) Where() string {
	s := d.File + ":" + strconv.Itoa(d.Line)
	if d.Item >= 0 {
		s += fmt.Sprintf(" (items[%d])", d.Item)
	}
	return s
}

// Body is the request body of the document: as written (YAML or JSON,
// so that the engine's positions point into the file), or a kind: List
// item's JSON.
func (d *Document) Body() []byte {
	if d.Item < 0 && d.Raw != nil {
		return d.Raw
	}
	return d.Data
}

// rawOrigin is the line of the file where the document given to the
// engine (Raw) starts, 0 when positions do not point into the file (a
// kind: List item is re-encoded).
func (d *Document) rawOrigin() int {
	if d.Item >= 0 || d.Raw == nil {
		return 0
	}
	return d.RawLine
}

// IsCRD reports whether the document is an apiextensions.k8s.io
// CustomResourceDefinition.
func (d *Document) IsCRD() bool {
	return d.Kind == "CustomResourceDefinition" && strings.HasPrefix(d.APIVersion, "apiextensions.k8s.io/")
}

// InputError is an input that cannot be read or parsed, located at
// file:line when the line is known.
type InputError struct {
	File   string
	Line   int // 0 when unknown
	Column int // 0 when unknown
	Err    error
}

func (e *InputError) Error() string {
	if e.Line > 0 && e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// Reader reads inputs. Its zero value reads directories non-recursively
// and refuses stdin.
type Reader struct {
	// Recursive descends into subdirectories of directory inputs (as
	// kubectl -R); without it only the directory's own files are read (as
	// kubectl -f DIR).
	Recursive bool
	// Stdin is read for the input "-", once: a second "-" (in any role) is
	// an error.
	Stdin     io.Reader
	stdinUsed string
	// Mark, when set, makes Scan note whether any input file holds these
	// bytes (Inputs.Marked), so that a caller can tell whether a second
	// read for some kind of document is needed without reading again.
	Mark []byte
}

// Extensions are the file name extensions read from directories (given
// files are read whatever their name).
var Extensions = []string{".yaml", ".yml", ".json"}

// ConfigFile is crdlab's project configuration file (cmd/crdlab's
// config.go): a directory's is not one of its inputs.
const ConfigFile = ".crdlab.yaml"

// Files expands one input into file names: "-", a file, or the sorted
// *.yaml, *.yml and *.json files of a directory (recursively with
// Recursive; hidden subdirectories such as .git are not entered, and
// ConfigFile is left out).
func (r *Reader) Files(arg string) ([]string, error) {
	if arg == "-" {
		return []string{"-"}, nil
	}
	st, err := os.Stat(arg)
	if err != nil {
		return nil, &InputError{File: arg, Err: unwrapPathError(err)}
	}
	if !st.IsDir() {
		return []string{arg}, nil
	}
	var files []string
	err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return &InputError{File: p, Err: unwrapPathError(err)}
		}
		if d.IsDir() {
			if p != arg && (!r.Recursive || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == ConfigFile {
			return nil
		}
		ext := strings.ToLower(filepath.Ext(d.Name()))
		for _, e := range Extensions {
			if ext == e {
				files = append(files, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

// ReadFile reads one file ("-" is stdin, once).
func (r *Reader) ReadFile(name, role string) ([]byte, error) {
	if name != "-" {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, &InputError{File: name, Err: unwrapPathError(err)}
		}
		return data, nil
	}
	if r.Stdin == nil {
		return nil, &InputError{File: "-", Err: errors.New("stdin is not available here")}
	}
	if r.stdinUsed != "" {
		return nil, &InputError{File: "-", Err: fmt.Errorf("stdin can be read only once: it was already given as the %s", r.stdinUsed)}
	}
	r.stdinUsed = role
	data, err := io.ReadAll(r.Stdin)
	if err != nil {
		return nil, &InputError{File: "-", Err: err}
	}
	return data, nil
}

// Read expands inputs (files, directories, "-") into their documents, in
// order. role names the inputs in messages ("object", "CRD").
func (r *Reader) Read(args []string, role string) ([]Document, error) {
	var docs []Document
	for _, arg := range args {
		files, err := r.Files(arg)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			data, err := r.ReadFile(f, role)
			if err != nil {
				return nil, err
			}
			ds, err := Split(f, data)
			if err != nil {
				return nil, err
			}
			if f != arg {
				for i := range ds {
					ds[i].FromDir = true
				}
			}
			docs = append(docs, ds...)
		}
	}
	return docs, nil
}

// NotAnObject is the reason a document without an apiVersion or a kind
// (a package.json, a Helm values.yaml, a JSON array) is skipped.
const NotAnObject = "no apiVersion and kind: not a Kubernetes object"

// IsObject reports whether a document with this apiVersion and kind is a
// Kubernetes object; the others are skipped (NotAnObject) by every
// command: crdlab validate (Catalog.Lookup) and the commands reading
// through ReadManifests.
func IsObject(apiVersion, kind string) bool { return apiVersion != "" && kind != "" }

// ReadManifests is Read for the commands that take manifests from
// directories (cost, bench, schema, lint, upgrade): a document of a file
// found in a directory that is not a Kubernetes object (IsObject) is left
// out, as crdlab validate skips it, and described in skipped
// ("file:line: skipped: <reason>"). A file named on the command line is
// kept whole, so that the command reports what is wrong with it.
func (r *Reader) ReadManifests(args []string, role string) (docs []Document, skipped []string, err error) {
	all, err := r.Read(args, role)
	if err != nil {
		return nil, nil, err
	}
	for _, d := range all {
		if d.FromDir && !IsObject(d.APIVersion, d.Kind) {
			skipped = append(skipped, fmt.Sprintf("%s: skipped: %s", d.Where(), NotAnObject))
			continue
		}
		docs = append(docs, d)
	}
	return docs, skipped, nil
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Split splits one file into its documents: YAML streams on kubectl's
// separator lines (internal/yamldoc), empty documents dropped, kind: List
// items expanded. Every document is parsed: a syntax error is an
// *InputError at its line.
func Split(file string, data []byte) ([]Document, error) {
	chunks, err := chunksOf(file, data)
	if err != nil {
		return nil, err
	}
	var out []Document
	index := 0
	for _, c := range chunks {
		if yamldoc.Empty(c.Data) {
			continue
		}
		ds, _, err := parseChunk(file, index, c)
		if err != nil {
			return nil, err
		}
		index++
		out = append(out, ds...)
	}
	return out, nil
}

// chunksOf splits one file into its documents, empty ones included: a
// JSON file is one document, YAML is split on kubectl's separator lines.
func chunksOf(file string, data []byte) ([]yamldoc.Document, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		// A JSON file is one document (it may hold "---" in strings).
		return []yamldoc.Document{{Data: data, Line: 1}}, nil
	}
	chunks, err := yamldoc.Split(data)
	var se *yamldoc.SeparatorError
	if errors.As(err, &se) {
		return nil, &InputError{File: file, Line: se.Line, Err: se}
	}
	return chunks, nil
}

// parseChunk parses one non-empty document of a file, the index-th: its
// document, or the items of a kind: List (isList).
func parseChunk(file string, index int, c yamldoc.Document) (out []Document, isList bool, err error) {
	line := c.Line + leadingBlankLines(c.Data)
	js, err := toJSON(c.Data)
	if err != nil {
		return nil, false, syntaxError(file, line, c.Line, err)
	}
	d := Document{File: file, Index: index, Item: -1, Line: line, Data: js, Raw: c.Data, RawLine: c.Line}
	items, isList, err := header(&d)
	if err != nil {
		return nil, false, &InputError{File: file, Line: line, Err: err}
	}
	if !isList {
		return []Document{d}, false, nil
	}
	for i, it := range items {
		item := Document{File: file, Index: d.Index, Item: i, Line: line, Data: []byte(it), Raw: []byte(it)}
		if _, _, err := header(&item); err != nil {
			return nil, false, &InputError{File: file, Line: line, Err: fmt.Errorf("items[%d]: %v", i, err)}
		}
		out = append(out, item)
	}
	return out, true, nil
}

// leadingBlankLines counts the blank and comment lines before a document's
// content, so that its line is the first line of content.
func leadingBlankLines(data []byte) int {
	n := 0
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return n
		}
		if t := bytes.TrimSpace(data[:i]); len(t) > 0 && t[0] != '#' {
			return n
		}
		n++
		data = data[i+1:]
	}
	return n
}

// toJSON is the body kubectl sends: JSON as is, YAML through YAMLToJSON.
func toJSON(doc []byte) ([]byte, error) {
	t := bytes.TrimSpace(doc)
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
		return t, nil
	}
	return yaml.YAMLToJSON(doc)
}

// syntaxError locates a YAML error: goyaml's "yaml: line N: msg" is
// relative to the document, which starts at chunkLine.
func syntaxError(file string, line, chunkLine int, err error) error {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "yaml: line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, aerr := strconv.Atoi(rest[:i]); aerr == nil {
				return &InputError{File: file, Line: chunkLine + n - 1, Err: errors.New("yaml: " + strings.TrimSpace(rest[i+1:]))}
			}
		}
	}
	return &InputError{File: file, Line: line, Err: err}
}

// header fills the document's apiVersion, kind, namespace and name, and
// returns the items of a kind: List.
func header(d *Document) ([]json.RawMessage, bool, error) {
	// Only the identity is decoded: metadata's name and namespace, the
	// items left raw (the rest of the document is only scanned).
	var h struct {
		APIVersion interface{}     `json:"apiVersion"`
		Kind       interface{}     `json:"kind"`
		Metadata   json.RawMessage `json:"metadata"`
		Items      json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(d.Data, &h); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Not an object ("- a", "42"): left to the validation, which
			// reports it as the API server does.
			return nil, false, nil
		}
		return nil, false, err
	}
	d.APIVersion, _ = h.APIVersion.(string)
	d.Kind, _ = h.Kind.(string)
	if len(h.Metadata) > 0 && h.Metadata[0] == '{' {
		// A map: its keys match exactly (a struct's would match any case).
		var m map[string]json.RawMessage
		if json.Unmarshal(h.Metadata, &m) == nil {
			d.Name, d.Namespace = rawString(m["name"]), rawString(m["namespace"])
		}
	}
	if d.Kind != "List" || d.Item >= 0 {
		return nil, false, nil
	}
	var items []json.RawMessage
	if len(h.Items) > 0 && json.Unmarshal(h.Items, &items) != nil {
		return nil, false, nil
	}
	return items, true, nil
}

// rawString is the string a JSON value holds, or "" when it is not one.
func rawString(v json.RawMessage) string {
	var s string
	if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/internal/yamldoc"
)

// document is one object read from an input.
type document struct {
	source string // file name ("-" is stdin)
	line   int    // 1-based line where the document starts
	data   []byte // the document: JSON, or YAML as written
	item   int    // index in a kind: List, -1 otherwise
}

// where renders "file:line" (or "file:line: items[i]").
func (d document) where() string {
	if d.line <= 1 && d.item < 0 {
		return d.source
	}
	s := fmt.Sprintf("%s:%d", d.source, d.line)
	if d.item >= 0 {
		s += fmt.Sprintf(" (items[%d])", d.item)
	}
	return s
}

// inputError is an I/O or syntax problem with file:line.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

// readInputs expands files, directories (non-recursive, *.yaml, *.yml,
// *.json, sorted, as kubectl -f dir) and "-" (stdin) into documents.
func readInputs(args []string, stdin io.Reader) ([]document, error) {
	var docs []document
	for _, arg := range args {
		files := []string{arg}
		if arg != "-" {
			st, err := os.Stat(arg)
			if err != nil {
				return nil, &inputError{fmt.Sprintf("%s: %v", arg, unwrapPathError(err))}
			}
			if st.IsDir() {
				files = nil
				entries, err := os.ReadDir(arg)
				if err != nil {
					return nil, &inputError{fmt.Sprintf("%s: %v", arg, unwrapPathError(err))}
				}
				for _, e := range entries {
					ext := strings.ToLower(filepath.Ext(e.Name()))
					if !e.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
						files = append(files, filepath.Join(arg, e.Name()))
					}
				}
				sort.Strings(files)
			}
		}
		for _, f := range files {
			data, err := readFile(f, stdin)
			if err != nil {
				return nil, err
			}
			ds, err := splitDocuments(f, data)
			if err != nil {
				return nil, err
			}
			docs = append(docs, ds...)
		}
	}
	return docs, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func readFile(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, &inputError{fmt.Sprintf("-: %v", err)}
		}
		return data, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, &inputError{fmt.Sprintf("%s: %v", name, unwrapPathError(err))}
	}
	return data, nil
}

// splitDocuments splits a multi-document YAML stream on "---" lines as
// kubectl does (see internal/yamldoc: only spaces or a comment may follow the
// separator, anything else is an error), drops empty documents and expands
// kind: List items.
func splitDocuments(source string, data []byte) ([]document, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return expandList(document{source: source, line: 1 + bytes.Count(data[:bytes.Index(data, trimmed[:1])], []byte("\n")), data: trimmed, item: -1})
	}
	docs, err := yamldoc.Split(data)
	if se, ok := err.(*yamldoc.SeparatorError); ok {
		return nil, &inputError{fmt.Sprintf("%s:%d: %v", source, se.Line, se)}
	}
	var out []document
	for _, d := range docs {
		if yamldoc.Empty(d.Data) {
			continue
		}
		ds, err := expandList(document{source: source, line: d.Line, data: d.Data, item: -1})
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	return out, nil
}

// expandList returns the items of a kind: List document (each as its raw
// JSON, so duplicate fields are still seen), or the document itself.
func expandList(d document) ([]document, error) {
	js := d.data
	if !bytes.HasPrefix(bytes.TrimSpace(js), []byte("{")) {
		var err error
		js, err = yaml.YAMLToJSON(d.data)
		if err != nil {
			// Left to the engine, which reports it as the object's error.
			return []document{d}, nil
		}
	}
	var list struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(js, &list); err != nil || list.Kind != "List" {
		return []document{d}, nil
	}
	out := make([]document, 0, len(list.Items))
	for i, it := range list.Items {
		out = append(out, document{source: d.source, line: d.line, data: []byte(it), item: i})
	}
	return out, nil
}

// docKind returns the apiVersion and kind of a document, if it has them.
func docKind(data []byte) (apiVersion, kind string) {
	js := data
	if !bytes.HasPrefix(bytes.TrimSpace(js), []byte("{")) {
		var err error
		if js, err = yaml.YAMLToJSON(data); err != nil {
			return "", ""
		}
	}
	var tm struct {
		APIVersion interface{} `json:"apiVersion"`
		Kind       interface{} `json:"kind"`
	}
	if json.Unmarshal(js, &tm) != nil {
		return "", ""
	}
	a, _ := tm.APIVersion.(string)
	k, _ := tm.Kind.(string)
	return a, k
}

// Package yamldoc splits a multi-document YAML stream into its documents
// the way kubectl reads files: k8s.io/apimachinery/pkg/util/yaml's
// YAMLReader (v0.37.2), which kubectl's resource builder reaches through
// NewYAMLOrJSONDecoder.
//
// # The separator rule
//
// A line is a document separator when it begins with "---" (in column 1)
// and what follows the three dashes is, after trimming white space, empty
// or a comment (starts with "#"): "---", "--- ", "---  # next" and "---\r"
// separate documents. Any other line beginning with "---" ("--- a: 1",
// "---x", "----") is an error in YAMLReader ("invalid Yaml document
// separator: a: 1"), and Split reports it as a *SeparatorError. Everything
// else, including "---" not in column 1 and "..." document end markers, is
// document content.
//
// YAMLReader returns no empty chunks (a separator with nothing before it
// starts the next chunk instead); Split returns every chunk between two
// separators, empty ones included, so callers can count documents and lines,
// and leaves dropping blank or comment-only documents (see Empty) to them.
package yamldoc

import (
	"bytes"
	"strings"
)

// Document is one document of a stream.
type Document struct {
	// Data is the text between two separator lines (separators excluded),
	// a sub-slice of the input.
	Data []byte
	// Line is the 1-based line number of Data's first byte in the input.
	Line int
}

// SeparatorError is a line that begins with "---" but carries something
// other than white space or a comment after it.
type SeparatorError struct {
	Line int    // 1-based line number in the input
	Text string // what follows "---", trimmed
}

// Error is YAMLReader's message.
func (e *SeparatorError) Error() string {
	return "invalid Yaml document separator: " + e.Text
}

// Split splits data on separator lines (see the package comment). It returns
// one more document than there are separators, so at least one; the
// documents cover the input exactly, less the separator lines.
func Split(data []byte) ([]Document, error) {
	var docs []Document
	start, startLine := 0, 1
	offset, line := 0, 1
	for offset < len(data) {
		end := len(data)
		if i := bytes.IndexByte(data[offset:], '\n'); i >= 0 {
			end = offset + i + 1
		}
		l := data[offset:end]
		if bytes.HasPrefix(l, []byte("---")) {
			rest := strings.TrimSpace(string(l[3:]))
			if rest != "" && rest[0] != '#' {
				return nil, &SeparatorError{Line: line, Text: rest}
			}
			docs = append(docs, Document{Data: data[start:offset:offset], Line: startLine})
			start, startLine = end, line+1
		}
		offset, line = end, line+1
	}
	return append(docs, Document{Data: data[start:], Line: startLine}), nil
}

// Empty reports whether data holds only blank lines and comment lines
// (a document YAML decodes to null).
func Empty(data []byte) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		if t := bytes.TrimSpace(l); len(t) > 0 && t[0] != '#' {
			return false
		}
	}
	return true
}

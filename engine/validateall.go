package engine

import (
	"bytes"
	"context"
	"fmt"

	"github.com/crdlab/crdlab/internal/yamldoc"
)

// DocumentResult is the outcome of one document of a stream (ValidateAll).
type DocumentResult struct {
	// Index is the 0-based index of the document in the stream, empty
	// documents (blank or comments only) not counted.
	Index int
	// Line is the 1-based line where the document starts in the stream.
	Line int
	// Result is the document's outcome, nil when Err is set.
	Result *Result
	// Err is a misuse for this document (see CRD.Validate).
	Err error
}

// ValidateAll validates every document of a multi-document YAML stream
// (split on "---" lines as kubectl does) and returns one result per
// non-empty document, in order. A JSON body is one document. The error is
// only for a malformed stream (a bad separator line, with its line).
func (c *CRD) ValidateAll(stream []byte, opts ValidateOptions) ([]DocumentResult, error) {
	return c.ValidateAllContext(context.Background(), stream, opts)
}

// ValidateAllContext is ValidateAll observing ctx for the whole stream, as
// ValidateContext does for one object: a rule the deadline interrupts is a
// validation error naming the rule, and once ctx is done every document
// not yet validated has an Err wrapping ctx's error (errors.Is
// context.DeadlineExceeded or context.Canceled).
func (c *CRD) ValidateAllContext(ctx context.Context, stream []byte, opts ValidateOptions) ([]DocumentResult, error) {
	docs, err := splitStream(stream)
	if err != nil {
		return nil, err
	}
	out := make([]DocumentResult, len(docs))
	for i, d := range docs {
		out[i] = DocumentResult{Index: i, Line: d.Line}
		if err := ctxErr(ctx, fmt.Sprintf("validating document %d", i)); err != nil {
			out[i].Err = err
			continue
		}
		out[i].Result, out[i].Err = c.validateOne(ctx, d.Data, opts)
	}
	return out, nil
}

// splitStream returns the non-empty documents of a stream; a JSON body is
// one document.
func splitStream(stream []byte) ([]yamldoc.Document, error) {
	if t := bytes.TrimSpace(stream); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		return []yamldoc.Document{{Data: stream, Line: 1}}, nil
	}
	all, err := yamldoc.Split(stream)
	if err != nil {
		if se, ok := err.(*yamldoc.SeparatorError); ok {
			return nil, fmt.Errorf("line %d: %v", se.Line, se)
		}
		return nil, err
	}
	docs := all[:0]
	for _, d := range all {
		if !yamldoc.Empty(d.Data) {
			docs = append(docs, d)
		}
	}
	return docs, nil
}

// checkOneDocument returns an error when a YAML body holds more than one
// document: Validate takes one object (ValidateAll takes a stream). The
// quick test (a line starting with "---") keeps the common case free.
func checkOneDocument(object []byte) error {
	if !bytes.HasPrefix(object, []byte("---")) && !bytes.Contains(object, []byte("\n---")) {
		return nil
	}
	docs, err := splitStream(object)
	if err != nil {
		return err
	}
	if len(docs) > 1 {
		return fmt.Errorf("the object holds %d YAML documents, Validate takes one (use ValidateAll for a stream)", len(docs))
	}
	return nil
}

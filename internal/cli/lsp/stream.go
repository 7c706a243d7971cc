package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// stream is the connection's jsonrpc2.ObjectStream: the library's
// Content-Length framing (jsonrpc2.VSCodeObjectCodec) with one change. The
// library closes the connection on a body that does not decode into a
// message; stream answers such a body with the JSON-RPC error the
// specification names (-32700 Parse error for a body that is not JSON,
// -32600 Invalid Request for JSON that is not a request or response, both
// with id null) and reads on. A header that does not frame a message
// still ends the connection: the stream cannot be resynchronised.
type stream struct {
	r     *bufio.Reader
	w     io.Writer
	c     io.Closer
	codec jsonrpc2.VSCodeObjectCodec

	mu sync.Mutex // serialises writes
}

func newStream(rwc io.ReadWriteCloser) *stream {
	return &stream{r: bufio.NewReader(rwc), w: rwc, c: rwc}
}

// WriteObject writes one framed message.
func (s *stream) WriteObject(obj interface{}) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.codec.WriteObject(s.w, obj)
}

// ReadObject reads the next message that decodes into v, answering the
// ones that do not.
func (s *stream) ReadObject(v interface{}) error {
	for {
		var raw json.RawMessage
		if err := s.codec.ReadObject(s.r, &raw); err != nil {
			if _, ok := err.(*json.SyntaxError); !ok && err != io.ErrUnexpectedEOF {
				return err
			}
			// A body that is not JSON (or ends inside a value) is read
			// up to the error only: answer and skip to the next header
			// (at the end of the input, the next read ends the
			// connection).
			s.reply(jsonrpc2.CodeParseError, "Parse error: "+err.Error())
			if err := s.skipToHeader(); err != nil {
				return err
			}
			continue
		}
		err := json.Unmarshal(raw, v)
		if err == nil {
			return nil
		}
		code := int64(jsonrpc2.CodeInvalidRequest)
		msg := "Invalid Request: "
		if !json.Valid(raw) {
			code, msg = jsonrpc2.CodeParseError, "Parse error: "
		}
		s.reply(code, msg+err.Error())
	}
}

// skipToHeader discards input up to the next "Content-Length:" line.
func (s *stream) skipToHeader() error {
	const header = "Content-Length:"
	for {
		b, err := s.r.Peek(len(header))
		if err != nil {
			if len(b) == 0 {
				return err
			}
			_, err := s.r.Discard(len(b))
			if err != nil {
				return err
			}
			continue
		}
		if bytes.Equal(b, []byte(header)) {
			return nil
		}
		if _, err := s.r.Discard(1); err != nil {
			return err
		}
	}
}

// reply writes an error response with id null.
func (s *stream) reply(code int64, msg string) {
	_ = s.WriteObject(errorResponse{JSONRPC: "2.0", ID: nil, Error: jsonrpc2.Error{Code: code, Message: msg}})
}

type errorResponse struct {
	JSONRPC string         `json:"jsonrpc"`
	ID      *int           `json:"id"`
	Error   jsonrpc2.Error `json:"error"`
}

// Close closes the connection.
func (s *stream) Close() error { return s.c.Close() }

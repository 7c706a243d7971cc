package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"
)

// FuzzServerMessages sends the server one arbitrary message body (framed
// with a correct Content-Length) after opening a CRD, then a valid
// request: the server must answer that request (a body it cannot read is
// answered with a JSON-RPC error and skipped; a handler that fails
// answers with an error) and never panic, in the handler or in the checks
// it schedules. Editor traffic for the hostile set.
func FuzzServerMessages(f *testing.F) {
	crd := `{"textDocument":{"uri":"file:///c.yaml","version":1,"text":"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  versions:\n  - schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-validations:\n        - rule: self.\n"}}`
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///c.yaml"},"position":{"line":8,"character":20}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///c.yaml"},"position":{"line":-1,"character":99999}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///c.yaml","version":2},"contentChanges":[{"range":{"start":{"line":9,"character":0},"end":{"line":99,"character":0}},"text":"  - rule: \"self.a.b(\"\n---\n- ]["}]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///c.yaml"},"range":{"start":{"line":0,"character":0},"end":{"line":100,"character":0}},"context":{"diagnostics":[]}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///d.yaml","version":1,"text":"apiVersion: example.com/v1\nkind: Widget\nspec: {a: [1, {b: *x}]}\n"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"initializationOptions":{"crdPaths":["/nonexistent"],"debounceMs":-5}}}`,
		`not json`, `[]`, `[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]`, `{"id":{},"method":7}`, `{"jsonrpc":"2.0","id":4,"result":null}`,
		"{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"file:///e.yaml\",\"version\":1,\"text\":\"\\ufeff\\u0000--- x\\n\\t- &a [*a]\"}}}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		a, b := net.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan struct{})
		s := NewServer()
		go func() {
			s.Serve(ctx, b)
			close(done)
		}()
		defer func() {
			a.Close()
			cancel()
			select {
			case <-done:
			case <-time.After(hangAfter):
				buf := make([]byte, 1<<20)
				t.Fatalf("the server did not stop after %q:\n%s", body, buf[:runtime.Stack(buf, true)])
			}
		}()
		r := bufio.NewReader(a)
		// read everything the server writes; find the final answer
		answered := make(chan error, 1)
		go func() {
			for {
				var length int
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						answered <- err
						return
					}
					if line == "\r\n" {
						break
					}
					fmt.Sscanf(line, "Content-Length: %d", &length)
				}
				msg := make([]byte, length)
				if _, err := io.ReadFull(r, msg); err != nil {
					answered <- err
					return
				}
				var m struct {
					ID json.RawMessage `json:"id"`
				}
				if json.Unmarshal(msg, &m) == nil && string(m.ID) == `"final"` {
					answered <- nil
					return
				}
			}
		}()
		send := func(s string) {
			a.SetWriteDeadline(time.Now().Add(hangAfter))
			if _, err := fmt.Fprintf(a, "Content-Length: %d\r\n\r\n%s", len(s), s); err != nil && !strings.Contains(body, "exit") {
				t.Fatalf("write: %v", err)
			}
		}
		send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"initializationOptions":{"debounceMs":0,"scanWorkspace":false}}}`)
		send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + crd + `}`)
		if strings.TrimSpace(body) != "" {
			send(body)
		}
		send(`{"jsonrpc":"2.0","id":"final","method":"textDocument/hover","params":{"textDocument":{"uri":"file:///c.yaml"},"position":{"line":8,"character":15}}}`)
		select {
		case err := <-answered:
			if err != nil && !strings.Contains(body, "exit") { // exit ends the session
				t.Fatalf("no answer to the final request after %q: %v", body, err)
			}
		case <-time.After(hangAfter):
			t.Fatalf("no answer within %v after %q", hangAfter, body)
		}
	})
}

package lsp

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// hangAfter is how long a test waits for an answer that must come before
// it fails: a hang detector, not a timing assertion, so far beyond any run
// on a loaded machine (answers take milliseconds idle, seconds at load 35).
// Fuzzing needs it: go test -fuzz runs without -timeout's alarm.
const hangAfter = 3 * time.Minute

// client is an LSP client over an in-memory pipe to a Server.
type client struct {
	t     testing.TB
	conn  *jsonrpc2.Conn
	mu    sync.Mutex
	diags map[string][]PublishDiagnosticsParams
	msgs  []ShowMessageParams // window/showMessage and window/logMessage
	cond  *sync.Cond
	done  chan struct{}
}

func newClient(t testing.TB, s *Server, init InitializeParams) *client {
	t.Helper()
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{t: t, diags: map[string][]PublishDiagnosticsParams{}, done: make(chan struct{})}
	c.cond = sync.NewCond(&c.mu)
	go func() {
		s.Serve(ctx, b)
		close(c.done)
	}()
	c.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(a, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(
		func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (interface{}, error) {
			if req.Method == "textDocument/publishDiagnostics" && req.Params != nil {
				var p PublishDiagnosticsParams
				if err := json.Unmarshal(*req.Params, &p); err == nil {
					c.mu.Lock()
					c.diags[p.URI] = append(c.diags[p.URI], p)
					c.cond.Broadcast()
					c.mu.Unlock()
				}
			}
			if (req.Method == "window/showMessage" || req.Method == "window/logMessage") && req.Params != nil {
				var p ShowMessageParams
				if err := json.Unmarshal(*req.Params, &p); err == nil {
					c.mu.Lock()
					c.msgs = append(c.msgs, p)
					c.cond.Broadcast()
					c.mu.Unlock()
				}
			}
			return nil, nil
		}))
	t.Cleanup(func() {
		c.conn.Close()
		cancel()
		a.Close()
		select {
		case <-c.done:
		case <-time.After(hangAfter):
			t.Error("the server did not stop")
		}
	})
	var res InitializeResult
	c.call("initialize", init, &res)
	c.notify("initialized", struct{}{})
	return c
}

func (c *client) call(method string, params, result interface{}) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	return c.conn.Call(ctx, method, params, result)
}

func (c *client) mustCall(method string, params, result interface{}) {
	c.t.Helper()
	if err := c.call(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params interface{}) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// waitDiags waits for the diagnostics of uri at version.
func (c *client) waitDiags(uri string, version int) []Diagnostic {
	c.t.Helper()
	deadline := time.Now().Add(hangAfter)
	timer := time.AfterFunc(hangAfter, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for _, p := range c.diags[uri] {
			if p.Version != nil && *p.Version == version {
				return p.Diagnostics
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("no diagnostics for %s version %d", uri, version)
		}
		c.cond.Wait()
	}
}

func (c *client) open(uri, text string) {
	c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "yaml", Version: 1, Text: text}})
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func find(diags []Diagnostic, substr string) *Diagnostic {
	for i := range diags {
		if strings.Contains(diags[i].Message, substr) {
			return &diags[i]
		}
	}
	return nil
}

func zero() *int { z := 0; return &z }

// The connection reads as soon as it is made: a document opened before
// Serve recorded the connection still gets its diagnostics (they were
// dropped, and the client waited for ever, when Serve was slow to record
// it: the race detector's CI run).
func TestDiagnosticsOfADocumentOpenedWhileServeStartsArePublished(t *testing.T) {
	s := NewServer()
	s.connected = func() { time.Sleep(300 * time.Millisecond) }
	cl := newClient(t, s, InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
	cl.open("file:///work/a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n")
	cl.waitDiags("file:///work/a.yaml", 1)
}

func TestInitializeAdvertisesIncrementalSyncCompletionHoverAndQuickFixes(t *testing.T) {
	s := NewServer()
	a, b := net.Pipe()
	go s.Serve(context.Background(), b)
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(a, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (interface{}, error) { return nil, nil }))
	defer conn.Close()
	var res InitializeResult
	if err := conn.Call(context.Background(), "initialize", InitializeParams{}, &res); err != nil {
		t.Fatal(err)
	}
	cp := res.Capabilities
	if cp.TextDocumentSync.Change != SyncIncremental || !cp.TextDocumentSync.OpenClose || !cp.HoverProvider ||
		cp.CompletionProvider == nil || cp.CodeActionProvider == nil || res.ServerInfo.Name != "crdlab" {
		t.Errorf("capabilities: %+v", res)
	}
	if err := conn.Call(context.Background(), "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	err := conn.Call(context.Background(), "textDocument/hover", TextDocumentPositionParams{}, nil)
	if e, ok := err.(*jsonrpc2.Error); !ok || e.Code != jsonrpc2.CodeInvalidRequest {
		t.Errorf("a request after shutdown: %v, want InvalidRequest", err)
	}
}

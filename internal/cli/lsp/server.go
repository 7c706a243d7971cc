package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/sourcegraph/jsonrpc2"
)

// Server is one language server session.
type Server struct {
	mu       sync.Mutex
	docs     map[string]*document
	opts     Options
	folders  []string // workspace folder paths
	crdPaths []string // given at start (crdlab lsp --crd)
	kube     string   // given at start (crdlab lsp --kube-version); "" the default
	version  string   // serverInfo.version
	index    *crdIndex
	conn     *jsonrpc2.Conn
	shutdown bool
	closed   bool
	wg       sync.WaitGroup

	markers       map[string]*markersRun // by package directory (markers.go)
	markersWarned bool                   // the markers command could not run: said once

	connected func() // tests: runs once the connection reads, before s.conn is set
}

// document is an open text document.
type document struct {
	uri     string
	version int
	text    string
	gen     int // bumped on every change
	timer   *time.Timer
	cancel  context.CancelFunc // the running check, if any
	last    *analysis          // the latest finished check
	good    []goodCRD          // the CRDs of the latest check that decoded some
	parsed  *parsedFile        // parsed current text, for requests
}

// NewServer returns a server. crdPaths are files or directories of CRDs
// that custom resources are validated against besides the workspace's
// (the initializationOptions' crdPaths are added to them).
func NewServer(crdPaths ...string) *Server {
	s := &Server{docs: map[string]*document{}, index: newCRDIndex(), crdPaths: crdPaths, version: "dev"}
	s.index.configure(nil, crdPaths)
	return s
}

// WithKubeVersion sets the Kubernetes release whose API server gives the
// diagnostics ("1.36"), unless the client's initializationOptions name
// one (kubeVersion), and returns s; an unsupported release is an error
// naming the supported ones.
func (s *Server) WithKubeVersion(v string) (*Server, error) {
	if v != "" {
		var err error
		if v, err = kubeVersionOf(v); err != nil {
			return nil, err
		}
	}
	s.kube = v
	s.index.setKubeVersion(v)
	return s, nil
}

// kubeVersionOf checks a client's kubeVersion option: one supported
// release, in engine.ParseKubeVersions's spelling.
func kubeVersionOf(v string) (string, error) {
	rs, err := engine.ParseKubeVersions(v)
	if err != nil {
		return "", err
	}
	if len(rs) != 1 {
		return "", fmt.Errorf("give one release, not %q", v)
	}
	return rs[0], nil
}

// WithVersion sets the version the initialize response reports (before
// Serve) and returns s.
func (s *Server) WithVersion(v string) *Server {
	s.version = v
	return s
}

// Serve runs the server on rwc until the client exits or the connection
// ends.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// s.mu is held until s.conn is set: the connection reads from the
	// start, and a check that ran before s.conn was set would drop its
	// diagnostics (handle takes s.mu first, so it waits)
	s.mu.Lock()
	conn := jsonrpc2.NewConn(ctx, newStream(rwc), rpcHandler{s}, jsonrpc2.SetLogger(discardLogger{}))
	if s.connected != nil {
		s.connected()
	}
	s.conn = conn
	s.mu.Unlock()
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
	s.stopAll()
	s.wg.Wait()
	return nil
}

// rpcHandler answers on the connection's read loop, in order, except
// the requests that may take long (hover and code actions compute the
// CRD's cost report): they are parsed in order and answered from a
// goroutine.
type rpcHandler struct{ s *Server }

func (h rpcHandler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	result, err := h.s.handle(ctx, conn, req)
	if req.Notif {
		return
	}
	if later, ok := result.(deferred); ok && err == nil {
		h.s.mu.Lock()
		if h.s.closed {
			h.s.mu.Unlock()
			return
		}
		h.s.wg.Add(1)
		h.s.mu.Unlock()
		go func() {
			defer h.s.wg.Done()
			result, err := later.run()
			reply(ctx, conn, req, result, err)
		}()
		return
	}
	reply(ctx, conn, req, result, err)
}

// deferred is a result computed off the loop.
type deferred func() (interface{}, error)

func (d deferred) run() (result interface{}, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, rpcError(jsonrpc2.CodeInternalError, "internal error: %v\n%s", r, debug.Stack())
		}
	}()
	return d()
}

func reply(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request, result interface{}, err error) {
	if err != nil {
		e, ok := err.(*jsonrpc2.Error)
		if !ok {
			e = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
		}
		_ = conn.ReplyWithError(ctx, req.ID, e)
		return
	}
	_ = conn.Reply(ctx, req.ID, result)
}

type discardLogger struct{}

func (discardLogger) Printf(string, ...interface{}) {}

func (s *Server) stopAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.stopMarkersLocked()
	for _, d := range s.docs {
		s.stopTimerLocked(d)
		if d.cancel != nil {
			d.cancel()
		}
	}
}

func rpcError(code int64, format string, args ...interface{}) *jsonrpc2.Error {
	return &jsonrpc2.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

func decodeParams(req *jsonrpc2.Request, v interface{}) error {
	if req.Params == nil {
		return rpcError(jsonrpc2.CodeInvalidParams, "%s: missing params", req.Method)
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return rpcError(jsonrpc2.CodeInvalidParams, "%s: invalid params: %v", req.Method, err)
	}
	return nil
}

// handle serves one message, on the connection's read loop: requests are
// answered from the document's current text (parsing, no compilation of
// the whole CRD unless a hover or code action needs its costs), changes
// only record the text and schedule a check (debounced, off the loop).
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result interface{}, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, rpcError(jsonrpc2.CodeInternalError, "internal error in %s: %v\n%s", req.Method, r, debug.Stack())
		}
	}()
	s.mu.Lock()
	down := s.shutdown
	s.mu.Unlock()
	if down && req.Method != "exit" {
		return nil, rpcError(jsonrpc2.CodeInvalidRequest, "%s after shutdown", req.Method)
	}
	switch req.Method {
	case "initialize":
		var p InitializeParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		return s.initialize(p)
	case "initialized", "$/setTrace", "$/cancelRequest":
		return nil, nil
	case "workspace/didChangeWatchedFiles":
		s.index.invalidate()
		return nil, nil
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return nil, nil
	case "exit":
		go conn.Close()
		return nil, nil
	case "workspace/didChangeConfiguration":
		var p DidChangeConfigurationParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		var wrapped struct {
			CRDLab *Options `json:"crdlab"`
		}
		if json.Unmarshal(p.Settings, &wrapped) == nil && wrapped.CRDLab != nil {
			o := *wrapped.CRDLab
			if o.KubeVersion != "" {
				v, err := kubeVersionOf(o.KubeVersion)
				if err != nil {
					return nil, nil // a notification: the settings stay as they were
				}
				o.KubeVersion = v
			}
			s.setOptions(o)
		}
		return nil, nil
	case "textDocument/didOpen":
		var p DidOpenTextDocumentParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		s.open(p.TextDocument)
		return nil, nil
	case "textDocument/didChange":
		var p DidChangeTextDocumentParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		return nil, s.change(p)
	case "textDocument/didClose":
		var p DidCloseTextDocumentParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		s.closeDoc(p.TextDocument.URI)
		return nil, nil
	case "textDocument/didSave":
		// a CRD saved: the workspace's CRDs are read again on next use
		var p DidSaveTextDocumentParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		s.mu.Lock()
		if isGoURI(p.TextDocument.URI) {
			s.scheduleMarkersLocked(p.TextDocument.URI)
		}
		d := s.docs[p.TextDocument.URI]
		crd := d != nil && d.last != nil && hasCRD(d.last)
		s.mu.Unlock()
		if crd {
			s.index.invalidate()
		}
		return nil, nil
	case "textDocument/completion":
		var p TextDocumentPositionParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		pf := s.parsedFile(p.TextDocument.URI)
		if pf == nil {
			return nil, rpcError(jsonrpc2.CodeInvalidParams, "%s is not open", p.TextDocument.URI)
		}
		return s.complete(pf, p.Position), nil
	case "textDocument/hover":
		var p TextDocumentPositionParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		pf := s.parsedFile(p.TextDocument.URI)
		if pf == nil {
			return nil, rpcError(jsonrpc2.CodeInvalidParams, "%s is not open", p.TextDocument.URI)
		}
		return deferred(func() (interface{}, error) { return s.hover(pf, p.Position), nil }), nil
	case "textDocument/codeAction":
		var p CodeActionParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		pf := s.parsedFile(p.TextDocument.URI)
		if pf == nil {
			return nil, rpcError(jsonrpc2.CodeInvalidParams, "%s is not open", p.TextDocument.URI)
		}
		return deferred(func() (interface{}, error) { return codeActions(pf, p.Range), nil }), nil
	}
	if req.Notif {
		return nil, nil // unknown notifications are ignored ($/ ones must be)
	}
	return nil, rpcError(jsonrpc2.CodeMethodNotFound, "method not found: %s", req.Method)
}

func (s *Server) initialize(p InitializeParams) (*InitializeResult, error) {
	var opts Options
	if len(p.InitializationOptions) > 0 && string(p.InitializationOptions) != "null" {
		if err := json.Unmarshal(p.InitializationOptions, &opts); err != nil {
			return nil, rpcError(jsonrpc2.CodeInvalidParams, "initializationOptions: %v", err)
		}
		if opts.KubeVersion != "" {
			v, err := kubeVersionOf(opts.KubeVersion)
			if err != nil {
				return nil, rpcError(jsonrpc2.CodeInvalidParams, "initializationOptions: kubeVersion: %v", err)
			}
			opts.KubeVersion = v
		}
	}
	var folders []string
	for _, f := range p.WorkspaceFolders {
		if path, ok := uriPath(f.URI); ok {
			folders = append(folders, path)
		}
	}
	if len(folders) == 0 {
		if path, ok := uriPath(p.RootURI); ok && p.RootURI != "" {
			folders = append(folders, path)
		} else if p.RootPath != "" {
			folders = append(folders, p.RootPath)
		}
	}
	s.mu.Lock()
	s.folders = folders
	s.mu.Unlock()
	s.setOptions(opts)
	return &InitializeResult{
		Capabilities: ServerCapabilities{
			PositionEncoding:   "utf-16",
			TextDocumentSync:   TextDocumentSyncOptions{OpenClose: true, Change: SyncIncremental, Save: true},
			CompletionProvider: &CompletionOptions{TriggerCharacters: []string{".", " ", ":"}},
			HoverProvider:      true,
			CodeActionProvider: &CodeActionOptions{CodeActionKinds: []string{CodeActionKindQuickFix}},
		},
		ServerInfo: ServerInfo{Name: "crdlab", Version: s.version},
	}, nil
}

func (s *Server) setOptions(o Options) {
	s.mu.Lock()
	defer s.mu.Unlock()
	before, markers := s.kubeVersionLocked(), s.opts.MarkersCommand
	s.opts = o
	if o.MarkersCommand != markers {
		for _, d := range s.docs {
			if isGoURI(d.uri) {
				s.scheduleMarkersLocked(d.uri)
			}
		}
	}
	if kv := s.kubeVersionLocked(); kv != before {
		// another release: every open document is checked again
		s.index.setKubeVersion(kv)
		for _, d := range s.docs {
			s.scheduleLocked(d, 0)
		}
	}
	scan := o.ScanWorkspace == nil || *o.ScanWorkspace
	var roots []string
	if scan {
		roots = append(roots, s.folders...)
	}
	// the client's relative paths are relative to the (first) workspace
	// folder; --crd paths to the server's working directory
	paths := append([]string(nil), s.crdPaths...)
	for _, p := range o.CRDPaths {
		if !filepath.IsAbs(p) && len(s.folders) > 0 {
			p = filepath.Join(s.folders[0], p)
		}
		paths = append(paths, p)
	}
	s.index.configure(roots, paths)
}

// kubeVersionLocked is the release of the checks: the client's option,
// else --kube-version, else "" (the engine's default).
func (s *Server) kubeVersionLocked() string {
	if s.opts.KubeVersion != "" {
		return s.opts.KubeVersion
	}
	return s.kube
}

func (s *Server) debounce() time.Duration {
	if s.opts.DebounceMs != nil && *s.opts.DebounceMs >= 0 {
		return time.Duration(*s.opts.DebounceMs) * time.Millisecond
	}
	return 100 * time.Millisecond
}

func (s *Server) open(item TextDocumentItem) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &document{uri: item.URI, version: item.Version, text: item.Text}
	if old := s.docs[item.URI]; old != nil {
		s.stopTimerLocked(old)
		if old.cancel != nil {
			old.cancel()
		}
	}
	s.docs[item.URI] = d
	s.scheduleLocked(d, 0)
}

func (s *Server) change(p DidChangeTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return rpcError(jsonrpc2.CodeInvalidParams, "didChange: %s is not open", p.TextDocument.URI)
	}
	text := d.text
	for _, ch := range p.ContentChanges {
		var err error
		if text, err = applyChange(text, ch); err != nil {
			return rpcError(jsonrpc2.CodeInvalidParams, "didChange: %v", err)
		}
	}
	d.text, d.version = text, p.TextDocument.Version
	d.parsed = nil
	if !isGoURI(d.uri) { // a Go file is checked on save (the markers command reads the files)
		s.scheduleLocked(d, s.debounce())
	}
	return nil
}

func (s *Server) closeDoc(uri string) {
	s.mu.Lock()
	d := s.docs[uri]
	delete(s.docs, uri)
	if d != nil {
		s.stopTimerLocked(d)
		if d.cancel != nil {
			d.cancel()
		}
	}
	s.mu.Unlock()
	if d != nil {
		s.notify(PublishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{}})
	}
}

// stopTimerLocked (s.mu held) stops d's pending check, if any.
func (s *Server) stopTimerLocked(d *document) {
	if d.timer != nil && d.timer.Stop() {
		s.wg.Done() // the check will not run
	}
	d.timer = nil
}

// scheduleLocked (s.mu held) starts d's check after delay, cancelling
// the one pending or running.
func (s *Server) scheduleLocked(d *document, delay time.Duration) {
	if s.closed {
		return
	}
	if isGoURI(d.uri) {
		s.scheduleMarkersLocked(d.uri)
		return
	}
	d.gen++
	gen := d.gen
	s.stopTimerLocked(d)
	if d.cancel != nil {
		d.cancel()
		d.cancel = nil
	}
	s.wg.Add(1)
	d.timer = time.AfterFunc(delay, func() {
		defer s.wg.Done()
		s.check(d, gen)
	})
}

// check computes and publishes the diagnostics of d at generation gen
// (off the connection's loop), unless a newer change came.
func (s *Server) check(d *document, gen int) {
	s.mu.Lock()
	if d.gen != gen || s.closed {
		s.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	uri, version, text := d.uri, d.version, d.text
	kube := s.kubeVersionLocked()
	s.mu.Unlock()
	defer cancel()

	a := s.analyze(ctx, uri, version, text, kube)

	s.mu.Lock()
	if d.gen != gen || ctx.Err() != nil || s.docs[uri] != d {
		s.mu.Unlock()
		return
	}
	d.last = a
	d.cancel = nil
	if good := goodCRDs(a); len(good) > 0 {
		d.good = good
	}
	// a CRD changed: re-check the custom resources open beside it
	var others []*document
	if hasCRD(a) {
		for _, o := range s.docs {
			if o != d && o.last != nil && !hasCRD(o.last) {
				others = append(others, o)
			}
		}
	}
	for _, o := range others {
		s.scheduleLocked(o, s.debounce())
	}
	s.mu.Unlock()
	v := version
	diags := a.diags
	if diags == nil {
		diags = []Diagnostic{}
	}
	s.notify(PublishDiagnosticsParams{URI: uri, Version: &v, Diagnostics: diags})
}

// goodCRD is a CRD of a document's latest check that decoded: what
// completion falls back on while the document does not parse.
type goodCRD struct {
	line int // the first line of its document
	def  *crd.CustomResourceDefinition
}

func goodCRDs(a *analysis) []goodCRD {
	var out []goodCRD
	for _, d := range a.docs {
		if d.crd != nil {
			out = append(out, goodCRD{d.line, d.crd.Definition()})
		}
	}
	return out
}

func hasCRD(a *analysis) bool {
	for _, d := range a.docs {
		if d.isCRD() {
			return true
		}
	}
	return false
}

func (s *Server) analyze(ctx context.Context, uri string, version int, text, kubeVersion string) *analysis {
	return analyze(ctx, uri, version, text, kubeVersion, func(group, kind string) *engine.CRD {
		return s.lookupCRD(ctx, group, kind, true)
	}, func(group string) []*engine.CRD {
		return s.groupCRDs(ctx, group)
	})
}

// groupCRDs returns the CRDs of a group ("" every group): those of the
// open documents (their latest check), then the workspace's and the
// configured paths'.
func (s *Server) groupCRDs(ctx context.Context, group string) []*engine.CRD {
	var out []*engine.CRD
	s.mu.Lock()
	for _, d := range s.docs {
		if d.last == nil {
			continue
		}
		for _, doc := range d.last.docs {
			if doc.crd != nil && (group == "" || keyOf(doc.crd).group == group) {
				out = append(out, doc.crd)
			}
		}
	}
	s.mu.Unlock()
	return append(out, s.index.group(ctx, group)...)
}

// lookupCRD finds the CRD of a group and kind: in the open documents
// first (their latest check), then in the workspace and the configured
// paths.
func (s *Server) lookupCRD(ctx context.Context, group, kind string, build bool) *engine.CRD {
	k := crdKey{group, kind}
	s.mu.Lock()
	for _, d := range s.docs {
		if d.last == nil {
			continue
		}
		for _, doc := range d.last.docs {
			if doc.crd != nil && keyOf(doc.crd) == k {
				s.mu.Unlock()
				return doc.crd
			}
		}
	}
	s.mu.Unlock()
	return s.index.lookup(ctx, k, build)
}

func (s *Server) notify(p PublishDiagnosticsParams) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn != nil {
		_ = conn.Notify(context.Background(), "textDocument/publishDiagnostics", p)
	}
}

// parsedFile returns the parsed current text of an open document
// (cached per version).
func (s *Server) parsedFile(uri string) *parsedFile {
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil {
		s.mu.Unlock()
		return nil
	}
	if d.parsed != nil {
		pf := d.parsed
		s.mu.Unlock()
		return pf
	}
	text, version, good := d.text, d.version, d.good
	s.mu.Unlock()
	pf := newParsedFile(uri, version, text, func(group, kind string) *engine.CRD {
		return s.lookupCRD(context.Background(), group, kind, false)
	})
	pf.good = good
	s.mu.Lock()
	if d.version == version && d.text == text {
		d.parsed = pf
	}
	s.mu.Unlock()
	return pf
}

package lsp

import "encoding/json"

// The Language Server Protocol 3.17 types the server reads and writes
// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/),
// only the fields it uses. Unknown fields a client sends are ignored by
// encoding/json.

// Position is a zero-based line and a character offset in UTF-16 code
// units (the protocol's default position encoding).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is [Start, End).
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// Diagnostic severities.
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
	SeverityHint        = 4
)

// Diagnostic is one problem in a document.
type Diagnostic struct {
	Range    Range  `json:"range"`
	Severity int    `json:"severity"`
	Code     string `json:"code,omitempty"`
	Source   string `json:"source"`
	Message  string `json:"message"`
	// Data is round-tripped by clients into codeAction requests.
	Data json.RawMessage `json:"data,omitempty"`
}

// PublishDiagnosticsParams is textDocument/publishDiagnostics.
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// WorkspaceFolder is one root of the workspace.
type WorkspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// InitializeParams is the initialize request's params.
type InitializeParams struct {
	ProcessID             *int              `json:"processId"`
	RootURI               string            `json:"rootUri"`
	RootPath              string            `json:"rootPath"`
	WorkspaceFolders      []WorkspaceFolder `json:"workspaceFolders"`
	InitializationOptions json.RawMessage   `json:"initializationOptions,omitempty"`
}

// Options are the server's initializationOptions (and the settings of
// workspace/didChangeConfiguration under "crdlab").
type Options struct {
	// CRDPaths are files or directories of CRDs that custom resources are
	// validated against besides the workspace's own.
	CRDPaths []string `json:"crdPaths,omitempty"`
	// DebounceMs is the delay between the last change and the check
	// (default 100).
	DebounceMs *int `json:"debounceMs,omitempty"`
	// ScanWorkspace (default true) finds the CRDs of the workspace
	// folders for custom resources.
	ScanWorkspace *bool `json:"scanWorkspace,omitempty"`
	// KubeVersion is the Kubernetes release whose API server gives the
	// diagnostics ("1.36"; default: the server's --kube-version, else
	// engine.DefaultKubeVersion).
	KubeVersion string `json:"kubeVersion,omitempty"`
	// MarkersCommand (e.g. "crdlab-markers"; off when empty) is run on
	// the package directory of a Go file when it is opened or saved, and
	// its diagnostics (kubebuilder markers) are published on the
	// package's Go files; see markers.go.
	MarkersCommand string `json:"markersCommand,omitempty"`
}

// Text document sync kinds.
const (
	SyncNone        = 0
	SyncFull        = 1
	SyncIncremental = 2
)

// TextDocumentSyncOptions are the server's sync capabilities.
type TextDocumentSyncOptions struct {
	OpenClose bool `json:"openClose"`
	Change    int  `json:"change"`
	Save      bool `json:"save"`
}

// CompletionOptions are the server's completion capabilities.
type CompletionOptions struct {
	TriggerCharacters []string `json:"triggerCharacters,omitempty"`
}

// CodeActionOptions are the server's code action capabilities.
type CodeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds,omitempty"`
}

// ServerCapabilities is what the server does.
type ServerCapabilities struct {
	PositionEncoding   string                  `json:"positionEncoding,omitempty"`
	TextDocumentSync   TextDocumentSyncOptions `json:"textDocumentSync"`
	CompletionProvider *CompletionOptions      `json:"completionProvider,omitempty"`
	HoverProvider      bool                    `json:"hoverProvider"`
	CodeActionProvider *CodeActionOptions      `json:"codeActionProvider,omitempty"`
}

// ServerInfo names the server.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// InitializeResult is the initialize response.
type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   ServerInfo         `json:"serverInfo"`
}

// TextDocumentItem is an opened document.
type TextDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

// VersionedTextDocumentIdentifier names a document at a version.
type VersionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

// DidOpenTextDocumentParams is textDocument/didOpen.
type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// TextDocumentContentChangeEvent is one change: a range and its new text,
// or (Range nil) the whole document.
type TextDocumentContentChangeEvent struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// DidChangeTextDocumentParams is textDocument/didChange.
type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

// DidCloseTextDocumentParams is textDocument/didClose.
type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// DidSaveTextDocumentParams is textDocument/didSave.
type DidSaveTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// DidChangeConfigurationParams is workspace/didChangeConfiguration.
type DidChangeConfigurationParams struct {
	Settings json.RawMessage `json:"settings"`
}

// TextDocumentPositionParams is a position in a document.
type TextDocumentPositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// Completion item kinds used.
const (
	CompletionKindMethod   = 2
	CompletionKindFunction = 3
	CompletionKindField    = 5
	CompletionKindVariable = 6
	CompletionKindProperty = 10
	CompletionKindValue    = 12
	CompletionKindKeyword  = 14
	CompletionKindEnum     = 20
)

// MarkupContent is documentation text.
type MarkupContent struct {
	Kind  string `json:"kind"` // "plaintext" or "markdown"
	Value string `json:"value"`
}

// TextEdit replaces a range.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// CompletionItem is one proposal.
type CompletionItem struct {
	Label         string         `json:"label"`
	Kind          int            `json:"kind,omitempty"`
	Detail        string         `json:"detail,omitempty"`
	Documentation *MarkupContent `json:"documentation,omitempty"`
	InsertText    string         `json:"insertText,omitempty"`
	FilterText    string         `json:"filterText,omitempty"`
	TextEdit      *TextEdit      `json:"textEdit,omitempty"`
}

// CompletionList is the completion response.
type CompletionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

// Hover is the hover response.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// CodeActionContext carries the diagnostics at the range.
type CodeActionContext struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Only        []string     `json:"only,omitempty"`
}

// CodeActionParams is textDocument/codeAction.
type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      CodeActionContext      `json:"context"`
}

// WorkspaceEdit changes documents, by URI.
type WorkspaceEdit struct {
	Changes map[string][]TextEdit `json:"changes"`
}

// CodeAction is one action; the server's are quick fixes with an edit.
type CodeAction struct {
	Title       string        `json:"title"`
	Kind        string        `json:"kind"`
	Diagnostics []Diagnostic  `json:"diagnostics,omitempty"`
	IsPreferred bool          `json:"isPreferred,omitempty"`
	Edit        WorkspaceEdit `json:"edit"`
}

// CodeActionKindQuickFix is the kind of the server's actions.
const CodeActionKindQuickFix = "quickfix"
